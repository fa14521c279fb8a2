/*
 * Cooperative kernel threads and wait queues (kernel/sched.c).
 *
 * A thread runs until it yields, sleeps on a wait queue or exits; interrupt
 * handlers only wake threads. So code between two calls that may sleep
 * (thread_yield, wait_event*, sleep_ns, anything doing I/O) runs atomically
 * with respect to other threads, but not to interrupt handlers.
 *
 * Usage:
 *	t = thread_create("worker", fn, arg);
 *	...
 *	code = thread_join(t);		// waits for fn to return, frees t
 *
 *	wait_event_timeout(wq, cond, 5 * NSEC_PER_SEC)	// true if cond
 *	wake_up_all(&wq);		// from a thread or an interrupt handler
 *
 * On the host (HOST_BUILD) there is one thread; a sleep whose condition is
 * false calls host_wait_hook() (tests set it to complete fake I/O) and
 * aborts the test if the condition is still false, since nothing else
 * could make it true.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "kernel/list.h"
#include "kernel/time.h"
#include "kernel/sync.h"

struct thread;

/*
 * A thread's stack, the thread structure at its top: 8 KiB as Linux 2.6's
 * on x86-64 (THREAD_SIZE), pages of the page cache's RAM
 * (thread_stack_alloc(), kernel/memory.h) mapped one after another with an
 * unmapped page below, so running off its bottom faults (a double fault,
 * on a stack of its own). The deepest measured, the quick suite's readers
 * with their interrupts, used 3.6 KiB of it.
 */
#define THREAD_STACK_SIZE (8UL * 1024)

struct wait_queue_head {
	struct list_head waiters;
};

struct wait_entry {
	struct list_head link;
	struct thread *thread;
};

#define WAIT_QUEUE_HEAD_INIT(name) { LIST_HEAD_INIT((name).waiters) }

void init_waitqueue_head(struct wait_queue_head *wq);
void wake_up(struct wait_queue_head *wq);
void wake_up_all(struct wait_queue_head *wq);

/* Building blocks of wait_event*(); called with the returned flags held. */
unsigned long prepare_to_wait(struct wait_queue_head *wq, struct wait_entry *w);
void finish_wait(struct wait_queue_head *wq, struct wait_entry *w, unsigned long flags);
/* Sleep until woken or until ktime_ns() >= deadline; interrupts stay masked. */
void schedule_until(uint64_t deadline);

#define WAIT_FOREVER UINT64_MAX

/*
 * Sleep until @cond is true or @timeout_ns passed. Evaluates to true when
 * @cond held (checked once more at the deadline), false on timeout.
 */
#define wait_event_timeout(wq, cond, timeout_ns)                                 \
	({                                                                       \
		uint64_t __to = (timeout_ns);                                    \
		uint64_t __dl = __to == WAIT_FOREVER ? WAIT_FOREVER               \
						      : ktime_ns() + __to;       \
		bool __ok;                                                       \
		for (;;) {                                                       \
			struct wait_entry __w;                                   \
			unsigned long __fl = prepare_to_wait(&(wq), &__w);       \
			if (cond) {                                              \
				__ok = true;                                     \
			} else if (ktime_ns() >= __dl) {                         \
				__ok = false;                                    \
			} else {                                                 \
				schedule_until(__dl);                            \
				finish_wait(&(wq), &__w, __fl);                  \
				continue;                                        \
			}                                                        \
			finish_wait(&(wq), &__w, __fl);                          \
			break;                                                   \
		}                                                                \
		__ok;                                                            \
	})

#define wait_event(wq, cond) ((void)wait_event_timeout(wq, cond, WAIT_FOREVER))

struct thread *thread_create(const char *name, int (*fn)(void *arg), void *arg);
void thread_yield(void);
__noreturn void thread_exit(int code);
/* Wait for @t to finish, free it and return its exit code. */
int thread_join(struct thread *t);
struct thread *current_thread(void);
/*
 * Call @fn(thread_id()) in every thread as it exits, before it is gone (as
 * 2.6.20's do_exit() calls exit_io_context()): a floor above this one (the
 * block layer: each process's elevator queues) forgets what it kept for
 * the thread, without kernel/ calling up into it. At most
 * THREAD_EXIT_HOOKS; -ENOSPC past that.
 */
#define THREAD_EXIT_HOOKS 4
int thread_exit_hook_register(void (*fn)(uint64_t id));
/* A number no other thread of this boot has had, as a pid (never reused). */
uint64_t thread_id(const struct thread *t);
void sleep_ns(uint64_t ns);
/*
 * The time the current thread has spent asleep (schedule_until(): waiting for
 * I/O, a lock or a timer) since it was created, so that code can tell its own
 * time from what it waited for (the readahead calls' ra_decide_secs).
 */
uint64_t thread_slept_ns(void);

#ifdef HOST_BUILD
/* Called when a host "thread" would sleep; returns false if it did nothing. */
extern bool (*host_wait_hook)(void);
#endif

#endif
