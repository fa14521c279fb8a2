/*
 * The bench command and the suites.
 *
 *	bench NAME [key=value...]		one workload (`bench` alone lists them)
 *	bench suite=NAME [ra=A,B,...|all]	a suite with each algorithm in turn
 *
 * A suite is a list of workload command lines. Each runs with every
 * algorithm (default ra=legacy,ondemand: 2.6.20's first, as the seeds'
 * tables), the page cache dropped and the disks made cold (drop_caches
 * disk=cold: the drive's buffer, look-ahead and heads as at power-on)
 * before each run unless the workload runs warm; then the suite's table: one row per test, one column per
 * algorithm, and the gain of the last column over the first, in the seeds'
 * format (with more than two algorithms, each column's change against the
 * first; ra=all runs every algorithm that reads ahead). Each workload says
 * how its phase reads as a row (struct bench_workload's row()): KB/s for
 * iozone (higher is better), the stall fraction for the pipeline, seconds
 * for the others (lower is better). A line that says ra=off runs once, as a baseline: the
 * overhead tests without readahead, from which tools/bench-report gives
 * the cost of one readahead decision; its rows are the table's own block,
 * not any algorithm's column. baseline=0 leaves those lines out and
 * baseline=only runs nothing else: tools/bench runs each algorithm, and the
 * baseline, in a boot of its own, so that no algorithm's figures depend on
 * what ran before it in the same boot (the allocator's and the caches'
 * state); tools/bench-report joins their tables.
 *
 * The suites (tools/mkbench builds their images, build/img/bench-NAME.img):
 *   smoke   tiny: every workload once, for `make test`
 *   quick   `make run`: a 192 MiB file in mem=96M (the seeds' file:RAM of 2:1)
 * (readahead thrashing, which needs a boot with less memory, is run by tools/bench)
 *   seeds   `make bench`: the seeds' 4 GiB file with 64 KiB records in mem=2G
 *   seeds-concurrent  `make bench` too: sysbench, oltp, interleave on the same image
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/replay.h"
#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/mm.h"

struct bench_suite {
	const char *name;
	const char *const *runs;
	const char *note; /* printed above the table: what a reader must know to read it */
};

#define PIPE(t) "pipeline think=" #t, "pipeline think=" #t " ra_async=0"

/* one run a line */
/* clang-format off */
static const char *const smoke_runs[] = {
	"iozone r=64k",
	"aiostress o=1",
	"aiostress o=3",
	"overhead s=4m",
	"overhead s=4m ra=off",
	PIPE(0),
	PIPE(60000),
	NULL,
};

/*
 * The pipeline's think times: 0 to twice the modelled disk's time per page
 * (4 KiB at 67.8 MB/s: 60 us).
 */
static const char *const quick_runs[] = {
	"iozone r=64k writes=pass",
	"aiostress o=1",
	"aiostress o=3",
	"overhead",
	"overhead ra=off",
	PIPE(0),
	PIPE(15000),
	PIPE(30000),
	PIPE(60000),
	PIPE(120000),
	"sysbench threads=1 requests=1000",
	"sysbench threads=8 requests=1000",
	"sysbench threads=64 requests=1000",
	"interleave streams=8",
	"interleave streams=8 order=random",
	"interleave streams=8 share=1",
	"interleave streams=8 share=1 order=random",
	"oltp threads=1 s=128m transactions=300",
	"oltp threads=8 s=128m transactions=300",
	"oltp threads=32 s=128m transactions=300",
	NULL,
};

/*
 * writes=pass: seed 006's one iozone invocation ran its whole-file writes
 * before read and pread, each series beginning with creat() of the file;
 * the file's pages dropped and an untimed pass per write leave the cache as
 * they did (bench/iozone.c).
 */
static const char *const seeds_runs[] = {
	"iozone r=64k writes=pass",
	"aiostress o=1",
	"aiostress o=3",
	"overhead",
	"overhead ra=off",
	PIPE(0),
	PIPE(15000),
	PIPE(30000),
	PIPE(45000),
	PIPE(60000),
	PIPE(90000),
	PIPE(120000),
	NULL,
};

/*
 * The seeds' concurrent benchmarks (readahead thrashing, which needs a boot
 * with less memory, is run by tools/bench): sysbench rndrd as the seeds ran
 * it (4 GiB, 64 KiB blocks, 10000 requests, 1-256 threads), the OLTP-like
 * workload at 1-64 threads, interleaved streams.
 */
