# The mm core builds on the host too: frame allocator over a mapped arena
# (mm_host_init), heap, page cache, page lock and reclaim.
#   build/host/test_mm       the tests/common mm suites on a 64 MiB arena
#   build/host/test_mm_host  host-only suites that rebuild mm on small arenas
#   build/host/bench_mm      microbenchmark, -O2 without sanitizers
MM_CORE_SRCS := mm/page_alloc.c mm/slab.c mm/filemap-cache.c mm/page-lock.c mm/vmscan.c \
	mm/mmbench.c
HOST_SRCS += $(MM_CORE_SRCS)
HOST_TESTS += mm mm_host
mm_SRCS := $(wildcard tests/common/test_mm_*.c)
mm_host_SRCS := $(wildcard tests/host/test_mm_*.c)

# This fragment is read before the Makefile's first rule: keep 'all' the default goal.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif
BENCH_MM_SRCS := tests/host/bench_mm.c tests/host/runtime.c kernel/ktest.c kernel/result.c \
	$(MM_CORE_SRCS)
$(BUILD)/host/bench_mm: $(BENCH_MM_SRCS) $(wildcard mm/*.h kernel/*.h)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(HOSTCC) $(HOST_CFLAGS) -O2 -o $@ $(BENCH_MM_SRCS) -lm
host-tests: $(BUILD)/host/bench_mm
