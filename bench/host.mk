# The benchmarks' pattern check (bench/pattern-check.h) also builds on the host.
#   build/host/test_bench    the fast check against pattern_check() in bench/pattern.h
HOST_TESTS += bench
bench_SRCS := tests/common/test_bench_pattern.c
