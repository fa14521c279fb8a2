/*
 * The kernel's shell: run=CMD[;CMD...] from the command line, one command
 * after another. Built-in commands: help, selftest, fault, sleep. Every
 * command answers `CMD help` with its usage and keys (kcmd_args()).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/cmd.h"
#include "kernel/ktest.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "kernel/sched.h"

extern const struct kcmd __start_kcmds[], __stop_kcmds[];

const struct kcmd *kcmd_find(const char *name)
{
	for (const struct kcmd *c = __start_kcmds; c < __stop_kcmds; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* Set when a command printed its help instead of running: the shell counts that a success. */
static bool kcmd_help_printed;

bool kcmd_wants_help(int argc, char **argv)
{
	return argc == 2 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help"));
}

void kcmd_print_help(const char *usage, const char *what, const struct kv_spec *specs, int n)
{
	char accepts[160];

	printf("usage: %s\n  %s\n", usage, what);
	for (int i = 0; i < n; i++) {
		kv_describe(&specs[i], accepts, sizeof(accepts));
		printf("  %s=  %s (%s)\n", specs[i].key, specs[i].help, accepts);
	}
	if (!n)
		printf("  (no key=value arguments)\n");
	kcmd_help_printed = true;
}

void kcmd_help_done(void)
{
	kcmd_help_printed = true;
}

int kcmd_args(int argc, char **argv, const struct kv_spec *specs, int n,
	      struct kv_value *vals, const char **positional)
{
	char err[512];

	if (kcmd_wants_help(argc, argv)) {
		const struct kcmd *c = kcmd_find(argv[0]);

		kcmd_print_help(c ? c->usage : argv[0], c ? c->help : "", specs, n);
		return -EINVAL;
	}
	if (kv_parse(argv + 1, argc - 1, specs, n, vals, positional, err, sizeof(err))) {
		pr_err("%s: %s\n", argv[0], err);
		return -EINVAL;
	}
	return 0;
}

static int kcmd_call(const struct kcmd *c, int argc, char **argv);

int kcmd_run(char *line)
{
	char *argv[KCMD_MAX_ARGS];
	const char *err = "";
	const struct kcmd *c;
	struct ktime_hold hold;
	int argc;

	/*
	 * Splitting the line and finding the command cost no time: how long a
	 * command line is, or how many commands the kernel has, must not move
	 * when the command's own work begins (the disk made cold by the
	 * command before it turns with the clock).
	 */
	ktime_hold_begin(&hold);
	argc = kv_split(line, argv, KCMD_MAX_ARGS, &err);
	c = argc > 0 ? kcmd_find(argv[0]) : NULL;
	ktime_hold_end(&hold);
	if (argc < 0) {
		pr_err("shell: %s\n", err);
		return -EINVAL;
	}
	if (argc == 0)
		return 0;
	if (!c) {
		pr_err("shell: unknown command '%s' (try 'help')\n", argv[0]);
		return -ENOENT;
	}
	return kcmd_call(c, argc, argv);
}

/* Run @c; a command that printed its help instead of running succeeded. */
static int kcmd_call(const struct kcmd *c, int argc, char **argv)
{
	int ret;

	kcmd_help_printed = false;
	ret = c->fn(argc, argv);
	if (kcmd_help_printed) {
		kcmd_help_printed = false;
		return 0;
	}
	return ret;
}

/* help: every command; help CMD [WORD...]: CMD [WORD...] help, its usage and keys. */
static int cmd_help(int argc, char **argv)
{
	char *words[8];
	const struct kcmd *c;
	struct result r;
	int n = 0;

	if (kcmd_wants_help(argc, argv)) {
		kcmd_print_help("help [CMD [WORD...]]",
				"list the commands, or one command's usage and keys", NULL, 0);
		return -EINVAL;
	}
	if (argc > 1 && argc < (int)ARRAY_SIZE(words)) {
		c = kcmd_find(argv[1]);
		if (!c) {
			pr_err("help: no command '%s' (`help` lists them)\n", argv[1]);
			return -ENOENT;
		}
		for (n = 1; n < argc; n++)
			words[n - 1] = argv[n];
		words[argc - 1] = "help";
		return kcmd_call(c, argc, words);
	}
	if (argc > 1) {
		pr_err("help: too many words\n");
		return -EINVAL;
	}
	for (c = __start_kcmds; c < __stop_kcmds; c++, n++)
		printf("  %-40s %s\n", c->usage, c->help);
	printf("  (`help CMD` or `CMD help`: one command's usage and keys)\n");
	result_begin(&r, "help");
	result_u64(&r, "commands", (uint64_t)n);
	result_end(&r);
	return 0;
}
KCMD(help, cmd_help, "help [CMD [WORD...]]", "list the commands, or one command's usage and keys");

static int cmd_selftest(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "suite", KV_STRING, NULL,
		  "comma-separated suite names, -NAME to leave one out (default: all)" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct result r;
	int failed;
	uint64_t t0 = ktime_ns();
	char bad[64];

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (v[0].present && ktest_check_filter(v[0].s, bad, sizeof(bad))) {
		pr_err("selftest: suite=%s: no suite '%s'\n", v[0].s, bad);
		return -EINVAL;
	}
	failed = ktest_run_all(v[0].present ? v[0].s : NULL);
	result_begin(&r, "selftest");
	result_u64(&r, "failed_cases", (uint64_t)failed);
	result_double(&r, "secs", (double)(ktime_ns() - t0) / 1e9, 3);
	result_end(&r);
	return failed ? -EIO : 0;
}
KCMD(selftest, cmd_selftest, "selftest [suite=A,B]", "run the in-kernel test suites (KTAP)");

static int cmd_fault(int argc, char **argv)
{
	/* An address that is never mapped: page 0 is left out of the identity map. */
	static volatile uintptr_t fault_addr = 0x10;
	volatile uint64_t *bad = (volatile uint64_t *)fault_addr;

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	printf("fault: reading %p, which is not mapped\n", (void *)bad);
	return (int)*bad;
}
KCMD(fault, cmd_fault, "fault", "take a deliberate page fault (tests the panic report)");

static int cmd_sleep(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "ms", KV_TIME_MS, NULL, "how long: milliseconds, or with a unit (250us, 2s)" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct result r;
	uint64_t t0;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (!v[0].present) {
		pr_err("sleep: ms= is required\n");
		return -EINVAL;
	}
	t0 = ktime_ns();
	sleep_ns(v[0].u * NSEC_PER_MSEC);
	result_begin(&r, "sleep");
	result_double(&r, "secs", (double)(ktime_ns() - t0) / 1e9, 6);
	result_end(&r);
	return 0;
}
KCMD(sleep, cmd_sleep, "sleep ms=N", "sleep on a timer");
