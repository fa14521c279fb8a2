/*
 * Readahead tracing and counters (mm/ratrace.c). Every call into the
 * readahead code ends in a "case": one the on-demand family and the core
 * share (enum ra_case) or one an algorithm declares for itself (struct
 * ra_algorithm.cases, numbered after the shared ones by the registry).
 * The algorithm fills a struct ra_call and ra_trace_record() counts it per
 * file (file_ra_state.stats) and in all (ra_global_stats) and puts it in
 * the ring `ratrace` prints, as this tree's lines or as Linux's readahead
 * tracepoints (include/trace/events/readahead.h). The counters include
 * readahead(8)'s lead times; commands add them to their RESULT lines
 * (ra_result_keys()) and take a file's ra= and ra_kb= through
 * RA_KV_SPECS and ra_apply_args(). Included by mm/readahead.h.
 */
#ifndef MM_RATRACE_H
#define MM_RATRACE_H

#include "mm/pagemap.h"

struct file;
struct file_ra_state;
struct ra_algorithm;

/*
 * What kind of decision a trace case is, for the counters every algorithm
 * reports alike (RESULT's ra_seq_first, ra_seq_next, ra_random).
 */
enum ra_case_kind {
	RA_KIND_OTHER,
	RA_KIND_FIRST,	/* a new sequential window */
	RA_KIND_NEXT,	/* the window pushed on */
	RA_KIND_RANDOM, /* a read read as is */
};

/* A trace case an algorithm declares for itself (struct ra_algorithm.cases). */
struct ra_case_desc {
	const char *name; /* as ratrace and the RESULT lines print it */
	enum ra_case_kind kind;
};

/*
 * What one call into the readahead code decided (the trace's "case"): the
 * cases shared by the algorithms of the on-demand family and the core;
 * an algorithm's own come after them (struct ra_algorithm.cases).
 */
enum ra_case {
	RA_CASE_SEQ_NEXT,    /* on-demand: lookahead/readahead hit, push the window on */
	RA_CASE_RANDOM,	     /* on-demand: small standalone read, read as is */
	RA_CASE_SEQ_FIRST,   /* on-demand: new window for a sequential or oversize read */
	RA_CASE_CLUELESS,    /* on-demand: lookahead hit not matching the state */
	RA_CASE_CONGESTED,   /* on-demand: async readahead deferred, queue congested */
	RA_CASE_OFF,	     /* ra_pages == 0: no readahead */
	RA_CASE_AROUND,	     /* mmap read-around in the fault path */
	RA_CASE_FORCED,	     /* force_page_cache_readahead() */
	RA_CASE_CONTEXT,     /* context: a window sized from the cached pages behind */
	RA_CASE_HOLE_SCAN,   /* a mark hit without state: window from the next hole */
	RA_CASE_FADV_RANDOM, /* FADV_RANDOM: the request as is, whatever the algorithm */
	RA_NR_SHARED_CASES
};

/* Room for the shared cases and every algorithm's own (the registry checks). */
#define RA_NR_CASES 40

/*
 * Lead time: from a page's readahead submission to its first use by a
 * reader, in log2 buckets of microseconds as readahead(8) (BCC, bpftrace)
 * prints them: bucket 0 counts [0, 2) us, bucket b >= 1 counts [2^b, 2^(b+1)).
 */
#define RA_LEAD_BUCKETS 32

/* Counters, per file (file_ra_state.stats) and global (ra_global_stats). */
struct ra_stats {
	unsigned long calls[RA_NR_CASES];
	unsigned long pages;		/* pages submitted for readahead I/O */
	unsigned long hit_pages;	/* of those, pages a reader used */
	unsigned long thrashed_pages;	/* of those, pages evicted unread (global only) */
	unsigned long windows;		/* readahead submissions that read at least a page */
	unsigned long thrashed_windows; /* of those, windows with a page evicted unread */
	unsigned long readpage_ios;	/* pages a read had to fetch alone, through ->readpage */
	unsigned long deferred;		/* windows put off because the queue was congested */
	unsigned long sync_ios;		/* submissions a reader was waiting for */
	unsigned long async_ios;	/* submissions ahead of the reader */
	uint64_t stall_ns;		/* read(): time blocked on pages not yet read */
	uint64_t decide_ns;	 /* read(): the readahead calls' own time (decision, submission) */
	uint64_t decide_wait_ns; /* read(): what the calls slept (a sync indirect-block read) */
	unsigned long lead[RA_LEAD_BUCKETS]; /* used pages by lead time (RA_LEAD_BUCKETS) */
};

#define RA_TRACE_NAME 24 /* bytes of the file name kept (the tail) */

/*
 * What an event of the ring is: a decision of any algorithm (the default
 * `ratrace` lines), or one of Linux's readahead tracepoints as ra=linux
 * fires them (include/trace/events/readahead.h; `ratrace format=linux`).
 */
