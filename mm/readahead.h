/*
 * Per-file readahead state, the interface every readahead algorithm
 * implements, and the mechanism they share.
 *
 *	mm/readahead.c		the shared mechanism (__do_page_cache_readahead(),
 *				forced readahead, the 2.6-style mmap read-around,
 *				fault path and readdir call site, lead times)
 *	mm/ra-registry.c	the registry, ra=/ra_kb=, per-file state
 *	mm/ra-helpers.c		window sizes, ra_submit(), the on-demand entry
 *	mm/readahead-*.c	one algorithm each: ondemand (the seeds, patches
 *				002-009), legacy (2.6.20, the lines patch 010
 *				removes), off, and the algorithms after the seeds
 *	mm/ratrace.c		the trace ring buffer and the counters
 *
 * An algorithm is a struct ra_algorithm registered with RA_ALGORITHM(), as
 * an I/O scheduler registers its elevator_type: the read, fault, splice and
 * readdir paths (mm/filemap.c, fs/) call through its hooks and never ask
 * which algorithm they have, so adding one is adding a file, and ra= lists
 * it by itself. It is chosen per open file (file->f_ra.algo):
 * file_ra_state_init() takes the boot default (ra=NAME, ra_kb=N), and
 * file_ra_set_algo()/file_ra_set_max_pages() change one file.
 */
#ifndef MM_READAHEAD_H
#define MM_READAHEAD_H

#include "mm/pagemap.h"

struct file;
struct file_ra_state;
struct ra_call;
struct file_mmap;
struct backing_dev_info;

/* madvise()-style access hints of a file mapping (VM_SequentialReadHint ...). */
enum filemap_advice { FAULT_ADV_NORMAL, FAULT_ADV_SEQUENTIAL, FAULT_ADV_RANDOM, FAULT_ADV_NR };

/*
 * posix_fadvise() advice on an open file (2.6.22's mm/fadvise.c): honoured
 * by the core for every algorithm; see file_ra_fadvise().
 */
enum ra_fadvise { FADV_NORMAL, FADV_SEQUENTIAL, FADV_RANDOM, FADV_WILLNEED, FADV_NR };
extern const char *const ra_fadvise_names[];	/* "normal", ..., NULL */

/* What struct ra_algorithm.flags say about an algorithm. */
#define RA_ALGO_NO_WINDOW	0x01	/* never reads ahead: ra_pages is 0, ra_kb= refused */
#define RA_ALGO_MARKS		0x02	/* sets PG_readahead marks (bench ra_async=0: none) */
#define RA_ALGO_LINUX_EVENTS	0x04	/* records Linux's tracepoints itself (ratrace format=linux) */
#define RA_ALGO_DEFAULT		0x08	/* ra= when the command line names none */

/*
 * What kind of decision a trace case is, for the counters every algorithm
 * reports alike (RESULT's ra_seq_first, ra_seq_next, ra_random).
 */
enum ra_case_kind {
	RA_KIND_OTHER,
	RA_KIND_FIRST,		/* a new sequential window */
	RA_KIND_NEXT,		/* the window pushed on */
	RA_KIND_RANDOM,		/* a read read as is */
};

/* A trace case an algorithm declares for itself (struct ra_algorithm.cases). */
struct ra_case_desc {
	const char *name;	/* as ratrace and the RESULT lines print it */
	enum ra_case_kind kind;
};

/*
 * A readahead algorithm. Every hook but ->sync may be NULL. @req_size is
 * the rest of the reader's request in pages, from @offset on.
 *
 * ->request	called for every read request at the index it returned last
 *		(2.6.20's page_cache_readahead()); returns the index at which
 *		it wants to be called next.
 * ->sync	a page the reader needs is not cached (synchronous readahead).
 *		Returns true when it may have brought the page in (the caller
 *		looks it up again), false when it reads nothing (the caller
 *		reads the page alone through ->readpage).
 * ->async	the reader reached a page marked PG_readahead (asynchronous
 *		readahead); the hook clears the mark. Algorithms without marks
 *		leave it NULL.
 * ->fault_sync, ->fault_async
 *		the mmap fault path on a missing page / on a cached one, before
 *		the fault waits for it, whatever the advice (with MADV_RANDOM
 *		the fault then reads a missing page alone); NULL: the 2.6 fault
 *		path (ra_fault_sync_generic(), ra_fault_async_generic()).
 * ->readdir	directory block @index of the block device is about to be read
 *		for the directory open as @filp; NULL: ra_readdir_generic().
 * ->init	reset the algorithm's own state (a new open or a switch to it).
 * ->read_end	a read() (or splice) ends with @index the page after the last
 *		one it read; NULL: the read path keeps prev_index (= @index),
 *		as 2.6.22 does. An algorithm that keeps it itself does nothing.
 * ->fault_end	a fault found its page at @index; NULL: prev_index = @index
 *		(2.6.22's filemap_nopage()).
 *
 * Trace cases: the shared ones (enum ra_case) any algorithm may record; an
 * algorithm's own are @cases (@nr_cases of them), numbered from
 * *@case_base, which the registry sets (RA_OWN_CASE()).
 */
