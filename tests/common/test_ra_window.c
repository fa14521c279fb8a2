/*
 * The readahead window arithmetic and bookkeeping on their own: the size
 * formulas of patches 004-006 against tables worked out by hand, the
 * window helpers of patch 005, choosing the algorithm per file, the trace
 * ring buffer and the RESULT keys.
 */
#include <string.h>

#include "kernel/kv.h"
#include "kernel/result.h"
#include "tests/common/test_ra_harness.h"

static void test_macros(struct ktest *t)
{
	/* 128 KiB / 4 KiB rounded down; 16 KiB / 4 KiB rounded up */
	KT_EXPECT_EQ(t, MAX_RA_PAGES, 32);
	KT_EXPECT_EQ(t, MIN_RA_PAGES, 4);
	KT_EXPECT_EQ(t, RA_MAX_WINDOW, 4096);
}

static void test_init_size(struct ktest *t)
{
	/*
	 * r = roundup_pow_of_two(size); r <= max/32: 4r; r <= max/4: 2r; else max.
	 * max 32 (max/32 = 1, max/4 = 8): 1 -> 4; 2 -> 2*2 = 4; 3 -> r 4 -> 8;
	 *	8 -> 16; 9 -> r 16 > 8 -> 32; 64 -> 32
	 * max 256 (8, 64): 1 -> 4; 2 -> 8; 8 -> 32; 9 -> r 16 -> 32;
	 *	64 -> 128; 65 -> r 128 > 64 -> 256
	 */
	static const unsigned long t32[][2] = {
		{ 1, 4 }, { 2, 4 }, { 3, 8 }, { 4, 8 }, { 5, 16 }, { 8, 16 },
		{ 9, 32 }, { 16, 32 }, { 64, 32 },
	};
	static const unsigned long t256[][2] = {
		{ 1, 4 }, { 2, 8 }, { 8, 32 }, { 9, 32 }, { 16, 32 }, { 64, 128 },
		{ 65, 256 }, { 300, 256 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(t32); i++)
		KT_EXPECT_EQ(t, get_init_ra_size(t32[i][0], 32), t32[i][1]);
	for (unsigned int i = 0; i < ARRAY_SIZE(t256); i++)
		KT_EXPECT_EQ(t, get_init_ra_size(t256[i][0], 256), t256[i][1]);
}

static void test_next_size(struct ktest *t)
{
	/*
	 * cur < max/16: 4 cur, else 2 cur, capped at max.
	 * max 32 (max/16 = 2): 1 -> 4; 2 -> 4; 4 -> 8; 16 -> 32; 32 -> 32
	 * max 256 (16): 4 -> 16; 15 -> 60; 16 -> 32; 200 -> 256
	 */
	static const unsigned long cases[][3] = {
		{ 32, 1, 4 }, { 32, 2, 4 }, { 32, 4, 8 }, { 32, 16, 32 }, { 32, 32, 32 },
		{ 256, 4, 16 }, { 256, 15, 60 }, { 256, 16, 32 }, { 256, 200, 256 },
	};
	struct file_ra_state ra;

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&ra, 0, sizeof(ra));
		ra.ra_index = 1000;
		ra.readahead_index = 1000 + cases[i][1];
		KT_EXPECT_EQ(t, get_next_ra_size(&ra, cases[i][0]), cases[i][2]);
	}
}

static void test_window_helpers(struct ktest *t)
{
	struct file_ra_state ra;

	memset(&ra, 0, sizeof(ra));
	/* application at 10, window [12, 20), look-ahead mark 3 pages before its end */
	ra_set_index(&ra, 10, 12);
	ra_set_size(&ra, 8, 3);
	KT_EXPECT_EQ(t, ra.readahead_index, 20);
	KT_EXPECT_EQ(t, ra.lookahead_index, 17);
	KT_EXPECT_EQ(t, ra_readahead_size(&ra), 8);
	KT_EXPECT_EQ(t, ra_lookahead_size(&ra), 3);
	KT_EXPECT_EQ(t, ra_invoke_interval(&ra), 7);
	KT_EXPECT_TRUE(t, !ra_has_index(&ra, 9));
	KT_EXPECT_TRUE(t, ra_has_index(&ra, 10));
	KT_EXPECT_TRUE(t, ra_has_index(&ra, 19));
	KT_EXPECT_TRUE(t, !ra_has_index(&ra, 20));
}

