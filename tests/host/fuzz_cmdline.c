/*
 * Fuzzing the text the kernel parses before anything else runs: the
 * command line and the commands of its run= list. Each input is one
 * command line as a boot loader hands it (a C string). It goes through the
 * kernel's own code, in the kernel's order:
 *   cmdline_parse()         the tokenizer (kv_split: quotes, words) and the
 *                           key=value check against every KPARAM() (kv_parse)
 *   cmdline_next_command()  run= cut into commands at ';'
 *   kv_split + kv_parse     each command's words (the shell's kcmd_run) against
 *                           its keys: a bench workload's own parameters and the
 *                           common ones, or the keys its usage line names
 * with the kernel's tables of keys read from the kernel image
 * (tools/kernel-keys). Besides crashes and sanitizer reports, a broken
 * promise of the parsers aborts: an error message not NUL-terminated, a
 * word left changed by kv_parse, a value that does not parse back to what
 * was stored, an enum index out of its choices, an empty or untrimmed
 * command.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined as
 * build/host/fuzz_cmdline (make fuzz-cmdline, tests/host/fuzz_cmdline.t).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmd.h"
#include "kernel/cmdline.h"
#include "tests/host/fuzz_cmdline.h"

#define MAX_SPECS 64

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_cmdline: broken: %s\n", what);
		abort();
	}
}

static void check_err(const char *err, size_t len)
{
	check(memchr(err, 0, len) != NULL, "error message not NUL-terminated");
}

/* What kv_parse stored must be what the raw text says. */
static void check_values(const struct kv_spec *specs, int n, const struct kv_value *v)
{
	for (int i = 0; i < n; i++) {
		uint64_t u = 0;
		int k = 0;

		if (!v[i].present)
			continue;
		check(v[i].raw && v[i].spec == &specs[i], "value without its text or spec");
		check(!strchr(v[i].raw, '"'), "a double quote left in a value");
		switch (specs[i].type) {
		case KV_UINT:
			check(!kv_parse_uint(v[i].raw, &u) && u == v[i].u,
			      "uint does not parse back");
			break;
		case KV_SIZE:
			check(!kv_parse_size(v[i].raw, &u) && u == v[i].u,
			      "size does not parse back");
			break;
		case KV_BOOL:
			check(!kv_parse_bool(v[i].raw, &u) && u == v[i].u && u <= 1,
			      "bool does not parse back");
			break;
		case KV_TIME_NS:
		case KV_TIME_US:
		case KV_TIME_MS:
		case KV_TIME_S:
		case KV_TIME_MIN:
			check(!kv_parse_time(v[i].raw, kv_time_unit_ns(specs[i].type), &u) &&
				      u % kv_time_unit_ns(specs[i].type) == 0 &&
				      u / kv_time_unit_ns(specs[i].type) == v[i].u,
			      "time does not parse back to whole units of its key");
			break;
		case KV_ENUM:
			while (specs[i].choices[k])
				k++;
			check(v[i].u < (uint64_t)k && !strcmp(specs[i].choices[v[i].u], v[i].s),
			      "enum index is not the choice");
			break;
		case KV_STRING:
			check(v[i].s == v[i].raw, "string value is not its text");
			break;
		}
	}
}

/* kv_parse over @argv, checking it leaves the words as they were. */
static void parse_words(char **argv, int argc, const struct kv_spec *specs, int n, bool positional)
{
	static char saved[KCMD_MAX_ARGS][CMDLINE_MAX];
	struct kv_value vals[MAX_SPECS];
	const char *pos = NULL;
	char err[512];

	check(n <= MAX_SPECS, "more specs than the harness holds");
	for (int i = 0; i < argc; i++)
		snprintf(saved[i], sizeof(saved[i]), "%s", argv[i]);
	if (kv_parse(argv, argc, specs, n, vals, positional ? &pos : NULL, err, sizeof(err)))
		check_err(err, sizeof(err));
	else
		check_values(specs, n, vals);
	for (int i = 0; i < argc; i++)
		check(!strcmp(saved[i], argv[i]), "kv_parse left a word changed");
}

