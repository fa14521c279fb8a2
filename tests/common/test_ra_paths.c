/*
 * The other call sites of readahead: the fault path (patch 007's
 * filemap_fault, with the NORMAL/SEQUENTIAL/RANDOM hints), the splice path
 * (patch 008), the readdir call site (patch 009), and the error paths of
 * the read path (one ->readpage retry, then -EIO). Sequences worked out by
 * hand as in test_ra_ondemand.c and test_ra_legacy.c.
 */
#include <string.h>

#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

/* Fault every page of [from, to] in order; each must come back uptodate and locked. */
static void fault_range(struct ktest *t, pgoff_t from, pgoff_t to, enum filemap_advice adv)
{
	for (pgoff_t i = from; i <= to; i++) {
		int err = 1;
		struct page *page = filemap_fault(&h.file, i, adv, &err);

		KT_ASSERT_TRUE(t, page != NULL);
		KT_EXPECT_EQ(t, err, 0);
		KT_EXPECT_TRUE(t, PageUptodate(page) && PageLocked(page));
		KT_EXPECT_EQ(t, page->index, i);
		KT_EXPECT_EQ(t, *(uint32_t *)page_address(page), rah_word(i, 0));
		unlock_page(page);
		put_page(page);
	}
}

/* MADV_SEQUENTIAL, on-demand: the read path's windows, one fault per page. */
static void test_fault_sequential(struct ktest *t)
{
	/* as 1-page reads: [0,4) [4,12) [12,28) [28,60) [60,92) has 4 pages, [92,124) none */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 12, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 12, 1, 28, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 28, 1, 60, 32, 32, 4 },
		{ RA_CASE_SEQ_NEXT, 60, 1, 92, 32, 32, 0 },
	};
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(12, 16), RP(28, 32), RP(60, 4),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/mmap-seq", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	fault_range(t, 0, 63, FAULT_ADV_SEQUENTIAL);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.file.f_ra.mmap_hit, 64);
	KT_EXPECT_EQ(t, h.file.f_ra.mmap_miss, 0);
	KT_EXPECT_EQ(t, h.file.f_ra.prev_index, 63);
	rah_close(&h);
}

/* MADV_NORMAL: read-around of ra_pages centred on each miss. */
static void test_fault_normal(struct ktest *t)
{
	/*
	 * 0: miss, around from 0 (0 <= 32/2): [0,32).  1..31 hit.
	 * 32: miss, around from 32 - 16: [16,48): 16 new.  48: [32,64): 16 new.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_AROUND, 0, 1, 0, 32, 0, 32 },
		{ RA_CASE_AROUND, 32, 1, 16, 32, 0, 16 },
		{ RA_CASE_AROUND, 48, 1, 32, 32, 0, 16 },
	};
	static const struct rah_io io[] = { RP(0, 32), RP(32, 16), RP(48, 16) };

	static const struct ra_algorithm *const algos[] = { &ra_algo_ondemand, &ra_algo_legacy };

	for (unsigned int i = 0; i < ARRAY_SIZE(algos); i++) {
		KT_ASSERT_EQ(t, rah_open(&h, "/mmap-normal", 64 * PAGE_SIZE, algos[i], 32), 0);
		fault_range(t, 0, 63, FAULT_ADV_NORMAL);
		rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
		rah_expect_io(t, &h, io, ARRAY_SIZE(io));
		KT_EXPECT_EQ(t, h.file.f_ra.mmap_miss, 3);
		KT_EXPECT_EQ(t, h.file.f_ra.mmap_hit, 61);
		rah_close(&h);
	}
}

/* MADV_RANDOM: no readahead at all, each fault reads its page alone. */
static void test_fault_random(struct ktest *t)
{
	static const struct rah_io io[] = { R1(10), R1(3), R1(50) };

	KT_ASSERT_EQ(t, rah_open(&h, "/mmap-random", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	fault_range(t, 10, 10, FAULT_ADV_RANDOM);
	fault_range(t, 3, 3, FAULT_ADV_RANDOM);
	fault_range(t, 50, 50, FAULT_ADV_RANDOM);
	fault_range(t, 3, 3, FAULT_ADV_RANDOM);	/* cached: no I/O */
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, ra_trace_count(), 0);
	rah_close(&h);
}

/* MADV_SEQUENTIAL, legacy: page_cache_readahead(pgoff, 1) before every lookup. */
static void test_fault_legacy_sequential(struct ktest *t)
{
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(12, 16), RP(28, 32), RP(60, 4),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/mmap-legacy", 64 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	fault_range(t, 0, 63, FAULT_ADV_SEQUENTIAL);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, ra_trace_count(), 64);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-ahead")), 5);	/* 1 4 12 28 60 */
	rah_close(&h);
}

