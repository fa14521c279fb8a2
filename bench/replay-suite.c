/*
 * The replay suite (see bench/replay.h): every fio iolog of a replay
 * image's /replay/logs/ with every readahead algorithm, one table. The
 * algorithms are the kernel's own list (ra_algo_names()), so an algorithm
 * added there is in the suite without a change here; tools/bench replay
 * --logs DIR builds the image, runs the suite once per algorithm (ra=A, a
 * boot each, so that no row depends on what ran before it) and writes the
 * results folder, tools/bench-report the table and replay.png from the
 * RESULTs. ra_kb=N gives every algorithm that reads ahead the same window;
 * without it each has its own kernel's default for the disk, and the table
 * says each row's window either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/iolog.h"
#include "bench/replay.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define MAX_LOGS  IOLOG_REPLAY_LOGS_MAX /* tools/mkbench --iolog refuses more */
#define MAX_ALGOS 16
#define LOG_NAME  IOLOG_REPLAY_NAME_MAX /* and longer names */

struct suite_row {
	char log[LOG_NAME];
	const char *ra;
	bool ran, ok, verified;
	double secs, stall_secs;
	uint64_t disk_reads, disk_sectors, ra_kb;
};

/* The row the running replay fills in (NULL outside the suite). */
static struct suite_row *cur_row;

void bench_replay_note(const struct bench *b, const struct bench_sample *s)
{
	if (!cur_row)
		return;
	cur_row->ran = true;
	cur_row->secs = b->secs;
	cur_row->stall_secs = b->stall_frac * b->secs; /* one reader: stall_frac is of the run */
	cur_row->disk_reads = s->disk_reads;
	cur_row->disk_sectors = s->disk_sectors;
	cur_row->ra_kb = b->ra_pages_end * PAGE_SIZE / 1024; /* the RESULT's ra_kb */
	cur_row->verified = b->verify && b->bytes && b->checked_bytes == b->bytes &&
			    !b->bad_bytes && !b->errors;
}

struct log_list {
	char names[MAX_LOGS][LOG_NAME];
	unsigned int n;
	bool too_many, too_long;
};

static int list_log(void *ctx, const char *name, unsigned int len, uint32_t ino, unsigned int ftype)
{
	struct log_list *l = ctx;

	(void)ino;
	if (ftype != VFS_FT_REG)
		return 0;
	if (len >= LOG_NAME) {
		l->too_long = true;
		return 1;
	}
	if (l->n == MAX_LOGS) {
		l->too_many = true;
		return 1;
	}
	memcpy(l->names[l->n], name, len);
	l->names[l->n][len] = '\0';
	l->n++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int list_logs(const char *dir, struct log_list *l)
{
	struct file *d;
	int err;

	d = vfs_open(dir, &err);
	if (!d) {
		pr_err("bench suite replay: %s: %s (tools/mkbench --iolog builds a replay image)\n",
		       dir, vfs_errname(err));
		return err;
	}
	err = vfs_mode_ftype(d->f_inode->i_mode) == VFS_FT_DIR ? vfs_readdir(d, list_log, l)
							       : -ENOTDIR;
	vfs_close(d);
	if (err || l->too_many || l->too_long || !l->n) {
		pr_err("bench suite replay: %s: %s\n", dir,
		       err	     ? vfs_errname(err)
		       : l->too_many ? "more than 256 logs"
		       : l->too_long ? "a log name of 48 bytes or more"
				     : "no logs");
		return err ? err : -EINVAL;
	}
	qsort(l->names, l->n, LOG_NAME, cmp_names);
	return 0;
}

/* @list ("A,B,C") or every registered algorithm, into @algos; the count or -EINVAL. */
static int algorithms(char *list, const char **algos)
{
	const char *const *names_all = ra_algo_names();
	int n = 0;
	char *tok;

	if (!list) {
		for (int i = 0; names_all[i] && n < MAX_ALGOS; i++)
			algos[n++] = names_all[i];
		return n;
	}
	while ((tok = strsep(&list, ","))) {
		int i;

		for (i = 0; names_all[i]; i++)
			if (!strcmp(tok, names_all[i]))
				break;
		if (!names_all[i] || n == MAX_ALGOS) {
			char names[128];
			size_t at = 0;

			for (i = 0; names_all[i] && at < sizeof(names); i++)
				at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s",
						       i ? "|" : "", names_all[i]);
			pr_err("bench suite replay: ra=%s: expected a comma-separated list of %s\n",
			       tok, names);
			return -EINVAL;
		}
		algos[n++] = names_all[i];
	}
	return n;
}

static void print_table(struct suite_row *rows, unsigned int n, const char *timing,
			const char *files, const char *window)
{
	printf("\nbench suite replay: every log with every algorithm (timing=%s, files=%s, "
	       "window %s)\n",
	       timing, files, window);
	printf("%-30s %-10s %8s %10s %10s %10s %10s  %s\n", "log", "algorithm", "window", "run s",
	       "disk reads", "avg KiB", "stall s", "data");
	for (unsigned int i = 0; i < n; i++) {
		struct suite_row *r = &rows[i];

		if (!r->ran) {
			printf("%-30s %-10s %8s %10s %10s %10s %10s  FAILED\n", r->log, r->ra, "-",
			       "-", "-", "-", "-");
			continue;
		}
		printf("%-30s %-10s %7lluK %10.4f %10llu %10.1f %10.4f  %s\n", r->log, r->ra,
		       (unsigned long long)r->ra_kb, r->secs, (unsigned long long)r->disk_reads,
		       r->disk_reads ? (double)r->disk_sectors / 2.0 / (double)r->disk_reads : 0.0,
		       r->stall_secs,
		       !r->ok	     ? "FAILED"
		       : r->verified ? "verified"
				     : "not checked");
	}
}

