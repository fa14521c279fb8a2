/*
 * Readahead at boot and in the shell (kernel only):
 *
 *	ra=NAME			the algorithm of every file opened (default ondemand;
 *				`help ra` or a wrong name lists them)
 *	ra_kb=N			the default maximum window (default 128 KiB)
 *
 *	ralist				the algorithms ra= accepts
 *	ratrace [first=N|last=N] [file=PATH] [clear=1]
 *					the trace ring buffer, a "ratrace:" line each
 *	ratrace_events=N		a ring of N events instead of 4096 (boot)
 *	rastat [reset=1]		global readahead counters
 *
 * The applications that read files (cat, mmapcat, splicecat, walk,
 * rastreams, readahead) are bench/'s file commands (bench/filecmds.h).
 */
#include <stdio.h>
#include <string.h>

#include "mm/backing-dev.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/init.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/filemap.h"
#include "mm/mm.h"

KPARAM_ENUM_FN(ra, ra_algo_names, "readahead algorithm (default ondemand; `ralist` says what each is)");
KPARAM(ra_kb, KV_UINT, NULL, "default maximum readahead window in KiB (default 128)");
KPARAM(ratrace_block, KV_BOOL, NULL,
       "1: the trace ring records every request handed to a disk (ratrace format=linux)");
KPARAM(ratrace_events, KV_UINT, NULL, "readahead trace ring size in events (default 4096)");

/* Largest ring ratrace_events= asks for: 256 Ki events, about 27 MB. */
#define RATRACE_EVENTS_MAX	(256U << 10)

/* kernel/init.c: a failed boot-time set-up that must fail the whole run */

static int ra_boot_init(void)
{
	const struct ra_algorithm *algo;
	unsigned long pages = MAX_RA_PAGES;
	const char *name;
	uint64_t kb, events;

	ra_algo_at(0); /* the registry: the default algorithm (RA_ALGO_DEFAULT) */
	algo = ra_default_algo;
	if (!algo) {
		init_fail("readahead: no algorithm says it is the default (RA_ALGO_DEFAULT)");
		return -EINVAL;
	}
	if (param_get_str("ra", &name) == 0) {
		static char msg[200];
		char list[160];

		algo = ra_algo_find(name);
		if (!algo) {
			snprintf(msg, sizeof(msg), "readahead: ra=%s: expected one of %s", name,
				 ra_algo_list(list, sizeof(list)));
			init_fail(msg);
			return -EINVAL;
		}
	}
	if (param_get_u64("ra_kb", &kb) == 0) {
		if (!ra_kb_valid(kb)) {
			init_fail("readahead: ra_kb= must be a multiple of 4 up to 16384 (KiB)");
			return -EINVAL;
		}
		if ((algo->flags & RA_ALGO_NO_WINDOW) && kb) {
			init_fail("readahead: ra_kb= contradicts ra=off (no readahead)");
			return -EINVAL;
		}
		pages = (unsigned long)(kb * 1024 / PAGE_SIZE);
		ra_default_pages_set = true;
	}
	if (algo->flags & RA_ALGO_NO_WINDOW)
		pages = 0;
	if (param_get_u64("ratrace_events", &events) == 0 && events != RA_TRACE_EVENTS) {
		static char msg[320];
		struct ra_trace_event *ring;

		if (events < RA_TRACE_EVENTS || events > RATRACE_EVENTS_MAX) {
			snprintf(msg, sizeof(msg), "readahead: ratrace_events=%llu: %u to %u",
				 (unsigned long long)events, RA_TRACE_EVENTS, RATRACE_EVENTS_MAX);
			init_fail(msg);
			return -EINVAL;
		}
		/*
		 * An instrument: from RAM outside the layout, never from the heap
		 * or the page cache, so the ring's size moves no figure.
		 */
		ring = mm_spare_alloc(events * sizeof(*ring));
		if (!ring || ra_trace_resize(ring, (unsigned int)events)) {
			snprintf(msg, sizeof(msg), "readahead: no memory for %llu trace events "
				 "(%llu KiB): RAM outside the page cache and the kernel's heap "
				 "has %lu KiB in one piece; give QEMU more than mem= "
				 "(--mem 512M -- mem=128M)", (unsigned long long)events,
				 (unsigned long long)(events * sizeof(*ring) >> 10),
				 mm_spare_largest() * (PAGE_SIZE / 1024));
			init_fail(msg);
			return -ENOMEM;
		}
	}
	ra_trace_block = param_get_u64("ratrace_block", &kb) == 0 && kb;
	readahead_init(algo, pages);
	if (!ra_lead_init(cache_pool_pages()))
		pr_warn("readahead: no memory for the pages' lead times (%lu KiB): ra_lead_us "
			"counts nothing\n", cache_pool_pages() * 4 / 1024);
	if (!workingset_init(cache_pool_pages()))
		pr_warn("workingset: no memory for a shadow table (%lu slots, the fewest): "
			"refaults are not counted\n", WORKINGSET_MIN_SLOTS);
	pr_info("readahead: %s, max %lu KiB\n", algo->name, pages * PAGE_SIZE / 1024);
	return 0;
}
INITCALL(INIT_MM, ra_boot_init);

