/*
 * Init calls: a subsystem registers its boot-time set-up with INITCALL();
 * kmain (init/main.c) runs them by level after the core (console, interrupts, time,
 * threads, physical memory) is up. An init call returns 0 or -errno; a
 * failure is printed with the call's name and boot goes on, so commands
 * that need the missing part fail with their own clear error.
 *
 *	static int ahci_init(void) { ... }
 *	INITCALL(INIT_DRIVER, ahci_init);
 */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

enum init_level {
	INIT_MM = 1,		/* heap, page cache, reclaim (after the frame allocator) */
	INIT_SUBSYS = 2,	/* PCI scan, block layer */
	INIT_DRIVER = 3,	/* AHCI and other device drivers */
	INIT_FS = 4,		/* mounting the root filesystem */
	INIT_LATE = 5,
};

struct initcall {
	enum init_level level;
	const char *name;
	int (*fn)(void);
};

/*
 * Record a failure that makes the whole run pointless (a root= that cannot
 * be mounted, a contradictory ra_kb=): @what is printed as an error line
 * and, once every init call has run, the kernel exits with failure before
 * any command.
 */
void init_fail(const char *what);
/* How many init_fail() calls there were (kernel/init.c). */
int init_failures(void);

#define INITCALL(lvl, fn)                                                        \
	static const struct initcall __initcall_##fn                             \
		__attribute__((used, section("initcalls"), aligned(8))) = { lvl, #fn, fn }

#endif
