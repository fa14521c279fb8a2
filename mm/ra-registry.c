/*
 * Which readahead algorithm a file gets. The registry: every struct
 * ra_algorithm that RA_ALGORITHM() put in the ra_algorithms section, sorted
 * by name once, its own trace cases numbered after the shared ones, the
 * default the one flagged RA_ALGO_DEFAULT; ra= finds names here as 2.6's
 * elevator= finds an I/O scheduler (block/elevator.c). Boot: mm/racmd.c
 * calls readahead_init() with the ra= and ra_kb= values. Per open file:
 * file_ra_state_init() gives it the default algorithm and window,
 * file_ra_set_algo() and file_ra_set_max_pages() change them, and
 * file_ra_fadvise() is posix_fadvise() as 2.6.22 took it. Host-buildable.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kv.h"
#include "kernel/log.h"
#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/readahead.h"

/* The one with RA_ALGO_DEFAULT (the registry sets it); NULL in a tree without. */
const struct ra_algorithm *ra_default_algo;
unsigned long ra_default_pages = MAX_RA_PAGES;
bool ra_default_pages_set;

/* --- the registry ------------------------------------------------------------------ */

/* weak: a host program that links no algorithm has an empty registry */
extern const struct ra_algorithm *const __start_ra_algorithms[] __attribute__((weak));
extern const struct ra_algorithm *const __stop_ra_algorithms[] __attribute__((weak));

/* More than any tree needs; ra_algo_at() says so once if a build ever has more. */
#define RA_MAX_ALGOS 32

static const struct ra_algorithm *ra_sorted[RA_MAX_ALGOS];
static const char *ra_sorted_names[RA_MAX_ALGOS + 1];
static unsigned int ra_nr_sorted;

/*
 * Number the algorithms' own trace cases after the shared ones, in the
 * registry's order, and find the default algorithm. An algorithm whose
 * cases do not fit in RA_NR_CASES is left out of the registry, loudly.
 */
static void ra_registry_cases(void)
{
	unsigned int base = RA_NR_SHARED_CASES, kept = 0;

	for (unsigned int i = 0; i < ra_nr_sorted; i++) {
		const struct ra_algorithm *a = ra_sorted[i];

		if (a->nr_cases && (!a->case_base || base + a->nr_cases > RA_NR_CASES)) {
			pr_err("readahead: %s: its %u trace cases do not fit (%u of %u taken), so "
			       "it is left out\n",
			       a->name, a->nr_cases, base, RA_NR_CASES);
			continue;
		}
		if (a->nr_cases) {
			*a->case_base = base;
			base += a->nr_cases;
		}
		if ((a->flags & RA_ALGO_DEFAULT) && !ra_default_algo)
			ra_default_algo = a;
		ra_sorted[kept] = a;
		ra_sorted_names[kept++] = a->name;
	}
	ra_nr_sorted = kept;
	ra_sorted_names[kept] = NULL;
}

/*
 * The section holds the algorithms in link order, which differs between the
 * kernel and the host programs: sort them by name, once, so that lists and
 * tables come out the same everywhere.
 */
static void ra_registry_sort(void)
{
	const struct ra_algorithm *const *p;

	for (p = __start_ra_algorithms; p < __stop_ra_algorithms; p++) {
		unsigned int i;

		if (ra_nr_sorted == RA_MAX_ALGOS) {
			pr_err("readahead: more than %d algorithms registered, "
			       "%s and later left out\n",
			       RA_MAX_ALGOS, (*p)->name);
			break;
		}
		for (i = ra_nr_sorted; i > 0 && strcmp(ra_sorted[i - 1]->name, (*p)->name) > 0; i--)
			ra_sorted[i] = ra_sorted[i - 1];
		ra_sorted[i] = *p;
		ra_nr_sorted++;
	}
	for (unsigned int i = 0; i < ra_nr_sorted; i++)
		ra_sorted_names[i] = ra_sorted[i]->name;
	ra_registry_cases();
}

