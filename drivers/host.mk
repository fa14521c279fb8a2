# Hardware-independent parts of drivers/ (the block layer core) and the
# zlib-compatible crc32 they and the benchmarks use, built on the host too.
HOST_SRCS += kernel/crc32.c
HOST_TESTS += blk
blk_SRCS := tests/common/test_blk_crc32.c
