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
diskmodel_SRCS := tests/common/test_diskmodel.c
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
