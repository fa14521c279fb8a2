/*
 * ZFS's prefetcher (ra=zfetch): a design from outside Linux, OpenZFS's
 * module/zfs/dmu_zfetch.c as of zfs-2.2.6 (the same file in 2.2.4 to
 * 2.2.11), over blocks of ZFS's default recordsize, 128 KiB (32 pages).
 * Host-buildable.
 *
 * zfetch watches every read request, not misses: a file has up to
 * zfetch_max_streams (8) streams, each expecting a next block (zs_blkid).
 * A request that starts there (or one block before it, an unaligned reader
 * re-touching its last block) is a hit: the stream moves past the request
 * and its prefetch distance grows: it starts at the request's size,
 * doubles per hit up to zfetch_min_distance (4 MiB), then grows by an
 * eighth only when the reader caught up with the prefetch (zs_more: a
 * demand read found a prefetched page still under I/O). The prefetch
 * window ends the distance past the stream's next block and only its new
 * part is read; data is prefetched only once the stream has seen a demand
 * miss (zs_missed, sticky). A request no stream expects creates one that
 * expects the block after it, and prefetches nothing yet. Streams idle
 * for 2 s are reclaimed; at the cap, one idle for 1 s is reused, else
 * none is made. A file gets min(8, size / 64 MiB) streams, at least one.
 *
 * Here: a block is a 128 KiB record, as a dataset with the default
 * recordsize has them: a demand read reads every record it touches, whole
 * (ZFS reads and checksums records), and the streams count records, so a
 * reader of 4 KiB pages moves its stream on once every 32 reads. The
 * distance is also capped by the device's maximum window (ra_pages;
 * ra_kb=), the Linux testbed's limit for one readahead, instead of
 * zfetch_max_distance (64 MiB): with a 1 MiB maximum, 8 records, and the
 * +1/8 phase is never reached; a maximum below one record prefetches
 * nothing. There is no indirect-block prefetch (a page cache has no
 * indirect blocks) and no reordering tolerance (zfetch_max_reorder's
 * "future" ranges); marks are never set. Times are the kernel's clock.
 */
#include "mm/backing-dev.h"
#include "mm/file.h"
#include "kernel/time.h"
#include "mm/readahead.h"

/*
 * Its own trace cases. A stream is not a window of the on-demand family:
 * neither counts as a sequential first or next window (RA_KIND_OTHER).
 */
enum { ZF_STREAM_NEW, ZF_STREAM_HIT, ZF_NR_CASES };
static const struct ra_case_desc zfetch_cases[ZF_NR_CASES] = {
	[ZF_STREAM_NEW] = { "stream-new", RA_KIND_OTHER },
	[ZF_STREAM_HIT] = { "stream-hit", RA_KIND_OTHER },
};
static unsigned int zfetch_case_base;

#define ZFETCH_RECORD_PAGES	(128 * 1024 / PAGE_CACHE_SIZE)	/* recordsize=128K */
#define ZFETCH_MAX_STREAMS	8
#define ZFETCH_MIN_DISTANCE	(4ULL << 20)	/* bytes: doubling up to here */
#define ZFETCH_MAX_DISTANCE	(64ULL << 20)	/* bytes: streams per file */
#define ZFETCH_MIN_SEC_REAP	(1 * NSEC_PER_SEC)
#define ZFETCH_MAX_SEC_REAP	(2 * NSEC_PER_SEC)

struct zstream {
	pgoff_t blkid;			/* the next record the stream expects (zs_blkid) */
	pgoff_t pf_start, pf_end;	/* prefetched records [start, end): only new parts */
	unsigned long pf_dist;		/* distance in records */
	uint64_t atime;			/* last hit (ns) */
	unsigned long flags;
};
#define ZS_VALID	0x1
#define ZS_MISSED	0x2	/* a demand read missed: data prefetch allowed */
#define ZS_MORE		0x4	/* the reader caught up with the prefetch */

struct zfetch {
	struct zstream streams[ZFETCH_MAX_STREAMS];
};

/* How many pages of [index, index + nr) are not cached, and whether one is still being read. */
static unsigned long demand_state(struct address_space *mapping, pgoff_t index, unsigned long nr,
				  bool *in_flight)
{
	unsigned long missing = 0;

	*in_flight = false;
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = find_get_page(mapping, index + i);

		if (!page) {
			missing++;
			continue;
		}
		if (!PageUptodate(page) && PageReadaheadIO(page))
			*in_flight = true;
		page_cache_release(page);
	}
	return missing;
}