static void test_algo_choice(struct ktest *t)
{
	struct file_ra_state ra;
	char list[160];

	KT_EXPECT_TRUE(t, ra_algo_find("legacy") == &ra_algo_legacy);
	KT_EXPECT_TRUE(t, ra_algo_find("Legacy") == NULL);
	KT_EXPECT_STREQ(t, ra_algo_off.name, "off");
	KT_EXPECT_STREQ(t, ra_algo_ondemand.name, "ondemand");
	/* every registered algorithm, sorted by name */
	ra_algo_list(list, sizeof(list));
	KT_EXPECT_TRUE(t, strstr(list, "legacy|") != NULL);
	KT_EXPECT_TRUE(t, strstr(list, "off|ondemand") != NULL);
	for (unsigned int i = 1; ra_algo_at(i); i++)
		KT_EXPECT_TRUE(t, strcmp(ra_algo_at(i - 1)->name, ra_algo_at(i)->name) < 0);

	file_ra_state_init(&ra, NULL);
	KT_EXPECT_EQ(t, ra.prev_index, -1UL);
	file_ra_set_algo(&ra, &ra_algo_off);
	KT_EXPECT_EQ(t, ra.ra_pages, 0);
	KT_EXPECT_EQ(t, file_ra_set_max_pages(&ra, 8), -EINVAL);
	file_ra_set_algo(&ra, &ra_algo_legacy);
	KT_EXPECT_EQ(t, ra.ra_pages, ra_default_pages);
	KT_EXPECT_EQ(t, file_ra_set_max_pages(&ra, RA_MAX_WINDOW + 1), -EINVAL);
	KT_EXPECT_EQ(t, file_ra_set_max_pages(&ra, 256), 0);
	KT_EXPECT_EQ(t, ra.ra_pages, 256);
	KT_EXPECT_EQ(t, readahead_init(NULL, 32), -EINVAL);
	KT_EXPECT_EQ(t, readahead_init(&ra_algo_off, 32), -EINVAL);
	KT_EXPECT_EQ(t, readahead_init(ra_default_algo, RA_MAX_WINDOW + 1), -EINVAL);
}

static void test_apply_args(struct ktest *t)
{
	static const struct kv_spec specs[] = { RA_KV_SPECS };
	struct kv_value vals[2];
	struct file f;

	memset(&f, 0, sizeof(f));
	file_ra_state_init(&f.f_ra, NULL);
	memset(vals, 0, sizeof(vals));
	vals[0] = (struct kv_value){ &specs[0], "legacy", true, 1, "legacy" };
	vals[1] = (struct kv_value){ &specs[1], "1024", true, 1024, NULL };
	KT_EXPECT_EQ(t, ra_apply_args("cat", &f, &vals[0], &vals[1]), 0);
	KT_EXPECT_TRUE(t, f.f_ra.algo == &ra_algo_legacy);
	KT_EXPECT_EQ(t, f.f_ra.ra_pages, 256);
	/* not a whole number of pages */
	vals[1] = (struct kv_value){ &specs[1], "6", true, 6, NULL };
	KT_EXPECT_EQ(t, ra_apply_args("cat", &f, NULL, &vals[1]), -EINVAL);
	/* ra=off with a window */
	vals[0] = (struct kv_value){ &specs[0], "off", true, 2, "off" };
	vals[1] = (struct kv_value){ &specs[1], "128", true, 128, NULL };
	KT_EXPECT_EQ(t, ra_apply_args("cat", &f, &vals[0], &vals[1]), -EINVAL);
	KT_EXPECT_EQ(t, ra_apply_args("cat", &f, &vals[0], NULL), 0);
	KT_EXPECT_EQ(t, f.f_ra.ra_pages, 0);
}

