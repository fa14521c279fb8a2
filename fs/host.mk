# The ext2 reader builds on the host: everything in fs/ but the boot-time
# mount and the shell commands (fs/mount.c, fs/ext2-cmd.c).
#   build/host/test_ext2   validation rules, then whole images from tools/mkimage
#   build/host/fuzz_ext2   libFuzzer harness (clang): make fuzz-ext2 FUZZ_SECONDS=N
FS_HOST_SRCS := fs/ext2-validate.c fs/ext2-super.c fs/ext2-inode.c fs/ext2-dir.c \
	fs/ext2-namei.c fs/ext2-readpages.c fs/mpage.c fs/vfs.c
HOST_SRCS += $(FS_HOST_SRCS)
HOST_TESTS += ext2
# the readahead algorithms too: files it opens need one (the registry, mm/ra-registry.c, finds
# them through a linker section, which pulls nothing out of libhost.a)
ext2_SRCS := $(wildcard tests/common/test_ext2*.c tests/host/test_ext2*.c) tests/host/fuzz_ext2.c \
	$(wildcard mm/readahead-*.c) $(ELV_SRCS)


# Test images (tools/mkimage is quick when they are up to date).
ext2-images:
	@tools/mkimage
host-tests: ext2-images
.PHONY: ext2-images

# The fuzzer: clang builds the whole host code base once more with libFuzzer.
# Its seeds: the tiny images of tools/mkimage (build/img/fuzz/), a dictionary of
# the on-disk format's magic numbers and feature bits.
FUZZERS += ext2
FUZZ_ext2_MAX_LEN := 262144
FUZZ_ext2_ARGS := -dict=tests/fuzz/ext2.dict $(BUILD)/img/fuzz
FUZZ_ext2_DEPS := ext2-images
FUZZ_SRCS = tests/host/fuzz_ext2.c tests/host/test_ext2_disk.c tests/host/runtime.c \
	$(sort $(HOST_SRCS))
# runtime.c's main() gives way to libFuzzer's; warnings are gcc's business
FUZZ_CFLAGS := -std=gnu11 -g -O1 -DHOST_BUILD -DEXT2_LIBFUZZER -I. -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Dmain=host_runtime_main -w
$(BUILD)/host/fuzz_ext2: $(wildcard fs/*.[ch] mm/*.[ch] drivers/*.[ch] kernel/*.[ch] tests/host/*.[ch])
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRCS) -lm
