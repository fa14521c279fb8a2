/*
 * Fuzzing every readahead algorithm through the real page cache. The input
 * picks an algorithm (any registered one), a maximum window, the device's
 * largest request and a file size, then a sequence of operations: reads by
 * up to four streams sharing one open file, seeks, sub-page preads,
 * evictions (as reclaim would), congestion on and off, mmap faults with
 * each advice, splices, fadvise and readdir calls. After every operation
 * the invariants below are checked; a violation aborts with a message, so
 * libFuzzer keeps the input.
 *
 *  - the data read is the file's (every word), reads return what they ask
 *    for up to end of file;
 *  - no page submitted for I/O was cached before, none lies past the end;
 *  - every window (trace event) and what one call submits is at most the
 *    maximum: ra_pages (doubled by FADV_SEQUENTIAL; the largest this file
 *    had, as mainline keeps a window's size when the maximum shrinks), or
 *    io_pages for a larger request (linux); 2.6.31's piggy-back (context, thrash-safe) can merge a
 *    second window of at most the maximum into the first, and 2.6.20 can
 *    submit its current and ahead windows in one call: twice the maximum
 *    there;
 *  - a page newly marked PG_readahead lies in a window submitted by this
 *    operation;
 *  - the state: ra_index <= lookahead_index <= readahead_index, and the
 *    reader (la_index) not past the window, for the on-demand family; 2.6.20's
 *    ahead window, when open, starts where the current one ends.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined as build/host/fuzz_ra
 * (make fuzz), and run briefly by make test (tests/host/fuzz_ra.t); the
 * suite ra_fuzz_seeded also runs 400 pseudo-random inputs through it in
 * build/host/test_readahead_mm, so the invariants are checked without clang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/mm.h"
#include "tests/common/test_ra_harness.h"

#define MAX_FILE_PAGES	1024
#define MAX_OPS		200
#define NR_STREAMS	4

static struct ra_harness h;
/*
 * The cache by page index, up to 64 past the end: SEEN_CACHED, SEEN_MARKED
 * (PG_readahead). was[] as the last scan found it, now[] the one under way.
 */
#define SEEN_CACHED	1
#define SEEN_MARKED	2
static uint8_t seen[2][MAX_FILE_PAGES + 64];
static uint8_t *was = seen[0], *now = seen[1];
static unsigned long file_pages, limit_seen;
/* ra=linux's VM_HUGEPAGE window: two order-9 folios, whatever the maximum */
#define HUGEPAGE_WINDOW 1024UL
/* was[] holds the cache as it is: check() just ran */
static bool scanned;
static const struct ra_algorithm *algo;

/* The largest window the state allows now (FADV_SEQUENTIAL doubles ra_pages). */
static unsigned long window_limit(void)
{
	unsigned long limit = h.file.f_ra.ra_pages;

	/* ractl_max_pages(): a request larger than the window may use io_pages */
	if (!strcmp(algo->name, "linux"))
		limit = max(limit, h.bdi.io_pages);
	/* 2.6.31's piggy-back merges the next window, up to the maximum, into this one */
	if (!strcmp(algo->name, "context") || !strcmp(algo->name, "thrash-safe"))
		limit *= 2;
	return limit;
}

static void fail(const char *what, unsigned long a, unsigned long b)
{
	fprintf(stderr, "fuzz_ra: %s (%lu, %lu), algorithm %s, file %lu pages, max %lu\n", what,
		a, b, algo ? algo->name : "?", file_pages, h.file.f_ra.ra_pages);
	abort();
}

/* The harness tells of every page whose read starts. */
static void page_read(pgoff_t index)
{
	if (index >= file_pages)
		fail("a page past the end submitted", index, file_pages);
	if (was[index] & SEEN_CACHED)
		fail("a cached page submitted again", index, 0);
}

static __no_coverage bool in_event_window(pgoff_t index)
{
	for (unsigned int i = 0; i < ra_trace_count(); i++) {
		const struct ra_trace_event *e = ra_trace_get(i);

		if (e->actual && index >= e->ra_index && index < e->ra_index + e->ra_size)
			return true;
	}
	return false;
}