/* --- ralist, ratrace, rastat ---------------------------------------------------------------- */

static void result_cases(struct result *r, const struct ra_stats *st)
{
	char buf[640];
	size_t len = 0;

	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "{");
	for (unsigned int c = 0; c < ra_case_count() && len < sizeof(buf); c++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s\"%s\":%lu",
					c ? "," : "", ra_case_name(c), st->calls[c]);
	if (len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, "}");
	result_raw(r, "cases", buf);
}

/* "ralist: " and the name and title columns take 34 of a line's 99 columns; the rest: */
#define RALIST_HELP_COLS 65

/* One algorithm's line: its @cols (name, title), then @text broken between words. */
static void ralist_line(const char *cols, const char *text)
{
	const char *p = text;

	do {
		size_t n = strlen(p);

		if (n > RALIST_HELP_COLS) {
			n = RALIST_HELP_COLS;
			while (n && p[n] != ' ')
				n--;
			if (!n)
				n = RALIST_HELP_COLS; /* a word longer than the column */
		}
		printf("ralist: %-26s%.*s\n", p == text ? cols : "", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
	} while (*p);
}

static int cmd_ralist(int argc, char **argv)
{
	const struct ra_algorithm *algo;
	struct result r;
	char list[160], titles[400], cols[40], text[256];
	size_t n = 0;

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	n += (size_t)snprintf(titles, sizeof(titles), "{");
	ralist_line("ra=          title", "what it is");
	for (unsigned int i = 0; (algo = ra_algo_at(i)); i++) {
		snprintf(cols, sizeof(cols), "%-12s %s", algo->name, algo->title);
		snprintf(text, sizeof(text), "%s%s", algo->help,
			 algo == ra_default_algo ? " (the default)" : "");
		ralist_line(cols, text);
		if (n < sizeof(titles))
			n += (size_t)snprintf(titles + n, sizeof(titles) - n, "%s\"%s\":\"%s\"",
					      i ? "," : "", algo->name, algo->title);
	}
	/* a JSON object or none: a cut one would break the RESULT line */
	if (n + 2 > sizeof(titles))
		snprintf(titles, sizeof(titles), "{}");
	else
		snprintf(titles + n, sizeof(titles) - n, "}");
	result_begin(&r, "ralist");
	result_str(&r, "algorithms", ra_algo_list(list, sizeof(list)));
	result_raw(&r, "titles", titles);
	result_str(&r, "default", ra_default_algo->name);
	result_end(&r);
	return 0;
}
KCMD(ralist, cmd_ralist, "ralist", "list the readahead algorithms that ra= accepts");

static const char *const ratrace_formats[] = {"lookahead", "linux", NULL};

/* Does event @e show in @format (the Linux events are ra=linux's alone)? */
static bool ratrace_shows(const struct ra_trace_event *e, int linux_format)
{
	if (e->kind != RA_EV_DECISION)
		return linux_format;
	if (!e->algo)
		return false;
	return !linux_format || !(e->algo->flags & RA_ALGO_LINUX_EVENTS);
}

static int cmd_ratrace(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "first", KV_UINT, NULL, "print only the first (oldest) N events held" },
		{ "last", KV_UINT, NULL, "print only the last N events" },
		{ "file", KV_STRING, NULL, "print only the events of this file (its path)" },
		{ "clear", KV_BOOL, NULL, "forget the events after printing them" },
		{ "format", KV_ENUM, ratrace_formats,
		  "lookahead (a decision a line) or linux (as Linux's readahead tracepoints)" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	unsigned int held = ra_trace_count(), from = 0, to, printed = 0, match = 0;
	uint64_t total = ra_trace_total();
	char tail[RA_TRACE_NAME];
	struct result r;
	int linux_format;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (v[0].present && v[1].present) {
		printf("ratrace: first= and last= together: which end of the ring?\n");
		return -EINVAL;
	}
	linux_format = v[4].present && v[4].u == 1;
	if (v[2].present)
		ra_trace_name_tail(tail, v[2].s);
	if (total > held)
		printf("ratrace: %llu earlier events lost: the ring holds the last %u "
		       "(ratrace_events=N at boot holds more; ratrace clear=1 before a run)\n",
		       (unsigned long long)(total - held), ra_trace_capacity());
	/* first= and last= count the events that file= and format= let through */
	for (unsigned int n = 0; n < held; n++) {
		const struct ra_trace_event *e = ra_trace_get(n);

		match += (!v[2].present || !strcmp(e->file, tail)) &&
			 ratrace_shows(e, linux_format);
	}
	to = match;
	if (v[0].present && v[0].u < match)
		to = (unsigned int)v[0].u;
	if (v[1].present && v[1].u < match)
		from = match - (unsigned int)v[1].u;
	match = 0;
	for (unsigned int n = 0; n < held; n++) {
		const struct ra_trace_event *e = ra_trace_get(n);

		if ((v[2].present && strcmp(e->file, tail)) || !ratrace_shows(e, linux_format))
			continue;
		if (match >= from && match < to) {
			if (linux_format)
				printed += (unsigned int)ra_trace_print_linux(e);
			else
				ra_trace_print(e), printed++;
		}
		match++;
	}
	result_begin(&r, "ratrace");
	result_u64(&r, "events", total);
	result_u64(&r, "held", held);
	result_u64(&r, "printed", printed);
	result_u64(&r, "overwritten", total - held);
	result_str(&r, "format", ratrace_formats[linux_format]);
	result_cases(&r, &ra_global_stats);
	result_end(&r);
	if (v[3].present && v[3].u)
		ra_trace_reset();
	return 0;
}
KCMD(ratrace, cmd_ratrace, "ratrace [first=N|last=N] [file=PATH] [clear=1] [format=linux]",
     "print the readahead decisions recorded since boot or the last clear");

static int cmd_rastat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "reset", KV_BOOL, NULL, "zero the counters (and the trace) afterwards" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	const struct ra_stats *st = &ra_global_stats;
	struct mm_stats ms;
	struct result r;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	mm_get_stats(&ms);
	printf("rastat: default %s, max %lu KiB\n", ra_default_algo->name,
	       ra_default_pages * PAGE_SIZE / 1024);
	for (unsigned int c = 0; c < ra_case_count(); c++)
		if (st->calls[c])
			printf("rastat: %-20s %lu calls\n", ra_case_name(c),
			       st->calls[c]);
	printf("rastat: %lu calls, %lu pages read ahead, %lu used, %lu thrashed, "
	       "%lu sync and %lu async I/Os\n", ra_stats_calls(st), st->pages, st->hit_pages,
	       st->thrashed_pages, st->sync_ios, st->async_ios);
	result_begin(&r, "rastat");
	ra_result_stats(&r, ra_default_algo, ra_default_pages, st);
	result_u64(&r, "mm_thrashed", ms.thrashed);
	result_cases(&r, st);
	result_end(&r);
	if (v[0].present && v[0].u)
		ra_trace_reset();
	return 0;
}
KCMD(rastat, cmd_rastat, "rastat [reset=1]", "global readahead counters");