/* dmu_zfetch_stream_create(): a stream expecting @blkid, or none at the cap. */
static struct zstream *stream_create(struct zfetch *zf, loff_t file_size, pgoff_t blkid)
{
	unsigned long max_streams = (unsigned long)min_t(uint64_t, ZFETCH_MAX_STREAMS,
					      (uint64_t)file_size / ZFETCH_MAX_DISTANCE);
	uint64_t now = ktime_ns();
	struct zstream *zs = NULL, *oldest = NULL;
	unsigned long nr = 0;

	if (!max_streams)
		max_streams = 1;
	for (int i = 0; i < ZFETCH_MAX_STREAMS; i++) {
		struct zstream *s = &zf->streams[i];

		if (!(s->flags & ZS_VALID)) {
			if (!zs)
				zs = s;
			continue;
		}
		/* idle too long: reclaim it (the first such one is reused) */
		if (now - s->atime > ZFETCH_MAX_SEC_REAP) {
			s->flags = 0;
			if (!zs)
				zs = s;
			continue;
		}
		nr++;
		if (now - s->atime >= ZFETCH_MIN_SEC_REAP && (!oldest || s->atime < oldest->atime))
			oldest = s;
	}
	if (nr >= max_streams)
		zs = oldest;	/* at the cap: only a stream idle for a while */
	if (!zs)
		return NULL;
	*zs = (struct zstream){
		.blkid = blkid,
		.pf_start = blkid,
		.pf_end = blkid,
		/* a second ago, so that it can be reused at once until its first hit */
		.atime = now - ZFETCH_MIN_SEC_REAP,
		.flags = ZS_VALID,
	};
	return zs;
}

/* The demand pages of a request, read together without a mark (ZFS's dbuf reads). */
static void read_demand(struct address_space *mapping, struct file_ra_state *ra,
			struct file *filp, pgoff_t index, unsigned long nr)
{
	struct ra_call call = { .rcase = RA_CASE_RANDOM };
	int actual = __do_page_cache_readahead(mapping, filp, index, nr, 0);

	ra_call_note_io(&call, actual > 0 ? (unsigned long)actual : 0, false);
	ra_trace_record(mapping, ra, index, nr, &call, index, nr, 0);
}

/*
 * dmu_zfetch(): a request for pages [@index, @index + @npages), the records
 * [blkid, blkid + nblks) it touches. Matches a stream, moves it on and
 * prefetches; or starts one. The demand records are read first, whole.
 */
static void zfetch_access(struct address_space *mapping, struct file_ra_state *ra,
			  struct file *filp, pgoff_t index, unsigned long npages)
{
	const unsigned long R = ZFETCH_RECORD_PAGES;
	struct zfetch *zf = ra_priv(ra, struct zfetch);
	pgoff_t last_page, maxblkid, blkid, end;
	struct ra_call call = { .async = true };
	struct zstream *zs = NULL;
	unsigned long nblks, missing, max = ra->ra_pages / R;
	pgoff_t demand, demand_end;
	bool in_flight;

	if (mapping->size <= 0 || !npages)
		return;
	last_page = (pgoff_t)((mapping->size - 1) >> PAGE_CACHE_SHIFT);
	if (index > last_page)
		return;
	maxblkid = last_page / R;
	blkid = index / R;
	end = min((index + npages - 1) / R + 1, maxblkid + 1);
	nblks = end - blkid;
	demand = blkid * R;
	demand_end = min(end * R, last_page + 1);
	missing = demand_state(mapping, demand, demand_end - demand, &in_flight);
	call.congested = bdi_read_congested(mapping->backing_dev_info);
	if (!max || maxblkid < 2)
		goto demand;	/* no prefetch: the file or the window is too small */

	for (int i = 0; i < ZFETCH_MAX_STREAMS && !zs; i++) {
		struct zstream *s = &zf->streams[i];

		if (!(s->flags & ZS_VALID))
			continue;
		if (blkid == s->blkid) {
			zs = s;
		} else if (blkid < s->blkid && end >= s->blkid) {
			/*
			 * One record before it (a reader still inside the record it
			 * ended in), or across it: a hit for the new part.
			 */
			zs = s;
			nblks = end - s->blkid;
			blkid = s->blkid;
		}
	}
	if (!zs) {
		call.rcase = RA_CASE_RANDOM;
		if (end < maxblkid && stream_create(zf, mapping->size, end))
			call.rcase = RA_OWN_CASE(zfetch_case_base, ZF_STREAM_NEW);
		ra_trace_record(mapping, ra, index, npages, &call, end * R, 0, 0);
		goto demand;
	}

