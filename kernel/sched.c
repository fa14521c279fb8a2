/*
 * Cooperative threads on one CPU. The run queue is FIFO; a thread leaves
 * the CPU only when it yields, sleeps or exits, and interrupt handlers only
 * move sleepers back onto the run queue. With nothing to run, the idle
 * thread halts with interrupts enabled ("sti; hlt" cannot lose a wake-up:
 * STI holds interrupts off for one more instruction).
 *
 * Timed sleeps sit on a deadline list; the APIC timer is armed (one-shot)
 * for the earliest of them, and its interrupt wakes those that are due and
 * arms it for the next. With no timed sleeper no timer is armed at all.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/memory.h"
#include "kernel/sched.h"

enum thread_state { T_RUNNING, T_RUNNABLE, T_SLEEPING, T_DEAD };

#define STACK_CANARY		0x6c6f6f6b61686561ULL	/* "lookahea" */

struct thread {
	uint64_t rsp;
	enum thread_state state;
	const char *name;
	int exit_code;
	uint64_t deadline;
	struct list_head run_link;
	struct list_head timer_link;
	struct wait_queue_head join_wq;
	void *stack;				/* NULL for the boot thread */
	uint64_t slept_ns;			/* time asleep in schedule_until() */
	uint64_t *canary;
	uint64_t id; /* thread_id(): 1 for the boot thread, then in creation order */
};

void switch_to(uint64_t *prev_rsp, uint64_t next_rsp);
void thread_trampoline(void);

static struct thread boot_thread = { .name = "main", .id = 1 };
static uint64_t last_thread_id = 1;
static struct thread *current = &boot_thread;
static struct thread *idle_thread;
static LIST_HEAD(run_queue);
static LIST_HEAD(timer_list);
static uint64_t timer_armed = WAIT_FOREVER; /* deadline the APIC timer is set for */
/* Under the virtual clock: the time the idle thread's HLT ends at if the timer ends it, or 0. */
static uint64_t idle_wake_ns;

void apic_timer_arm(uint64_t deadline_ns);

/* Arm the timer for the earliest sleeper if @force or if that moved earlier. Irqs off. */
static void timer_rearm(bool force)
{
	struct thread *t;
	uint64_t d = WAIT_FOREVER;

	list_for_each_entry(t, &timer_list, timer_link)
		d = min(d, t->deadline);
	if (force || d < timer_armed) {
		timer_armed = d;
		apic_timer_arm(d);
	}
}
extern char boot_stack_bottom[];

uint64_t thread_id(const struct thread *t)
{
	return t->id;
}

struct thread *current_thread(void)
{
	return current;
}

/* Called with interrupts masked. */
static void make_runnable(struct thread *t)
{
	if (t->state != T_SLEEPING)
		return;
	if (t->deadline != WAIT_FOREVER)
		list_del(&t->timer_link);
	t->deadline = WAIT_FOREVER;
	t->state = T_RUNNABLE;
	list_add_tail(&t->run_link, &run_queue);
}

/* Pick the next thread and switch to it; interrupts masked by the caller. */
static void schedule(void)
{
	struct thread *prev = current, *next;

	if (prev->canary && *prev->canary != STACK_CANARY)
		panic("stack overflow in thread %s", prev->name);
	if (!list_empty(&run_queue)) {
		next = list_first_entry(&run_queue, struct thread, run_link);
		list_del(&next->run_link);
	} else {
		next = idle_thread;
	}
	if (next == prev) {
		prev->state = T_RUNNING;
		return;
	}
	next->state = T_RUNNING;
	current = next;
	switch_to(&prev->rsp, next->rsp);
}

void sched_timer_rearm(void)
{
	unsigned long flags = local_irq_save();

	timer_rearm(true);
	local_irq_restore(flags);
}

/*
 * First thing on every interrupt, irqs off. Under the virtual clock QEMU
 * skips an idle CPU's HLT by moving its instruction count on to the next
 * timer expiry, but QEMU 7.2 computes that jump in its main loop from the
 * count the vCPU thread last published. When the main loop gets there
 * between the HLT and the vCPU thread's accounting of it, that count lacks
 * the instructions run since the kernel last read the clock, and the timer
 * comes as many nanoseconds late: how often depends on how the host
 * schedules QEMU's threads. So when the timer ends the idle thread's HLT,
 * the clock is set to the deadline the CPU slept until (or to when it went
 * idle, if that was later), which depends on the kernel alone.
 */
void sched_irq_enter(bool timer)
{
	if (idle_wake_ns && timer)
		ktime_idle_wake(idle_wake_ns);
	idle_wake_ns = 0;	/* only the interrupt that ends the HLT */
}

void sched_tick(void)
{
	struct thread *t, *n;
	uint64_t now = ktime_ns();

	list_for_each_entry_safe(t, n, &timer_list, timer_link)
		if (t->deadline <= now)
			make_runnable(t);
	/* Also when nothing was due: the interrupt may come early on the kernel's clock. */
	timer_rearm(true);
}

void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
}

static void wake_common(struct wait_queue_head *wq, bool all)
{
	unsigned long flags = local_irq_save();
	struct wait_entry *w;

	list_for_each_entry(w, &wq->waiters, link) {
		if (w->thread->state != T_SLEEPING)
			continue;
		make_runnable(w->thread);
		if (!all)
			break;
	}
	local_irq_restore(flags);
}

void wake_up(struct wait_queue_head *wq)
{
	wake_common(wq, false);
}