enum ra_event_kind {
	RA_EV_DECISION,
	RA_EV_SYNC_RA,	    /* page_cache_sync_ra: the state before the decision */
	RA_EV_ASYNC_RA,	    /* page_cache_async_ra: likewise */
	RA_EV_RA_ORDER,	    /* page_cache_ra_order: the new window, the order asked */
	RA_EV_RA_UNBOUNDED, /* page_cache_ra_unbounded: index, nr_to_read, lookahead */
	RA_EV_BLOCK_RQ,	    /* block_rq_issue: a request to the disk (ratrace_block=1) */
	RA_EV_NR_KINDS
};

struct ra_trace_event {
	uint64_t time_ns;
	char file[RA_TRACE_NAME];
	uint64_t ino;		/* the file's inode number (mapping->trace_ino) */
	uint32_t dev;		/* its disk as Linux numbers it: major << 20 | minor */
	uint8_t kind;		/* enum ra_event_kind */
	pgoff_t offset;		/* where the reader was (Linux: index) */
	unsigned long req_size; /* pages the reader asked for (Linux: req_count,
				 * nr_to_read) */
	const struct ra_algorithm *algo;
	uint8_t rcase;	       /* enum ra_case */
	bool async;	       /* the reader was not waiting for these pages */
	bool congested;	       /* bdi_read_congested() at the time */
	pgoff_t ra_index;      /* window decided: start */
	unsigned long ra_size; /*   pages (Linux: size) */
	unsigned long la_size; /*   lookahead pages (Linux: async_size,
				*   lookahead_size) */
	bool has_ahead;	       /* 2.6.20's ahead window (struct ra_call) */
	pgoff_t ahead_start;
	unsigned long ahead_size;
	unsigned long actual; /* pages submitted for I/O */
	/* Linux's tracepoints only */
	unsigned int order, ra_pages, mmap_miss;
	int64_t prev_pos;
};

#define RA_TRACE_EVENTS 4096 /* default ring size; older events are overwritten */

extern struct ra_stats ra_global_stats;

/*
 * Following one reader among many (bench thrash's trace=): while
 * ra_trace_watch is set, the ring records only the decisions for its @ra,
 * and reclaim counts the pages of [@first, @last] of @mapping that it
 * evicts unread, the look-ahead marks among them and their windows. The
 * counters of every file go on as before.
 */
struct ra_trace_watch {
	const struct file_ra_state *ra;
	const struct address_space *mapping;
	pgoff_t first, last;
	unsigned long thrashed_pages, thrashed_marks, thrashed_windows;
};
extern struct ra_trace_watch *ra_trace_watch;
/*
 * Time each readahead call of the read path into stats.decide_ns, less what
 * the call slept, which goes to stats.decide_wait_ns (default
 * on). The overhead benchmarks turn it off: two clock reads per call are
 * the size of the effects they measure.
 */
extern bool ra_decision_timing;

/* One call's outcome, filled in by the algorithm and recorded by ra_trace_record(). */
struct ra_call {
	enum ra_case rcase;
	bool async, congested;
	/* 2.6.20's ahead window, for the trace: has_ahead set by an algorithm that has one */
	bool has_ahead;
	unsigned long ahead_start, ahead_size;
	bool deferred;	      /* a window was put off: the queue was congested */
	unsigned long actual; /* pages submitted */
	unsigned int sync_ios, async_ios;
};

/* A submission of @actual pages for @call (counts an I/O when @actual > 0). */
void ra_call_note_io(struct ra_call *call, unsigned long actual, bool async);
/* Record @call for @ra (window fields taken from @ra), update both counter sets. */
void ra_trace_record(struct address_space *mapping, struct file_ra_state *ra, pgoff_t offset,
		     unsigned long req_size, const struct ra_call *call, pgoff_t ra_index,
		     unsigned long ra_size, unsigned long la_size);
/*
 * A larger ring of @nr (>= RA_TRACE_EVENTS) events at @ring, which the caller
 * allocated for good (ratrace_events= at boot); forgets the events held.
 */
int ra_trace_resize(struct ra_trace_event *ring, unsigned int nr);
unsigned int ra_trace_capacity(void);
/* Events held (at most the ring's size), the @i-th oldest of them, and the total ever. */
unsigned int ra_trace_count(void);
const struct ra_trace_event *ra_trace_get(unsigned int i);
uint64_t ra_trace_total(void);
/* Forget every event and zero the global counters. */
void ra_trace_reset(void);
const char *ra_case_name(unsigned int c);
/* How many cases are numbered: the shared ones and every registered algorithm's. */
unsigned int ra_case_count(void);
/* The case named @name (shared or an algorithm's own), or -1. */
int ra_case_find(const char *name);
enum ra_case_kind ra_case_kind(unsigned int c);
/* The tail of @name an event keeps (RA_TRACE_NAME bytes with the NUL): paths end telling. */
void ra_trace_name_tail(char *dst, const char *name);
/* Print event @e as one "ratrace:" line of key=value pairs. */
void ra_trace_print(const struct ra_trace_event *e);
/*
 * Print @e as Linux's tracepoint prints it ("page_cache_sync_ra: dev=8:0
 * ino=1c index=..."): ra=linux's own events as they are; another
 * algorithm's decision as the tracepoints a Linux kernel making that
 * decision would fire: page_cache_sync_ra or page_cache_async_ra (the
 * window fields from the event, order 0), then page_cache_ra_unbounded
 * for what it submitted. Returns the lines printed.
 */
