# The ext2 reader builds on the host: everything in fs/ but the boot-time
# mount and the shell commands (fs/mount.c, fs/ext2-cmd.c).
#   build/host/test_ext2   validation rules, then whole images from tools/mkimage
#   build/host/fuzz_ext2   libFuzzer harness (clang): make fuzz FUZZ_SECONDS=N
FS_HOST_SRCS := fs/ext2-validate.c fs/ext2-super.c fs/ext2-inode.c fs/ext2-dir.c \
	fs/ext2-namei.c fs/ext2-readpages.c fs/mpage.c fs/vfs.c
HOST_SRCS += $(FS_HOST_SRCS)
HOST_TESTS += ext2
# The read path and readahead (mm/, issue 6) until they are part of HOST_SRCS.
EXT2_RA_SRCS := mm/filemap.c mm/readahead.c mm/readahead-legacy.c mm/ratrace.c
ext2_SRCS = $(wildcard tests/common/test_ext2*.c tests/host/test_ext2*.c) \
	tests/host/fuzz_ext2.c $(filter-out $(HOST_SRCS),$(EXT2_RA_SRCS))
