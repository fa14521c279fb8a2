/*
 * Per-file readahead state and the readahead entry points (mm/readahead.c
 * for on-demand, mm/readahead-legacy.c for the 2.6.20 algorithm). See the
 * pictures in mm/readahead.c.
 */
#ifndef MM_READAHEAD_H
#define MM_READAHEAD_H

#include "mm/pagemap.h"

enum ra_algo { RA_ONDEMAND, RA_LEGACY, RA_OFF };

/*
 * Track a single file's readahead state
 *
 *  ================#============|==================#==================|
 *                  ^            ^                  ^                  ^
 *  file_ra_state.la_index    .ra_index   .lookahead_index   .readahead_index
 */
struct file_ra_state {
	enum ra_algo algo;
	/* on-demand (patch 005) */
	pgoff_t la_index;		/* enqueue time */
	pgoff_t ra_index;		/* begin offset */
	pgoff_t lookahead_index;	/* time to do next readahead */
	pgoff_t readahead_index;	/* end offset */
	/* legacy 2.6.20 (the lines patch 010 removes) */
	unsigned long start;		/* current window */
	unsigned long size;
	unsigned long flags;		/* RA_FLAG_* */
	unsigned long cache_hit;	/* cache hit count */
	unsigned long ahead_start;	/* ahead window */
	unsigned long ahead_size;
	/* shared */
	unsigned long ra_pages;		/* maximum readahead window */
	unsigned long mmap_hit;		/* cache hit stat for mmap accesses */
	unsigned long mmap_miss;	/* cache miss stat for mmap accesses */
	unsigned long prev_index;	/* cache last read() position */
	unsigned int prev_offset;	/* offset where last read() ended in a page */
};

#endif