static void test_fault_past_eof(struct ktest *t)
{
	int err = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/mmap-eof", 3 * PAGE_SIZE + 1, &ra_algo_ondemand, 32), 0);
	fault_range(t, 3, 3, FAULT_ADV_NORMAL);	/* the partial last page */
	KT_EXPECT_TRUE(t, filemap_fault(&h.file, 4, FAULT_ADV_NORMAL, &err) == NULL);
	KT_EXPECT_EQ(t, err, -EFAULT);
	rah_close(&h);
}

/* Splice 16 pages (64 KiB) at a time through the whole file, checking the data. */
static void splice_all(struct ktest *t, loff_t size)
{
	loff_t pos = 0;

	while (pos < size) {
		struct splice_pipe_desc spd;
		ssize_t n = generic_file_splice_read(&h.file, &pos, 16 * PAGE_SIZE, &spd);

		KT_ASSERT_TRUE(t, n > 0);
		for (unsigned int i = 0; i < spd.nr_pages; i++) {
			const uint32_t *w;

			KT_ASSERT_EQ(t, splice_page_confirm(&h.file, &spd, i), 0);
			w = page_address(spd.pages[i]);
			KT_EXPECT_EQ(t, w[spd.partial[i].offset / 4],
				     rah_word(spd.pages[i]->index, spd.partial[i].offset / 4));
		}
		splice_release(&spd);
	}
	KT_EXPECT_EQ(t, pos, size);
}

static void test_splice_ondemand(struct ktest *t)
{
	/*
	 * As 16-page reads: call 1 misses at 0 with nr_pages - spd.nr_pages =
	 * 16: [0,32) mark 16; call 2 meets the mark at page_nr 0: req 16 - 0:
	 * [32,64); call 3 at 32: [64,96); then every other call.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 16, 0, 32, 16, 32 },
		{ RA_CASE_SEQ_NEXT, 16, 16, 32, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 32, 16, 64, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 64, 16, 96, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 96, 16, 128, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 128, 16, 160, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 160, 16, 192, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 192, 16, 224, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 224, 16, 256, 32, 32, 0 },
	};
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/splice", 256 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	splice_all(t, 256 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.nr_io, 8);
	KT_EXPECT_EQ(t, h.file.f_ra.prev_index, 256);	/* the index after the last page */
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, st.hit_pages, 256);
	rah_close(&h);
}

static void test_splice_legacy(struct ktest *t)
{
	/*
	 * call(0, 16): first [0,32).  call(16, 16): prev 31: ahead [32,64).
	 * call(32): prev 47 >= 32: current [32,64), ahead [64,96).  call(48):
	 * prev 63 < 64: in window.  And so on: ahead windows at 64, 96, 128,
	 * 160, 192, 224 (the last one past the end).
	 */
	static const struct rah_io io[] = {
		RP(0, 32), RP(32, 32), RP(64, 32), RP(96, 32),
		RP(128, 32), RP(160, 32), RP(192, 32), RP(224, 32),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/splice-legacy", 256 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	splice_all(t, 256 * PAGE_SIZE);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, ra_trace_count(), 16);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-first")), 1);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-ahead")), 8);	/* 16 32 64 ... 224 */
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-window")), 7);
	rah_close(&h);
}

