/*
 * Per-file readahead state, how a file gets its algorithm, and what the
 * read paths call. The readahead code, file by file:
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
 * and its headers: this one, mm/ra-algorithm.h (struct ra_algorithm, the
 * interface an algorithm implements, and what the core gives it) and
 * mm/ratrace.h (trace cases, counters, the ring), both included here, so
 * an algorithm or a read path includes this header alone.
 *
 * An algorithm is chosen per open file (file->f_ra.algo):
 * file_ra_state_init() takes the boot default (ra=NAME, ra_kb=N), and
 * file_ra_set_algo()/file_ra_set_max_pages() change one file.
 */
#ifndef MM_READAHEAD_H
#define MM_READAHEAD_H

#include "mm/pagemap.h"
#include "mm/ra-algorithm.h"
#include "mm/ratrace.h"

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

/*
 * 2.6.31's readit: in ondemand_readahead(), for the algorithms of its family
 * (context, thrash-safe): the window [@start, @start + @size) with its mark
 * @async pages before the end; when the read at @offset would hit that mark
 * at the window's own start, the next window (ramped up to @max) is merged in
 * now. Sets the state, submits, notes the I/O in @call and records the trace.
 * Inline, as it was in each algorithm: a call here would move their I/O by
 * its instructions on the virtual clock.
 */
static inline void ra_readit(struct address_space *mapping, struct file_ra_state *ra,
			     struct file *filp, pgoff_t offset, unsigned long req_size,
			     pgoff_t start, unsigned long size, unsigned long async,
			     unsigned long max, struct ra_call *call)
{
	/*
	 * Will this read hit the mark this window puts at its own start? Then
	 * take the mark hit now and merge the next window into this one.
	 */
	if (offset == start && size == async) {
		async = ra_next_size(size, max);
		size += async;
	}
	ra_set_window(ra, offset, start, size, async);
	ra_call_note_io(call, ra_submit(ra, mapping, filp), call->async);
	ra_trace_record(mapping, ra, offset, req_size, call, ra->ra_index, ra_readahead_size(ra),
			ra_lookahead_size(ra));
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
 * The maximum window @algo gives a file on @bdi (NULL: no device) when no
 * one set the file's: 0 for RA_ALGO_NO_WINDOW; the algorithm's kernel's
 * default where no one set the device's (->default_ra_pages); else the
 * device's.
 */
unsigned long ra_algo_window(const struct ra_algorithm *algo, const struct backing_dev_info *bdi);
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

/* --- what the read paths and fs/ call (mm/readahead.c) ------------------------ */

/*
 * FADV_RANDOM's read of a missing page: the rest of the request, in one
 * submission without a mark, and no state touched. Returns true (the
 * caller looks the page up again), like an algorithm's ->sync.
 */
bool ra_read_as_is(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		   pgoff_t offset, unsigned long req_size);

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

#endif
