/*
 * The generic read paths over the page cache (mm/filemap.c): read(2)-style
 * reads, the mmap fault path and the splice path, each calling the file's
 * readahead algorithm through its hooks at the places patches 007/008 of the
 * seeds describe. Host-buildable; the mapping of
 * files into kernel virtual memory is mm/filemap-mmap.c (kernel only).
 */
#ifndef MM_FILEMAP_H
#define MM_FILEMAP_H

#include "mm/file.h"

/*
 * A wait for one page's I/O fails once its disk has completed no request
 * for this long (wait_on_page_io(): a stall, however long the page's turn
 * takes; the block layer has its own, shorter, timeouts per command).
 */
#define FILEMAP_IO_STALL_NS	(60 * NSEC_PER_SEC)

/*
 * Read up to @count bytes at *@ppos into @buf through the page cache,
 * advancing *@ppos. Returns bytes read (0 at end of file) or -errno
 * (after a page failed its single-page retry).
 */
ssize_t do_generic_mapping_read(struct file *filp, void *buf, size_t count, loff_t *ppos);

/*
 * The same read of @count bytes, one request as readahead sees it (its
 * req_size is all of @count), with the data handed to @actor a piece at a
 * time in file order (at most a page each) instead of copied into one
 * buffer: a read larger than any buffer the caller can have, as 2.6.20's
 * read_actor_t let file_read_actor() copy to user memory page by page.
 * (mm/filemap-actor.c builds it from do_generic_mapping_read()'s source.)
 */
typedef void (*filemap_actor_t)(void *ctx, const void *data, size_t len);
ssize_t do_generic_mapping_read_actor(struct file *filp, size_t count, loff_t *ppos,
				      filemap_actor_t actor, void *ctx);

/* --- the fault path (patch 007) ------------------------------------------------ */

/* enum filemap_advice, the madvise()-style hints, is in mm/ra-algorithm.h (the hooks take it). */
extern const char *const filemap_advice_names[];	/* "normal", ... NULL */

/*
 * A fault at page @pgoff of a mapping of @file with access hint @advice:
 * find the page (reading ahead or around as the file's algorithm and the
 * hint say) and return it uptodate, locked, with a reference the caller
 * drops after mapping it. NULL with *@err: -EFAULT past end of file (Linux's
 * SIGBUS), -ENOMEM, -EIO after the single retry failed, -ETIMEDOUT.
 */
struct page *filemap_fault(struct file *file, pgoff_t pgoff, enum filemap_advice advice,
			   int *err);

/* --- mmap-style mappings (mm/filemap-mmap.c, kernel only) -------------------------- */

/*
 * A read-only mapping of a whole file into the kernel VM region
 * (kernel/vm.h). Nothing is mapped at first: touching a page faults, and
 * the fault handler runs filemap_fault() with the mapping's advice and maps
 * the page it returns. A fault that cannot be served (I/O error, out of
 * memory) maps a zero-filled page so the access completes, and records the
 * error here: check it after touching the data.
 *
 *	struct file_mmap m;
 *	err = filemap_mmap(filp, FAULT_ADV_SEQUENTIAL, &m);
 *	crc = crc32(0, (const void *)m.va, m.size);	// faults bring pages in
 *	if (m.error) ...				// at m.error_index
 *	filemap_munmap(&m);
 */
struct file_mmap {
	struct file *file;
	enum filemap_advice advice;
	uintptr_t va;			/* start of the mapping */
	loff_t size;			/* bytes of the file mapped */
	pgoff_t nr_pages;
	struct page **pages;		/* page mapped at each index (referenced), or NULL */
	unsigned long faults;		/* faults served */
	int error;			/* first fault that failed: -errno, or 0 */
	pgoff_t error_index;
	struct list_head link;		/* the mappings the fault hook searches */
	/* filemap_mmap_map(), for fault-around in an algorithm (host builds have no VM) */
	int (*map)(struct file_mmap *m, pgoff_t index, struct page *page);
};

/* Largest file filemap_mmap() maps (the pages[] array is one kmalloc). */
#define FILEMAP_MMAP_MAX	(2ULL << 30)

/*
 * Map @page at @index of @m without a fault (fault-around), taking a
 * reference for the mapping; -EEXIST if something is mapped there.
 */
int filemap_mmap_map(struct file_mmap *m, pgoff_t index, struct page *page);

/* Map @file (a non-empty regular file up to FILEMAP_MMAP_MAX); 0 or -errno. */
int filemap_mmap(struct file *file, enum filemap_advice advice, struct file_mmap *m);
/* Unmap every page, drop their references and free the bookkeeping. */
void filemap_munmap(struct file_mmap *m);
/*
 * Whether byte @pos of @file lies in a page a mapping of it could not read
 * (its first failed fault: the zero page stands in), so that a data check
 * does not call the zeros there wrong data.
 */
bool filemap_mmap_unread(const struct file *file, loff_t pos);

/* --- the splice path (patch 008) ----------------------------------------------- */

#define PIPE_BUFFERS	16

/* Pages handed to a pipe by reference: [offset, offset + len) of each is data. */
struct splice_pipe_desc {
	struct page *pages[PIPE_BUFFERS];
	struct {
		unsigned int offset, len;
	} partial[PIPE_BUFFERS];
	unsigned int nr_pages;
};

/*
 * Fill @spd with up to PIPE_BUFFERS pages covering up to @len bytes at
 * *@ppos, by reference, starting I/O on missing pages but not waiting for
 * it; advances *@ppos past the bytes handed over. Returns those bytes (0 at
 * end of file) or -errno (-EAGAIN: the first page left the cache while we
 * waited for it; call again). The consumer calls splice_page_confirm() before
 * touching a page's data and splice_release() when done.
 */
ssize_t generic_file_splice_read(struct file *in, loff_t *ppos, size_t len,
				 struct splice_pipe_desc *spd);
/* Wait (bounded) until pipe page @i is uptodate: 0, or -EIO/-ETIMEDOUT with a message. */
int splice_page_confirm(struct file *in, struct splice_pipe_desc *spd, unsigned int i);
void splice_release(struct splice_pipe_desc *spd);

#endif