const struct ra_algorithm *ra_algo_at(unsigned int i)
{
	if (!ra_nr_sorted)
		ra_registry_sort();
	return i < ra_nr_sorted ? ra_sorted[i] : NULL;
}

const char *const *ra_algo_names(void)
{
	ra_algo_at(0);
	return ra_sorted_names;
}

const struct ra_algorithm *ra_algo_find(const char *name)
{
	const struct ra_algorithm *algo;

	for (unsigned int i = 0; (algo = ra_algo_at(i)); i++)
		if (!strcmp(algo->name, name))
			return algo;
	return NULL;
}

unsigned int ra_algo_all(const struct ra_algorithm **out, unsigned int max)
{
	const struct ra_algorithm *a;
	unsigned int n = 0;

	/* the seeds' pair in its order, then the others by name */
	for (unsigned int order = 1; order <= 2; order++)
		for (unsigned int i = 0; (a = ra_algo_at(i)); i++)
			if (a->order == order && !(a->flags & RA_ALGO_NO_WINDOW) && n < max)
				out[n++] = a;
	for (unsigned int i = 0; (a = ra_algo_at(i)); i++)
		if (!a->order && !(a->flags & RA_ALGO_NO_WINDOW) && n < max)
			out[n++] = a;
	return n;
}

const char *ra_algo_list(char *buf, size_t len)
{
	const struct ra_algorithm *algo;
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; (algo = ra_algo_at(i)) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", algo->name);
	return buf;
}

int readahead_init(const struct ra_algorithm *algo, unsigned long max_pages)
{
	if (!algo || max_pages > RA_MAX_WINDOW || ((algo->flags & RA_ALGO_NO_WINDOW) && max_pages))
		return -EINVAL;
	ra_algo_at(0);
	ra_default_algo = algo;
	ra_default_pages = max_pages;
	readahead_thrashed_hook = ra_page_thrashed;
	return 0;
}

/* --- per-file state ------------------------------------------------------------------ */

static void ra_reset_window(struct file_ra_state *ra)
{
	ra->la_index = ra->ra_index = ra->lookahead_index = ra->readahead_index = 0;
	ra->mmap_hit = ra->mmap_miss = 0;
	memset(ra->priv, 0, sizeof(ra->priv));
	/* -1: the first read, at offset 0, looks sequential to every algorithm */
	ra->prev_index = -1UL;
	ra->prev_offset = 0;
	ra->prev_pos = -1;
}

void file_ra_state_init(struct file_ra_state *ra, struct address_space *mapping)
{
	memset(ra, 0, sizeof(*ra));
	ra_reset_window(ra);
	ra->mapping = mapping;
	ra->thrashed_base = mapping ? mapping->ra_thrashed : 0;
	ra->thrashed_windows_base = mapping ? mapping->ra_thrashed_windows : 0;
	/* 2.6.22: the maximum window is the device's (bdi.ra_pages, blockdev --setra) */
	if (mapping && mapping->backing_dev_info)
		ra->ra_pages = mapping->backing_dev_info->ra_pages;
	else
		ra->ra_pages = ra_default_pages;
	if (!ra_default_algo)
		ra_algo_at(0); /* the registry names the default (RA_ALGO_DEFAULT) */
	if (!ra_default_algo)
		panic("readahead: no algorithm linked in says it is the default (RA_ALGO_DEFAULT)");
	file_ra_set_algo(ra, ra_default_algo);
}

unsigned long ra_algo_window(const struct ra_algorithm *algo, const struct backing_dev_info *bdi)
{
	if (algo->flags & RA_ALGO_NO_WINDOW)
		return 0;
	if (bdi && !bdi->ra_pages_set && algo->default_ra_pages)
		/* nobody chose the device's window: the algorithm's kernel's own default */
		return min_t(unsigned long, algo->default_ra_pages(bdi), RA_MAX_WINDOW);
	return bdi ? bdi->ra_pages : ra_default_pages;
}