static const char *const seeds_concurrent_runs[] = {
	"sysbench threads=1",
	"sysbench threads=2",
	"sysbench threads=4",
	"sysbench threads=8",
	"sysbench threads=16",
	"sysbench threads=32",
	"sysbench threads=64",
	"sysbench threads=128",
	"sysbench threads=256",
	"oltp threads=1",
	"oltp threads=2",
	"oltp threads=4",
	"oltp threads=8",
	"oltp threads=16",
	"oltp threads=32",
	"oltp threads=64",
	"interleave streams=8 s=512m",
	"interleave streams=8 s=512m order=random",
	"interleave streams=8 s=512m share=1",
	"interleave streams=8 s=512m share=1 order=random",
	NULL,
};
/* clang-format on */

static const struct bench_suite suites[] = {
	{"smoke", smoke_runs,
	 "its 16 MiB file fits in memory: after the first read, rows marked cached read no disk"},
	{"quick", quick_runs},
	{"seeds", seeds_runs},
	{"seeds-concurrent", seeds_concurrent_runs},
};

/* --- the suite's table ---------------------------------------------------------------- */

#define MAX_ROWS 64
#define MAX_RA	 8

/* The baseline lines' (ra=off) own slot in a row, after the algorithms' columns. */
#define BASELINE_COL MAX_RA
/* the baseline lines' algorithm, as the suites' lines name it (ra=off) */
#define BASELINE_NAME "off"

struct row {
	char label[48];
	const char *unit;
	double v[MAX_RA + 1];
	bool have[MAX_RA + 1];
	bool cached[MAX_RA + 1]; /* the run read nothing from the disk */
};

static struct row rows[MAX_ROWS];
static int nr_rows;

static struct row *row_for(const char *label, const char *unit)
{
	for (int i = 0; i < nr_rows; i++)
		if (!strcmp(rows[i].label, label))
			return &rows[i];
	if (nr_rows == MAX_ROWS)
		return NULL;
	memset(&rows[nr_rows], 0, sizeof(rows[0]));
	snprintf(rows[nr_rows].label, sizeof(rows[0].label), "%s", label);
	rows[nr_rows].unit = unit;
	return &rows[nr_rows++];
}

void bench_row_secs(const struct bench *b, struct bench_row *r)
{
	snprintf(r->label, sizeof(r->label), "%s %s%s", b->w->name, b->test,
		 (b->ra->flags & RA_ALGO_NO_WINDOW) ? " ra=off" : "");
	r->unit = "s";
	r->v = b->secs;
}

static int suite_col = -1;

void bench_suite_record(const struct bench *b, int col)
{
	struct bench_row row;
	struct row *r;

	if (col < 0 || col > BASELINE_COL)
		return;
	(b->w->row ? b->w->row : bench_row_secs)(b, &row);
	r = row_for(row.label, row.unit);
	if (r) {
		r->v[col] = row.v;
		r->have[col] = true;
		r->cached[col] = !b->disk_reads;
	}
}

int bench_suite_column(void)
{
	return suite_col;
}

static void print_row_label(const struct row *r, int width)
{
	char q[56];

	snprintf(q, sizeof(q), "\"%s\"", r->label);
	printf("%*s %5s", width, q, r->unit);
}

/* Say which runs of a row never touched the disk: their figures are the page cache's. */
static void print_cached(const struct row *r, const struct ra_algorithm *const *ra, int nra)
{
	int n = 0, have = 0;

	for (int c = 0; c < nra; c++) {
		have += r->have[c];
		n += r->have[c] && r->cached[c];
	}
	if (!n)
		return;
	if (n == have) {
		printf("  (cached: no disk reads)");
		return;
	}
	printf("  (cached, no disk reads:");
	for (int c = 0; c < nra; c++)
		if (r->have[c] && r->cached[c])
			printf(" %s", ra[c]->name);
	printf(")");
}

/*
 * What a change in a row's unit is called, as in the seeds' tables: "gain"
 * for a rate (higher is better), "delta" for seconds and stall fractions
 * (lower is better).
 */
static const char *change_word(const char *unit)
{
	return !strcmp(unit, "KB/s") ? "gain" : "delta";
}

