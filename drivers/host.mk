# Hardware-independent parts of drivers/ (the block layer core and the raw
# device's page cache operations) and the zlib-compatible crc32 they and
# the benchmarks use, built on the host too.
#   build/host/test_blk    block layer against a fake driver, crc32
HOST_SRCS += kernel/crc32.c drivers/blk-core.c drivers/blk-pagemap.c
HOST_TESTS += blk
blk_SRCS := tests/common/test_blk_crc32.c $(wildcard tests/host/test_blk_*.c)