struct ra_algorithm {
	const char *name;	/* as ra= spells it */
	const char *title;	/* a table's column: "2.6.20", "on-demand" */
	const char *help;	/* one line: what it is and where it comes from */
	unsigned int flags;	/* RA_ALGO_* */
	/* ra=all's order: the seeds' pair first (1: 2.6.20, 2: on-demand), 0: by name after */
	unsigned int order;
	const struct ra_case_desc *cases;
	unsigned int nr_cases;
	unsigned int *case_base;
	void (*init)(struct file_ra_state *ra);
	void (*read_end)(struct file_ra_state *ra, pgoff_t index);
	void (*fault_end)(struct file_ra_state *ra, pgoff_t index);
	unsigned long (*request)(struct address_space *mapping, struct file_ra_state *ra,
				 struct file *filp, pgoff_t offset, unsigned long req_size);
	bool (*sync)(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		     pgoff_t offset, unsigned long req_size);
	void (*async)(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		      struct page *page, pgoff_t offset, unsigned long req_size);
	void (*fault_sync)(struct file *file, pgoff_t pgoff, enum filemap_advice advice);
	void (*fault_async)(struct file *file, struct page *page, pgoff_t pgoff,
			    enum filemap_advice advice);
	void (*readdir)(struct file *filp, struct address_space *bd_mapping, pgoff_t index);
	/*
	 * posix_fadvise() for this algorithm's files, when its kernel did it
	 * differently from 2.6.22 (file_ra_fadvise()); NULL: 2.6.22's.
	 */
	int (*fadvise)(struct file *filp, loff_t offset, loff_t len, enum ra_fadvise advice);
	/*
	 * Its kernel's default window for a device whose readahead no one set
	 * (no ra_kb=, no blockdev ra_kb=); NULL: the device's, 128 KiB.
	 */
	unsigned long (*default_ra_pages)(const struct backing_dev_info *bdi);
	/*
	 * The mmap fault path's fault-around (Linux's do_fault_around()): called
	 * on a fault before ->fault_sync/->fault_async with a way to map pages
	 * of the mapping; true when it mapped the faulting page itself (the
	 * fault is done). NULL: no fault-around (2.6).
	 */
	bool (*fault_around)(struct file_mmap *m, pgoff_t pgoff);
	/*
	 * A fault that would have let go of the mapping to wait (the page
	 * missing, under I/O, or an async window started: Linux retries it)
	 * has its page now; called before it is mapped. NULL: nothing.
	 */
	void (*fault_retry)(struct file_mmap *m, pgoff_t pgoff);
};

/* Register @algo (a const struct ra_algorithm) so that ra= finds it. */
#define RA_ALGORITHM(algo)                                                              \
	static const struct ra_algorithm *const __ra_algorithm_##algo                   \
		__attribute__((used, section("ra_algorithms"), aligned(8))) = &(algo)

/* An algorithm's own case @c (its enum) as the trace and counters number it. */
#define RA_OWN_CASE(base, c)	((enum ra_case)((base) + (c)))

/* Default maximum readahead and the floor of the legacy window (include/linux/mm.h). */
#define VM_MAX_READAHEAD	128	/* KiB */
#define VM_MIN_READAHEAD	16	/* KiB */

/*
 * Convenient macros for min/max readahead pages (patch 004). MAX_RA_PAGES
 * is rounded down, MIN_RA_PAGES rounded up so large page sizes still get a
 * non-empty minimum.
 */
#define MAX_RA_PAGES	(VM_MAX_READAHEAD * 1024 / PAGE_CACHE_SIZE)
#define MIN_RA_PAGES	DIV_ROUND_UP(VM_MIN_READAHEAD * 1024, PAGE_CACHE_SIZE)