static void print_header(const struct ra_algorithm *const *ra, int nra, const char *word)
{
	bool wide = nra <= 2;

	printf("%*s", wide ? 42 : 36, "");
	for (int c = 0; c < nra; c++) {
		if (wide || !c)
			printf(wide ? " %14s" : " %11s", ra[c]->name);
		else
			printf(" %11s%8s", ra[c]->name, word);
	}
	if (wide && nra > 1)
		printf("%10s", word);
	printf("\n");
}

/* The rows of the baseline lines (ra=off), apart from the algorithms' columns. */
static void print_baseline(void)
{
	bool header = false;

	for (int i = 0; i < nr_rows; i++) {
		struct row *r = &rows[i];

		if (!r->have[BASELINE_COL])
			continue;
		if (!header)
			printf("%42s %14s\n", "baseline, no readahead", "off");
		header = true;
		print_row_label(r, 36);
		printf(" %14.*f\n", !strcmp(r->unit, "KB/s") ? 2 : 4, r->v[BASELINE_COL]);
	}
}

/*
 * The seeds' format for two algorithms: a column each and the gain (or
 * delta) of the second over the first. With more, a narrower column each
 * and, after every one but the first, its change against the first. The
 * header comes again where the rows change from rates to times.
 */
static void print_table(const struct bench_suite *suite, const struct ra_algorithm *const *ra,
			int nra)
{
	bool wide = nra <= 2;
	const char *word = NULL;

	if (nra == 1)
		printf("\nbench suite %s: %s's column (tools/bench-report joins one boot's to "
		       "another's)\n", suite->name, ra[0]->name);
	else if (wide)
		printf("\nbench suite %s: the seeds' table (%s over %s)\n", suite->name,
		       ra[nra - 1]->name, ra[0]->name);
	else
		printf("\nbench suite %s: one column per algorithm, each with its change against "
		       "%s\n", suite->name, ra[0]->name);
	if (suite->note)
		printf("bench suite %s: %s\n", suite->name, suite->note);
	for (int i = 0; i < nr_rows; i++) {
		if (!strcmp(rows[i].unit, "KB/s")) {
			printf("bench suite %s: KB/s is KiB (1024 bytes) per second, as "
			       "iozone's\n",
			       suite->name);
			break;
		}
	}
	for (int i = 0; i < nr_rows; i++) {
		struct row *r = &rows[i];
		int decimals = !strcmp(r->unit, "KB/s") ? 2 : 4;

		if (r->have[BASELINE_COL])
			continue;	/* below, in the baseline's block */
		if (!word || strcmp(word, change_word(r->unit))) {
			word = change_word(r->unit);
			print_header(ra, nra, word);
		}
		print_row_label(r, wide ? 36 : 30);
		for (int c = 0; c < nra; c++) {
			if (r->have[c])
				printf(wide ? " %14.*f" : " %11.*f", decimals, r->v[c]);
			else
				printf(wide ? " %14s" : " %11s", "-");
			if (wide || !c)
				continue;
			if (r->have[0] && r->have[c] && r->v[0] != 0)
				printf(" %+6.1f%%", (r->v[c] - r->v[0]) / r->v[0] * 100);
			else
				printf(" %7s", "");
		}
		if (wide && nra > 1 && r->have[0] && r->have[nra - 1] && r->v[0] != 0)
			printf("   %+6.1f%%", (r->v[nra - 1] - r->v[0]) / r->v[0] * 100);
		print_cached(r, ra, nra);
		printf("\n");
	}
	print_baseline();
}

/* --- the command -------------------------------------------------------------------------- */

static void list_workloads(void)
{
	char names[160];

	printf("bench workloads:\n");
	for (const struct bench_workload *w = __start_bench_workloads; w < __stop_bench_workloads;
	     w++) {
		printf("  %-10s %s\n", w->name, w->help);
		for (unsigned int i = 0; i < w->nr_params; i++)
			printf("      %s=  %s\n", w->params[i].key, w->params[i].help);
	}
	printf("  common keys: ra=%s ra_kb=N ra_async=0|1 verify=0|1\n"
	       "               advice=normal|sequential|random|willneed\n",
	       ra_algo_list(names, sizeof(names)));
	printf("bench suites:");
	for (unsigned int i = 0; i < ARRAY_SIZE(suites); i++)
		printf(" %s", suites[i].name);
	printf(" (bench suite=NAME [ra=A,B,...|all] [baseline=1|0|only])\n  and replay: bench suite=replay "
	       "[ra=A,B,...] [timing=recorded|asap] [files=close|keep] [dir=/replay/logs]\n");
}