void file_ra_set_algo(struct file_ra_state *ra, const struct ra_algorithm *algo)
{
	struct backing_dev_info *bdi = ra->mapping ? ra->mapping->backing_dev_info : NULL;

	ra_reset_window(ra);
	ra->algo = algo;
	if (algo->init)
		algo->init(ra);
	/* a window set on the file stays, unless the algorithm has none or the device's is new */
	if ((algo->flags & RA_ALGO_NO_WINDOW) || ra->ra_pages == 0 || (bdi && !bdi->ra_pages_set))
		ra->ra_pages = ra_algo_window(algo, bdi);
}

int file_ra_set_max_pages(struct file_ra_state *ra, unsigned long pages)
{
	if (pages > RA_MAX_WINDOW || ((ra->algo->flags & RA_ALGO_NO_WINDOW) && pages))
		return -EINVAL;
	ra->ra_pages = pages;
	return 0;
}

const char *const ra_fadvise_names[] = {"normal", "sequential", "random", "willneed", NULL};

int file_ra_fadvise(struct file *filp, loff_t offset, loff_t len, enum ra_fadvise advice)
{
	struct file_ra_state *ra = &filp->f_ra;
	pgoff_t start, end;

	if (offset < 0 || len < 0)
		return -EINVAL;
	if (ra->algo->fadvise)
		return ra->algo->fadvise(filp, offset, len, advice);
	switch (advice) {
	case FADV_NORMAL:
	case FADV_RANDOM:
		if (ra->advice == FADV_SEQUENTIAL)
			ra->ra_pages = ra->advice_pages;
		ra->advice = advice;
		ra->read_as_is = advice == FADV_RANDOM;
		return 0;
	case FADV_SEQUENTIAL:
		if (ra->advice != FADV_SEQUENTIAL) {
			ra->advice_pages = ra->ra_pages;
			ra->ra_pages = min_t(unsigned long, 2 * ra->ra_pages, RA_MAX_WINDOW);
		}
		ra->advice = advice;
		ra->read_as_is = false;
		return 0;
	case FADV_WILLNEED:
		if (filp->f_mapping->size <= 0 || offset >= filp->f_mapping->size)
			return 0;
		start = (pgoff_t)(offset >> PAGE_CACHE_SHIFT);
		if (!len || len > filp->f_mapping->size - offset)
			len = filp->f_mapping->size - offset;
		end = (pgoff_t)((offset + len - 1) >> PAGE_CACHE_SHIFT);
		return force_page_cache_readahead(filp->f_mapping, filp, start, end - start + 1);
	default:
		return -EINVAL;
	}
}

/*
 * A command's ra= and ra_kb= for its file (RA_KV_SPECS, mm/ratrace.h): here,
 * beside the registry it looks the name up in, not among the instruments.
 */
int ra_apply_args(const char *cmd, struct file *filp, const struct kv_value *ra,
		  const struct kv_value *ra_kb)
{
	struct file_ra_state *st = &filp->f_ra;

	if (ra && ra->present) {
		const struct ra_algorithm *algo = ra_algo_find(ra->s);
		char list[160];

		if (!algo) {
			printf("%s: ra=%s: expected one of %s\n", cmd, ra->s,
			       ra_algo_list(list, sizeof(list)));
			return -EINVAL;
		}
		file_ra_set_algo(st, algo);
	}
	if (ra_kb && ra_kb->present) {
		if (st->algo->flags & RA_ALGO_NO_WINDOW) {
			printf("%s: ra_kb=%s makes no sense with ra=%s (no readahead)\n", cmd,
			       ra_kb->raw, st->algo->name);
			return -EINVAL;
		}
		if (!ra_kb_valid(ra_kb->u)) {
			printf("%s: ra_kb=%s: expected a multiple of %lu up to %u\n", cmd,
			       ra_kb->raw, PAGE_CACHE_SIZE / 1024, RA_MAX_KB);
			return -EINVAL;
		}
		file_ra_set_max_pages(st, ra_kb->u * 1024 / PAGE_CACHE_SIZE);
	}
	return 0;
}
