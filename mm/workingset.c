/*
 * Workingset shadows and refaults, as an instrument: Linux 7.2's
 * mm/workingset.c leaves a shadow entry where reclaim evicted a page
 * (workingset_eviction(): the LRU's nonresident age at that moment) and,
 * when a page is added over it (filemap_add_folio()), counts a refault and
 * decides from the refault distance whether to activate it. Here the
 * shadows are kept and the refaults counted, with how many the classic LRU
 * of 7.2 would activate (workingset_test_recent(): distance <= the active
 * file list), but no decision of reclaim reads them: lookahead's reclaim
 * is 2.6.20's, which had no shadows (docs/linux-7.2.md says what that
 * leaves out, measured). Debian's 7.2 runs the multi-gen LRU, whose
 * lru_gen_refault() restores tiers instead; that is not modelled.
 *
 * The shadows live in a table of up to four slots per pool frame (Linux's
 * shrinker lets shadow nodes hold up to eight shadows a cached page),
 * indexed by a hash of (mapping, index): a shadow whose slot another
 * eviction takes is lost, as the shrinker drops shadow nodes (counted:
 * dropped), so the refaults counted are a lower bound. A mapping is named by a serial number,
 * not its address, so a new file never meets an old one's shadows;
 * invalidation (drop_caches, truncation) leaves none, as in Linux, where
 * only reclaim does. With no shadow yet (no reclaim: memory not short) a
 * page's addition costs one test.
 */
#include <string.h>

#include "kernel/log.h"
#include "mm/internal.h"

struct shadow {
	uint32_t mapping;	/* the mapping's ws_id; 0: an empty slot */
	uint32_t age;		/* nonresident_age at eviction */
	pgoff_t index;
};

static struct shadow *shadows;
static unsigned long nr_slots;	/* a power of two */
static unsigned long nonresident_age;	/* pages evicted or activated */
static uint32_t next_ws_id;
unsigned long workingset_nr_shadows;
static unsigned long nr_refaults, nr_refault_activate, nr_dropped;

/* The shadow slots per pool frame, at most: Linux keeps up to 8 (count_shadow_nodes()). */
#define SHADOWS_PER_FRAME 4

bool workingset_init(unsigned long pool_pages)
{
	unsigned long want;

	shadows = NULL;
	nr_slots = 0;
	nonresident_age = workingset_nr_shadows = 0;
	nr_refaults = nr_refault_activate = nr_dropped = 0;
	if (!pool_pages)
		return true;	/* the host tests' way to forget an arena's table */
	for (want = 1; want < pool_pages; want <<= 1)
		;
	/*
	 * An instrument: from RAM outside the page cache and the heap, as many
	 * slots as fit up to SHADOWS_PER_FRAME a frame; only one a frame from
	 * the heap, which the kernel's own allocations share.
	 */
	for (nr_slots = want * SHADOWS_PER_FRAME; nr_slots >= want && !shadows; nr_slots >>= 1)
		shadows = mm_spare_alloc(nr_slots * sizeof(*shadows));
	if (shadows) {
		nr_slots <<= 1;	/* the loop halved it once more */
		memset(shadows, 0, nr_slots * sizeof(*shadows));	/* spare RAM is not zeroed */
		return true;
	}
	/*
	 * From the heap: one slot a frame if it fits in one allocation, else as
	 * many as do (a 2 GiB machine's page cache takes all its RAM and leaves
	 * none spare: 512 Ki frames want 8 MiB, twice the heap's largest object).
	 * The shadows are an instrument, so fewer slots mean more of them lost to
	 * collisions (refaults a lower bound, said here), not a failed boot.
	 */
	for (nr_slots = want; nr_slots * sizeof(*shadows) > KMALLOC_MAX_SIZE; nr_slots >>= 1)
		;
	/* a small pool's table may be smaller than the floor: one slot a frame */
	for (; nr_slots >= min(want, WORKINGSET_MIN_SLOTS) && !shadows; nr_slots >>= 1)
		shadows = kzalloc(nr_slots * sizeof(*shadows));
	if (!shadows) {
		nr_slots = 0;
		return false;	/* the caller says that refaults go uncounted */
	}
	nr_slots <<= 1;	/* the loop halved it once more */
	if (nr_slots < want)
		pr_info("workingset: %lu shadow slots for %lu page-cache frames (one a frame "
			"would not fit): refaults counted are a lower bound\n", nr_slots,
			pool_pages);
	return true;
}

uint32_t workingset_new_id(void)
{
	if (++next_ws_id == 0)
		next_ws_id = 1;
	return next_ws_id;
}

static struct shadow *slot_of(uint32_t id, pgoff_t index)
{
	uint64_t h = ((uint64_t)id * 0x9e3779b97f4a7c15ULL) ^ (index * 0xc2b2ae3d27d4eb4fULL);

	return &shadows[(h ^ (h >> 29)) & (nr_slots - 1)];
}

void workingset_eviction(struct address_space *mapping, pgoff_t index)
{
	/* the age before this eviction ages it (workingset_eviction()) */
	uint32_t age = (uint32_t)nonresident_age++;
	struct shadow *s;

	if (!nr_slots || !mapping->ws_id)
		return;
	s = slot_of(mapping->ws_id, index);
	if (s->mapping)
		nr_dropped++;
	else
		workingset_nr_shadows++;
	*s = (struct shadow){mapping->ws_id, age, index};
}

void workingset_activation(unsigned long nr)
{
	nonresident_age += nr;
}

void workingset_refault(struct address_space *mapping, pgoff_t index)
{
	struct shadow *s;
	struct mm_stats st;
	uint32_t distance;

	if (!nr_slots)
		return;
	s = slot_of(mapping->ws_id, index);
	if (s->mapping != mapping->ws_id || s->index != index)
		return;
	distance = (uint32_t)nonresident_age - s->age;
	s->mapping = 0;
	workingset_nr_shadows--;
	nr_refaults++;
	lru_get_stats(&st);
	if (distance <= st.active)
		nr_refault_activate++;
}

void workingset_get_stats(struct mm_stats *st)
{
	st->shadows = workingset_nr_shadows;
	st->refaults = nr_refaults;
	st->refault_activate = nr_refault_activate;
	st->shadows_dropped = nr_dropped;
}