/* baseline=: the ra=off lines with the first algorithm (1), not at all (0), or alone (only). */
enum { BASELINE_NO, BASELINE_YES, BASELINE_ONLY };

/* Run one line of a suite with algorithm @ra (@ra NULL: only the baseline lines). */
static int run_line(const char *line, const struct ra_algorithm *ra, const char *suite, int col,
		    int baseline)
{
	char buf[160], shown[160], *words[16];
	const char *err = NULL;
	const struct bench_workload *w;
	int n, ret;

	/* a line with its own ra=off is the baseline of the CPU costs: once, in its own slot */
	if (strstr(line, "ra=off")) {
		if (baseline == BASELINE_NO || col)
			return 0;
		snprintf(buf, sizeof(buf), "%s", line);
		col = BASELINE_COL;
	} else if (baseline == BASELINE_ONLY) {
		return 0;
	} else {
		snprintf(buf, sizeof(buf), "%s ra=%s", line, ra->name);
	}
	/* the whole line: kv_split() cuts buf into words */
	snprintf(shown, sizeof(shown), "%s", buf);
	n = kv_split(buf, words, ARRAY_SIZE(words), &err);
	if (n < 1 || !(w = bench_find(words[0]))) {
		pr_err("bench suite %s: bad line '%s'\n", suite, line);
		return -EINVAL;
	}
	if (col != BASELINE_COL && strstr(line, "ra_async=0") && !(ra->flags & RA_ALGO_MARKS))
		return 0; /* look-ahead marks switched off: nothing to switch off without them */
	if (!w->warm && bench_cold_start())
		return -EIO;
	printf("bench: suite %s: %s\n", suite, shown);
	suite_col = col;
	ret = bench_run_argv(w, n - 1, words + 1, suite);
	suite_col = -1;
	return ret;
}

/*
 * ra=A,B,...: the algorithms in table order (the first is the reference),
 * or ra=all: the seeds' two first (2.6.20, on-demand), then every other
 * algorithm that reads ahead, by name. Returns how many, or -EINVAL.
 */
static int parse_ra_list(const char *ra_list, const struct ra_algorithm **ra)
{
	const struct ra_algorithm *algo;
	char list[160], names[160], *p, *tok;
	int nra = 0;

	if (!strcmp(ra_list, "all")) {
		return (int)ra_algo_all(ra, MAX_RA);
	}
	if (strlen(ra_list) >= sizeof(list)) {
		pr_err("bench: ra=%s: too long\n", ra_list);
		return -EINVAL;
	}
	snprintf(list, sizeof(list), "%s", ra_list);
	for (p = list; (tok = strsep(&p, ","));) {
		algo = ra_algo_find(tok);
		for (int c = 0; algo && c < nra; c++)
			if (ra[c] == algo)
				algo = NULL;	/* twice: a column would be overwritten */
		if (nra == MAX_RA || !algo) {
			pr_err("bench: ra=%s: up to %d different ones of %s, comma-separated, "
			       "or all\n", ra_list, MAX_RA, ra_algo_list(names, sizeof(names)));
			return -EINVAL;
		}
		ra[nra++] = algo;
	}
	return nra;
}

