# The parts of bench/ that need no hardware, built on the host too.
#   build/host/test_diskprobe   the disk probe's measurements run against the disk model
HOST_SRCS += bench/probe.c
HOST_TESTS += diskprobe
diskprobe_SRCS := tests/host/test_diskprobe.c
