/*
 * In-kernel tests in the spirit of KUnit (kernel/ktest.c). A suite is a
 * NULL-terminated array of cases registered through the "ktest_suites"
 * linker section, so adding a test is adding a function. The runner prints
 * KTAP version 1. The same suites link into host test programs
 * (tests/host/), so hardware-independent code is tested in both places.
 *
 *	static void test_split(struct ktest *t)
 *	{
 *		KT_EXPECT_EQ(t, buddy_split(...), 0);
 *	}
 *	KTEST_SUITE(buddy, NULL, KTEST_CASE(test_split), KTEST_CASE(test_merge));
 *
 * KT_EXPECT_* record a failure and go on; KT_ASSERT_* also return from the
 * case. Failures print file:line and both values.
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include "kernel/types.h"

struct ktest {
	const char *name;
	int failures;
	const char *skip_reason;	/* set with KT_SKIP() */
};

struct ktest_case {
	const char *name;
	void (*fn)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	/* Optional: returns non-zero (and the suite is skipped) when it cannot run here. */
	const char *(*skip_if)(void);
	const struct ktest_case *cases;
};

#define KTEST_CASE(fn) { #fn, fn }

#define KTEST_SUITE(sname, skip_fn, ...)                                         \
	static const struct ktest_case __ktest_cases_##sname[] = { __VA_ARGS__,  \
								  { NULL, NULL } }; \
	static const struct ktest_suite __ktest_suite_##sname                    \
		__attribute__((used, section("ktest_suites"), aligned(8))) = {   \
			#sname, skip_fn, __ktest_cases_##sname }

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define KT_FAIL(t, fmt, ...) ktest_fail(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define __KT_CMP(t, a, op, b, on_fail)                                           \
	do {                                                                     \
		long long __a = (long long)(a), __b = (long long)(b);            \
		if (!(__a op __b)) {                                             \
			ktest_fail(t, __FILE__, __LINE__,                        \
				   "expected %s %s %s, got %lld (0x%llx) vs %lld (0x%llx)", \
				   #a, #op, #b, __a, (unsigned long long)__a, __b, \
				   (unsigned long long)__b);                     \
			on_fail;                                                 \
		}                                                                \
	} while (0)

#define KT_EXPECT_EQ(t, a, b) __KT_CMP(t, a, ==, b, (void)0)
#define KT_EXPECT_NE(t, a, b) __KT_CMP(t, a, !=, b, (void)0)
#define KT_EXPECT_LT(t, a, b) __KT_CMP(t, a, <, b, (void)0)
#define KT_EXPECT_LE(t, a, b) __KT_CMP(t, a, <=, b, (void)0)
#define KT_EXPECT_GT(t, a, b) __KT_CMP(t, a, >, b, (void)0)
#define KT_EXPECT_GE(t, a, b) __KT_CMP(t, a, >=, b, (void)0)
#define KT_ASSERT_EQ(t, a, b) __KT_CMP(t, a, ==, b, return)
#define KT_ASSERT_NE(t, a, b) __KT_CMP(t, a, !=, b, return)
#define KT_ASSERT_LE(t, a, b) __KT_CMP(t, a, <=, b, return)
#define KT_ASSERT_GE(t, a, b) __KT_CMP(t, a, >=, b, return)

#define KT_EXPECT_TRUE(t, c)                                                     \
	do {                                                                     \
		if (!(c))                                                        \
			ktest_fail(t, __FILE__, __LINE__, "expected %s", #c);   \
	} while (0)
#define KT_ASSERT_TRUE(t, c)                                                     \
	do {                                                                     \
		if (!(c)) {                                                      \
			ktest_fail(t, __FILE__, __LINE__, "expected %s", #c);   \
			return;                                                  \
		}                                                                \
	} while (0)
#define KT_EXPECT_STREQ(t, a, b)                                                 \
	do {                                                                     \
		const char *__sa = (a), *__sb = (b);                             \
		if (!__sa || !__sb || strcmp(__sa, __sb) != 0)                   \
			ktest_fail(t, __FILE__, __LINE__,                        \
				   "expected %s == %s, got \"%s\" vs \"%s\"", #a, #b, \
				   __sa ? __sa : "(null)", __sb ? __sb : "(null)"); \
	} while (0)
#define KT_SKIP(t, reason) do { (t)->skip_reason = (reason); return; } while (0)

/*
 * Run every registered suite whose name matches @filter (NULL: all), print
 * KTAP and return the number of failed cases.
 */
int ktest_run_all(const char *filter);
/* 0 if every name of @filter (NAME or -NAME, comma-separated) is a suite's; else -1, the
 * first that is not copied to @bad */
int ktest_check_filter(const char *filter, char *bad, size_t size);

#endif
