# Hardware-independent parts of kernel/ that also build on the host.
HOST_SRCS += kernel/ktest.c kernel/kv.c kernel/result.c
HOST_TESTS += kernel
kernel_SRCS := tests/common/test_kv.c tests/common/test_result.c
