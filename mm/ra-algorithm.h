/*
 * The interface a readahead algorithm implements, and what the core gives
 * it. An algorithm is a struct ra_algorithm registered with RA_ALGORITHM(),
 * as an I/O scheduler registers its elevator_type: the read, fault, splice
 * and readdir paths (mm/filemap.c, fs/) call through its hooks and never
 * ask which algorithm they have, so adding one is adding a file
 * (mm/readahead-*.c), and ra= lists it by itself (mm/ra-registry.c). Its
 * policy may use the helpers of the on-demand family (mm/ra-helpers.c:
 * ra_submit(), patch 005's, and the window sizes), the 2.6 fault path and
 * readdir call site for the hooks it leaves NULL, and the mechanism that
 * reads a window (mm/readahead.c: __do_page_cache_readahead(), patch 003's,
 * and ra=linux's folio batches). Included by mm/readahead.h, which holds
 * the per-file state the hooks work on (struct file_ra_state).
 */
#ifndef MM_RA_ALGORITHM_H
#define MM_RA_ALGORITHM_H

#include "mm/pagemap.h"
#include "mm/ratrace.h"

struct file;
struct file_ra_state;
struct ra_call;
struct file_mmap;
struct backing_dev_info;

/*
 * What a file mapping tells the fault path: the madvise() hints
 * (VM_SequentialReadHint, VM_RandomReadHint), and two kinds of mapping Linux
 * 7.2 reads differently (do_sync_mmap_readahead()): one mapped with PROT_EXEC
 * (VM_EXEC) and one with MADV_HUGEPAGE (VM_HUGEPAGE). One of them per mapping:
 * Linux can have VM_EXEC or VM_HUGEPAGE beside a hint, which no caller here
 * asks for. Algorithms before 7.2 read the last two as normal.
 */
enum filemap_advice {
	FAULT_ADV_NORMAL,
	FAULT_ADV_SEQUENTIAL,
	FAULT_ADV_RANDOM,
	FAULT_ADV_EXEC,
	FAULT_ADV_HUGEPAGE,
	FAULT_ADV_NR
};

/*
 * posix_fadvise() advice on an open file (2.6.22's mm/fadvise.c): honoured
 * by the core for every algorithm; see file_ra_fadvise().
 */
enum ra_fadvise { FADV_NORMAL, FADV_SEQUENTIAL, FADV_RANDOM, FADV_WILLNEED, FADV_NR };
extern const char *const ra_fadvise_names[]; /* "normal", ..., NULL */

/* What struct ra_algorithm.flags say about an algorithm. */
#define RA_ALGO_NO_WINDOW    0x01 /* never reads ahead: ra_pages is 0, ra_kb= refused */
#define RA_ALGO_MARKS	     0x02 /* sets PG_readahead marks (bench ra_async=0: none) */
#define RA_ALGO_LINUX_EVENTS 0x04 /* records Linux's tracepoints itself (ratrace format=linux) */
#define RA_ALGO_DEFAULT	     0x08 /* ra= when the command line names none */
/*
 * Allocates large folios (ra_batch_*(), Linux's page_cache_ra_order()), and
 * with them Linux's page cache: __GFP_NORETRY allocation (page_cache_alloc_folio()),
 * a folio one LRU entry evicted whole (mm/vmscan.c), accessed once per read
 * (filemap-read.h). Without it, single pages as the 2.6 kernels had.
 */
#define RA_ALGO_FOLIOS	     0x10

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
	const char *name;   /* as ra= spells it */
	const char *title;  /* a table's column: "2.6.20", "on-demand" */
	const char *help;   /* one line: what it is and where it comes from */
	unsigned int flags; /* RA_ALGO_* */
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

/*
 * A new algorithm (a copy of another's file) changes .name, .title, .help and
 * its cases, and leaves out RA_ALGO_DEFAULT and .order (0): the build refuses
 * two defaults or two algorithms at one .order, naming both files
 * (tools/helpers/ra-registry-check, which reads these two fields here).
 */
_Static_assert(__builtin_offsetof(struct ra_algorithm, flags) == 24 &&
		       __builtin_offsetof(struct ra_algorithm, order) == 28 && RA_ALGO_DEFAULT == 0x08,
	       "tools/helpers/ra-registry-check reads flags and order at these offsets");

/* Register @algo (a const struct ra_algorithm) so that ra= finds it. */
#define RA_ALGORITHM(algo)                                            \
	static const struct ra_algorithm *const __ra_algorithm_##algo \
		__attribute__((used, section("ra_algorithms"), aligned(8))) = &(algo)

/* An algorithm's own case @c (its enum) as the trace and counters number it. */
#define RA_OWN_CASE(base, c) ((enum ra_case)((base) + (c)))

/* --- helpers for the algorithms (mm/ra-helpers.c) ---------------------------- */

/* Submit I/O for the window in @ra ([ra_index, readahead_index), mark at lookahead_index). */
unsigned long ra_submit(struct file_ra_state *ra, struct address_space *mapping, struct file *filp);

