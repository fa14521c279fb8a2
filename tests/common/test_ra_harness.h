/*
 * Test harness of the readahead suites (tests/common/test_ra_*.c): a file
 * whose address_space reads through a recording ->readpages/->readpage.
 * Each call is logged (which operation, first index, page count) and the
 * pages are filled with a pattern of (index, word) and completed at once,
 * or failed (fail_index), or left locked until rah_complete() (defer).
 *
 * The suites use only the pagemap.h interface, so they run on the host
 * against the fake mm (build/host/test_readahead), on the host against the
 * real mm (build/host/test_readahead_mm) and in the kernel (run=selftest).
 *
 *	static struct ra_harness h;
 *	rah_open(&h, "/seq", 128 * PAGE_SIZE, &ra_algo_ondemand, 32);
 *	rah_read(&h, 0, 1);			// read(2) of page 0, data checked
 *	KT_EXPECT_EQ(t, h.nr_io, 1);		// one ->readpages call ...
 *	rah_close(&h);
 */
#ifndef TESTS_COMMON_TEST_RA_HARNESS_H
#define TESTS_COMMON_TEST_RA_HARNESS_H

#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/ktest.h"
#include "mm/filemap.h"

/* The algorithms the tests open files with by name (each in its mm/readahead-*.c). */
extern const struct ra_algorithm ra_algo_ondemand, ra_algo_legacy, ra_algo_off;

/*
 * An algorithm's own trace case by its name ("legacy-first"), as the
 * registry numbered it; an unknown name is a test bug (RA_NR_CASES, which
 * no event carries).
 */
static inline enum ra_case rah_case(const char *name)
{
	int c = ra_case_find(name);

	return (enum ra_case)(c < 0 ? RA_NR_CASES : c);
}

#define RAH_MAX_IO		512
#define RAH_MAX_READ_PAGES	128	/* largest rah_read() */
#define RAH_MAX_DEFERRED	1024

enum rah_op { RAH_READPAGES = 1, RAH_READPAGE = 2 };

struct rah_io {
	enum rah_op op;
	pgoff_t first;
	unsigned int nr;
	bool contiguous;		/* readpages: indexes first .. first + nr - 1 */
};

struct ra_harness {
	struct inode inode;
	struct file file;
	struct backing_dev_info bdi;
	bool congested;			/* what bdi_read_congested() answers */
	bool defer;			/* leave pages locked until rah_complete() */
	pgoff_t fail_index;		/* this page's next fail_count reads fail */
	unsigned int fail_count;
	struct rah_io io[RAH_MAX_IO];
	unsigned int nr_io;
	unsigned int io_overflow;
	unsigned long pages_read;	/* pages through either operation */
	struct page *deferred[RAH_MAX_DEFERRED];
	unsigned int nr_deferred;
	unsigned long bad_words;	/* data mismatches seen by rah_read() */
	void (*io_hook)(pgoff_t index);	/* if set: told of every page read, as it starts */
	bool open;
};

/* A mapping with ->readpage and no ->readpages (set on h->inode.i_data.a_ops after rah_open). */
extern const struct address_space_operations rah_aops_readpage_only;

/* Skip reason for the suites, or NULL (sets up a host arena if needed). */
const char *rah_suite_ready(void);

/*
 * Open a file of @size bytes with algorithm @algo and maximum window
 * @max_pages (ignored for ra=off). Clears the trace and global counters.
 */
int rah_open(struct ra_harness *h, const char *name, loff_t size, const struct ra_algorithm *algo,
	     unsigned long max_pages);
void rah_close(struct ra_harness *h);

/* read(2) of @npages pages at page @index; returns bytes or -errno, checks the data. */
ssize_t rah_read(struct ra_harness *h, pgoff_t index, unsigned long npages);
/* read(2) of @len bytes at byte @pos into @buf. */
ssize_t rah_pread(struct ra_harness *h, loff_t pos, size_t len, void *buf);
/* The pattern word @w of page @index. */
uint32_t rah_word(pgoff_t index, unsigned int w);

/*
 * An mmap fault at page @index with @advice: 0 when it returned the page
 * uptodate, locked and with the right data (then unlocked and released),
 * else -errno or -EBADMSG.
 */
int rah_fault(struct ra_harness *h, pgoff_t index, enum filemap_advice advice);

/* Put pages [first, first + n) in the cache, uptodate, as if read long ago. */
int rah_populate(struct ra_harness *h, pgoff_t first, unsigned long n);
/* Evict cached pages of [first, first + n) as reclaim would; returns how many. */
long rah_evict(struct ra_harness *h, pgoff_t first, unsigned long n);
/* Complete every deferred page; returns how many. */
unsigned int rah_complete(struct ra_harness *h);

/* Flags of cached page @index, or -1 if it is not cached. */
long rah_page_flags(struct ra_harness *h, pgoff_t index);
static inline bool rah_marked(struct ra_harness *h, pgoff_t index)
{
	long f = rah_page_flags(h, index);

	return f >= 0 && (f & BIT(PG_readahead));
}
void rah_clear_log(struct ra_harness *h);

/*
 * Compare the logged I/O with @want (n entries); reports each difference.
 * Returns true when they match.
 */
bool rah_expect_io(struct ktest *t, struct ra_harness *h, const struct rah_io *want,
		   unsigned int n);

/* An expected trace event: case, offset, req_size, ra_index, ra_size, la_size, actual. */
struct rah_event {
	enum ra_case rcase;
	pgoff_t offset;
	unsigned long req;
	pgoff_t ra_index;
	unsigned long ra_size, la_size, actual;
};
/* Compare the trace (from event @from on) with @want; reports each difference. */
/* The @i-th decision the ring holds (Linux's tracepoints skipped), or NULL. */
const struct ra_trace_event *rah_decision(unsigned int i);

/* One of Linux's readahead tracepoints as ra=linux records it (ratrace format=linux). */
struct rah_linux_event {
	enum ra_event_kind kind;
	unsigned long index, count;	/* count: req_count, or ra_unbounded's nr_to_read */
	unsigned int order;
	unsigned long size, async;	/* ra_unbounded: size 0, async = lookahead_size */
};
/* The Linux events of the trace, from its start, are exactly @want. */
bool rah_expect_linux(struct ktest *t, const struct rah_linux_event *want, unsigned int n);

bool rah_expect_events(struct ktest *t, unsigned int from, const struct rah_event *want,
		       unsigned int n);
/* Events of case @c in the trace. */
unsigned int rah_count_case(enum ra_case c);

/* Expected I/O: one ->readpages call of @nr pages from @first, or one ->readpage. */
#define RP(first, nr) { RAH_READPAGES, first, nr, true }
#define R1(first) { RAH_READPAGE, first, 1, true }

/* read(2) of each page in [@from, @to], one page per call. */
static inline void rah_read_one_by_one(struct ktest *t, struct ra_harness *h, pgoff_t from,
				       pgoff_t to)
{
	for (pgoff_t i = from; i <= to; i++)
		KT_ASSERT_EQ(t, rah_read(h, i, 1), PAGE_SIZE);
}

#endif
