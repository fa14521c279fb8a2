/*
 * No readahead at all (ra=off; blockdev --setra 0): every page a reader
 * misses is read alone through ->readpage, and a look-ahead mark another
 * reader of the file left stays where it is. The baseline for what a
 * readahead decision costs (bench overhead ra=off). Host-buildable.
 */
#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/readahead.h"

static void off_record(struct address_space *mapping, struct file_ra_state *ra,
		       struct page *page, pgoff_t offset, unsigned long req_size)
{
	struct ra_call call = { .rcase = RA_CASE_OFF, .async = page != NULL };

	call.congested = bdi_read_congested(mapping->backing_dev_info);
	ra_trace_record(mapping, ra, offset, req_size, &call, offset, 0, 0);
}

static bool off_sync(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		     pgoff_t offset, unsigned long req_size)
{
	(void)filp;
	off_record(mapping, ra, NULL, offset, req_size);
	return true;
}

static void off_async(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		      struct page *page, pgoff_t offset, unsigned long req_size)
{
	(void)filp;
	off_record(mapping, ra, page, offset, req_size);
}

const struct ra_algorithm ra_algo_off = {
	.name = "off",
	.title = "off",
	.help = "no readahead: each missing page is read alone",
	.flags = RA_ALGO_NO_WINDOW,
	.sync = off_sync,
	.async = off_async,
};
RA_ALGORITHM(ra_algo_off);
