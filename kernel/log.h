/*
 * Kernel log: printf-style lines to the console (serial and/or VGA in the
 * kernel, stdout on the host). Human-readable lines go through pr_*();
 * machine-readable results go through kernel/result.h.
 */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

#include <stdio.h>
#include <string.h>
#include "kernel/types.h"

#define pr_info(fmt, ...)  printf(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)  printf("warning: " fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)   printf("error: " fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define pr_debug(fmt, ...) printf(fmt, ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...) do { if (0) printf(fmt, ##__VA_ARGS__); } while (0)
#endif

/*
 * A -errno as words for an error line ("cannot open: no such file"), the
 * way the kernel's callers meet them; newlib's strerror() for the rest.
 */
static inline const char *errname(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such file";
	case -ENOTDIR:
		return "not a directory";
	case -EISDIR:
		return "is a directory";
	case -ENAMETOOLONG:
		return "name too long";
	case -ELOOP:
		return "too many symbolic links";
	case -ENOMEM:
		return "out of memory";
	case -EIO:
		return "I/O error";
	case -ETIMEDOUT:
		return "timed out";
	case -EINVAL:
		return "invalid argument";
	case -ENODEV:
		return "no such device";
	case -EBUSY:
		return "busy";
	case -EEXIST:
		return "already exists";
	case -ENOSPC:
		return "no space left";
	default:
		return strerror(-err);
	}
}

/* Print a report and leave through the panic exit path. Never returns. */
__noreturn __printf(1, 2) void panic(const char *fmt, ...);

#define BUG_ON(cond)                                                             \
	do {                                                                     \
		if (unlikely(cond))                                              \
			panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond);     \
	} while (0)

#endif