/* The keys a command's usage line names ("cat PATH [bs=SIZE] ..."), as strings. */
static int usage_specs(const char *usage, struct kv_spec *specs, char names[][32])
{
	const char *p = usage ? usage : "";
	int n = 0;

	while (*p && n < MAX_SPECS) {
		const char *k = p;
		bool dup = false;

		while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
			p++;
		if (*p != '=' || p == k || p - k >= 32) {
			if (p == k)
				p++;
			continue;
		}
		memcpy(names[n], k, (size_t)(p - k));
		names[n][p - k] = 0;
		for (int i = 0; i < n; i++)
			dup |= !strcmp(names[i], names[n]);
		if (!dup) {
			specs[n] = (struct kv_spec){names[n], KV_STRING, NULL, ""};
			n++;
		}
	}
	return n;
}

/* One command of the run= list, as the shell splits it. */
static void fuzz_command(char *cmd)
{
	struct kv_spec specs[MAX_SPECS];
	static char names[MAX_SPECS][32];
	char *argv[KCMD_MAX_ARGS];
	const char *err = "";
	int argc = kv_split(cmd, argv, KCMD_MAX_ARGS, &err), n;

	if (argc < 0) {
		check(err && *err, "kv_split failed without a message");
		return;
	}
	check(argc <= KCMD_MAX_ARGS, "kv_split gave more words than asked");
	for (int i = 0; i < argc; i++)
		check(!strchr(argv[i], '"'), "a double quote left in a word");
	if (argc == 0)
		return;
	if (!strcmp(argv[0], "bench") && argc >= 2 && !strchr(argv[1], '=')) {
		for (int w = 0; w < fuzz_nr_workloads; w++) {
			if (strcmp(fuzz_workloads[w].name, argv[1]))
				continue;
			n = fuzz_workloads[w].nr_params;
			memcpy(specs, fuzz_workloads[w].params, (size_t)n * sizeof(*specs));
			memcpy(specs + n, fuzz_bench_common,
			       (size_t)fuzz_nr_bench_common * sizeof(*specs));
			parse_words(argv + 2, argc - 2, specs, n + fuzz_nr_bench_common, false);
		}
		return;
	}
	for (int c = 0; c < fuzz_nr_commands; c++) {
		if (strcmp(fuzz_commands[c].name, argv[0]))
			continue;
		n = usage_specs(fuzz_commands[c].usage, specs, names);
		parse_words(argv + 1, argc - 1, specs, n, true);
	}
}

static void fuzz_one(const char *line, size_t len)
{
	static char words[CMDLINE_MAX], list[CMDLINE_MAX];
	struct kv_value vals[MAX_SPECS];
	char err[512], *cursor = list, *cmd;
	int run = -1;

	check(fuzz_nr_kparams <= MAX_SPECS, "more parameters than the harness holds");
	if (cmdline_parse(line, len, words, fuzz_kparams, fuzz_nr_kparams, vals, err,
			  sizeof(err))) {
		check_err(err, sizeof(err));
		return;
	}
	check_values(fuzz_kparams, fuzz_nr_kparams, vals);
	for (int i = 0; i < fuzz_nr_kparams; i++)
		if (!strcmp(fuzz_kparams[i].key, "run"))
			run = i;
	check(run >= 0, "the kernel declares no run=");
	if (!vals[run].present)
		return;
	/* kmain: the list is copied and cut into commands */
	snprintf(list, sizeof(list), "%s", vals[run].s);
	while ((cmd = cmdline_next_command(&cursor))) {
		check(*cmd && *cmd != ' ' && *cmd != '\t' && !strchr(cmd, ';'),
		      "a command empty, untrimmed or holding ';'");
		fuzz_command(cmd);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[4 * CMDLINE_MAX];
	size_t len = size < sizeof(line) - 1 ? size : sizeof(line) - 1;

	/* a loader hands a C string: it ends at the first NUL */
	memcpy(line, data, len);
	line[len] = 0;
	fuzz_one(line, strlen(line));
	return 0;
}
