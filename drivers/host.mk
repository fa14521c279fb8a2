# Hardware-independent parts of drivers/ (the block layer core, the raw
# device's page cache operations and the raw I/O engine) and the
# zlib-compatible crc32 they and the benchmarks use, built on the host too.
#   build/host/test_blk    block layer against fake drivers, the raw I/O engine, crc32, the
#                          LBA pattern
# The elevators register through a linker section nothing references by name, so
# the programs that make disks link their objects directly (as mm/host.mk the
# readahead algorithms).
ELV_SRCS := $(wildcard drivers/*-iosched.c)
HOST_SRCS += kernel/crc32.c drivers/blk-bio.c drivers/blk-core.c drivers/blk-genhd.c \
	drivers/elevator.c drivers/blk-pagemap.c drivers/blk-pattern.c drivers/blk-io.c $(ELV_SRCS)
HOST_TESTS += blk
blk_SRCS := $(wildcard tests/common/test_blk_*.c tests/host/test_blk_*.c) $(ELV_SRCS)
#   build/host/test_diskmodel   the disk timing model's calibration against the specification
HOST_SRCS += drivers/diskmodel.c drivers/diskmodel-geom.c drivers/diskmodel-params.c \
	drivers/diskmodel-drives.c drivers/diskmodel-report.c
HOST_TESTS += diskmodel
diskmodel_SRCS := tests/common/test_diskmodel.c tests/host/test_diskmodel_params.c \
	tests/host/fuzz_diskmodel.c
#   build/host/fuzz_diskmodel   libFuzzer on parameter files (clang): make fuzz-diskmodel
#                               FUZZ_SECONDS=N, its seeds in tests/fuzz/diskmodel/
FUZZERS += diskmodel
FUZZ_diskmodel_MAX_LEN := 8192
FUZZ_diskmodel_ARGS := -dict=$(BUILD)/fuzz/diskmodel.dict
FUZZ_diskmodel_DEPS := $(BUILD)/fuzz/diskmodel.dict
# the dictionary: every key and unit of the parser's own table (dm_keys[])
$(BUILD)/fuzz/diskmodel.dict: drivers/diskmodel-params.c
	@mkdir -p $(dir $@)
	@echo "  DICT    $@"
	@{ echo '# the keys and units of drivers/diskmodel-params.c'"'"'s dm_keys[] (drivers/host.mk)'; \
	   sed -n 's/^\t{"\([a-z0-9_]*\)", "\([^"]*\)",.*/"\1"\n"\2"/p' $< | sort -u; \
	   printf '"%s"\n' name desc ns us min '\x0a' '\x09' '\x0d' '\x23'; } >$@.tmp
	@[ "$$(grep -c . $@.tmp)" -gt 30 ] || { echo "$@: dm_keys[] not found in $<"; exit 1; }
	@mv $@.tmp $@
# (= : mm/host.mk, read after this fragment, defines MM_CORE_SRCS)
DM_FUZZ_SRCS = tests/host/fuzz_diskmodel.c tests/host/runtime.c kernel/ktest.c kernel/kv.c \
	drivers/diskmodel.c drivers/diskmodel-geom.c drivers/diskmodel-params.c \
	drivers/diskmodel-drives.c drivers/diskmodel-report.c $(MM_CORE_SRCS)
DM_FUZZ_CFLAGS := -std=gnu11 -g -O1 -DHOST_BUILD -DDM_LIBFUZZER -I. -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Dmain=host_runtime_main -w
$(BUILD)/host/fuzz_diskmodel: $(wildcard drivers/diskmodel*.[ch] mm/*.[ch] kernel/*.[ch] \
		tests/host/fuzz_diskmodel.c tests/host/runtime.c)
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(DM_FUZZ_CFLAGS) -o $@ $(DM_FUZZ_SRCS) -lm
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
