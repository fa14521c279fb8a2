/*
 * The kernel command line as text (kernel/cmdline.c): split into words,
 * checked against the declared parameters, and the run= list cut into
 * commands. No hardware and no globals, so the host builds it too and the
 * command-line fuzzer (tests/host/fuzz_cmdline.c) runs exactly this code;
 * kernel/param.c and kmain call it with the KPARAM() table.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "kernel/kv.h"

#define CMDLINE_MAX	  4096 /* bytes, the terminating NUL included */
#define CMDLINE_MAX_WORDS 64

/*
 * Check @cmdline (@len bytes as the loader gave them, before any copy
 * truncated them) against @specs (@n entries), filling @vals. @buf
 * (CMDLINE_MAX bytes) receives the words, which @vals point into. QEMU's
 * Multiboot loader puts the kernel's file name first: a first word with a
 * '/' and no '=' is skipped. Returns 0, or -EINVAL with one message in
 * @err: too long, an unterminated quote, too many words, or what
 * kv_parse() says.
 */
int cmdline_parse(const char *cmdline, size_t len, char *buf, const struct kv_spec *specs, int n,
		  struct kv_value *vals, char *err, size_t errlen);

/*
 * The next command of a run= list cut in place at ';', leading spaces
 * skipped; empty commands are skipped too. *@cursor starts at the list and
 * is advanced; NULL once the list is done.
 */
char *cmdline_next_command(char **cursor);

#endif