	/* dmu_zfetch_hit() */
	call.rcase = RA_OWN_CASE(zfetch_case_base, ZF_STREAM_HIT);
	zs->blkid += nblks;
	zs->atime = ktime_ns();
	if (missing)
		zs->flags |= ZS_MISSED;
	if (in_flight)
		zs->flags |= ZS_MORE;
	if (!nblks || zs->blkid >= maxblkid) {
		if (nblks)
			zs->flags = 0;	/* the stream reached the end of the file */
		ra_trace_record(mapping, ra, index, npages, &call, zs->blkid * R, 0, 0);
		goto demand;
	}
	if (zs->pf_dist < nblks)
		zs->pf_dist = nblks;
	else if ((uint64_t)zs->pf_dist * R * PAGE_CACHE_SIZE < ZFETCH_MIN_DISTANCE)
		zs->pf_dist *= 2;
	else if (zs->flags & ZS_MORE)
		zs->pf_dist += zs->pf_dist / 8;
	zs->flags &= ~ZS_MORE;
	zs->pf_dist = min(zs->pf_dist, max);
	zs->pf_start = max(zs->pf_start, zs->blkid);
	zs->pf_end = max(zs->pf_end, zs->blkid + zs->pf_dist);
	/*
	 * dmu_buf_hold_array_by_dnode(): the demand reads are issued first,
	 * then dmu_zfetch_run(): only the new part, and data only after a
	 * demand miss.
	 */
	if (missing)
		read_demand(mapping, ra, filp, demand, demand_end - demand);
	missing = 0;
	if ((zs->flags & ZS_MISSED) && zs->pf_end > zs->pf_start) {
		pgoff_t start = zs->pf_start * R, stop = min(zs->pf_end * R, last_page + 1);
		int actual = 0;

		if (stop > start)
			actual = __do_page_cache_readahead(mapping, filp, start, stop - start, 0);
		zs->pf_start = zs->pf_end;
		ra_set_window(ra, index, start, zs->pf_end * R - start, 0);
		ra_call_note_io(&call, actual > 0 ? (unsigned long)actual : 0, true);
		ra_trace_record(mapping, ra, index, npages, &call, start, zs->pf_end * R - start, 0);
	} else {
		ra_trace_record(mapping, ra, index, npages, &call, zs->pf_start * R, 0, 0);
	}
demand:
	if (missing)
		read_demand(mapping, ra, filp, demand, demand_end - demand);
}

/* Every read request, once: the index past it, so that the read path does not call again. */
static unsigned long zfetch_request(struct address_space *mapping, struct file_ra_state *ra,
				    struct file *filp, pgoff_t offset, unsigned long req_size)
{
	zfetch_access(mapping, ra, filp, offset, req_size);
	return offset + req_size;
}

/* A page still missing after the request: evicted meanwhile; read the rest as is. */
static bool zfetch_sync(struct address_space *mapping, struct file_ra_state *ra,
			struct file *filp, pgoff_t offset, unsigned long req_size)
{
	read_demand(mapping, ra, filp, offset, req_size);
	return true;
}

/* An mmap fault is a one-page request (zfs_getpage() reads through the DMU). */
static void zfetch_fault_sync(struct file *file, pgoff_t pgoff, enum filemap_advice advice)
{
	if (advice != FAULT_ADV_RANDOM)
		zfetch_access(file->f_mapping, &file->f_ra, file, pgoff, 1);
}

static void zfetch_fault_async(struct file *file, struct page *page, pgoff_t pgoff,
			       enum filemap_advice advice)
{
	(void)page;
	zfetch_fault_sync(file, pgoff, advice);
}

static void zfetch_readdir(struct file *filp, struct address_space *bd_mapping, pgoff_t index)
{
	zfetch_access(bd_mapping, &filp->f_ra, filp, index, 1);
}

const struct ra_algorithm ra_algo_zfetch = {
	.name = "zfetch",
	.title = "zfetch",
	.help = "OpenZFS 2.2's dmu_zfetch over 128 KiB records: up to 8 streams, distance x2 then +1/8",
	.cases = zfetch_cases,
	.nr_cases = ZF_NR_CASES,
	.case_base = &zfetch_case_base,
	.request = zfetch_request,
	.sync = zfetch_sync,
	.fault_sync = zfetch_fault_sync,
	.fault_async = zfetch_fault_async,
	.readdir = zfetch_readdir,
};
RA_ALGORITHM(ra_algo_zfetch);
