/*
 * failnth: run a command with each of its allocations failing in turn, to
 * check that running out of memory is an error, not a result (mm's fault
 * injection, mm_fail_nth, as Linux's fail-nth).
 *
 *	failnth CMD [ARGS...]		n = 1, 2, ... (at most 2000 runs)
 *	failnth n=N CMD [ARGS...]	only the N-th allocation
 *
 * First one run without injection: it warms the caches (so what later runs
 * allocate is the command's own) and gives the memory in use to compare
 * with. Then each run prints "failnth: n=N: run", the command's output, and
 * one "failnth: n=N:" line: which allocation failed (or that the command
 * made fewer than N), whether that was before the first bench phase of
 * the run began or after, what the command returned, and the heap objects
 * and pages still in use beyond the first run's. The loop ends at a run
 * whose N-th allocation did not happen (every allocation was failed once)
 * or came after the first phase began (later ones belong to the reads,
 * which report errors of their own). A run that failed before its phase must
 * return an error and leave nothing allocated; the one "error:" line it
 * printed and the absence of a bench RESULT are for the caller of the
 * command to check in the console (tests/qemu/oom.t). Ends with
 * RESULT {"cmd":"failnth"}; fails if a run broke either rule.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/vm.h"
#include "mm/mm.h"

#define FAILNTH_MAX_RUNS 2000

struct in_use {
	unsigned long objects, large_pages, other_pages;
};

static void in_use(struct in_use *u)
{
	struct kmalloc_stats ks;
	struct mm_stats st;

	mm_get_stats(&st);
	kmalloc_get_stats(&ks);
	u->objects = ks.objects + ks.workload_objects;
	u->large_pages = ks.large_pages;
	/*
	 * neither free (the kernel's, or the page cache pool's), nor cached file
	 * data, nor the heap's slabs, nor the workload's (mm/kobj.c: their empty
	 * slabs are kept as the heap's are), nor the VM region's page tables
	 * (kept for the addresses handed out): thread stacks, buffers
	 */
	u->other_pages = st.total - st.free - st.cache_free - st.cached - st.slab -
			 st.kernel_obj_slab - vm_table_pages();
}

static long diff(unsigned long a, unsigned long b)
{
	return (long)a - (long)b;
}

static int cmd_failnth(int argc, char **argv)
{
	unsigned long only = 0, runs = 0, before = 0, bad = 0;
	const struct kcmd *c;
	struct in_use base, now;
	char line[160];
	size_t len = 0;
	struct result r;
	int first = 1, err;

	if (kcmd_wants_help(argc, argv)) {
		static const struct kv_spec n_spec[] = {
			{"n", KV_UINT, NULL, "only the N-th allocation fails (default: each in turn)"},
		};

		c = kcmd_find("failnth");
		kcmd_print_help(c->usage, c->help, n_spec, 1);
		return -EINVAL;
	}
	if (argc > 1 && !strncmp(argv[1], "n=", 2)) {
		uint64_t v;

		if (kv_parse_uint(argv[1] + 2, &v) || !v || v > FAILNTH_MAX_RUNS) {
			pr_err("failnth: %s: n= is 1..%d\n", argv[1], FAILNTH_MAX_RUNS);
			return -EINVAL;
		}
		only = (unsigned long)v;
		first = 2;
	}
	if (first >= argc) {
		pr_err("failnth: no command to run (failnth [n=N] CMD [ARGS...])\n");
		return -EINVAL;
	}
	c = kcmd_find(argv[first]);
	if (!c || c->fn == cmd_failnth) {
		pr_err("failnth: '%s' is not a command it can run\n", argv[first]);
		return -EINVAL;
	}
	line[0] = 0;
	for (int i = first; i < argc && len < sizeof(line); i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s",
					i > first ? " " : "", argv[i]);
	printf("failnth: '%s' once without injection\n", line);
	err = c->fn(argc - first, argv + first);
	if (err) {
		pr_err("failnth: '%s' fails without injection (%d)\n", line, err);
		return -EINVAL;
	}
	in_use(&base);
	for (unsigned long n = only ? only : 1; n <= (only ? only : FAILNTH_MAX_RUNS); n++) {
		struct mm_fail_report rep;
		unsigned long calls;
		bool early;

		printf("failnth: n=%lu: run\n", n);
		bench_phase_calls = ULONG_MAX;
		mm_fail_nth(n);
		err = c->fn(argc - first, argv + first);
		mm_fail_nth_report(&rep);
		calls = mm_fail_nth_calls();
		mm_fail_nth(0);
		in_use(&now);
		runs++;
		if (!rep.fired) {
			printf("failnth: n=%lu: '%s' made %lu allocations: each failed once\n", n,
			       line, calls);
			break;
		}
		early = bench_phase_calls == ULONG_MAX || rep.nth <= bench_phase_calls;
		printf("failnth: n=%lu: %s of %zu bytes failed %s; returned %d; in use beyond "
		       "the first run: %ld objects, %ld large pages, %ld other pages\n",
		       n, rep.what, rep.bytes,
		       early ? "before the first phase" : "after the first phase began", err,
		       diff(now.objects, base.objects), diff(now.large_pages, base.large_pages),
		       diff(now.other_pages, base.other_pages));
		if (!early)
			break;
		before++;
		if (!err || memcmp(&now, &base, sizeof(now))) {
			pr_err("failnth: n=%lu: %s\n", n,
			       !err ? "the command succeeded though memory ran out"
				    : "what the command took is not all freed");
			bad++;
		}
	}
	result_begin(&r, "failnth");
	result_str(&r, "command", line);
	result_u64(&r, "runs", runs);
	result_u64(&r, "before_phase", before);
	result_u64(&r, "broken", bad);
	result_end(&r);
	return bad ? -EIO : 0;
}
KCMD(failnth, cmd_failnth, "failnth [n=N] CMD [ARGS...]",
     "run CMD with its allocations failing one at a time (fault injection)");
