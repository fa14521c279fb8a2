/*
 * The benchmark framework's registry and keys (see bench/bench.h): a
 * workload found by name among the registered ones (BENCH_WORKLOAD(), the
 * bench_workloads section), its parameters' values (bench_u(), bench_s()),
 * and a run's key=value words parsed against the workload's own keys and
 * the common keys every workload takes after them (common_specs: ra=,
 * ra_kb=, ra_async=, verify=, advice=; tools/kernel-keys reads this table
 * out of the ELF by its symbol's name). bench/bench.c's bench_run_argv()
 * calls parse_args() (bench/bench-internal.h) for each run.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench-internal.h"
#include "bench/bench.h"
#include "kernel/cmd.h"
#include "kernel/log.h"

const struct bench_workload *bench_find(const char *name)
{
	for (const struct bench_workload *w = __start_bench_workloads; w < __stop_bench_workloads;
	     w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

static int param_index(const struct bench *b, const char *key)
{
	for (unsigned int i = 0; i < b->w->nr_params; i++)
		if (!strcmp(b->w->params[i].key, key))
			return (int)i;
	return -1;
}

uint64_t bench_u(struct bench *b, const char *key)
{
	int i = param_index(b, key);

	if (i < 0)
		panic("bench %s: no parameter %s", b->w->name, key);
	return b->v[i].present ? b->v[i].u : b->w->params[i].def;
}

const char *bench_s(struct bench *b, const char *key)
{
	int i = param_index(b, key);

	if (i < 0)
		panic("bench %s: no parameter %s", b->w->name, key);
	if (b->v[i].present)
		return b->v[i].s;
	if (b->w->params[i].type == KV_ENUM)
		return b->w->params[i].choices[b->w->params[i].def];
	return (const char *)(uintptr_t)b->w->params[i].def;
}

/* The common keys every workload takes, after its own. */
static const struct kv_spec common_specs[] = {
	{"ra", KV_ENUM, NULL, "readahead algorithm (default: the boot's ra=; `ralist`)",
	 ra_algo_names},
	{"ra_kb", KV_UINT, NULL, "maximum readahead window, KiB (default: the disk's)"},
	{"ra_async", KV_BOOL, NULL, "0: on-demand without its look-ahead mark (no pipelining)"},
	{"verify", KV_BOOL, NULL, "0: do not check the data read (default 1)"},
	{"advice", KV_ENUM, ra_fadvise_names,
	 "posix_fadvise() on every file opened: normal, sequential, random, willneed"},
};
#define NR_COMMON (sizeof(common_specs) / sizeof(common_specs[0]))

/* Parse argv against the workload's and the common keys; one error line on failure. */
int parse_args(struct bench *b, int argc, char **argv)
{
	struct kv_spec specs[BENCH_MAX_PARAMS + NR_COMMON];
	struct kv_value vals[BENCH_MAX_PARAMS + NR_COMMON];
	unsigned int n = b->w->nr_params;
	char err[160];

	for (unsigned int i = 0; i < n; i++)
		specs[i] = (struct kv_spec){b->w->params[i].key, b->w->params[i].type,
					    b->w->params[i].choices, b->w->params[i].help};
	memcpy(&specs[n], common_specs, sizeof(common_specs));
	if (argc == 1 && (!strcmp(argv[0], "help") || !strcmp(argv[0], "--help"))) {
		char usage[48];

		snprintf(usage, sizeof(usage), "bench %s [key=value...]", b->w->name);
		kcmd_print_help(usage, b->w->help, specs, (int)(n + NR_COMMON));
		return -EINVAL;
	}
	if (kv_parse(argv, argc, specs, (int)(n + NR_COMMON), vals, NULL, err, sizeof(err))) {
		pr_err("bench %s: %s\n", b->w->name, err);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_param *p = &b->w->params[i];

		b->v[i] = vals[i];
		if (vals[i].present &&
		    (p->type == KV_UINT || p->type == KV_SIZE || kv_time_unit_ns(p->type)) &&
		    (vals[i].u < p->min || vals[i].u > p->max)) {
			const char *unit = kv_time_unit_name(p->type);

			pr_err("bench %s: %s=%s is out of range %llu..%llu%s%s\n", b->w->name,
			       p->key, vals[i].raw, (unsigned long long)p->min,
			       (unsigned long long)p->max, unit ? " " : "", unit ? unit : "");
			return -EINVAL;
		}
	}
	b->ra = ra_default_algo;
	if (vals[n].present) {
		char list[160];

		b->ra = ra_algo_find(vals[n].s);
		if (!b->ra) {
			pr_err("bench %s: ra=%s: expected one of %s\n", b->w->name, vals[n].s,
			       ra_algo_list(list, sizeof(list)));
			return -EINVAL;
		}
		b->ra_given = true;
	}
	if (vals[n + 1].present) {
		if (!ra_kb_valid(vals[n + 1].u) ||
		    ((b->ra->flags & RA_ALGO_NO_WINDOW) && vals[n + 1].u)) {
			pr_err("bench %s: ra_kb=%s: expected a multiple of %lu up to %u (0 with "
			       "ra=off)\n",
			       b->w->name, vals[n + 1].raw, PAGE_SIZE / 1024, RA_MAX_KB);
			return -EINVAL;
		}
		b->ra_pages = (unsigned long)(vals[n + 1].u * 1024 / PAGE_SIZE);
		b->ra_pages_given = true;
	}
	b->ra_async = vals[n + 2].present ? vals[n + 2].u : true;
	if (!b->ra_async && !(b->ra->flags & RA_ALGO_MARKS)) {
		pr_err("bench %s: ra_async=0 turns off the look-ahead marks; ra=%s sets none\n",
		       b->w->name, b->ra->name);
		return -EINVAL;
	}
	b->verify = vals[n + 3].present ? vals[n + 3].u : true;
	b->advice = vals[n + 4].present ? (enum ra_fadvise)vals[n + 4].u : FADV_NORMAL;
	return 0;
}
