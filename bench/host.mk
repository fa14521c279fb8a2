# The fio iolog parser behind `bench replay` (bench/iolog.c) builds on the host.
#   build/host/test_iolog   its suite (tests/host/test_iolog.c)
#   build/host/fuzz_iolog   libFuzzer harness (clang): make fuzz-iolog FUZZ_SECONDS=N,
#                           tests/host/fuzz_iolog.t briefly in `make test`
HOST_SRCS += bench/iolog.c
HOST_TESTS += iolog
iolog_SRCS := tests/host/test_iolog.c

FUZZERS += iolog
FUZZ_iolog_MAX_LEN := 65536
# seeds: the shipped traces; the dictionary: the grammar's words
FUZZ_iolog_ARGS := -dict=tests/fuzz/iolog.dict tests/replay
FUZZ_IOLOG_CFLAGS := -std=gnu11 -g -O1 -DHOST_BUILD -I. -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
$(BUILD)/host/fuzz_iolog: tests/host/fuzz_iolog.c bench/iolog.c bench/iolog.h kernel/types.h
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(FUZZ_IOLOG_CFLAGS) -o $@ tests/host/fuzz_iolog.c bench/iolog.c

# tools/mkbench --iolog sizes a log's files with the kernel's parser
$(BUILD)/host/iologinfo: tools/helpers/iologinfo.c bench/iolog.c bench/iolog.h kernel/types.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(HOSTCC) $(HOST_CFLAGS) -O2 -o $@ tools/helpers/iologinfo.c bench/iolog.c

# The benchmarks' pattern check (bench/pattern-check.h) also builds on the host.
#   build/host/test_bench    the fast check against pattern_check() in bench/pattern.h
HOST_TESTS += bench
bench_SRCS := tests/common/test_bench_pattern.c

# The parts of bench/ that need no hardware, built on the host too.
#   build/host/test_diskprobe   the disk probe's measurements run against the disk model
HOST_SRCS += bench/probe.c
HOST_TESTS += diskprobe
diskprobe_SRCS := tests/host/test_diskprobe.c
