/*
 * Shell commands run by run=CMD[;CMD...] (kernel/cmd.c). A command is a
 * function taking argc/argv (argv[0] is its name) and returning 0 or a
 * negative errno; it prints human-readable lines and one RESULT line
 * (kernel/result.h). Register with KCMD():
 *
 *	static int cmd_meminfo(int argc, char **argv) { ... }
 *	KCMD(meminfo, cmd_meminfo, "meminfo", "print memory statistics");
 *
 * Arguments are key=value words: parse them with kcmd_args(), which fails
 * with a message naming the bad key. Every command parses its words with
 * it before doing anything, so `CMD help` (or `CMD --help`, `help CMD`)
 * prints the command's usage and keys from the same table that parses them.
 */
#ifndef KERNEL_CMD_H
#define KERNEL_CMD_H

#include "kernel/kv.h"

#define KCMD_MAX_ARGS 32 /* words of one command, its name included */

struct kcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *help;
};

#define KCMD(name, fn, usage, help)                                              \
	static const struct kcmd __kcmd_##name                                   \
		__attribute__((used, section("kcmds"), aligned(8))) = {          \
			#name, fn, usage, help }

/*
 * Parse argv[1..] against @specs (n entries) into @vals; on error prints
 * "CMD: message" and returns -EINVAL. @positional as in kv_parse(). When
 * the only word is help or --help, prints the command's usage and @specs
 * instead and returns -EINVAL too, so the command stops there; the shell
 * then reports success (kcmd_help_printed).
 */
int kcmd_args(int argc, char **argv, const struct kv_spec *specs, int n,
	      struct kv_value *vals, const char **positional);

/* Is the only argument help or --help? */
bool kcmd_wants_help(int argc, char **argv);
/* Print "usage: @usage", @what and every spec with what it accepts; marks the help printed. */
void kcmd_print_help(const char *usage, const char *what, const struct kv_spec *specs, int n);
/* A command printed its help its own way: the shell reports success. */
void kcmd_help_done(void);

/* Run one command line ("name arg=v ..."); returns the command's result. */
int kcmd_run(char *line);
const struct kcmd *kcmd_find(const char *name);

#endif
