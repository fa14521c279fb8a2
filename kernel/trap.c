/*
 * Exceptions and panics. Every CPU exception is fatal except a not-present
 * fault inside the kernel VM region that vm_fault_hook resolves (the mmap
 * read path of mm/filemap.c). The report names the vector, error code,
 * RIP, RSP, CR2, every general register and a frame-pointer backtrace,
 * then the kernel leaves through the panic exit.
 */
#include <stdarg.h>
#include <stdio.h>

#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/log.h"
#include "kernel/sync.h"
#include "kernel/vm.h"

extern char _kernel_start[], _kernel_end[];

bool (*vm_fault_hook)(uintptr_t addr, uint64_t error_code);

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range",
	"invalid opcode", "device not available", "double fault", "coprocessor overrun",
	"invalid TSS", "segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 floating point", "alignment check", "machine check",
	"SIMD floating point", "virtualization", "control protection",
};

static bool in_panic;

/* Walk saved frame pointers while they stay inside the identity-mapped RAM we own. */
static void backtrace(uint64_t rip, uint64_t rbp)
{
	printf("backtrace:\n  [<%016llx>]\n", (unsigned long long)rip);
	for (int depth = 0; depth < 16 && rbp; depth++) {
		if (rbp & 7 || rbp < 0x1000 || rbp >= 0x100000000ULL)
			break;
		const uint64_t *frame = (const uint64_t *)(uintptr_t)rbp;
		uint64_t ret = frame[1];

		if (ret < (uintptr_t)_kernel_start || ret >= (uintptr_t)_kernel_end)
			break;
		printf("  [<%016llx>]\n", (unsigned long long)ret);
		rbp = frame[0];
	}
}

void panic_frame(const char *why, const struct trap_frame *f)
{
	local_irq_disable();
	if (in_panic)
		kernel_exit(EXIT_PANIC);
	in_panic = true;
	printf("\nPANIC: %s\n", why);
	printf("vector %llu error code %#llx\n", (unsigned long long)f->vector,
	       (unsigned long long)f->error_code);
	printf("RIP %016llx RSP %016llx RFLAGS %016llx CS %04llx\n", (unsigned long long)f->rip,
	       (unsigned long long)f->rsp, (unsigned long long)f->rflags,
	       (unsigned long long)f->cs);
	printf("CR2 %016llx CR3 %016llx\n", (unsigned long long)read_cr2(),
	       (unsigned long long)read_cr3());
	printf("RAX %016llx RBX %016llx RCX %016llx RDX %016llx\n", (unsigned long long)f->rax,
	       (unsigned long long)f->rbx, (unsigned long long)f->rcx, (unsigned long long)f->rdx);
	printf("RSI %016llx RDI %016llx RBP %016llx R8  %016llx\n", (unsigned long long)f->rsi,
	       (unsigned long long)f->rdi, (unsigned long long)f->rbp, (unsigned long long)f->r8);
	printf("R9  %016llx R10 %016llx R11 %016llx R12 %016llx\n", (unsigned long long)f->r9,
	       (unsigned long long)f->r10, (unsigned long long)f->r11, (unsigned long long)f->r12);
	printf("R13 %016llx R14 %016llx R15 %016llx\n", (unsigned long long)f->r13,
	       (unsigned long long)f->r14, (unsigned long long)f->r15);
	backtrace(f->rip, f->rbp);
	kernel_exit(EXIT_PANIC);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	uint64_t rbp;

	local_irq_disable();
	if (in_panic)
		kernel_exit(EXIT_PANIC);
	in_panic = true;
	printf("\nPANIC: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	__asm__ __volatile__("mov %%rbp, %0" : "=r"(rbp));
	backtrace((uint64_t)(uintptr_t)__builtin_return_address(0), rbp);
	kernel_exit(EXIT_PANIC);
}

void trap_dispatch(struct trap_frame *f)
{
	char why[80];

	if (f->vector >= 32) {
		irq_dispatch(f);
		return;
	}
	if (f->vector == 14) {
		uintptr_t addr = (uintptr_t)read_cr2();

		/*
		 * A not-present fault in the VM region may be a file page to bring
		 * in. The hook sleeps on I/O, so it runs with interrupts as the
		 * faulting code had them.
		 */
		if (!(f->error_code & 1) && addr >= VM_REGION_START &&
		    addr < VM_REGION_START + VM_REGION_SIZE && vm_fault_hook) {
			bool handled;

			if (f->rflags & (1UL << 9))
				local_irq_enable();
			handled = vm_fault_hook(addr, f->error_code);
			local_irq_disable();
			if (handled)
				return;
		}
	}
	snprintf(why, sizeof(why), "%s exception",
		 exception_names[f->vector] ? exception_names[f->vector] : "reserved");
	panic_frame(why, f);
}