/* A short file: the last pipe buffer holds only the bytes inside the file. */
static void test_splice_eof(struct ktest *t)
{
	/*
	 * 1 MiB asked of a 2-page + 10-byte file: clipped to the file, 3 pages:
	 * init(3, 32): r 4 <= 8 -> 8, la 8 - 3 = 5: [0,8) has 3 pages, the mark
	 * (page 3) would be past the end
	 */
	static const struct rah_event ev[] = { { RA_CASE_SEQ_FIRST, 0, 3, 0, 8, 5, 3 } };
	struct splice_pipe_desc spd;
	loff_t pos = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/splice-eof", 2 * PAGE_SIZE + 10, &ra_algo_ondemand, 32), 0);
	KT_EXPECT_EQ(t, generic_file_splice_read(&h.file, &pos, 1 << 20, &spd),
		     2 * PAGE_SIZE + 10);
	KT_EXPECT_EQ(t, spd.nr_pages, 3);
	KT_EXPECT_EQ(t, spd.partial[2].len, 10);
	for (unsigned int i = 0; i < spd.nr_pages; i++)
		KT_EXPECT_EQ(t, splice_page_confirm(&h.file, &spd, i), 0);
	splice_release(&spd);
	KT_EXPECT_EQ(t, generic_file_splice_read(&h.file, &pos, 1 << 20, &spd), 0);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, rah_page_flags(&h, 3), -1);	/* nothing cached past the end */
	KT_EXPECT_EQ(t, h.inode.i_data.nrpages, 3);
	rah_close(&h);
}

