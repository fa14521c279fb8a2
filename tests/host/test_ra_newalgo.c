/*
 * An algorithm is its file: tests/fixtures/readahead-ondemand4x.c, linked
 * in and named nowhere else, is found by ra=, listed by ralist, numbers its
 * own trace cases after everyone's, joins ra=all after the seeds' pair,
 * counts its windows under the kinds RESULT reports, and reads what it
 * decided (a sequential read: 4 pages, then windows of 4x up to the max).
 */
#include <string.h>

#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

static void test_registry(struct ktest *t)
{
	const struct ra_algorithm *a = ra_algo_find("ondemand4x"), *all[16];
	char list[256];
	unsigned int n, at = 0;
	int first = ra_case_find("x4-first"), next = ra_case_find("x4-next");

	KT_ASSERT_TRUE(t, a != NULL);
	KT_EXPECT_STREQ(t, a->title, "on-demand 4x");
	KT_EXPECT_TRUE(t, strstr(ra_algo_list(list, sizeof(list)), "|ondemand4x|") != NULL);
	/* its cases after the shared ones, named as it declared them, of its kinds */
	KT_EXPECT_TRUE(t, first >= RA_NR_SHARED_CASES && first < RA_NR_CASES);
	KT_EXPECT_EQ(t, next, first + 1);
	KT_EXPECT_STREQ(t, ra_case_name((unsigned int)first), "x4-first");
	KT_EXPECT_EQ(t, ra_case_kind((unsigned int)next), RA_KIND_NEXT);
	KT_EXPECT_TRUE(t, ra_case_count() > (unsigned int)next);
	/* ra=all: the seeds' pair first, then the others by name, this one among them */
	n = ra_algo_all(all, ARRAY_SIZE(all));
	KT_ASSERT_TRUE(t, n >= 3);
	KT_EXPECT_STREQ(t, all[0]->name, "legacy");
	KT_EXPECT_STREQ(t, all[1]->name, "ondemand");
	for (unsigned int i = 2; i < n; i++) {
		KT_EXPECT_TRUE(t, !(all[i]->flags & RA_ALGO_NO_WINDOW));
		if (i > 2)
			KT_EXPECT_TRUE(t, strcmp(all[i - 1]->name, all[i]->name) < 0);
		if (all[i] == a)
			at = i;
	}
	KT_EXPECT_TRUE(t, at >= 2);
}

/*
 * Page by page from 0, max 32: read 0 misses: x4-first [0,4) marked at 1;
 * mark 1: x4-next [4,20) (4 x 4) marked at 4; mark 4: [20,52) (16 x 4, cut
 * to 32), marked at 20; mark 20: [52,84); mark 52: [84,116).
 */
static void test_windows(struct ktest *t)
{
	const struct ra_algorithm *a = ra_algo_find("ondemand4x");
	const struct rah_event ev[] = {
		{ rah_case("x4-first"), 0, 1, 0, 4, 3, 4 },
		{ rah_case("x4-next"), 1, 1, 4, 16, 16, 16 },
		{ rah_case("x4-next"), 4, 1, 20, 32, 32, 32 },
		{ rah_case("x4-next"), 20, 1, 52, 32, 32, 32 },
		{ rah_case("x4-next"), 52, 1, 84, 32, 32, 32 },
	};
	struct ra_stats st;

	KT_ASSERT_TRUE(t, a != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/x4", 128 * PAGE_SIZE, a, 32), 0);
	rah_read_one_by_one(t, &h, 0, 83);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, ra_calls_of_kind(&st, RA_KIND_FIRST), 1);
	KT_EXPECT_EQ(t, ra_calls_of_kind(&st, RA_KIND_NEXT), 4);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

KTEST_SUITE(ra_newalgo, rah_suite_ready, KTEST_CASE(test_registry), KTEST_CASE(test_windows));
