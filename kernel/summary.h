/*
 * The exit summary (kernel/summary.c): before the kernel stops, a few lines
 * that fit on a 25-line screen with no scrollback, for a real machine whose
 * only console may be the screen: what each subsystem found (controllers
 * and disks, or why not), per-port errors, timeouts and resets, the first
 * error line of the run, and the result. The full log stays on COM1.
 *
 *	static void ahci_summary(void) { summary_line("ahci: ..."); }
 *	summary_register(ahci_summary);		// at init
 */
#ifndef KERNEL_SUMMARY_H
#define KERNEL_SUMMARY_H

#include "kernel/types.h"

#define SUMMARY_MAX_LINES 18

/* Called at exit to add its lines with summary_line(); at most 8 sources. */
void summary_register(void (*fn)(void));
/* One line of the summary (no newline); lines past SUMMARY_MAX_LINES are dropped. */
void summary_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The console saw a line (kernel/console.c): the first "error: " line is kept. */
void summary_watch(const char *buf, size_t len);
/* Print the summary; @result is "success", "failure" or "panic". */
void summary_print(const char *result);

#endif
