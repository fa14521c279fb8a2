/*
 * Entry from the boot loader, in 32-bit protected mode with paging off:
 * GRUB through the Multiboot2 header, QEMU's -kernel through the Multiboot1
 * header (of the elf32 copy of this image). Both leave EAX = magic and
 * EBX = information structure.
 *
 * Builds page tables that identity-map the first 4 GiB (4 KiB pages for the
 * first 4 MiB, so page 0 and the stack guard page can be left unmapped;
 * 2 MiB pages above), enters long mode, enables SSE (newlib's floating point
 * uses it; interrupt entry saves it) and calls kmain(magic, info) on the
 * boot stack.
 */
#define MB1_MAGIC	0x1badb002
#define MB1_FLAGS	0x00000003	/* page-align modules, give memory info */
#define MB2_MAGIC	0xe85250d6

#define PTE_P		0x001
#define PTE_W		0x002
#define PTE_PS		0x080

	.section .multiboot, "a"
	.balign 4
mb1_header:
	.long MB1_MAGIC
	.long MB1_FLAGS
	.long -(MB1_MAGIC + MB1_FLAGS)

	.balign 8
mb2_header:
	.long MB2_MAGIC
	.long 0				/* i386 */
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + 0 + (mb2_header_end - mb2_header))
	/* information request: command line, loader name, memory map */
	.balign 8
	.word 1, 0
	.long 20
	.long 1, 2, 6
	.balign 8
	.word 0, 0			/* end tag */
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	movl	$boot_stack_top, %esp
	movl	%eax, boot_magic
	movl	%ebx, boot_info

	/* Long mode needs CPUID leaf 0x80000001 EDX bit 29. */
	movl	$0x80000000, %eax
	cpuid
	cmpl	$0x80000001, %eax
	jb	no_long_mode
	movl	$0x80000001, %eax
	cpuid
	btl	$29, %edx
	jnc	no_long_mode

	/* Zero the boot page tables (they live in .bss.boot). */
	movl	$boot_pml4, %edi
	movl	$(boot_pt_end - boot_pml4) / 4, %ecx
	xorl	%eax, %eax
	rep stosl

	movl	$boot_pdpt, %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, boot_pml4

	/* PDPT[0..3] -> the four page directories */
	xorl	%ecx, %ecx
1:	movl	%ecx, %eax
	shll	$12, %eax
	addl	$boot_pd, %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, boot_pdpt(, %ecx, 8)
	incl	%ecx
	cmpl	$4, %ecx
	jne	1b

	/* 2048 x 2 MiB pages cover 4 GiB; entry i maps i * 2 MiB. */
	xorl	%ecx, %ecx
2:	movl	%ecx, %eax
	shll	$21, %eax
	orl	$(PTE_P | PTE_W | PTE_PS), %eax
	movl	%eax, boot_pd(, %ecx, 8)
	movl	%ecx, %eax
	shrl	$11, %eax			/* high dword: bits 32+ of i * 2 MiB */
	movl	%eax, boot_pd + 4(, %ecx, 8)
	incl	%ecx
	cmpl	$2048, %ecx
	jne	2b

	/* The first 4 MiB in 4 KiB pages: PD[0], PD[1] -> two page tables. */
	movl	$boot_pt, %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, boot_pd
	movl	$0, boot_pd + 4
	addl	$4096, %eax
	movl	%eax, boot_pd + 8
	movl	$0, boot_pd + 12
	xorl	%ecx, %ecx
3:	movl	%ecx, %eax
	shll	$12, %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, boot_pt(, %ecx, 8)
	incl	%ecx
	cmpl	$1024, %ecx
	jne	3b
	/* Unmapped: page 0 (NULL dereferences fault) and the stack guard page. */
	movl	$0, boot_pt
	movl	$boot_stack_guard, %eax
	shrl	$12, %eax
	movl	$0, boot_pt(, %eax, 8)

	/* PAE, then EFER.LME, then paging: long mode (compatibility submode). */
	movl	%cr4, %eax
	orl	$0x20, %eax
	movl	%eax, %cr4
	movl	$boot_pml4, %eax
	movl	%eax, %cr3
	movl	$0xc0000080, %ecx
	rdmsr
	orl	$0x100, %eax
	wrmsr
	movl	%cr0, %eax
	orl	$0x80010001, %eax		/* PG | WP | PE */
	movl	%eax, %cr0

	lgdt	boot_gdt_ptr
	ljmp	$0x08, $long_mode_entry

no_long_mode:
	/* No console yet: write the reason straight into VGA text memory. */
	movl	$no_lm_msg, %esi
	movl	$0xb8000, %edi
4:	lodsb
	testb	%al, %al
	jz	5f
	movb	$0x4f, %ah
	stosw
	jmp	4b
5:	hlt
	jmp	5b

	.code64
long_mode_entry:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorw	%ax, %ax
	movw	%ax, %fs
	movw	%ax, %gs
	movq	$boot_stack_top, %rsp
	xorq	%rbp, %rbp

	/* SSE: CR0.EM off, CR0.MP on; CR4.OSFXSR and OSXMMEXCPT on. */
	movq	%cr0, %rax
	andq	$~0x4, %rax
	orq	$0x2, %rax
	movq	%rax, %cr0
	movq	%cr4, %rax
	orq	$0x600, %rax
	movq	%rax, %cr4
	fninit

	movl	boot_magic, %edi
	movl	boot_info, %esi
	call	kmain
6:	cli
	hlt
	jmp	6b

	.section .boot.data, "aw"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff		/* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff		/* 0x10: data */
boot_gdt_end:
boot_gdt_ptr:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt
	.globl boot_magic, boot_info
boot_magic:
	.long 0
boot_info:
	.long 0
no_lm_msg:
	.asciz "lookahead: this CPU has no 64-bit long mode"

	.section .bss.boot, "aw", @nobits
	.balign 4096
	.globl boot_pml4, boot_pdpt, boot_pd, boot_pt
boot_pml4:
	.skip 4096
boot_pdpt:
	.skip 4096
boot_pd:
	.skip 4 * 4096
boot_pt:
	.skip 2 * 4096
boot_pt_end:
	.globl boot_stack_guard, boot_stack_bottom, boot_stack_top
boot_stack_guard:
	.skip 4096
boot_stack_bottom:
	.skip 32768
boot_stack_top:
