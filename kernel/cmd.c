/*
 * The kernel's shell: run=CMD[;CMD...] from the command line, one command
 * after another. Built-in commands: help, selftest, fault, halt, sleep.
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

int kcmd_args(int argc, char **argv, const struct kv_spec *specs, int n,
	      struct kv_value *vals, const char **positional)
{
	char err[512];

	if (kv_parse(argv + 1, argc - 1, specs, n, vals, positional, err, sizeof(err))) {
		pr_err("%s: %s\n", argv[0], err);
		return -EINVAL;
	}
	return 0;
}

int kcmd_run(char *line)
{
	char *argv[KCMD_MAX_ARGS];
	const char *err = "";
	const struct kcmd *c;
	int argc = kv_split(line, argv, KCMD_MAX_ARGS, &err);

	if (argc < 0) {
		pr_err("shell: %s\n", err);
		return -EINVAL;
	}
	if (argc == 0)
		return 0;
	c = kcmd_find(argv[0]);
	if (!c) {
		pr_err("shell: unknown command '%s' (try 'help')\n", argv[0]);
		return -ENOENT;
	}
	return c->fn(argc, argv);
}

static int cmd_help(int argc, char **argv)
{
	struct result r;
	int n = 0;

	(void)argc, (void)argv;
	for (const struct kcmd *c = __start_kcmds; c < __stop_kcmds; c++, n++)
		printf("  %-40s %s\n", c->usage, c->help);
	result_begin(&r, "help");
	result_u64(&r, "commands", (uint64_t)n);
	result_end(&r);
	return 0;
}
KCMD(help, cmd_help, "help", "list the commands");

static int cmd_selftest(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "suite", KV_STRING, NULL, "comma-separated suite names (default: all)" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct result r;
	int failed;
	uint64_t t0 = ktime_ns();

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
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

	(void)argc, (void)argv;
	printf("fault: reading %p, which is not mapped\n", (void *)bad);
	return (int)*bad;
}
KCMD(fault, cmd_fault, "fault", "take a deliberate page fault (tests the panic report)");

static int cmd_sleep(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "ms", KV_UINT, NULL, "milliseconds" },
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