/* Largest ra_kb= accepted: windows up to 16 MiB (4096 pages). */
#define RA_MAX_KB	16384
#define RA_MAX_WINDOW	(RA_MAX_KB * 1024 / PAGE_CACHE_SIZE)

/* A readahead window in KiB that ra_kb= accepts: whole pages, at most RA_MAX_KB. */
static inline bool ra_kb_valid(uint64_t kb)
{
	return kb <= RA_MAX_KB && kb % (PAGE_CACHE_SIZE / 1024) == 0;
}

/*
 * What one call into the readahead code decided (the trace's "case"): the
 * cases shared by the algorithms of the on-demand family and the core;
 * an algorithm's own come after them (struct ra_algorithm.cases).
 */
enum ra_case {
	RA_CASE_SEQ_NEXT,	/* on-demand: lookahead/readahead hit, push the window on */
	RA_CASE_RANDOM,		/* on-demand: small standalone read, read as is */
	RA_CASE_SEQ_FIRST,	/* on-demand: new window for a sequential or oversize read */
	RA_CASE_CLUELESS,	/* on-demand: lookahead hit not matching the state */
	RA_CASE_CONGESTED,	/* on-demand: async readahead deferred, queue congested */
	RA_CASE_OFF,		/* ra_pages == 0: no readahead */
	RA_CASE_AROUND,		/* mmap read-around in the fault path */
	RA_CASE_FORCED,		/* force_page_cache_readahead() */
	RA_CASE_CONTEXT,	/* context: a window sized from the cached pages behind */
	RA_CASE_HOLE_SCAN,	/* a mark hit without state: window from the next hole */
	RA_CASE_FADV_RANDOM,	/* FADV_RANDOM: the request as is, whatever the algorithm */
	RA_NR_SHARED_CASES
};

/* Room for the shared cases and every algorithm's own (the registry checks). */
#define RA_NR_CASES	40

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
	unsigned long thrashed_windows;	/* of those, windows with a page evicted unread */
	unsigned long readpage_ios;	/* pages a read had to fetch alone, through ->readpage */
	unsigned long deferred;		/* windows put off because the queue was congested */
	unsigned long sync_ios;		/* submissions a reader was waiting for */
	unsigned long async_ios;	/* submissions ahead of the reader */
	uint64_t stall_ns;		/* read(): time blocked on pages not yet read */
	uint64_t decide_ns;		/* read(): time in the readahead calls (decision and submission) */
	unsigned long lead[RA_LEAD_BUCKETS]; /* used pages by lead time (RA_LEAD_BUCKETS) */
};

/* Room for an algorithm's own per-file state, in unsigned longs (see ra_priv()). */
#define RA_PRIV_WORDS	48

/*
 * Track a single file's readahead state
 *
 *  ================#============|==================#==================|
 *                  ^            ^                  ^                  ^
 *  file_ra_state.la_index    .ra_index   .lookahead_index   .readahead_index
 */
struct file_ra_state {
	const struct ra_algorithm *algo;
	/* on-demand (patch 005) */
	pgoff_t la_index;		/* enqueue time */
	pgoff_t ra_index;		/* begin offset */
	pgoff_t lookahead_index;	/* time to do next readahead */
	pgoff_t readahead_index;	/* end offset */
	/* shared */
	unsigned long ra_pages;		/* maximum readahead window */
	unsigned long mmap_hit;		/* cache hit stat for mmap accesses */
	unsigned long mmap_miss;	/* cache miss stat for mmap accesses */
	unsigned long prev_index;	/* cache last read() position */
	unsigned int prev_offset;	/* offset where last read() ended in a page */
	/*
	 * Today's Linux's prev_pos: the byte after the last one the previous
	 * read() copied (-1 before any), set once per read when it ends.
	 */
	int64_t prev_pos;
	/* The read paths read what is asked and call no algorithm (2.6.22's FADV_RANDOM). */
	bool read_as_is;
	/* The last fault waited (page missing or under I/O) or started an async window. */
	bool fault_waited;
	/*
	 * Readahead without look-ahead marks (bench ra_async=0): the core sets
	 * none, whatever the algorithm (RA_ALGO_MARKS), so every window is read
	 * when the reader misses its first page, never ahead of it; the raw
	 * cost of giving up pipelining.
	 */
	bool no_lookahead;
	/* fadvise() advice (FADV_*): every algorithm's windows honour it (mm/ra-registry.c) */
	unsigned int advice;
	unsigned long advice_pages;	/* ra_pages before FADV_SEQUENTIAL doubled them */
	/* an algorithm's own state (zfetch's streams, thrash-safe's flags): ra_priv() */
	unsigned long priv[RA_PRIV_WORDS];
	/* accounting (mm/ratrace.c) */
	struct ra_stats stats;
	struct address_space *mapping;	/* the file's own mapping, for thrashed pages */
	unsigned long thrashed_base;	/* mapping->ra_thrashed at file_ra_state_init() */
	unsigned long thrashed_windows_base; /* mapping->ra_thrashed_windows, likewise */
};

