# lookahead: a bare-metal unikernel testbed for page-cache readahead.
#
#   make            build build/lookahead.elf (and its 32-bit copy for QEMU -kernel)
#   make iso        build build/lookahead.iso (GRUB rescue image for a real machine)
#   make run        the quick benchmark suite under QEMU on the modelled disk: its table
#   make bench      the seeds' benchmark suite (4 GiB file, mem=2G): results/seeds-DATE/
#   make bench-image SUITE=NAME   only build build/img/bench-NAME.img
#   make test       host unit tests + QEMU tests; ends with "N passed, N failed"
#   make fuzz       run the five fuzzers (ext2, cmdline, iolog, diskmodel, ra), FUZZ_SECONDS
#                   each (default 60; make -j2 fuzz runs two side by side); make fuzz-NAME one
#   make fuzz-merge fold what the runs found into the committed corpora, tests/fuzz/NAME/
#   make fuzz-table the table of every recorded run (tests/fuzz/runs.tsv)
#   make format     clang-format every C file
#
# CROSS=x86_64-elf- uses a cross toolchain instead of the host gcc.
# EXTRA_KSRCS=FILE... builds these sources into the kernel too (tests/qemu/algo-file.t:
# an algorithm file from outside mm/, with BUILD= a folder of its own).

CROSS ?=
CC := $(CROSS)gcc
LD := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
HOSTCC ?= gcc
CLANG ?= clang

BUILD := build
NEWLIB_PREFIX := $(BUILD)/newlib/install/x86_64-elf
NEWLIB_STAMP := $(BUILD)/newlib/.installed

# As Linux's Makefile.extrawarn: a positional initializer may leave trailing fields
# (struct kv_spec's choices_fn) at zero.
WARN := -Wall -Wextra -Werror -Wno-missing-field-initializers
KCFLAGS := -std=gnu11 -O2 -g $(WARN) -ffreestanding -fno-builtin-malloc -mno-red-zone \
	-fno-pic -fno-pie -fno-stack-protector -mcmodel=small -fno-omit-frame-pointer \
	-mno-omit-leaf-frame-pointer -I. -isystem $(NEWLIB_PREFIX)/include
KASFLAGS := -I. -g
KLDFLAGS := -nostdlib -static -no-pie -Wl,-T,linker.ld -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
	-Wl,-z,max-page-size=0x1000 -Wl,-z,noexecstack

HOST_CFLAGS := -std=gnu11 -O1 -g $(WARN) -DHOST_BUILD -I. -fno-omit-frame-pointer
HOST_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined

# Every directory contributes sources; fragments (*/host.mk) list what also
# builds on the host and the host test programs.
KSRCS := $(wildcard boot/*.S boot/*.c kernel/*.c mm/*.c drivers/*.c fs/*.c bench/*.c init/*.c \
	tests/kernel/*.c tests/common/*.c) $(EXTRA_KSRCS)
KOBJS := $(patsubst %,$(BUILD)/k/%.o,$(KSRCS))

HOST_SRCS :=
HOST_TESTS :=
# Fragments name their libFuzzer targets (build/host/fuzz_NAME) here, see "fuzzing" below.
FUZZERS :=
FUZZ_SECONDS ?= 60
# Fragments may add rules; `make` alone still means `make all`.
.DEFAULT_GOAL := all
include $(wildcard */host.mk)

all: $(BUILD)/lookahead.elf $(BUILD)/lookahead32.elf

# --- toolchain and packages -------------------------------------------------

DEPS_STAMP := $(BUILD)/.deps-ok
$(DEPS_STAMP): tools/deps.sh
	@mkdir -p $(BUILD)
	@tools/deps.sh
	@touch $@
deps: $(DEPS_STAMP)

# newlib from Debian's newlib-source, built with the kernel's code model.
$(NEWLIB_STAMP): | $(DEPS_STAMP)
	@echo "  NEWLIB  building newlib for x86_64-elf (about a minute)"
	@tools/helpers/build-newlib.sh /usr/src/newlib $(BUILD)/newlib "$(CROSS)"
	@touch $@

# --- kernel -------------------------------------------------------------------