/* page_cache_walk()'s visit: note the page in now[], check a new mark. */
static __no_coverage void see(void *arg, struct page *page)
{
	bool checking = *(bool *)arg;
	pgoff_t p = page->index;
	bool marked = page->flags & BIT(PG_readahead);

	if (p >= file_pages + 64)
		return;		/* as far as a lookup per index looked */
	if (now[p])
		fail("two cached pages at one index", p, 0);
	now[p] = SEEN_CACHED | (marked ? SEEN_MARKED : 0);
	if (checking && p < file_pages && marked && !(was[p] & SEEN_MARKED) &&
	    !in_event_window(p))
		fail("a mark outside the windows submitted", p, 0);
}

/*
 * The cache's state into was[], checking each page newly marked when
 * @checking. One walk of the index: a lookup per page index, 1088 of them
 * after each operation, took 38% of the fuzzer's time. The walk refuses a
 * page no lookup would find, and see() two pages at one index (a lookup
 * finds one): so it sees what the lookups did.
 */
static void scan(bool checking)
{
	uint8_t *t;

	memset(now, 0, file_pages + 64);
	if (page_cache_walk(&h.inode.i_data, see, &checking) < 0)
		fail("a cached page outside its index chain", 0, 0);
	t = was;
	was = now;
	now = t;
}

static void snapshot(void)
{
	/*
	 * Between check() and the next operation nothing touches the cache:
	 * its scan is this one (each walks the whole index).
	 */
	if (!scanned)
		scan(false);
	scanned = false;
	ra_trace_reset();
	rah_clear_log(&h);
	limit_seen = max(limit_seen, window_limit());
}

static void check(void)
{
	const struct file_ra_state *ra = &h.file.f_ra;
	unsigned long limit = max(limit_seen, window_limit());
	static int legacy_random = -2, linux_hugepage = -2;
	bool ahead = false;

	if (legacy_random == -2)
		legacy_random = ra_case_find("legacy-random");
	if (linux_hugepage == -2)
		linux_hugepage = ra_case_find("linux-hugepage");
	if (h.bad_words)
		fail("wrong data read", h.bad_words, 0);

	for (unsigned int i = 0; i < ra_trace_count(); i++) {
		const struct ra_trace_event *e = ra_trace_get(i);

		if (e->rcase == RA_CASE_FORCED || e->rcase == RA_CASE_FADV_RANDOM ||
		    e->rcase == RA_CASE_OFF || e->rcase == RA_CASE_RANDOM ||
		    (int)e->rcase == legacy_random)
			continue;	/* the reader's own request, not a window */
		/* 7.2's VM_HUGEPAGE fault reads two 2 MiB folios whatever the maximum */
		if ((int)e->rcase == linux_hugepage) {
			if (e->ra_size != HUGEPAGE_WINDOW || e->actual > HUGEPAGE_WINDOW)
				fail("a VM_HUGEPAGE window not of two 2 MiB folios", e->ra_size,
				     HUGEPAGE_WINDOW);
			continue;
		}
		if (e->ra_size > limit)
			fail("a window larger than the maximum", e->ra_size, limit);
		/* 2.6.20 can submit its current and its ahead window in one call */
		if (e->actual > limit * (e->has_ahead ? 2 : 1))
			fail("a submission larger than the maximum", e->actual, limit);
		if (e->has_ahead && e->ahead_start && e->ahead_start != e->ra_index + e->ra_size)
			fail("the ahead window does not follow the current one", e->ahead_start,
			     e->ra_index + e->ra_size);
		ahead |= e->has_ahead;
	}
	scan(true);
	scanned = true;
	if (!ahead && !(ra->ra_index <= ra->lookahead_index &&
			ra->lookahead_index <= ra->readahead_index &&
			ra->la_index <= ra->readahead_index))
		fail("window indices out of order", ra->ra_index, ra->readahead_index);
}

static unsigned int take(const uint8_t **p, const uint8_t *end)
{
	return *p < end ? *(*p)++ : 0;
}

