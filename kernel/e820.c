/*
 * Sanitizing the firmware's memory map (see kernel/e820.h).
 *
 * A sweep over the entries' boundaries in address order. Each entry gives
 * two boundaries, its start (it becomes active) and its end (it stops
 * being). Between two consecutive boundary addresses the set of active
 * entries is fixed, so the type there is the highest type among them (none
 * active: a hole). Walking the boundaries, an output entry ends wherever
 * that type changes and a new one starts if the new type is not a hole.
 * All boundaries at one address are applied before the type is looked at,
 * so an entry ending where another begins leaves no zero-length piece, and
 * neighbours of one type come out as one entry.
 *
 *	in:   [0 ......... usable ......... 0x8000)
 *	          [0x2000 reserved 0x3000)
 *	                              [0x7000 ACPI 0x9000)
 *	out:  [0 usable 0x2000)[reserved 0x3000)[usable 0x7000)[ACPI 0x9000)
 */
#include <string.h>

#include "kernel/e820.h"

struct boundary {
	uint64_t addr;
	uint32_t type;
	bool start;
};

#define NR_TYPES (MEM_BAD + 1)

const char *mem_type_name(uint32_t type)
{
	switch (type) {
	case MEM_USABLE:
		return "usable";
	case MEM_ACPI:
		return "ACPI data";
	case MEM_NVS:
		return "ACPI NVS";
	case MEM_BAD:
		return "bad";
	default:
		return "reserved";
	}
}

/* The entry's end, exclusive; an entry running past 2^64 ends at the last page. */
static uint64_t region_end(const struct boot_region *r, bool *clipped)
{
	uint64_t end;

	*clipped = __builtin_add_overflow(r->base, r->len, &end);
	return *clipped ? UINT64_MAX & ~0xfffULL : end;
}

static void sort_boundaries(struct boundary *b, int n)
{
	/* insertion sort: a BIOS map has tens of entries, and it needs no allocation */
	for (int i = 1; i < n; i++) {
		struct boundary x = b[i];
		int j = i;

		for (; j > 0 && b[j - 1].addr > x.addr; j--)
			b[j] = b[j - 1];
		b[j] = x;
	}
}

int e820_sanitize(const struct boot_region *in, int n, struct boot_region *out, int max,
		  struct e820_report *rep)
{
	struct boundary b[2 * BOOT_MAX_REGIONS];
	int active[NR_TYPES] = {0}, nb = 0, nout = 0;
	uint32_t cur = 0; /* type of the output entry being built; 0: in a hole */
	uint64_t cur_start = 0;

	memset(rep, 0, sizeof(*rep));
	rep->in = n;
	if (n < 0 || n > BOOT_MAX_REGIONS)
		return -ENOSPC;
	for (int i = 0; i < n; i++) {
		bool clipped;
		uint64_t end = region_end(&in[i], &clipped);
		uint32_t type = in[i].type >= MEM_USABLE && in[i].type <= MEM_BAD ? in[i].type
										  : MEM_RESERVED;

		if (i > 0 && in[i].base < in[i - 1].base)
			rep->unsorted = true;
		rep->clipped += clipped;
		if (end <= in[i].base) {
			rep->empty++;
			continue;
		}
		for (int j = 0; j < n; j++) {
			bool c;

			if (j != i && in[j].len && in[j].base < end &&
			    in[i].base < region_end(&in[j], &c)) {
				rep->overlapping++;
				break;
			}
		}
		b[nb++] = (struct boundary){in[i].base, type, true};
		b[nb++] = (struct boundary){end, type, false};
	}
	sort_boundaries(b, nb);
	for (int i = 0; i < nb;) {
		uint64_t addr = b[i].addr;
		uint32_t type = 0;

		for (; i < nb && b[i].addr == addr; i++)
			active[b[i].type] += b[i].start ? 1 : -1;
		for (uint32_t t = MEM_BAD; t >= MEM_USABLE && !type; t--)
			if (active[t] > 0)
				type = t;
		if (type == cur)
			continue;
		if (cur) {
			if (nout == max)
				return -ENOSPC;
			out[nout++] = (struct boot_region){cur_start, addr - cur_start, cur};
		}
		cur = type;
		cur_start = addr;
	}
	rep->out = nout;
	return nout;
}
