/*
 * Threads and wait queues: FIFO yield order, join returns the exit code,
 * a sleeper is woken by wake_up and by a timer, a timed wait times out,
 * and an interrupt (the APIC tick) can satisfy a wait.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/ktest.h"
#include "kernel/sched.h"
#include "kernel/irq.h"
#include "mm/mm.h"

static char order[16];
static int order_len;

static int yielder(void *arg)
{
	char c = (char)(uintptr_t)arg;

	for (int i = 0; i < 3; i++) {
		order[order_len++] = c;
		thread_yield();
	}
	return c;
}

static void test_yield_order(struct ktest *t)
{
	struct thread *a, *b;

	order_len = 0;
	memset(order, 0, sizeof(order));
	a = thread_create("a", yielder, (void *)(uintptr_t)'a');
	b = thread_create("b", yielder, (void *)(uintptr_t)'b');
	KT_ASSERT_TRUE(t, a && b);
	KT_EXPECT_EQ(t, thread_join(a), 'a');
	KT_EXPECT_EQ(t, thread_join(b), 'b');
	KT_EXPECT_STREQ(t, order, "ababab");
}

static struct wait_queue_head wq = WAIT_QUEUE_HEAD_INIT(wq);
static volatile int flag;

static int waiter(void *arg)
{
	(void)arg;
	return wait_event_timeout(wq, flag != 0, 5 * NSEC_PER_SEC) ? 1 : 0;
}

static void test_wait_wake(struct ktest *t)
{
	struct thread *w;

	flag = 0;
	w = thread_create("waiter", waiter, NULL);
	KT_ASSERT_TRUE(t, w != NULL);
	thread_yield();		/* let it go to sleep */
	flag = 1;
	wake_up_all(&wq);
	KT_EXPECT_EQ(t, thread_join(w), 1);
}

static void test_wait_timeout(struct ktest *t)
{
	uint64_t t0 = ktime_ns();
	bool ok;

	flag = 0;
	ok = wait_event_timeout(wq, flag != 0, 30 * NSEC_PER_MSEC);
	uint64_t d = ktime_ns() - t0;

	KT_EXPECT_TRUE(t, !ok);
	KT_EXPECT_GE(t, d, 30 * NSEC_PER_MSEC);
	KT_EXPECT_LT(t, d, 500 * NSEC_PER_MSEC);
}

static void test_sleep_lets_others_run(struct ktest *t)
{
	struct thread *a;

	order_len = 0;
	memset(order, 0, sizeof(order));
	a = thread_create("a", yielder, (void *)(uintptr_t)'x');
	KT_ASSERT_TRUE(t, a != NULL);
	sleep_ns(10 * NSEC_PER_MSEC);
	/* while we slept, the other thread ran to completion */
	KT_EXPECT_STREQ(t, order, "xxx");
	KT_EXPECT_EQ(t, thread_join(a), 'x');
}

static void test_interrupts_arrive(struct ktest *t)
{
	uint64_t before = irq_count(0xf0);

	uint64_t t0 = ktime_ns();

	/* tickless: each timed sleep arms the timer once and its interrupt ends the sleep */
	for (int i = 0; i < 5; i++)
		sleep_ns(2 * NSEC_PER_MSEC);
	KT_EXPECT_GE(t, irq_count(0xf0) - before, 5);
	KT_EXPECT_GE(t, ktime_ns() - t0, 10 * NSEC_PER_MSEC);
}

static void test_heap(struct ktest *t)
{
	void *p[64];

	/* newlib's malloc (printf uses it) */
	for (int i = 0; i < 64; i++) {
		p[i] = malloc((size_t)(i * 97 + 1));
		KT_ASSERT_TRUE(t, p[i] != NULL);
		memset(p[i], i, (size_t)(i * 97 + 1));
	}
	for (int i = 0; i < 64; i++)
		free(p[i]);
	/* the kernel heap */
	for (int i = 0; i < 64; i++) {
		p[i] = kmalloc((size_t)(1u << (i % 14)));
		KT_ASSERT_TRUE(t, p[i] != NULL);
		memset(p[i], 0xa5, (size_t)(1u << (i % 14)));
	}
	for (int i = 0; i < 64; i++)
		kfree(p[i]);
}

/* A new thread's stack follows the ABI: a 16-byte aligned local really is, and movaps works. */
static uintptr_t aligned_addr;

static int aligned_store(void *arg)
{
	uint8_t buf[32] __attribute__((aligned(16)));

	(void)arg;
	aligned_addr = (uintptr_t)buf;
	if (aligned_addr & 15)
		return 1; /* movaps would fault: report instead of panicking */
	__asm__ __volatile__("xorps %%xmm0, %%xmm0\n\tmovaps %%xmm0, %0" : "=m"(buf) : : "xmm0");
	return buf[0] == 0 && buf[15] == 0 ? 0 : 2;
}

static void test_thread_stack_aligned(struct ktest *t)
{
	struct thread *th = thread_create("aligned", aligned_store, NULL);

	KT_ASSERT_TRUE(t, th != NULL);
	KT_EXPECT_EQ(t, thread_join(th), 0);
	KT_EXPECT_EQ(t, aligned_addr & 15, 0);
}

KTEST_SUITE(sched, NULL, KTEST_CASE(test_thread_stack_aligned), KTEST_CASE(test_yield_order), KTEST_CASE(test_wait_wake),
	    KTEST_CASE(test_wait_timeout), KTEST_CASE(test_sleep_lets_others_run),
	    KTEST_CASE(test_interrupts_arrive), KTEST_CASE(test_heap));
