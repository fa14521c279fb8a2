/*
 * switch_to(uint64_t *prev_rsp, uint64_t next_rsp): save the callee-saved
 * registers and RFLAGS (so each thread keeps its own interrupt flag) on
 * the current stack, switch stacks, restore the next thread's.
 */
	.text
	.code64
	.globl switch_to
switch_to:
	pushfq
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	popfq
	ret

	/* A new thread starts here with its function and argument in r12/r13. */
	.globl thread_trampoline
thread_trampoline:
	movq	%r13, %rdi
	callq	*%r12
	movl	%eax, %edi
	call	thread_exit
	ud2