$(BUILD)/k/%.c.o: %.c $(NEWLIB_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/k/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(KASFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/lookahead.elf: $(KOBJS) linker.ld $(NEWLIB_STAMP)
	@echo "  LD      $@"
	@# two RA_ALGO_DEFAULTs or two algorithms at one .order: an error naming both files
	@tools/helpers/ra-registry-check $(KOBJS)
	@$(CC) $(KLDFLAGS) -o $@ $(KOBJS) -Wl,--start-group $(NEWLIB_PREFIX)/lib/libc.a \
		$(NEWLIB_PREFIX)/lib/libm.a -Wl,--end-group $(shell $(CC) -print-libgcc-file-name)

# QEMU's -kernel loads multiboot images only as 32-bit ELF; the same code and
# addresses in an elf32-i386 container boot through the Multiboot1 header.
$(BUILD)/lookahead32.elf: $(BUILD)/lookahead.elf
	@echo "  OBJCOPY $@"
	@$(OBJCOPY) -O elf32-i386 $< $@

iso: $(BUILD)/lookahead.iso
$(BUILD)/lookahead.iso: $(BUILD)/lookahead.elf boot/grub.cfg | $(DEPS_STAMP)
	@echo "  ISO     $@"
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	@cp $(BUILD)/lookahead.elf $(BUILD)/iso/boot/lookahead.elf
	@cp boot/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	@grub-mkrescue -o $@ $(BUILD)/iso >$(BUILD)/iso.log 2>&1 || \
		{ cat $(BUILD)/iso.log; exit 1; }

# --- host builds ----------------------------------------------------------------

HOST_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(HOST_SRCS))
$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	@$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -MMD -MP -c $< -o $@

$(BUILD)/host/libhost.a: $(HOST_OBJS)
	@rm -f $@
	@ar rcs $@ $^

# Each host test program T links $(T_SRCS), tests/host/runtime.c and libhost.a.
define host_test
$(BUILD)/host/test_$(1): $(patsubst %.c,$(BUILD)/host/%.o,$($(1)_SRCS) tests/host/runtime.c) \
		$(BUILD)/host/libhost.a
	@echo "  HOSTLD  $$@"
	@$(HOSTCC) $(HOST_SAN) -o $$@ $$^ -lm
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test,$(t))))
HOST_TEST_BINS := $(patsubst %,$(BUILD)/host/test_%,$(HOST_TESTS))

host-tests: $(HOST_TEST_BINS)
# what tools/run-tests runs: this tree's host tests, never an old binary left in build/
print-host-tests:
	@echo $(HOST_TEST_BINS)

# --- running ----------------------------------------------------------------------

# The quick suite (tools/bench quick): a few minutes, results in results/quick-DATE/.
run: all $(BUILD)/host/patgen $(DEPS_STAMP)
	@tools/bench quick

# The build make test starts with (67 s of CPU from clean, newlib aside) takes every core:
# a plain `make test` built one file at a time. A -jN of the caller's is kept.
NPROC = $(shell nproc 2>/dev/null || echo 1)
test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) all iso host-tests
	@tools/run-tests

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)/k $(BUILD)/host $(BUILD)/*.elf $(BUILD)/*.iso $(BUILD)/iso $(BUILD)/img

distclean:
	rm -rf $(BUILD)

.PHONY: all deps iso host-tests run test format clean distclean
-include $(KOBJS:.o=.d) $(HOST_OBJS:.o=.d) $(wildcard $(BUILD)/host/tests/*/*.d)

# --- benchmarks -------------------------------------------------------------------------

$(BUILD)/host/patgen: tools/helpers/patgen.c bench/pattern.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(HOSTCC) $(HOST_CFLAGS) -O2 -o $@ tools/helpers/patgen.c

SUITE ?= quick
bench-image: $(BUILD)/host/patgen $(DEPS_STAMP)
	@tools/mkbench $(SUITE)

bench: all $(BUILD)/host/patgen $(DEPS_STAMP)
	@tools/bench seeds

.PHONY: bench-image bench

# --- test loaders -------------------------------------------------------------------------