static int run_suite(const char *name, const char *ra_list, int baseline)
{
	const struct bench_suite *s = NULL;
	const struct ra_algorithm *ra[MAX_RA];
	int nra, failed = 0;
	uint64_t t0 = ktime_ns();

	for (unsigned int i = 0; i < ARRAY_SIZE(suites); i++)
		if (!strcmp(suites[i].name, name))
			s = &suites[i];
	if (!s) {
		pr_err("bench: no suite '%s' (smoke, quick, seeds, seeds-concurrent)\n", name);
		return -EINVAL;
	}
	if (baseline == BASELINE_ONLY && ra_list) {
		pr_err("bench suite=%s: baseline=only runs the ra=off lines alone; no ra=\n", name);
		return -EINVAL;
	}
	nra = baseline == BASELINE_ONLY ? 0
		: parse_ra_list(ra_list ? ra_list : "legacy,ondemand", ra);
	if (nra < 0)
		return nra;
	nr_rows = 0;
	if (baseline == BASELINE_ONLY) {
		for (const char *const *line = s->runs; *line; line++)
			if (run_line(*line, NULL, name, 0, baseline))
				failed++;
	}
	for (int c = 0; c < nra; c++)
		for (const char *const *line = s->runs; *line; line++)
			if (run_line(*line, ra[c], name, c, baseline))
				failed++;
	if (nra)
		print_table(s, ra, nra);
	else
		print_baseline();
	printf("bench suite %s: %d runs failed, %.1f s\n", name, failed,
	       (double)(ktime_ns() - t0) / 1e9);
	/* one RESULT a row (a suite's rows would not fit one line), then the summary */
	for (int i = 0; i < nr_rows; i++) {
		char cached[160];
		struct result r;

		result_begin(&r, "bench-row");
		result_str(&r, "suite", name);
		result_str(&r, "test", rows[i].label);
		result_str(&r, "unit", rows[i].unit);
		for (int c = 0; c < nra; c++)
			if (rows[i].have[c])
				result_double(&r, ra[c]->name, rows[i].v[c], 4);
		if (rows[i].have[BASELINE_COL])
			result_double(&r, BASELINE_NAME, rows[i].v[BASELINE_COL], 4);
		cached[0] = '\0';
		for (int c = 0, n = 0; c <= BASELINE_COL; c++)
			if (rows[i].have[c] && rows[i].cached[c])
				n += snprintf(cached + n, sizeof(cached) - (size_t)n, "%s%s",
					      n ? "," : "",
					      c == BASELINE_COL ? BASELINE_NAME : ra[c]->name);
		if (cached[0])
			result_str(&r, "cached", cached);
		result_end(&r);
	}
	{
		struct result r;

		char order[160];
		size_t n = 0;

		order[0] = '\0';
		for (int c = 0; c < nra && n < sizeof(order); c++)
			n += (size_t)snprintf(order + n, sizeof(order) - n, "%s%s", c ? "," : "",
					      ra[c]->name);
		result_begin(&r, "bench-suite");
		result_str(&r, "suite", name);
		result_str(&r, "ra", order);
		result_str(&r, "baseline", baseline == BASELINE_NO ? "no"
					   : baseline == BASELINE_YES ? "yes" : "only");
		if (s->note)
			result_str(&r, "note", s->note);
		result_u64(&r, "failed", (uint64_t)failed);
		result_u64(&r, "rows", (uint64_t)nr_rows);
		result_str(&r, "clock", ktime_clock_name());
		result_end(&r);
	}
	return failed ? -EIO : 0;
}

static int cmd_bench(int argc, char **argv)
{
	const struct bench_workload *w;

	if (argc < 2) {
		list_workloads();
		return 0;
	}
	if (kcmd_wants_help(argc, argv)) {
		const struct kcmd *c = kcmd_find("bench");

		printf("usage: %s\n  %s\n", c->usage, c->help);
		list_workloads();
		kcmd_help_done();
		return 0;
	}
	if (!strcmp(argv[1], "suite=replay"))
		return bench_replay_suite(argc - 2, argv + 2); /* bench/replay-suite.c */
	if (!strncmp(argv[1], "suite=", 6)) {
		const char *ra = NULL;
		int baseline = BASELINE_YES;

		for (int i = 2; i < argc; i++) {
			if (!strncmp(argv[i], "ra=", 3)) {
				ra = argv[i] + 3;
			} else if (!strcmp(argv[i], "baseline=0")) {
				baseline = BASELINE_NO;
			} else if (!strcmp(argv[i], "baseline=1")) {
				baseline = BASELINE_YES;
			} else if (!strcmp(argv[i], "baseline=only")) {
				baseline = BASELINE_ONLY;
			} else {
				pr_err("bench: %s: a suite takes only ra=A,B[,...] or ra=all, and "
				       "baseline=1|0|only\n", argv[i]);
				return -EINVAL;
			}
		}
		return run_suite(argv[1] + 6, ra, baseline);
	}
	w = bench_find(argv[1]);
	if (!w) {
		pr_err("bench: no workload '%s' (`bench` lists them)\n", argv[1]);
		return -EINVAL;
	}
	return bench_run_argv(w, argc - 2, argv + 2, NULL);
}
KCMD(bench, cmd_bench,
     "bench NAME [key=value...] | bench suite=NAME [ra=A,B,...|all] [baseline=1|0|only]",
     "run a benchmark workload, or a suite with each readahead algorithm and its table");