static const char *const timing_choices[] = {"recorded", "asap", NULL};
static const char *const files_choices[] = {"close", "keep", NULL};

int bench_replay_suite(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"ra", KV_STRING, NULL, "algorithms, comma-separated (default: every one)"},
		{"timing", KV_ENUM, timing_choices, "recorded (default) or asap"},
		{"files", KV_ENUM, files_choices, "close (default) or keep"},
		{"dir", KV_STRING, NULL, "the logs' folder (default /replay/logs)"},
		{"ra_kb", KV_UINT, NULL,
		 "one window (KiB) for every algorithm that reads ahead (default: each its own)"},
	};
	const struct bench_workload *w = bench_find("replay");
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *algos[MAX_ALGOS], *dir, *timing, *files;
	char ra_list[128], err_msg[160], window[40];
	struct suite_row *rows = NULL;
	struct log_list *logs = NULL;
	unsigned int nrows = 0, failed = 0;
	uint64_t t0 = ktime_ns();
	int nalgos, err;

	if (kv_parse(argv, argc, specs, ARRAY_SIZE(specs), v, NULL, err_msg, sizeof(err_msg))) {
		pr_err("bench suite replay: %s\n", err_msg);
		return -EINVAL;
	}
	if (v[0].present)
		snprintf(ra_list, sizeof(ra_list), "%s", v[0].s);
	nalgos = algorithms(v[0].present ? ra_list : NULL, algos);
	if (nalgos < 0)
		return nalgos;
	timing = v[1].present ? v[1].s : "recorded";
	files = v[2].present ? v[2].s : "close";
	dir = v[3].present ? v[3].s : "/replay/logs";
	if (v[4].present && (!ra_kb_valid(v[4].u) || !v[4].u)) {
		pr_err("bench suite replay: ra_kb=%s: expected a multiple of %lu from %lu up to %u\n",
		       v[4].raw, PAGE_SIZE / 1024, PAGE_SIZE / 1024, RA_MAX_KB);
		return -EINVAL;
	}
	if (v[4].present)
		snprintf(window, sizeof(window), "%llu KiB for all (ra_kb=)",
			 (unsigned long long)v[4].u);
	else
		snprintf(window, sizeof(window), "each algorithm's default");
	err = vfs_need_root("bench suite replay");
	if (err)
		return err;
	logs = kzalloc(sizeof(*logs));
	if (!logs)
		return -ENOMEM;
	err = list_logs(dir, logs);
	if (err)
		goto out;
	rows = kzalloc(logs->n * (unsigned int)nalgos * sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	printf("bench suite replay: %u logs in %s, algorithms", logs->n, dir);
	for (int a = 0; a < nalgos; a++)
		printf("%s%s", a ? "," : " ", algos[a]);
	printf("\n");
	for (unsigned int l = 0; l < logs->n; l++) {
		for (int a = 0; a < nalgos; a++) {
			char logarg[LOG_NAME + 80], raarg[40], targ[40], farg[40], kbarg[40];
			char *words[] = {logarg, raarg, targ, farg, kbarg};
			const struct ra_algorithm *algo = ra_algo_find(algos[a]);
			/* ra_kb= for the algorithms that read ahead (ra=off refuses it) */
			int nwords = v[4].present && !(algo->flags & RA_ALGO_NO_WINDOW) ? 5 : 4;
			struct suite_row *r = &rows[nrows++];
			int ret;

			snprintf(r->log, sizeof(r->log), "%s", logs->names[l]);
			r->ra = algos[a];
			snprintf(logarg, sizeof(logarg), "log=%s/%s", dir, logs->names[l]);
			snprintf(raarg, sizeof(raarg), "ra=%s", algos[a]);
			snprintf(targ, sizeof(targ), "timing=%s", timing);
			snprintf(farg, sizeof(farg), "files=%s", files);
			snprintf(kbarg, sizeof(kbarg), "ra_kb=%llu", (unsigned long long)v[4].u);
			if (bench_cold_start()) {
				failed++;
				r->ok = false;
				continue;
			}
			printf("bench: suite replay: replay %s %s %s %s%s%s\n", logarg, raarg, targ,
			       farg, nwords > 4 ? " " : "", nwords > 4 ? kbarg : "");
			cur_row = r;
			ret = bench_run_argv(w, nwords, words, "replay");
			cur_row = NULL;
			r->ok = !ret;
			failed += !!ret;
		}
	}
	print_table(rows, nrows, timing, files, window);
	printf("bench suite replay: %u runs failed, %.1f s\n", failed,
	       (double)(ktime_ns() - t0) / 1e9);
	{
		struct result res;
		char names[128];
		size_t at = 0;

		for (int a = 0; a < nalgos && at < sizeof(names); a++)
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", a ? "," : "",
					       algos[a]);
		result_begin(&res, "bench-suite");
		result_str(&res, "suite", "replay");
		result_u64(&res, "failed", failed);
		result_u64(&res, "runs", nrows);
		result_u64(&res, "logs", logs->n);
		result_str(&res, "algorithms", names);
		result_str(&res, "timing", timing);
		result_str(&res, "files", files);
		if (v[4].present)
			result_u64(&res, "ra_kb", v[4].u);
		result_str(&res, "clock", ktime_clock_name());
		result_end(&res);
	}
	err = failed ? -EIO : 0;
out:
	kfree(rows);
	kfree(logs);
	return err;
}
