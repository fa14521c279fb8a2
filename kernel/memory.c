/*
 * The core's memory calls (kernel/memory.h), through the providers mm
 * registers: the kernel floor defines every symbol it uses, and mm, a
 * floor above, fills them in at boot.
 */
#include "kernel/log.h"
#include "kernel/memory.h"

static const struct kernel_memory_ops *mem_ops;

void kernel_memory_register(const struct kernel_memory_ops *ops)
{
	mem_ops = ops;
}

static bool ready(const char *what)
{
	if (mem_ops)
		return true;
	pr_err("%s: called before memory is set up (no provider registered)\n", what);
	return false;
}

void *kernel_pages_alloc(unsigned int order)
{
	return ready("kernel_pages_alloc") ? mem_ops->pages_alloc(order) : NULL;
}

void kernel_pages_free(void *addr, unsigned int order)
{
	if (addr && ready("kernel_pages_free"))
		mem_ops->pages_free(addr, order);
}

void *thread_stack_alloc(size_t bytes)
{
	return ready("thread_stack_alloc") ? mem_ops->stack_alloc(bytes) : NULL;
}

void thread_stack_free(void *stack, size_t bytes)
{
	if (stack && ready("thread_stack_free"))
		mem_ops->stack_free(stack, bytes);
}
