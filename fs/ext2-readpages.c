/*
 * The ext2 file address_space: ->readpages maps every page of a readahead
 * window to its disk blocks and reads each run of contiguous blocks with
 * one bio (a new bio at each discontinuity or hole), like Linux's
 * mpage_readpages; ->readpage does the same for one page (the retry after
 * an error). Holes, and blocks past the end of the file, read as zeros
 * without I/O. A block smaller than the page is a piece of the page; a page
 * whose blocks are not contiguous spans several bios.
 *
 * Mapping is done for the whole window before any data bio is submitted:
 * the indirect blocks are read synchronously through the block device's
 * cache, and a wait for them must not sit behind our own plugged bios.
 */
#include <string.h>

#include "fs/ext2.h"
#include "fs/mpage.h"
#include "kernel/log.h"
#include "mm/mm.h"

#define MAX_BLOCKS_PER_PAGE (PAGE_SIZE >> EXT2_MIN_BLOCK_LOG_SIZE)

struct page_map {
	uint32_t blocks[MAX_BLOCKS_PER_PAGE]; /* disk block per piece, 0: zeros */
	int err;
};

static sector_t block_sector(struct super_block *sb, uint32_t blk)
{
	return (sb->s_start + ((uint64_t)blk << sb->s_blocksize_bits)) >> SECTOR_SHIFT;
}

static void map_page(struct inode *inode, struct ext2_bmap_ctx *ctx, pgoff_t index,
		     struct page_map *pm)
{
	unsigned int bpp = PAGE_SIZE >> inode->i_sb->s_blocksize_bits;
	uint64_t first = (uint64_t)index * bpp, end = ext2_size_blocks(inode);

	pm->err = 0;
	for (unsigned int j = 0; j < bpp; j++) {
		pm->blocks[j] = 0;
		if (first + j >= end)
			continue; /* past end of file: zeros */
		pm->err = ext2_bmap(inode, ctx, first + j, &pm->blocks[j]);
		if (pm->err)
			return;
	}
}

static void queue_page(struct mpage_bio *mb, struct inode *inode, struct page *page,
		       const struct page_map *pm)
{
	struct super_block *sb = inode->i_sb;
	unsigned int bpp = PAGE_SIZE >> sb->s_blocksize_bits;
	uint32_t bs = sb->s_blocksize;
	unsigned int j, n;

	mpage_page_start(page);
	if (pm->err) {
		mpage_page_fail(page);
		mpage_page_end(page);
		return;
	}
	for (j = 0; j < bpp; j += n) {
		n = 1;
		if (!pm->blocks[j]) {
			memset((uint8_t *)page_address(page) + j * bs, 0, bs);
			mpage_break(mb);
			continue;
		}
		while (j + n < bpp && (uint64_t)pm->blocks[j] + n == pm->blocks[j + n])
			n++;
		if (mpage_add(mb, page, j * bs, n * bs, block_sector(sb, pm->blocks[j])))
			break;
	}
	mpage_page_end(page);
}

/*
 * The whole window is mapped in one batch; if its map cannot be allocated,
 * page by page (still one bio per run: the bio being filled is not
 * submitted between batches).
 */
static int ext2_readpages(struct address_space *mapping, struct file *filp, struct list_head *pages,
			  unsigned int nr_pages)
{
	struct inode *inode = mapping->host;
	struct mpage_bio mb = {.bdev = inode->i_sb->s_bdev};
	struct ext2_bmap_ctx ctx;
	struct page_map one, *map;
	unsigned int batch, i, left = nr_pages;
	struct page *page;
	int ret = 0;

	(void)filp;
	map = nr_pages > 1 ? kmalloc(nr_pages * sizeof(*map)) : NULL;
	batch = map ? nr_pages : 1;
	if (!map)
		map = &one;
	ext2_bmap_init(&ctx);
	while (!list_empty(pages)) {
		/* Map a batch first (synchronous metadata reads)... */
		i = 0;
		list_for_each_entry (page, pages, lru) {
			if (i == batch)
				break;
			/*
			 * After a mapping error the rest of the window fails
			 * unmapped (one error line, not one per page); a reader
			 * that gets there retries the page with ->readpage.
			 */
			if (ret)
				map[i].err = ret;
			else
				map_page(inode, &ctx, page->index, &map[i]);
			if (map[i].err)
				ret = map[i].err;
			i++;
		}
		/* ...then queue its data, plugged so the block layer sees whole runs. */
		blk_start_plug();
		for (unsigned int k = 0; k < i; k++) {
			page = list_first_entry(pages, struct page, lru);
			list_del(&page->lru);
			lru_cache_add(page);
			mb.vecs_hint = left--;
			queue_page(&mb, inode, page, &map[k]);
		}
		if (list_empty(pages))
			mpage_submit(&mb);
		blk_finish_plug();
	}
	ext2_bmap_release(&ctx);
	if (map != &one)
		kfree(map);
	return ret;
}

static int ext2_readpage(struct file *filp, struct page *page)
{
	struct inode *inode = page->mapping->host;
	struct mpage_bio mb = {.bdev = inode->i_sb->s_bdev, .vecs_hint = 1};
	struct ext2_bmap_ctx ctx;
	struct page_map pm;

	(void)filp;
	ClearPageError(page);
	ext2_bmap_init(&ctx);
	map_page(inode, &ctx, page->index, &pm);
	ext2_bmap_release(&ctx);
	queue_page(&mb, inode, page, &pm);
	mpage_submit(&mb);
	return pm.err;
}

const struct address_space_operations ext2_aops = {
	.readpages = ext2_readpages,
	.readpage = ext2_readpage,
};