void wake_up_all(struct wait_queue_head *wq)
{
	wake_common(wq, true);
}

unsigned long prepare_to_wait(struct wait_queue_head *wq, struct wait_entry *w)
{
	unsigned long flags = local_irq_save();

	w->thread = current;
	list_add_tail(&w->link, &wq->waiters);
	return flags;
}

void finish_wait(struct wait_queue_head *wq, struct wait_entry *w, unsigned long flags)
{
	(void)wq;
	list_del(&w->link);
	local_irq_restore(flags);
}

void schedule_until(uint64_t deadline)
{
	uint64_t t0 = ktime_ns();

	if (current == idle_thread)
		panic("the idle thread tried to sleep");
	current->state = T_SLEEPING;
	current->deadline = deadline;
	if (deadline != WAIT_FOREVER) {
		list_add_tail(&current->timer_link, &timer_list);
		timer_rearm(false);
	}
	schedule();
	current->slept_ns += ktime_ns() - t0; /* current is this thread again */
}

uint64_t thread_slept_ns(void)
{
	return current->slept_ns;
}

void thread_yield(void)
{
	unsigned long flags = local_irq_save();

	if (!list_empty(&run_queue)) {
		current->state = T_RUNNABLE;
		list_add_tail(&current->run_link, &run_queue);
		schedule();
	}
	local_irq_restore(flags);
}

void sleep_ns(uint64_t ns)
{
	struct wait_queue_head wq = WAIT_QUEUE_HEAD_INIT(wq);

	(void)wait_event_timeout(wq, false, ns);
}

struct thread *thread_create(const char *name, int (*fn)(void *arg), void *arg)
{
	void *stack = thread_stack_alloc(THREAD_STACK_SIZE);
	struct thread *t;
	uint64_t *sp;

	if (!stack)
		return NULL;
	/* The thread structure sits at the top of its stack, the canary at the bottom. */
	char *base = stack;
	t = (struct thread *)(base + THREAD_STACK_SIZE) - 1;
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->id = ++last_thread_id;
	t->stack = stack;
	t->canary = (uint64_t *)base;
	*t->canary = STACK_CANARY;
	t->deadline = WAIT_FOREVER;
	init_waitqueue_head(&t->join_wq);

	/*
	 * Eight words below a 16-byte boundary: switch_to() pops seven and
	 * returns into the trampoline with RSP 16-byte aligned, so its call
	 * enters fn with RSP = 8 (mod 16), as the SysV ABI wants (an aligned
	 * SSE spill in fn would fault otherwise).
	 */
	sp = (uint64_t *)ALIGN_DOWN((uintptr_t)t, 16);
	*--sp = (uint64_t)(uintptr_t)thread_trampoline;
	*--sp = 0x202;				/* RFLAGS: IF */
	*--sp = 0;				/* rbp */
	*--sp = 0;				/* rbx */
	*--sp = (uint64_t)(uintptr_t)fn;	/* r12 */
	*--sp = (uint64_t)(uintptr_t)arg;	/* r13 */
	*--sp = 0;				/* r14 */
	*--sp = 0;				/* r15 */
	t->rsp = (uint64_t)(uintptr_t)sp;

	unsigned long flags = local_irq_save();
	t->state = T_RUNNABLE;
	list_add_tail(&t->run_link, &run_queue);
	local_irq_restore(flags);
	return t;
}

static void (*exit_hooks[THREAD_EXIT_HOOKS])(uint64_t id);
static unsigned int nr_exit_hooks;

int thread_exit_hook_register(void (*fn)(uint64_t id))
{
	if (nr_exit_hooks == THREAD_EXIT_HOOKS)
		return -ENOSPC;
	exit_hooks[nr_exit_hooks++] = fn;
	return 0;
}

void thread_exit(int code)
{
	/* still a thread that may run others' code: the hooks run before it is dead */
	for (unsigned int i = 0; i < nr_exit_hooks; i++)
		exit_hooks[i](current->id);
	local_irq_disable();
	if (current == &boot_thread)
		panic("the boot thread called thread_exit");
	current->exit_code = code;
	current->state = T_DEAD;
	wake_up_all(&current->join_wq);
	schedule();
	panic("a dead thread was scheduled");
}

int thread_join(struct thread *t)
{
	int code;

	wait_event(t->join_wq, t->state == T_DEAD);
	code = t->exit_code;
	thread_stack_free(t->stack, THREAD_STACK_SIZE);
	return code;
}

static int idle_fn(void *arg)
{
	(void)arg;
	for (;;) {
		local_irq_disable();
		if (list_empty(&run_queue)) {
			if (ktime_is_virtual() && timer_armed != WAIT_FOREVER)
				idle_wake_ns = max(ktime_ns(), timer_armed);
			__asm__ __volatile__("sti; hlt" ::: "memory");
		} else {
			schedule();
		}
	}
	return 0;
}

int sched_init(void)
{
	boot_thread.state = T_RUNNING;
	boot_thread.deadline = WAIT_FOREVER;
	boot_thread.canary = (uint64_t *)boot_stack_bottom;
	*boot_thread.canary = STACK_CANARY;
	init_waitqueue_head(&boot_thread.join_wq);
	idle_thread = thread_create("idle", idle_fn, NULL);
	if (!idle_thread)
		return -ENOMEM;
	/* The idle thread runs only when nothing else can; keep it off the run queue. */
	unsigned long flags = local_irq_save();
	list_del(&idle_thread->run_link);
	idle_thread->state = T_RUNNABLE;
	local_irq_restore(flags);
	return 0;
}