# mbshim: a Multiboot1 loader handing lookahead a crafted, overlapping memory map
# (tests/qemu/e820.t, tools/run-qemu --mbshim). 32-bit code: gcc -m32, no libraries.
$(BUILD)/mbshim.elf: tests/qemu/mbshim.c tests/qemu/mbshim.ld
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) -m32 -std=gnu11 -O2 $(WARN) -ffreestanding -fno-pic -fno-pie -fno-stack-protector \
		-nostdlib -static -no-pie -Wl,-T,tests/qemu/mbshim.ld -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
		-o $@ tests/qemu/mbshim.c

# --- fuzzing ------------------------------------------------------------------------------

# Each fuzzer NAME in FUZZERS comes with its fragment's rule for build/host/fuzz_NAME and
#   FUZZ_NAME_MAX_LEN  the longest input it takes
#   FUZZ_NAME_ARGS     libFuzzer options (a dictionary) and seed directories, read-only
#   FUZZ_NAME_DEPS     what those need built first
# Every run starts from the committed corpus tests/fuzz/NAME/ and the working one,
# build/fuzz-NAME/corpus (tools/fuzz-run: its log in build/fuzz-NAME/logs/, a row in the
# ledger tests/fuzz/runs.tsv); make test's short runs (tests/host/fuzz-lib.sh) the same.
# fuzz-merge minimizes both corpora into tests/fuzz/NAME/ (tools/fuzz-merge): files of
# at most FUZZ_FILE_MAX bytes, FUZZ_BUDGET_KB KiB a fuzzer (ext2's inputs are images).
# FUZZ_TIMEOUT: seconds an input may take, wall-clock (libFuzzer's -timeout); a long run
# under nice 19 on a busy machine wants more than 10 (tools/fuzz-run re-runs each timeout).
FUZZ_TIMEOUT ?= 10
FUZZ_FILE_MAX ?= 65536
FUZZ_BUDGET_KB ?= 512
FUZZ_ext2_BUDGET_KB ?= 2048
define fuzz_rules
fuzz-build-$(1): $(BUILD)/host/fuzz_$(1) $(FUZZ_$(1)_DEPS)
fuzz-$(1): fuzz-build-$(1)
	@tools/fuzz-run $(1) $(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -max_len=$(FUZZ_$(1)_MAX_LEN) \
		$(FUZZ_$(1)_ARGS)
fuzz-merge-$(1): fuzz-build-$(1)
	@tools/fuzz-merge --max-file $(FUZZ_FILE_MAX) \
		--budget-kb $(or $(FUZZ_$(1)_BUDGET_KB),$(FUZZ_BUDGET_KB)) \
		$(1) -max_len=$(FUZZ_$(1)_MAX_LEN) $(FUZZ_$(1)_ARGS)
# what tests/host/fuzz-lib.sh runs the fuzzer with
fuzz-args-$(1):
	@echo -max_len=$(FUZZ_$(1)_MAX_LEN) $(FUZZ_$(1)_ARGS)
.PHONY: fuzz-build-$(1) fuzz-$(1) fuzz-merge-$(1) fuzz-args-$(1)
endef
$(foreach f,$(FUZZERS),$(eval $(call fuzz_rules,$(f))))

fuzz: $(addprefix fuzz-,$(FUZZERS))
fuzz-merge: $(addprefix fuzz-merge-,$(FUZZERS))
fuzz-table:
	@tools/fuzz-table
.PHONY: fuzz fuzz-merge fuzz-table

# tools/linux-ref's replayer, run inside a Linux guest: static, for an initramfs with no libc
$(BUILD)/host/lrrun: tools/helpers/lrrun.c tools/helpers/die.h bench/iolog.c bench/iolog.h kernel/types.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@ (static)"
	@$(HOSTCC) -std=gnu11 -O2 $(WARN) -DHOST_BUILD -I. -static -o $@ tools/helpers/lrrun.c bench/iolog.c

# tools/overhead's raw and buffered workloads, run inside a Linux guest: static as lrrun
$(BUILD)/host/ohrun: tools/helpers/ohrun.c tools/helpers/die.h kernel/prandom.h kernel/types.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@ (static)"
	@$(HOSTCC) -std=gnu11 -O2 $(WARN) -DHOST_BUILD -I. -static -o $@ tools/helpers/ohrun.c