/*
 * Measuring read-ahead sizes.
 *
 *                  |----------- readahead size ------------>|
 *  ===#============|==================#=====================|
 *     |------- invoke interval ------>|-- lookahead size -->|
 */
static inline unsigned long ra_readahead_size(const struct file_ra_state *ra)
{
	return ra->readahead_index - ra->ra_index;
}

static inline unsigned long ra_lookahead_size(const struct file_ra_state *ra)
{
	return ra->readahead_index - ra->lookahead_index;
}

static inline unsigned long ra_invoke_interval(const struct file_ra_state *ra)
{
	return ra->lookahead_index - ra->la_index;
}

/* Does @index fall in the readahead windows [la_index, readahead_index)? */
static inline bool ra_has_index(const struct file_ra_state *ra, pgoff_t index)
{
	return index >= ra->la_index && index < ra->readahead_index;
}

/* Where is the old read-ahead and look-ahead? */
static inline void ra_set_index(struct file_ra_state *ra, pgoff_t la_index, pgoff_t ra_index)
{
	ra->la_index = la_index;
	ra->ra_index = ra_index;
}

/* Where is the new read-ahead and look-ahead? */
static inline void ra_set_size(struct file_ra_state *ra, unsigned long ra_size,
			       unsigned long la_size)
{
	ra->readahead_index = ra->ra_index + ra_size;
	ra->lookahead_index = ra->ra_index + ra_size - la_size;
}

/*
 * An algorithm's own per-file state, as @type (checked at build time to fit),
 * zeroed by file_ra_set_algo() before ->init:
 *	struct zfetch *zf = ra_priv(ra, struct zfetch);
 */
