/*
 * Memory as the kernel's core sees it. kernel/ never calls up into mm/:
 * the page cache's floor registers its providers here once it is up
 * (mm/kobj.c, from mem_setup()), as it installs readahead_thrashed_hook,
 * and kernel/ calls through them.
 *
 *	kernel_pages_alloc()	2^order contiguous pages of the kernel's heap (a
 *				page table), their address or NULL
 *	thread_stack_alloc()	a thread's stack, THREAD_STACK_SIZE bytes: from the
 *				page cache's RAM, as Linux's task stacks come from
 *				the zone its page cache uses (the page cache gives
 *				way); NULL if even reclaim found none
 *
 * Before the providers are registered every call fails (NULL), with one
 * line saying so.
 */
#ifndef KERNEL_MEMORY_H
#define KERNEL_MEMORY_H

#include "kernel/types.h"

struct kernel_memory_ops {
	void *(*pages_alloc)(unsigned int order);
	void (*pages_free)(void *addr, unsigned int order);
	void *(*stack_alloc)(size_t bytes);
	void (*stack_free)(void *stack, size_t bytes);
};

/* Installed by mm once its allocators are up; @ops must outlive the run. */
void kernel_memory_register(const struct kernel_memory_ops *ops);

void *kernel_pages_alloc(unsigned int order);
void kernel_pages_free(void *addr, unsigned int order);
void *thread_stack_alloc(size_t bytes);
void thread_stack_free(void *stack, size_t bytes);

#endif