/* Initial window for a read of @size pages; next window after the one in @ra. */
unsigned long get_init_ra_size(unsigned long size, unsigned long max);
unsigned long get_next_ra_size(const struct file_ra_state *ra, unsigned long max);
/* The window after one of @cur pages: x4 far below @max, then x2, at most @max. */
unsigned long ra_next_size(unsigned long cur, unsigned long max);

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
 * RA_ONDEMAND_HOOKS(prefix, decide) defines prefix_sync() and prefix_async(),
 * the ->sync and ->async of an algorithm that enters as on-demand readahead
 * does (ra_ondemand_entry()) and then decides with
 *	void decide(mapping, ra, filp, bool hit_marker, offset, req_size, call)
 * hit_marker true on the marked page (asynchronous readahead), false on a
 * miss: 2.6.23's ondemand_readahead() and its two callers, as in Linux.
 */
#define RA_ONDEMAND_HOOKS(prefix, decide)                                                        \
	static bool prefix##_sync(struct address_space *mapping, struct file_ra_state *ra,       \
				  struct file *filp, pgoff_t offset, unsigned long req_size)     \
	{                                                                                        \
		struct ra_call call;                                                             \
                                                                                                 \
		if (ra_ondemand_entry(mapping, ra, NULL, offset, req_size, &call))               \
			decide(mapping, ra, filp, false, offset, req_size, &call);               \
		return true;                                                                     \
	}                                                                                        \
	static void prefix##_async(struct address_space *mapping, struct file_ra_state *ra,      \
				   struct file *filp, struct page *page, pgoff_t offset,         \
				   unsigned long req_size)                                       \
	{                                                                                        \
		struct ra_call call;                                                             \
                                                                                                 \
		if (ra_ondemand_entry(mapping, ra, page, offset, req_size, &call))               \
			decide(mapping, ra, filp, true, offset, req_size, &call);                \
	}

/* --- the 2.6 paths, for the hooks an algorithm leaves NULL (mm/readahead.c) --- */

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

/* Give up on read-around when misses outnumber hits by this much. */
#define MMAP_LOTSAMISS 100

/* --- the shared mechanism (mm/readahead.c) ----------------------------------- */

/*
 * Read pages [@offset, @offset + @nr_to_read) that are not cached, none
 * past end of file: allocate them, put them in @mapping, mark the one at
 * @nr_to_read - @lookahead_size PG_readahead (only if newly allocated) and
 * every new one PG_readahead_io, and hand them all to ->readpages in one
 * call. Returns the number of pages submitted (0 when all were cached),
 * or -EINVAL if the mapping cannot read.
 */
int __do_page_cache_readahead(struct address_space *mapping, struct file *filp, pgoff_t offset,
			      unsigned long nr_to_read, unsigned long lookahead_size);
/*
 * A window read as folios (ra=linux's mechanism, after Linux's
 * page_cache_ra_order() and read_pages()): pages are added a folio at a
 * time, each page of a folio carrying its order (page_folio_order()) and,
 * for a marked folio, PG_readahead; ra_batch_read() hands what was added
 * so far to the filesystem in one ->readpages (Linux submits a batch at a
 * cached page or a failure, then goes on); ra_batch_end() counts the
 * window once if any page went to the disk.
 */
#define RA_MAX_FOLIO_ORDER 11 /* Linux's MAX_PAGECACHE_ORDER is 9; async asks up to 11 */
struct ra_batch {
	struct list_head pages;
	unsigned long nr;	    /* pages added since the last ra_batch_read() */
	unsigned long submitted;    /* pages handed to the filesystem in all */
	unsigned long window_pages; /* the window's size, for thrashed-window counting */
	uint32_t window;
	uint64_t born_ns;
	bool no_marks; /* @ra's no_lookahead (bench ra_async=0) */
	bool folios;   /* @ra's algorithm has RA_ALGO_FOLIOS */
};
void ra_batch_begin(struct ra_batch *b, const struct file_ra_state *ra, unsigned long window_pages);
/*
 * Add the folio of 2^@order pages at @index (aligned to its size): 0,
 * -EEXIST if any of its pages is cached (nothing added), -ENOMEM, -EINVAL.
 */
int ra_batch_add_folio(struct address_space *mapping, struct ra_batch *b, pgoff_t index,
		       unsigned int order, bool mark);
/* Read the pages added since the last call; returns how many. */
unsigned long ra_batch_read(struct address_space *mapping, struct file *filp, struct ra_batch *b);
void ra_batch_end(struct file *filp, struct ra_batch *b);

/* The same, but returns -EAGAIN without reading when the queue is read-congested. */
int do_page_cache_readahead(struct address_space *mapping, struct file *filp, pgoff_t offset,
			    unsigned long nr_to_read);
/*
 * Read @nr_to_read pages at @offset (bounded by max_sane_readahead) in
 * chunks of 2 MiB, whatever the readahead state: madvise/fadvise WILLNEED
 * and readahead(2). Returns pages submitted or -errno.
 */
int force_page_cache_readahead(struct address_space *mapping, struct file *filp, pgoff_t offset,
			       unsigned long nr_to_read);
/* A sensible upper limit for @nr pages of readahead: (free + inactive) / 2. */
unsigned long max_sane_readahead(unsigned long nr);

#endif