#define ra_priv(ra, type)                                                        \
	({                                                                       \
		_Static_assert(sizeof(type) <= sizeof((ra)->priv), #type " too big"); \
		(type *)(void *)(ra)->priv;                                      \
	})

/*
 * The window as kernels from 2.6.24 on name it: [start, start + size), its
 * mark async_size pages before the end. @offset is where the reader was.
 */
static inline void ra_set_window(struct file_ra_state *ra, pgoff_t offset, pgoff_t start,
				 unsigned long size, unsigned long async_size)
{
	ra->la_index = offset;
	ra->ra_index = start;
	ra->readahead_index = start + size;
	ra->lookahead_index = start + size - min(async_size, size);
}

/* A read() ends before page @index: the algorithm's ->read_end, or prev_index = @index. */
static inline void ra_read_end(struct file_ra_state *ra, pgoff_t index)
{
	if (ra->algo->read_end)
		ra->algo->read_end(ra, index);
	else
		ra->prev_index = index;
}

/* A fault found page @index: the algorithm's ->fault_end, or prev_index = @index. */
static inline void ra_fault_end(struct file_ra_state *ra, pgoff_t index)
{
	if (ra->algo->fault_end)
		ra->algo->fault_end(ra, index);
	else
		ra->prev_index = index;
}

/* --- choosing the algorithm (mm/ra-registry.c) -------------------------------- */

/* Boot defaults: the ra= and ra_kb= parameters (mm/racmd.c sets them at boot). */
extern const struct ra_algorithm *ra_default_algo;
extern unsigned long ra_default_pages;
/* ra_kb= was given: the devices' window is chosen, no algorithm's own default applies */
extern bool ra_default_pages_set;

/* The registered algorithms, sorted by name: @i from 0 on, NULL past the last. */
const struct ra_algorithm *ra_algo_at(unsigned int i);
/* The algorithm ra=@name names, or NULL. */
const struct ra_algorithm *ra_algo_find(const char *name);
/* The names, NULL-terminated, sorted: KV_ENUM choices for ra= (kv_spec.choices_fn). */
const char *const *ra_algo_names(void);
/* "context|legacy|..." into @buf: what ra= accepts, for help and error lines. */
const char *ra_algo_list(char *buf, size_t len);
/*
 * ra=all: every algorithm that reads ahead, the seeds' pair first (by
 * .order), then the rest by name; at most @max into @out, how many.
 */
unsigned int ra_algo_all(const struct ra_algorithm **out, unsigned int max);

/*
 * Set the defaults for files opened from now on and install the thrashing
 * hook. @max_pages must be at most RA_MAX_WINDOW, and 0 for an algorithm
 * with RA_ALGO_NO_WINDOW (-EINVAL otherwise).
 */
int readahead_init(const struct ra_algorithm *algo, unsigned long max_pages);

/*
 * Fresh state for a file opened on @mapping: the default algorithm and
 * maximum (0 for RA_ALGO_NO_WINDOW), prev_index -1 (so offset 0 reads as
 * sequential), counters zero.
 */
void file_ra_state_init(struct file_ra_state *ra, struct address_space *mapping);
/* Switch one file's algorithm; resets the window state, keeps the counters. */
void file_ra_set_algo(struct file_ra_state *ra, const struct ra_algorithm *algo);
/*
 * Set one file's maximum window; -EINVAL above RA_MAX_WINDOW or when the
 * file's algorithm has RA_ALGO_NO_WINDOW and @pages is not 0.
 */
int file_ra_set_max_pages(struct file_ra_state *ra, unsigned long pages);
/*
 * posix_fadvise(@filp, @offset, @len, @advice) as 2.6.22 took it, for every
 * algorithm: FADV_NORMAL restores the maximum window, FADV_SEQUENTIAL
 * doubles it (at most RA_MAX_WINDOW), FADV_RANDOM makes the read paths read
 * what is asked and nothing more (the algorithm is not called), FADV_WILLNEED
 * reads [@offset, @offset + @len) now (@len 0: to the end of the file,
 * bounded by max_sane_readahead()). Returns pages submitted for
 * FADV_WILLNEED, 0, or -EINVAL.
 */
int file_ra_fadvise(struct file *filp, loff_t offset, loff_t len, enum ra_fadvise advice);

/* --- helpers for the algorithms (mm/ra-helpers.c, mm/readahead.c) ---------- */

/* Submit I/O for the window in @ra ([ra_index, readahead_index), mark at lookahead_index). */
unsigned long ra_submit(struct file_ra_state *ra, struct address_space *mapping,
			struct file *filp);

/* Initial window for a read of @size pages; next window after the one in @ra. */
unsigned long get_init_ra_size(unsigned long size, unsigned long max);
unsigned long get_next_ra_size(const struct file_ra_state *ra, unsigned long max);
/* The window after one of @cur pages: x4 far below @max, then x2, at most @max. */
unsigned long ra_next_size(unsigned long cur, unsigned long max);

/*
 * The 2.6 fault path (2.6.20's filemap_nopage, 2.6.23's filemap_fault), for
 * algorithms with ->sync and ->async: with MADV_SEQUENTIAL the algorithm's
 * own readahead, with MADV_RANDOM none, otherwise a read-around window
 * centred on the fault, given up while misses outnumber hits by
 * MMAP_LOTSAMISS.
 */
void ra_fault_sync_generic(struct file *file, pgoff_t pgoff, enum filemap_advice advice);
void ra_fault_async_generic(struct file *file, struct page *page, pgoff_t pgoff,
			    enum filemap_advice advice);
/* The read-around itself: ra_pages centred on @pgoff, skipped when congested. */
void ra_mmap_read_around(struct file *file, pgoff_t pgoff);
/* Readdir (patch 009): ->sync when @index falls outside ra_has_index(). */
void ra_readdir_generic(struct file *filp, struct address_space *bd_mapping, pgoff_t index);

/*
 * The entry checks of the on-demand family (2.6.23 to 2.6.33's
 * page_cache_sync_readahead()/page_cache_async_readahead()), for a policy
 * called on a miss (@page NULL) or on a mark (@page): no readahead when
 * ra_pages is 0 (traced as off); on a mark, the mark cleared and the window
 * put off while the queue is read-congested (traced). Fills @call; true when
 * the policy is to decide.
 */
bool ra_ondemand_entry(struct address_space *mapping, struct file_ra_state *ra, struct page *page,
		       pgoff_t offset, unsigned long req_size, struct ra_call *call);

/*
 * FADV_RANDOM's read of a missing page: the rest of the request, in one
 * submission without a mark, and no state touched. Returns true (the
 * caller looks the page up again), like an algorithm's ->sync.
 */
bool ra_read_as_is(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		   pgoff_t offset, unsigned long req_size);

/* Give up on read-around when misses outnumber hits by this much. */
#define MMAP_LOTSAMISS		100

/* --- the shared mechanism (mm/readahead.c) ----------------------------------- */

/*
 * Read pages [@offset, @offset + @nr_to_read) that are not cached, none
 * past end of file: allocate them, put them in @mapping, mark the one at
 * @nr_to_read - @lookahead_size PG_readahead (only if newly allocated) and
 * every new one PG_readahead_io, and hand them all to ->readpages in one
 * call. Returns the number of pages submitted (0 when all were cached),
 * or -EINVAL if the mapping cannot read.
 */
int __do_page_cache_readahead(struct address_space *mapping, struct file *filp,
			      pgoff_t offset, unsigned long nr_to_read,
			      unsigned long lookahead_size);
/*
 * A window read as folios (ra=linux's mechanism, after Linux's
 * page_cache_ra_order() and read_pages()): pages are added a folio at a
 * time, each page of a folio carrying its order (page_folio_order()) and,
 * for a marked folio, PG_readahead; ra_batch_read() hands what was added
 * so far to the filesystem in one ->readpages (Linux submits a batch at a
 * cached page or a failure, then goes on); ra_batch_end() counts the
 * window once if any page went to the disk.
 */
#define RA_MAX_FOLIO_ORDER	11	/* Linux's MAX_PAGECACHE_ORDER is 9; async asks up to 11 */
struct ra_batch {
	struct list_head pages;
	unsigned long nr;		/* pages added since the last ra_batch_read() */
	unsigned long submitted;	/* pages handed to the filesystem in all */
	unsigned long window_pages;	/* the window's size, for thrashed-window counting */
	uint32_t window;
	uint64_t born_ns;
	bool no_marks;			/* @ra's no_lookahead (bench ra_async=0) */
};
void ra_batch_begin(struct ra_batch *b, const struct file_ra_state *ra,
		    unsigned long window_pages);
/*
 * Add the folio of 2^@order pages at @index (aligned to its size): 0,
 * -EEXIST if any of its pages is cached (nothing added), -ENOMEM, -EINVAL.
 */
int ra_batch_add_folio(struct address_space *mapping, struct ra_batch *b, pgoff_t index,
		       unsigned int order, bool mark);
/* Read the pages added since the last call; returns how many. */
unsigned long ra_batch_read(struct address_space *mapping, struct file *filp,
			    struct ra_batch *b);
void ra_batch_end(struct file *filp, struct ra_batch *b);

/* The same, but returns -EAGAIN without reading when the queue is read-congested. */
int do_page_cache_readahead(struct address_space *mapping, struct file *filp,
			    pgoff_t offset, unsigned long nr_to_read);
/*
 * Read @nr_to_read pages at @offset (bounded by max_sane_readahead) in
 * chunks of 2 MiB, whatever the readahead state: madvise/fadvise WILLNEED
 * and readahead(2). Returns pages submitted or -errno.
 */
int force_page_cache_readahead(struct address_space *mapping, struct file *filp,
			       pgoff_t offset, unsigned long nr_to_read);
/* A sensible upper limit for @nr pages of readahead: (free + inactive) / 2. */
unsigned long max_sane_readahead(unsigned long nr);

/* --- call sites shared with fs/ ---------------------------------------------- */

/*
 * The readdir call site (patch 009): directory block @index of the block
 * device mapping @bd_mapping is about to be read for the directory open
 * as @filp: the algorithm's ->readdir, or ra_readdir_generic().
 */
void ra_dir_readahead(struct file *filp, struct address_space *bd_mapping, pgoff_t index);

/*
 * A reader uses @page (read path, fault path, splice, readdir): if
 * readahead brought it in and nobody read it yet, count a hit and its lead
 * time (since ra_page_born()).
 */
void ra_page_used(struct file_ra_state *ra, struct page *page);
/*
 * @page was read ahead at @now_ns (the run's clock): its lead time is
 * measured from here. For page-cache pool frames; others (the host tests'
 * fake pages) are not timed.
 */
void ra_page_born(struct page *page, uint64_t now_ns);
/*
 * The array of those times, one per pool frame (boot: mm/racmd.c); false
 * when none fits. 0 pages: no array (the host tests, before freeing mm).
 */
bool ra_lead_init(unsigned long pool_pages);
/* Pages of @st read ahead and never used: ra_pages - ra_hit_pages, at least 0. */
unsigned long ra_stats_unused(const struct ra_stats *st);
/* The median used page's lead bucket of @st (-1: none used). */
int ra_lead_median_bucket(const struct ra_stats *st);

/* --- tracing and counters (mm/ratrace.c) -------------------------------------- */

#define RA_TRACE_NAME	24	/* bytes of the file name kept (the tail) */

/*
 * What an event of the ring is: a decision of any algorithm (the default
 * `ratrace` lines), or one of Linux's readahead tracepoints as ra=linux
 * fires them (include/trace/events/readahead.h; `ratrace format=linux`).
 */
enum ra_event_kind {
	RA_EV_DECISION,
	RA_EV_SYNC_RA,		/* page_cache_sync_ra: the state before the decision */
	RA_EV_ASYNC_RA,		/* page_cache_async_ra: likewise */
	RA_EV_RA_ORDER,		/* page_cache_ra_order: the new window, the order asked */
	RA_EV_RA_UNBOUNDED,	/* page_cache_ra_unbounded: index, nr_to_read, lookahead */
	RA_EV_BLOCK_RQ,		/* block_rq_issue: a request to the disk (ratrace_block=1) */
	RA_EV_NR_KINDS
};

struct ra_trace_event {
	uint64_t time_ns;
	char file[RA_TRACE_NAME];
	uint64_t ino;			/* the file's inode number (mapping->trace_ino) */
	uint32_t dev;			/* its disk as Linux numbers it: major << 20 | minor */
	uint8_t kind;			/* enum ra_event_kind */
	pgoff_t offset;			/* where the reader was (Linux: index) */
	unsigned long req_size;		/* pages the reader asked for (Linux: req_count,
					 * nr_to_read) */
	const struct ra_algorithm *algo;
	uint8_t rcase;			/* enum ra_case */
	bool async;			/* the reader was not waiting for these pages */
	bool congested;			/* bdi_read_congested() at the time */
	pgoff_t ra_index;		/* window decided: start */
	unsigned long ra_size;		/*   pages (Linux: size) */
	unsigned long la_size;		/*   lookahead pages (Linux: async_size,
					 *   lookahead_size) */
	bool has_ahead;			/* 2.6.20's ahead window (struct ra_call) */
	pgoff_t ahead_start;
	unsigned long ahead_size;
	unsigned long actual;		/* pages submitted for I/O */
	/* Linux's tracepoints only */
	unsigned int order, ra_pages, mmap_miss;
	int64_t prev_pos;
};

#define RA_TRACE_EVENTS	4096	/* default ring size; older events are overwritten */

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
 * Time each readahead call of the read path into stats.decide_ns (default
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
	bool deferred;			/* a window was put off: the queue was congested */
	unsigned long actual;		/* pages submitted */
	unsigned int sync_ios, async_ios;
};

/* A submission of @actual pages for @call (counts an I/O when @actual > 0). */
void ra_call_note_io(struct ra_call *call, unsigned long actual, bool async);
/* Record @call for @ra (window fields taken from @ra), update both counter sets. */
void ra_trace_record(struct address_space *mapping, struct file_ra_state *ra,
		     pgoff_t offset, unsigned long req_size, const struct ra_call *call,
		     pgoff_t ra_index, unsigned long ra_size, unsigned long la_size);
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
		    enum ra_event_kind kind, pgoff_t index, unsigned long count,
		    unsigned int order, unsigned long size, unsigned long async,
		    unsigned int ra_pages, unsigned int mmap_miss, int64_t prev_pos);

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

/* Per-file arguments for commands: ra=NAME (ra_algo_list()) ra_kb=N. */
#define RA_KV_SPECS                                                              \
	{ "ra", KV_ENUM, NULL, "readahead algorithm for this file", ra_algo_names }, \
	{ "ra_kb", KV_UINT, NULL, "maximum readahead window for this file, KiB" }
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
