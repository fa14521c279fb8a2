/*
 * Kernel log: printf-style lines to the console (serial and/or VGA in the
 * kernel, stdout on the host). Human-readable lines go through pr_*();
 * machine-readable results go through kernel/result.h.
 */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

#include <stdio.h>
#include "kernel/types.h"

#define pr_info(fmt, ...)  printf(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)  printf("warning: " fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)   printf("error: " fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define pr_debug(fmt, ...) printf(fmt, ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...) do { if (0) printf(fmt, ##__VA_ARGS__); } while (0)
#endif

/* Print a report and leave through the panic exit path. Never returns. */
__noreturn __printf(1, 2) void panic(const char *fmt, ...);

#define BUG_ON(cond)                                                             \
	do {                                                                     \
		if (unlikely(cond))                                              \
			panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond);     \
	} while (0)

#endif
