# The mm core builds on the host too: frame allocator over a mapped arena
# (mm_host_init), heap, page cache, page lock and reclaim.
#   build/host/test_mm       the tests/common mm suites on a 64 MiB arena
#   build/host/test_mm_host  host-only suites that rebuild mm on small arenas
#   build/host/bench_mm      microbenchmark, -O2 without sanitizers
MM_CORE_SRCS := mm/page_alloc.c mm/mm_init.c mm/cache-pool.c mm/slab.c mm/filemap-cache.c \
	mm/page-lock.c mm/vmscan.c mm/workingset.c mm/mmbench.c
HOST_SRCS += $(MM_CORE_SRCS)
HOST_TESTS += mm mm_host
mm_SRCS := $(wildcard tests/common/test_mm_*.c)
mm_host_SRCS := $(wildcard tests/host/test_mm_*.c)

BENCH_MM_SRCS := tests/host/bench_mm.c tests/host/runtime.c kernel/ktest.c kernel/result.c \
	$(MM_CORE_SRCS)
$(BUILD)/host/bench_mm: $(BENCH_MM_SRCS) $(wildcard mm/*.h kernel/*.h)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(HOSTCC) $(HOST_CFLAGS) -O2 -o $@ $(BENCH_MM_SRCS) -lm
host-tests: $(BUILD)/host/bench_mm

# readahead (ra): owned by the readahead engineer; keep these lines in this block.
# The readahead core (mm/readahead.c, ra-registry.c, ra-helpers.c), every algorithm
# (mm/readahead-*.c), tracing and the read/fault/splice paths.
#   build/host/test_readahead     the tests/common ra suites on a fake mm (no reclaim,
#                                 counted lookups) plus host-only suites
#   build/host/test_readahead_mm  the same common suites on the real mm
# The algorithms register through a linker section that nothing references
# by name, so the programs link their objects directly: from libhost.a only
# the ones some test names would be pulled in.
RA_ALGO_SRCS := $(wildcard mm/readahead-*.c)
HOST_SRCS += mm/readahead.c mm/ra-registry.c mm/ra-helpers.c mm/ratrace.c mm/ratrace-linux.c \
	mm/ra-thrashed.c mm/ra-stats.c mm/ra-result.c mm/filemap.c \
	mm/filemap-actor.c $(RA_ALGO_SRCS)
HOST_TESTS += readahead readahead_mm
RA_COMMON_TESTS := $(wildcard tests/common/test_ra_*.c)
readahead_SRCS := $(RA_COMMON_TESTS) tests/host/test_readahead_fake.c \
	tests/host/test_readahead_host.c $(RA_ALGO_SRCS)
readahead_mm_SRCS := $(RA_COMMON_TESTS) $(RA_ALGO_SRCS) tests/host/fuzz_ra.c tests/host/test_ra_lead.c \
	tests/host/test_ra_folio.c
# an algorithm that is one file and nothing else (tests/fixtures/readahead-ondemand4x.c)
HOST_TESTS += ra_newalgo
ra_newalgo_SRCS := tests/host/test_ra_newalgo.c tests/common/test_ra_harness.c $(RA_ALGO_SRCS) \
	tests/fixtures/readahead-ondemand4x.c

# The readahead fuzzer (tests/host/fuzz_ra.c): every algorithm through the real
# page cache; make fuzz-ra FUZZ_SECONDS=N, make test briefly (fuzz_ra.t). Its
# input is a program of operations: no seeds, no dictionary. Six bytes of set-up and
# three per operation, at most 200 (MAX_OPS): bytes past 606 are never read, and
# mutating them would only repeat an input.
FUZZERS += ra
FUZZ_ra_MAX_LEN := 606
# The harness (tests/common/test_ra_harness.c) builds without libFuzzer's coverage,
# sanitizers kept: its loops fill and check every word read, which says nothing of
# the code under test, and their traced comparisons took 60% of the fuzzer's time.
# At -O2, where those two loops vectorize (UBSan left out of just them, ASan kept):
# at -O1 they still took 30%.
comma := ,
$(BUILD)/host/fuzz/test_ra_harness.o: tests/common/test_ra_harness.c \
		$(wildcard tests/common/test_ra_harness.h mm/*.h drivers/*.h kernel/*.h fs/*.h)
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(subst -fsanitize=fuzzer$(comma),-fsanitize=,$(FUZZ_CFLAGS)) -O2 -c -o $@ $<
$(BUILD)/host/fuzz_ra: $(wildcard mm/*.[ch] drivers/*.[ch] kernel/*.[ch] fs/*.[ch] \
		tests/host/fuzz_ra.c) $(BUILD)/host/fuzz/test_ra_harness.o
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(FUZZ_CFLAGS) -o $@ tests/host/fuzz_ra.c $(BUILD)/host/fuzz/test_ra_harness.o \
		tests/host/runtime.c $(sort $(HOST_SRCS)) -lm
# end readahead (ra)
