/*
 * Memory as the kernel's core sees it: the page cache's floor (mm/)
 * provides these, so that kernel/ reaches memory through its own header
 * and never includes mm/.
 *
 *	kernel_pages_alloc()	2^order contiguous pages (a thread's stack, a
 *				page table), their address or NULL
 */
#ifndef KERNEL_MEMORY_H
#define KERNEL_MEMORY_H

void *kernel_pages_alloc(unsigned int order);
void kernel_pages_free(void *addr, unsigned int order);

#endif