int ra_trace_print_linux(const struct ra_trace_event *e);
/*
 * Record a request the block layer hands a disk's driver, as Linux's
 * block_rq_issue: @dev (major << 20 | minor), its first sector and length,
 * whether a readahead's (rwbs "RA"); only while ra_trace_block is set.
 */
extern bool ra_trace_block;
void ra_trace_block_rq(uint32_t dev, const char *disk, uint64_t sector, uint32_t nr_sectors,
		       bool write);
/*
 * Record one of Linux's tracepoints (ra=linux): @index, @count (req_count
 * or nr_to_read), @size and @async (async_size or lookahead_size), @order,
 * @ra_pages, @mmap_miss, @prev_pos as the tracepoint takes them.
 */
void ra_trace_linux(struct address_space *mapping, struct file_ra_state *ra,
		    enum ra_event_kind kind, pgoff_t index, unsigned long count, unsigned int order,
		    unsigned long size, unsigned long async, unsigned int ra_pages,
		    unsigned int mmap_miss, int64_t prev_pos);

/*
 * The number of a new readahead window of at most @nr_pages, which
 * __do_page_cache_readahead() puts in every page it allocates for it.
 */
uint32_t ra_window_number(unsigned long nr_pages);
/* The window went to the disk with at least one page: count it for @ra (NULL: no file). */
void ra_window_submitted(struct file_ra_state *ra);
/*
 * mm's eviction hook: a PG_readahead_io page left the cache unread. Counts
 * the page, and its window once: at the first of its pages to go.
 */
void ra_page_thrashed(struct address_space *mapping, struct page *page);
/* @ra's counters with thrashed_pages and thrashed_windows filled in from its mapping. */
void ra_file_stats(const struct file_ra_state *ra, struct ra_stats *out);
/* @d = @a - @b, counter by counter: what happened between two snapshots. */
void ra_stats_sub(struct ra_stats *d, const struct ra_stats *a, const struct ra_stats *b);
unsigned long ra_stats_calls(const struct ra_stats *st);
/* Calls whose case is of @kind (ra_case_kind()). */
unsigned long ra_calls_of_kind(const struct ra_stats *st, enum ra_case_kind kind);
/* Pages of @st read ahead and never used: ra_pages - ra_hit_pages, at least 0. */
unsigned long ra_stats_unused(const struct ra_stats *st);
/* The median used page's lead bucket of @st (-1: none used). */
int ra_lead_median_bucket(const struct ra_stats *st);

/* Per-file arguments for commands: ra=NAME (ra_algo_list()) ra_kb=N. */
/* clang-format off */
#define RA_KV_SPECS                                                              \
	{ "ra", KV_ENUM, NULL, "readahead algorithm for this file", ra_algo_names }, \
	{ "ra_kb", KV_UINT, NULL, "maximum readahead window for this file, KiB" }
/* clang-format on */
struct kv_value;
struct result;
/*
 * Apply the values parsed from RA_KV_SPECS (@ra and @ra_kb point at the two
 * kv_values; either may be absent) to @filp. Prints "CMD: reason" and
 * returns -EINVAL for an unknown algorithm or a bad combination (ra=off
 * with ra_kb, ra_kb not a multiple of the page size or above RA_MAX_KB).
 */
int ra_apply_args(const char *cmd, struct file *filp, const struct kv_value *ra,
		  const struct kv_value *ra_kb);
/*
 * Add the readahead keys of @filp to a RESULT: ra, ra_kb, ra_calls, ra_sync,
 * ra_async, ra_pages, ra_hit_pages, ra_thrashed_pages, ra_windows,
 * ra_thrashed_windows.
 */
void ra_result_keys(struct result *r, const struct file *filp);
/* Only the counters' keys of those, ra_calls to ra_deferred. */
void ra_result_counters(struct result *r, const struct ra_stats *st);
/* The same for counters a command gathered itself (e.g. over many files). */
void ra_result_stats(struct result *r, const struct ra_algorithm *algo, unsigned long max_pages,
		     const struct ra_stats *st);
/* Add @b into @a. */
void ra_stats_add(struct ra_stats *a, const struct ra_stats *b);

#endif
