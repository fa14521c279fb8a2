/*
 * kmain: bring the machine up in dependency order, run the command list
 * given by run= (default: selftest) and leave through the exit path with
 * success, failure (a command failed) or, from a panic, the panic code.
 *
 * The floor above all (as Linux's start_kernel in init/main.c): kmain calls
 * down into every floor (kernel/'s core, mm/'s memory set-up, the init calls
 * that drivers/, fs/ and bench/ register), so nothing below calls up into
 * it; boot/boot.S, the entry, is the one caller. init/ holds only this file.
 *
 * Order: console (so anything after can report) -> CPU tables ->
 * multiboot info -> command line (checked whole before use) -> time ->
 * interrupt controllers -> physical memory (capped by mem=) -> threads and
 * the APIC tick -> init calls by level -> commands.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/bootinfo.h"
#include "kernel/cmd.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/init.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/result.h"
#include "kernel/sched.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/mm.h"

KPARAM(run, KV_STRING, NULL, "commands to run, separated by ';' (default: selftest)");

extern const struct initcall __start_initcalls[], __stop_initcalls[];

int time_init(void);
void apic_init(void);
void apic_timer_start(void);
int sched_init(void);

static bool halt_requested;

static int cmd_halt(int argc, char **argv)
{
	struct result r;

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	halt_requested = true;
	result_begin(&r, "halt");
	result_end(&r);
	return 0;
}
KCMD(halt, cmd_halt, "halt", "stop running commands and exit");

static void run_initcalls(void)
{
	for (int level = INIT_MM; level <= INIT_LATE; level++) {
		for (const struct initcall *c = __start_initcalls; c < __stop_initcalls; c++) {
			int err;

			if ((int)c->level != level)
				continue;
			err = c->fn();
			if (err)
				pr_err("init: %s failed: %s\n", c->name, errname(err));
		}
	}
}

/* Run each ';'-separated command; returns how many failed. */
static int run_commands(const char *list)
{
	static char buf[CMDLINE_MAX];
	char *p = buf, *cmd;
	int failed = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (;;) {
		struct ktime_hold hold;
		int err;

		/* the shell's own work costs no time (kcmd_run()) */
		ktime_hold_begin(&hold);
		cmd = halt_requested ? NULL : cmdline_next_command(&p);
		if (cmd)
			printf("lookahead$ %s\n", cmd);
		ktime_hold_end(&hold);
		if (!cmd)
			break;
		err = kcmd_run(cmd);
		if (err) {
			printf("lookahead: command '%s' failed: %s\n", cmd, errname(err));
			failed++;
		}
	}
	return failed;
}

void kmain(uint32_t magic, uint32_t info)
{
	const char *run = "selftest";
	int failed;

	console_init();
	setvbuf(stdout, NULL, _IONBF, 0);
	setvbuf(stderr, NULL, _IONBF, 0);
	printf("lookahead: a testbed for page-cache readahead\n");
	cpu_init();
	if (bootinfo_parse(magic, info))
		kernel_exit(EXIT_FAILURE_STATUS);
	if (param_init(bootinfo.cmdline, bootinfo.cmdline_len))
		kernel_exit(EXIT_FAILURE_STATUS);
	switch (param_get_enum("console")) {
	case 0:
		console_select(CONSOLE_SERIAL);
		break;
	case 1:
		console_select(CONSOLE_VGA);
		break;
	default:
		break;
	}
	bootinfo_print();
	if (time_init())
		kernel_exit(EXIT_FAILURE_STATUS);
	apic_init();
	if (mem_setup())
		kernel_exit(EXIT_FAILURE_STATUS);
	if (sched_init())
		panic("no memory for the idle thread");
	apic_timer_start();
	local_irq_enable();

	run_initcalls();
	if (init_failures())
		kernel_exit(EXIT_FAILURE_STATUS);
	param_get_str("run", &run);
	failed = run_commands(run);
	printf("lookahead: %d command(s) failed\n", failed);
	kernel_exit(failed ? EXIT_FAILURE_STATUS : EXIT_OK);
}