/* The readdir call site: readahead only when the block leaves the window. */
static void test_readdir_ondemand(struct ktest *t)
{
	/*
	 * 100: outside the empty window; 100 - (-1) > 1: random, 1 page.
	 * 101: sequential: case 3 [101,105).  102..104: inside [101,105).
	 * 105: == readahead_index: case 1, cur 4 -> 8 [105,113).  113: 16
	 *    [113,129).  129: 32 [129,161).  130..140 inside.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 100, 1, 100, 1, 0, 1 },
		{ RA_CASE_SEQ_FIRST, 101, 1, 101, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 105, 1, 105, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 113, 1, 113, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 129, 1, 129, 32, 32, 32 },
	};
	static const struct rah_io io[] = { RP(100, 1), RP(101, 4), RP(105, 8), RP(113, 16),
					    RP(129, 32) };

	KT_ASSERT_EQ(t, rah_open(&h, "/dev-ondemand", 1024 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	for (pgoff_t i = 100; i <= 140; i++)
		ra_dir_readahead(&h.file, &h.inode.i_data, i);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.file.f_ra.prev_index, 140);
	rah_close(&h);
}

static void test_readdir_legacy(struct ktest *t)
{
	/*
	 * 100: random, 1 page.  101: first [101,105).  102: ahead [105,113).
	 * 105: current [105,113), ahead [113,129).  113: ahead [129,161).
	 * 129: ahead [161,193).  A call for every block.
	 */
	static const struct rah_io io[] = { RP(100, 1), RP(101, 4), RP(105, 8), RP(113, 16),
					    RP(129, 32), RP(161, 32) };

	KT_ASSERT_EQ(t, rah_open(&h, "/dev-legacy", 1024 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	for (pgoff_t i = 100; i <= 140; i++)
		ra_dir_readahead(&h.file, &h.inode.i_data, i);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, ra_trace_count(), 41);
	rah_close(&h);
}

/* A page whose readahead I/O failed is read again once, alone. */
static void test_error_retry(struct ktest *t)
{
	/* 8 pages at 0: init(8, 32) = 16, la 8: [0,16); page 5 fails once */
	static const struct rah_io io[] = { RP(0, 16), R1(5) };

	KT_ASSERT_EQ(t, rah_open(&h, "/err-once", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.fail_index = 5;
	h.fail_count = 1;
	KT_EXPECT_EQ(t, rah_read(&h, 0, 8), 8 * PAGE_SIZE);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* A page failing its retry too: the read stops there, and fails when it starts there. */
static void test_error_persistent(struct ktest *t)
{
	int err = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/err-hard", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.fail_index = 5;
	h.fail_count = 4;
	/* readahead fails, the retry fails: bytes of pages 0..4 */
	KT_EXPECT_EQ(t, rah_read(&h, 0, 8), 5 * PAGE_SIZE);
	/* starting at 5: its retry fails, nothing read */
	KT_EXPECT_EQ(t, rah_read(&h, 5, 1), -EIO);
	/* the fault path: its retry fails too */
	KT_EXPECT_TRUE(t, filemap_fault(&h.file, 5, FAULT_ADV_NORMAL, &err) == NULL);
	KT_EXPECT_EQ(t, err, -EIO);
	KT_EXPECT_EQ(t, h.fail_count, 0);
	/* the disk recovered: the next read's retry succeeds */
	KT_EXPECT_EQ(t, rah_read(&h, 5, 1), PAGE_SIZE);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* A mapping with only ->readpage still gets its readahead window, a page at a time. */
static void test_readpage_only(struct ktest *t)
{
	/* 8 pages at 0: init(8, 32) = 16 pages, each by ->readpage */
	struct rah_io io[16];

	for (int i = 0; i < 16; i++)
		io[i] = (struct rah_io)R1(i);
	KT_ASSERT_EQ(t, rah_open(&h, "/readpage-only", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.inode.i_data.a_ops = &rah_aops_readpage_only;
	KT_EXPECT_EQ(t, rah_read(&h, 0, 8), 8 * PAGE_SIZE);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_TRUE(t, rah_marked(&h, 8));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * A reader with readahead off passing another reader's look-ahead page must
 * leave its PG_readahead mark alone (the seed returns before touching it),
 * so the other reader's asynchronous readahead still fires there.
 */
static void test_off_keeps_mark(struct ktest *t)
{
	struct file_ra_state mine;

	KT_ASSERT_EQ(t, rah_open(&h, "/shared", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_EXPECT_EQ(t, rah_read(&h, 0, 8), 8 * PAGE_SIZE);
	KT_ASSERT_TRUE(t, rah_marked(&h, 8));
	/* a second open of the same file, readahead off, reads the marked page */
	mine = h.file.f_ra;
	file_ra_state_init(&h.file.f_ra, h.file.f_mapping);
	file_ra_set_algo(&h.file.f_ra, &ra_algo_off);
	KT_EXPECT_EQ(t, rah_read(&h, 8, 1), PAGE_SIZE);
	KT_EXPECT_TRUE(t, rah_marked(&h, 8));
	/* the first reader gets there: its asynchronous readahead happens */
	h.file.f_ra = mine;
	rah_clear_log(&h);
	KT_EXPECT_EQ(t, rah_read(&h, 8, 1), PAGE_SIZE);
	KT_EXPECT_TRUE(t, !rah_marked(&h, 8));
	KT_EXPECT_EQ(t, h.nr_io, 1);
	KT_EXPECT_EQ(t, h.io[0].first, 16);
	rah_close(&h);
}

/* The maximum window comes from the device (bdi.ra_pages), as 2.6.22's file_ra_state_init(). */
static void test_window_from_device(struct ktest *t)
{
	struct file_ra_state ra;

	KT_ASSERT_EQ(t, rah_open(&h, "/dev-window", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.bdi.ra_pages = 64;
	file_ra_state_init(&ra, h.file.f_mapping);
	KT_EXPECT_EQ(t, ra.ra_pages, (ra_default_algo->flags & RA_ALGO_NO_WINDOW) ? 0 : 64);
	h.bdi.ra_pages = 8;
	file_ra_state_init(&ra, h.file.f_mapping);
	KT_EXPECT_EQ(t, ra.ra_pages, (ra_default_algo->flags & RA_ALGO_NO_WINDOW) ? 0 : 8);
	rah_close(&h);
}

/* --- the read path through an actor (do_generic_mapping_read_actor) ------------- */

#define ACTOR_EVENTS 64

struct actor_check {
	loff_t pos;		/* the file offset of the next byte handed on */
	unsigned long bad_words, pieces;
	size_t largest;
};

/* Each piece must be the file's data at the offset the pieces so far reach. */
static void check_piece(void *ctx, const void *data, size_t len)
{
	struct actor_check *c = ctx;

	for (size_t b = 0; b + 4 <= len; b += 4) {
		loff_t at = c->pos + (loff_t)b;
		uint32_t got;

		memcpy(&got, (const char *)data + b, 4);
		if (got != rah_word((pgoff_t)(at >> PAGE_SHIFT),
				    (unsigned int)(at & (PAGE_SIZE - 1)) / 4))
			c->bad_words++;
	}
	c->pos += (loff_t)len;
	c->pieces++;
	c->largest = max(c->largest, len);
}

/*
 * A read through an actor is the same request as into a buffer: the same
 * readahead decisions (the whole length is their req_size), the same I/O,
 * and the same data, handed on a page at most at a time.
 */
static void test_actor_read(struct ktest *t)
{
	static const struct ra_algorithm *const algos[] = { &ra_algo_ondemand, &ra_algo_legacy };
	static struct ra_trace_event want[ACTOR_EVENTS];
	static struct rah_io want_io[RAH_MAX_IO];

	for (unsigned int i = 0; i < ARRAY_SIZE(algos); i++) {
		struct actor_check c = { .pos = 0 };
		unsigned int nev, nio;
		loff_t pos = 0;

		/* 100 pages into a buffer: what the actor's read must do */
		KT_ASSERT_EQ(t, rah_open(&h, "/actor", 256 * PAGE_SIZE, algos[i], 32), 0);
		KT_EXPECT_EQ(t, rah_read(&h, 0, 100), 100 * PAGE_SIZE);
		nev = min_t(unsigned int, ra_trace_count(), ACTOR_EVENTS);
		for (unsigned int e = 0; e < nev; e++)
			want[e] = *ra_trace_get(e);
		nio = h.nr_io;
		memcpy(want_io, h.io, nio * sizeof(*want_io));
		KT_EXPECT_EQ(t, h.bad_words, 0);
		rah_close(&h);
		KT_EXPECT_EQ(t, want[0].req_size, 100);

		KT_ASSERT_EQ(t, rah_open(&h, "/actor", 256 * PAGE_SIZE, algos[i], 32), 0);
		KT_EXPECT_EQ(t, do_generic_mapping_read_actor(&h.file, 100 * PAGE_SIZE, &pos,
							      check_piece, &c),
			     100 * PAGE_SIZE);
		KT_EXPECT_EQ(t, pos, 100 * PAGE_SIZE);
		KT_EXPECT_EQ(t, c.pieces, 100);
		KT_EXPECT_EQ(t, c.largest, PAGE_SIZE);
		KT_EXPECT_EQ(t, c.bad_words, 0);
		KT_EXPECT_EQ(t, ra_trace_count(), nev);
		for (unsigned int e = 0; e < nev && e < ra_trace_count(); e++) {
			const struct ra_trace_event *g = ra_trace_get(e), *w = &want[e];

			KT_EXPECT_EQ(t, g->rcase, w->rcase);
			KT_EXPECT_EQ(t, g->offset, w->offset);
			KT_EXPECT_EQ(t, g->req_size, w->req_size);
			KT_EXPECT_EQ(t, g->ra_index, w->ra_index);
			KT_EXPECT_EQ(t, g->ra_size, w->ra_size);
			KT_EXPECT_EQ(t, g->la_size, w->la_size);
			KT_EXPECT_EQ(t, g->actual, w->actual);
		}
		KT_EXPECT_TRUE(t, rah_expect_io(t, &h, want_io, nio));
		rah_close(&h);
	}
}

KTEST_SUITE(ra_paths, rah_suite_ready,
	    KTEST_CASE(test_fault_sequential), KTEST_CASE(test_fault_normal),
	    KTEST_CASE(test_fault_random), KTEST_CASE(test_fault_legacy_sequential),
	    KTEST_CASE(test_fault_past_eof), KTEST_CASE(test_splice_ondemand),
	    KTEST_CASE(test_splice_legacy), KTEST_CASE(test_splice_eof),
	    KTEST_CASE(test_readdir_ondemand), KTEST_CASE(test_readdir_legacy),
	    KTEST_CASE(test_error_retry), KTEST_CASE(test_error_persistent),
	    KTEST_CASE(test_readpage_only), KTEST_CASE(test_off_keeps_mark),
	    KTEST_CASE(test_window_from_device), KTEST_CASE(test_actor_read));
