/*
 * mmap-style file mappings for the fault path: a file mapped read-only into
 * the kernel VM region with every page not present, so that each first
 * touch of a page takes a real page fault. The #PF handler (kernel/trap.c)
 * offers it to vm_fault_hook, which runs filemap_fault() (mm/filemap.c)
 * with the mapping's advice and maps the page. Kernel only.
 *
 * A fault at an address no mapping covers, or a write, is refused, so the
 * fault panics with the full report as any other bad access does.
 */
#include <string.h>

#include "kernel/log.h"
#include "kernel/sync.h"
#include "kernel/vm.h"
#include "mm/filemap.h"
#include "mm/mm.h"

static LIST_HEAD(mappings);
static struct page *zero_page;		/* stands in for pages that could not be read */

static struct file_mmap *find_mapping(uintptr_t addr)
{
	struct file_mmap *m;

	list_for_each_entry(m, &mappings, link)
		if (addr >= m->va && addr < m->va + m->nr_pages * PAGE_SIZE)
			return m;
	return NULL;
}

bool filemap_mmap_unread(const struct file *file, loff_t pos)
{
	struct file_mmap *m;

	list_for_each_entry(m, &mappings, link)
		if (m->file == file && m->error && m->error_index == (pgoff_t)(pos >> PAGE_SHIFT))
			return true;
	return false;
}

static void record_error(struct file_mmap *m, pgoff_t index, int err)
{
	if (!m->error) {
		m->error = err;
		m->error_index = index;
	}
}

/* vm_fault_hook: runs with interrupts as the faulting code had them, and may sleep. */
static bool filemap_vm_fault(uintptr_t addr, uint64_t error_code)
{
	struct file_mmap *m = find_mapping(addr);
	uintptr_t va = ALIGN_DOWN(addr, PAGE_SIZE);
	const struct ra_algorithm *algo;
	struct page *page;
	pgoff_t index;
	int err;

	if (!m)
		return false;
	if (error_code & 2) {
		pr_err("mmap: write to the read-only mapping of %s at %#lx\n", m->file->f_path,
		       (unsigned long)addr);
		return false;
	}
	index = (va - m->va) >> PAGE_SHIFT;
	if (m->pages[index]) {
		/* Ours already but not present (a stale entry): map it again. */
		return vm_map_page(va, (phys_addr_t)page_to_pfn(m->pages[index]) << PAGE_SHIFT,
				   false) == 0;
	}
	algo = m->file->f_ra.algo;
	/* fault-around (Linux's): the neighbours, and this page if it can be */
	if (algo->fault_around && algo->fault_around(m, index)) {
		m->faults++;
		return true;
	}
	page = filemap_fault(m->file, index, m->advice, &err);
	if (!page) {
		record_error(m, index, err);
		page = zero_page;
		get_page(page);
	} else {
		unlock_page(page);
		if (algo->fault_retry && m->file->f_ra.fault_waited) {
			algo->fault_retry(m, index);
			if (m->pages[index]) {
				/* the retry's fault-around mapped it */
				put_page(page);
				m->faults++;
				return true;
			}
		}
	}
	err = vm_map_page(va, (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT, false);
	if (err) {
		pr_err("mmap: %s: cannot map page %lu at %#lx: %s\n", m->file->f_path, index,
		       (unsigned long)va, errname(err));
		put_page(page);
		return false;
	}
	m->pages[index] = page;	/* our reference keeps it from reclaim while mapped */
	m->faults++;
	return true;
}

int filemap_mmap_map(struct file_mmap *m, pgoff_t index, struct page *page)
{
	int err;

	if (index >= m->nr_pages || m->pages[index])
		return -EEXIST;
	err = vm_map_page(m->va + index * PAGE_SIZE, (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT,
			  false);
	if (err)
		return err;
	get_page(page);	/* the mapping's reference, as for a faulted page */
	m->pages[index] = page;
	return 0;
}

int filemap_mmap(struct file *file, enum filemap_advice advice, struct file_mmap *m)
{
	loff_t size = file->f_mapping->size;

	memset(m, 0, sizeof(*m));
	INIT_LIST_HEAD(&m->link);
	if ((unsigned int)advice >= FAULT_ADV_NR)
		return -EINVAL;
	if (size <= 0)
		return -EINVAL;
	if ((uint64_t)size > FILEMAP_MMAP_MAX) {
		pr_err("mmap: %s: %lld bytes; at most %llu can be mapped\n", file->f_path,
		       (long long)size, (unsigned long long)FILEMAP_MMAP_MAX);
		return -EFBIG;
	}
	if (!zero_page) {
		zero_page = alloc_page();
		if (!zero_page)
			return -ENOMEM;
		memset(page_address(zero_page), 0, PAGE_SIZE);
	}
	m->file = file;
	m->map = filemap_mmap_map;
	m->advice = advice;
	m->size = size;
	m->nr_pages = (pgoff_t)DIV_ROUND_UP((uint64_t)size, PAGE_SIZE);
	m->pages = kcalloc(m->nr_pages, sizeof(*m->pages));
	if (!m->pages)
		return -ENOMEM;
	m->va = vm_alloc_range(m->nr_pages * PAGE_SIZE);
	if (!m->va) {
		kfree(m->pages);
		m->pages = NULL;
		pr_err("mmap: %s: the kernel VM region is exhausted\n", file->f_path);
		return -ENOMEM;
	}
	list_add(&m->link, &mappings);
	vm_fault_hook = filemap_vm_fault;
	return 0;
}

void filemap_munmap(struct file_mmap *m)
{
	if (!m->pages)
		return;
	for (pgoff_t i = 0; i < m->nr_pages; i++) {
		if (!m->pages[i])
			continue;
		vm_unmap_page(m->va + i * PAGE_SIZE);
		put_page(m->pages[i]);
	}
	list_del(&m->link);
	kfree(m->pages);
	m->pages = NULL;
}
