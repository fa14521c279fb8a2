/*
 * RESULT lines: valid one-line JSON, escaping, and what printf gives for
 * the formats the results use (64-bit integers and %f from newlib).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/ktest.h"
#include "kernel/result.h"

static void test_result_json(struct ktest *t)
{
	struct result r;

	result_begin(&r, "cat");
	result_str(&r, "path", "/a \"b\"\\\n");
	result_u64(&r, "bytes", 18446744073709551615ULL);
	result_i64(&r, "delta", -5);
	result_bool(&r, "ok", true);
	result_double(&r, "mbps", 61.234567, 2);
	result_raw(&r, "hist", "[1,2]");
	KT_EXPECT_STREQ(t, result_finish(&r),
			"{\"cmd\":\"cat\",\"path\":\"/a \\\"b\\\"\\\\\\n\",\"bytes\":18446744073709551615,"
			"\"delta\":-5,\"ok\":true,\"mbps\":61.23,\"hist\":[1,2]}");
}

static void test_result_overflow_stays_valid(struct ktest *t)
{
	struct result r;
	char key[16];

	result_begin(&r, "big");
	for (int i = 0; i < 400; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		result_u64(&r, key, 1234567);
	}
	KT_EXPECT_STREQ(t, result_finish(&r), "{\"cmd\":\"?\",\"error\":\"result too long\"}");
}

static void test_printf_formats(struct ktest *t)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%llu %lld %llx", 18446744073709551615ULL, -9223372036854775807LL - 1,
		 0xdeadbeefcafef00dULL);
	KT_EXPECT_STREQ(t, buf, "18446744073709551615 -9223372036854775808 deadbeefcafef00d");
	snprintf(buf, sizeof(buf), "%zu %08x %-4s|", (size_t)4096, 0xabcu, "ab");
	KT_EXPECT_STREQ(t, buf, "4096 00000abc ab  |");
	snprintf(buf, sizeof(buf), "%.3f %f %.1f", 3.14159265, 0.5, -2.25);
	KT_EXPECT_STREQ(t, buf, "3.142 0.500000 -2.2");
	snprintf(buf, sizeof(buf), "%.2e", 123456.0);
	KT_EXPECT_STREQ(t, buf, "1.23e+05");
}

KTEST_SUITE(result, NULL, KTEST_CASE(test_result_json),
	    KTEST_CASE(test_result_overflow_stays_valid), KTEST_CASE(test_printf_formats));