static void test_trace_ring(struct ktest *t)
{
	static char name[] = "/a/very/long/directory/name/for/the/file.bin";
	struct address_space mapping;
	struct file_ra_state ra;
	struct ra_call call = { .rcase = RA_CASE_RANDOM };

	memset(&mapping, 0, sizeof(mapping));
	mapping.name = name;
	file_ra_state_init(&ra, NULL);
	ra_trace_reset();
	for (unsigned long i = 0; i < RA_TRACE_EVENTS + 904; i++) {
		call.actual = 0;
		call.sync_ios = 0;
		ra_call_note_io(&call, i & 1, false);
		ra_trace_record(&mapping, &ra, i, 1, &call, i, 1, 0);
	}
	KT_EXPECT_EQ(t, ra_trace_count(), RA_TRACE_EVENTS);
	KT_EXPECT_EQ(t, ra_trace_total(), RA_TRACE_EVENTS + 904);
	KT_EXPECT_EQ(t, ra_trace_get(0)->offset, 904);
	KT_EXPECT_EQ(t, ra_trace_get(RA_TRACE_EVENTS - 1)->offset, RA_TRACE_EVENTS + 903);
	KT_EXPECT_TRUE(t, ra_trace_get(RA_TRACE_EVENTS) == NULL);
	/* the tail of the name, which says most */
	KT_EXPECT_STREQ(t, ra_trace_get(0)->file, name + strlen(name) - (RA_TRACE_NAME - 1));
	KT_EXPECT_EQ(t, ra.stats.calls[RA_CASE_RANDOM], RA_TRACE_EVENTS + 904);
	KT_EXPECT_EQ(t, ra.stats.sync_ios, (RA_TRACE_EVENTS + 904) / 2);
	KT_EXPECT_EQ(t, ra_global_stats.pages, (RA_TRACE_EVENTS + 904) / 2);
	ra_trace_reset();
	KT_EXPECT_EQ(t, ra_trace_count(), 0);
	KT_EXPECT_EQ(t, ra_global_stats.pages, 0);
}

static void test_result_keys(struct ktest *t)
{
	struct result r;
	struct file f;

	memset(&f, 0, sizeof(f));
	file_ra_state_init(&f.f_ra, NULL);
	file_ra_set_algo(&f.f_ra, &ra_algo_legacy);
	file_ra_set_max_pages(&f.f_ra, 64);
	f.f_ra.stats.calls[rah_case("legacy-first")] = 2;
	f.f_ra.stats.calls[rah_case("legacy-ahead")] = 3;
	f.f_ra.stats.sync_ios = 2;
	f.f_ra.stats.async_ios = 3;
	f.f_ra.stats.pages = 100;
	f.f_ra.stats.hit_pages = 90;
	f.f_ra.stats.lead[0] = 2;	/* [0, 2) us */
	f.f_ra.stats.lead[5] = 3;	/* [32, 64) us */
	f.f_ra.stats.lead[10] = 85;	/* [1024, 2048) us */
	result_begin(&r, "cat");
	ra_result_keys(&r, &f);
	KT_EXPECT_STREQ(t, result_finish(&r),
			"{\"cmd\":\"cat\",\"ra\":\"legacy\",\"ra_kb\":256,\"ra_calls\":5,"
			"\"ra_sync\":2,\"ra_async\":3,\"ra_pages\":100,\"ra_hit_pages\":90,"
			"\"ra_thrashed_pages\":0,\"ra_windows\":0,\"ra_thrashed_windows\":0,"
			"\"readpage_ios\":0,\"ra_deferred\":0,\"ra_unused_pages\":10,"
			"\"ra_lead_us\":{\"0\":2,\"32\":3,\"1024\":85}}");
	KT_EXPECT_EQ(t, ra_lead_median_bucket(&f.f_ra.stats), 10);
}

KTEST_SUITE(ra_window, NULL,
	    KTEST_CASE(test_macros), KTEST_CASE(test_init_size), KTEST_CASE(test_next_size),
	    KTEST_CASE(test_window_helpers), KTEST_CASE(test_algo_choice),
	    KTEST_CASE(test_apply_args), KTEST_CASE(test_trace_ring),
	    KTEST_CASE(test_result_keys));
