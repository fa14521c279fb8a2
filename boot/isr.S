/*
 * Interrupt and exception entry stubs for all 256 vectors. Each pushes a
 * dummy error code where the CPU does not, then its vector number; the
 * common path saves the general registers and the SSE/x87 state (fxsave:
 * newlib and gcc use SSE anywhere, interrupts included) and calls
 * trap_dispatch(struct trap_frame *).
 */
	.text
	.code64

.macro STUB vec
	.balign 16
isr_\vec:
	.if (\vec == 8) || (\vec >= 10 && \vec <= 14) || (\vec == 17) || (\vec == 21) || (\vec == 29) || (\vec == 30)
	.else
	pushq	$0
	.endif
	pushq	$\vec
	jmp	isr_common
.endm

	.altmacro
.macro STUBS from, to
	STUB \from
	.if \to - \from
	STUBS %(\from + 1), \to
	.endif
.endm

	STUBS 0, 63
	STUBS 64, 127
	STUBS 128, 191
	STUBS 192, 255

isr_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	cld
	movq	%rsp, %rbx		/* the frame; rbx survives the call */
	andq	$-16, %rsp
	subq	$512, %rsp
	fxsave	(%rsp)
	movq	%rbx, %rdi
	call	trap_dispatch
	fxrstor	(%rsp)
	movq	%rbx, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp		/* vector and error code */
	iretq

.macro STUBADDR vec
	.quad isr_\vec
.endm
.macro STUBADDRS from, to
	STUBADDR \from
	.if \to - \from
	STUBADDRS %(\from + 1), \to
	.endif
.endm

	.section .rodata
	.balign 8
	.globl isr_table
isr_table:
	STUBADDRS 0, 63
	STUBADDRS 64, 127
	STUBADDRS 128, 191
	STUBADDRS 192, 255
