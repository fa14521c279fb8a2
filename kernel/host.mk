# Hardware-independent parts of kernel/ that also build on the host.
HOST_SRCS += kernel/ktest.c kernel/kv.c kernel/cmdline.c kernel/e820.c kernel/acpi.c kernel/result.c
HOST_TESTS += kernel
kernel_SRCS := tests/common/test_kv.c tests/common/test_result.c tests/common/test_e820.c \
	tests/host/test_acpi.c

# The command-line fuzzer: the kernel's tokenizer, key=value parser and run=
# splitting (kernel/kv.c, kernel/cmdline.c) against the kernel's own tables of
# keys, read from the built image by tools/kernel-keys with a dictionary of them.
#   build/host/fuzz_cmdline   libFuzzer harness (clang): make fuzz-cmdline FUZZ_SECONDS=N
FUZZERS += cmdline
FUZZ_cmdline_MAX_LEN := 4096
FUZZ_cmdline_ARGS := -dict=$(BUILD)/fuzz/cmdline.dict $(BUILD)/fuzz/cmdline-seeds
FUZZ_cmdline_DEPS := $(BUILD)/fuzz/cmdline.dict $(BUILD)/fuzz/cmdline-seeds.stamp
CMDLINE_FUZZ_CFLAGS := -std=gnu11 -g -O1 -DHOST_BUILD -I. -fno-omit-frame-pointer $(WARN) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
CMDLINE_FUZZ_SRCS := tests/host/fuzz_cmdline.c kernel/kv.c kernel/cmdline.c \
	$(BUILD)/fuzz/cmdline-tables.c
$(BUILD)/fuzz/cmdline-tables.c $(BUILD)/fuzz/cmdline.dict: $(BUILD)/lookahead.elf tools/kernel-keys
	@mkdir -p $(dir $@)
	@echo "  KEYS    $(BUILD)/fuzz/cmdline-tables.c $(BUILD)/fuzz/cmdline.dict"
	@tools/kernel-keys $< $(BUILD)/fuzz/cmdline-tables.c $(BUILD)/fuzz/cmdline.dict
$(BUILD)/host/fuzz_cmdline: $(CMDLINE_FUZZ_SRCS) tests/host/fuzz_cmdline.h $(wildcard kernel/*.h)
	@mkdir -p $(dir $@)
	@echo "  CLANG   $@"
	@$(CLANG) $(CMDLINE_FUZZ_CFLAGS) -o $@ $(CMDLINE_FUZZ_SRCS)
# One seed file per command line: boot/grub.cfg's multiboot2 lines and the seeds file.
$(BUILD)/fuzz/cmdline-seeds.stamp: boot/grub.cfg tests/host/fuzz_cmdline.seeds
	@rm -rf $(BUILD)/fuzz/cmdline-seeds && mkdir -p $(BUILD)/fuzz/cmdline-seeds
	@{ sed -n 's/^[[:space:]]*multiboot2 [^ ]*[ ]*//p' boot/grub.cfg; \
	   grep -v '^#' tests/host/fuzz_cmdline.seeds; } | \
		awk '{ f = sprintf("$(BUILD)/fuzz/cmdline-seeds/seed%02d", NR); \
		       printf "%s", $$0 > f; close(f) }'
	@touch $@
