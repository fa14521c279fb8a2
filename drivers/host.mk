# Hardware-independent parts of drivers/ (the block layer core and the raw
# device's page cache operations) and the zlib-compatible crc32 they and
# the benchmarks use, built on the host too.
#   build/host/test_blk    block layer against fake drivers, crc32, the LBA pattern
HOST_SRCS += kernel/crc32.c drivers/blk-core.c drivers/blk-pagemap.c drivers/blk-pattern.c
HOST_TESTS += blk
blk_SRCS := $(wildcard tests/common/test_blk_*.c tests/host/test_blk_*.c)
#   build/host/test_diskmodel   the disk timing model's calibration against the specification
HOST_SRCS += drivers/diskmodel.c drivers/diskmodel-geom.c drivers/diskmodel-params.c
HOST_TESTS += diskmodel
diskmodel_SRCS := tests/common/test_diskmodel.c tests/host/test_diskmodel_params.c \
	tests/host/fuzz_diskmodel.c
#   build/host/fuzz_diskmodel   libFuzzer on parameter files (clang): make fuzz runs it too
# (= : mm/host.mk, read after this fragment, defines MM_CORE_SRCS)
DM_FUZZ_SRCS = tests/host/fuzz_diskmodel.c tests/host/runtime.c kernel/ktest.c \
	drivers/diskmodel.c drivers/diskmodel-geom.c drivers/diskmodel-params.c $(MM_CORE_SRCS)
DM_FUZZ_CFLAGS := -std=gnu11 -g -O1 -DHOST_BUILD -DDM_LIBFUZZER -I. -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Dmain=host_runtime_main -w
$(BUILD)/host/fuzz_diskmodel: $(wildcard drivers/diskmodel*.[ch] mm/*.[ch] kernel/*.[ch] \
		tests/host/fuzz_diskmodel.c tests/host/runtime.c)
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(DM_FUZZ_CFLAGS) -o $@ $(DM_FUZZ_SRCS) -lm
fuzz-diskmodel: $(BUILD)/host/fuzz_diskmodel
	@mkdir -p $(BUILD)/fuzz-diskmodel/corpus $(BUILD)/fuzz-diskmodel/crashes
	$(BUILD)/host/fuzz_diskmodel -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz-diskmodel/crashes/ $(BUILD)/fuzz-diskmodel/corpus \
		tests/host/diskmodel-corpus
fuzz: fuzz-diskmodel
.PHONY: fuzz-diskmodel
#   build/host/dm_response      the model's response times for 4 KiB random reads, one line
#                               each (tools/diskmodel-figure plots them)
$(BUILD)/host/dm_response: $(BUILD)/host/tests/host/dm_response.o \
		$(BUILD)/host/tests/host/runtime.o $(BUILD)/host/libhost.a
	@echo "  HOSTLD  $@"
	@$(HOSTCC) $(HOST_SAN) -o $@ $^ -lm
host-tests: $(BUILD)/host/dm_response
#   build/host/test_ahci        which port status starts error recovery and which is only counted
HOST_SRCS += drivers/ahci-events.c
HOST_TESTS += ahci
ahci_SRCS := tests/host/test_ahci_events.c