static void run_one(const uint8_t *data, size_t size)
{
	static const unsigned long maxes[] = { 0, 1, 4, 8, 16, 32, 64, 256 };
	static char buf[RAH_MAX_READ_PAGES * PAGE_SIZE];
	const uint8_t *p = data, *end = data + size;
	pgoff_t pos[NR_STREAMS] = { 0 };
	unsigned int nalgo = 0, ops = 0;
	unsigned long max_pages, io_pages;

	while (ra_algo_at(nalgo))
		nalgo++;
	algo = ra_algo_at(take(&p, end) % nalgo);
	max_pages = maxes[take(&p, end) % ARRAY_SIZE(maxes)];
	io_pages = take(&p, end) % 2 ? 512 : 0;
	file_pages = 1 + (take(&p, end) | take(&p, end) << 8) % MAX_FILE_PAGES;
	if (algo->flags & RA_ALGO_NO_WINDOW)
		max_pages = 0;
	if (rah_open(&h, "/fuzz", (loff_t)file_pages * PAGE_SIZE - take(&p, end) % PAGE_SIZE, algo,
		     max_pages))
		fail("cannot open", 0, 0);
	h.bdi.io_pages = io_pages;
	h.io_hook = page_read;
	limit_seen = 0;
	scanned = false;

	while (p < end && ops++ < MAX_OPS) {
		unsigned int op = take(&p, end), a = take(&p, end), b = take(&p, end);
		enum filemap_advice adv;
		unsigned int s = a % NR_STREAMS, n = 1 + b % 32;
		pgoff_t at = (a << 8 | b) % file_pages;
		int err;

		snapshot();
		switch (op % 12) {
		case 0: case 1: case 2:	/* a stream reads on */
			if (op & 0x80)
				n = 1 + b % RAH_MAX_READ_PAGES;
			if (pos[s] >= file_pages)
				pos[s] = 0;
			if (rah_read(&h, pos[s], n) < 0)
				fail("a read failed", pos[s], n);
			pos[s] += n;
			break;
		case 3:			/* a stream seeks */
			pos[s] = at;
			break;
		case 4:			/* reclaim takes a range */
			rah_evict(&h, at, n * (1 + (op >> 4)));
			break;
		case 5:
			h.congested = !h.congested;
			break;
		case 6:			/* a fault with some advice */
			adv = (enum filemap_advice)((op >> 4) % FAULT_ADV_NR);
			/* the windows after a VM_HUGEPAGE one keep its size (max(size, next)) */
			if (adv == FAULT_ADV_HUGEPAGE && !strcmp(algo->name, "linux"))
				limit_seen = max(limit_seen, HUGEPAGE_WINDOW);
			err = rah_fault(&h, at, adv);
			if (err)
				fail("a fault failed", at, (unsigned long)-err);
			break;
		case 7: {		/* a sub-page read */
			loff_t off = (loff_t)at * PAGE_SIZE + (a * 37 % PAGE_SIZE);
			size_t len = 1 + (size_t)b * 61 % (3 * PAGE_SIZE);

			if (rah_pread(&h, off, len, buf) < 0)
				fail("a pread failed", at, len);
			break;
		}
		case 8: {		/* a splice of up to 16 pages */
			loff_t off = (loff_t)at * PAGE_SIZE;
			struct splice_pipe_desc spd;
			ssize_t got = generic_file_splice_read(&h.file, &off, n * PAGE_SIZE, &spd);

			for (unsigned int i = 0; got > 0 && i < spd.nr_pages; i++)
				if (splice_page_confirm(&h.file, &spd, i))
					fail("a spliced page failed", at, i);
			if (got > 0)
				splice_release(&spd);
			break;
		}
		case 9:			/* fadvise */
			if (file_ra_fadvise(&h.file, (loff_t)at * PAGE_SIZE, (loff_t)n * PAGE_SIZE,
					    (enum ra_fadvise)((op >> 4) % FADV_NR)) < 0)
				fail("fadvise failed", at, n);
			break;
		case 10:		/* a directory block read */
			ra_dir_readahead(&h.file, &h.inode.i_data, at);
			break;
		default:		/* the reader's last position jumps (another read path) */
			h.file.f_ra.prev_index = at;
			break;
		}
		check();
	}
	rah_close(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (rah_suite_ready())
		abort();
	run_one(data, size);
	return 0;
}

/* Inputs from a fixed generator (splitmix64): the same 400 every run. */
static void test_fuzz_seeded(struct ktest *t)
{
	static uint8_t input[600];
	uint64_t x = 0x6c6f6f6b61686561ULL;

	for (int i = 0; i < 400; i++) {
		size_t len = 8 + i % (sizeof(input) - 8);

		for (size_t j = 0; j < len; j++) {
			uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
			input[j] = (uint8_t)(z ^ (z >> 31));
		}
		run_one(input, len);
	}
	KT_EXPECT_TRUE(t, !h.open);
}
KTEST_SUITE(ra_fuzz_seeded, rah_suite_ready, KTEST_CASE(test_fuzz_seeded));
