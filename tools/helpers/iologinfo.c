/*
 * What a fio iolog needs from an image, by the kernel's own parser
 * (bench/iolog.c), so tools/mkbench --iolog sizes the files exactly as
 * `bench replay` will check them and refuses, before any boot and with the
 * same message, a log the replay would refuse after it: one the parser
 * refuses, one larger than the replay reads (IOLOG_REPLAY_LOG_MAX), or one
 * iolog_replay_check() refuses (a pause over an hour with timing=recorded).
 *
 *	iologinfo [--timing recorded|asap] LOG
 *
 * Prints "version N", "lines N", "reads N", "duration_us N", then one line
 * a file the log adds:
 *	file NAME MAX_END MAX_OFFSET MAX_OFFSET_LINE READS ADD_LINE
 * (NAME holds no blanks: the grammar splits on them). A log the replay
 * would refuse: "iologinfo: LOG: line N: why" on stderr, exit status 1;
 * bad arguments: exit status 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/iolog.h"

static const char usage[] =
	"usage: iologinfo [--timing recorded|asap] LOG\n"
	"  what a fio iolog needs from a replay image, by the kernel's parser, or why\n"
	"  `bench replay` would refuse it (timing: the replay's, default recorded)\n";

static int check_op(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	return iolog_replay_check(log, op, *(const bool *)ctx);
}

int main(int argc, char **argv)
{
	struct iolog_file *files;
	struct iolog log;
	bool recorded = true;
	const char *path = NULL;
	uint32_t *hash;
	unsigned int n;
	size_t len = 0, cap = 1 << 16;
	char *text;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--timing") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "recorded") && strcmp(argv[i], "asap")) {
				fprintf(stderr, "iologinfo: --timing %s: recorded or asap\n",
					argv[i]);
				return 2;
			}
			recorded = !strcmp(argv[i], "recorded");
			continue;
		}
		if (argv[i][0] == '-' || path) {
			fprintf(stderr, "iologinfo: %s: %s\n%s", argv[i],
				argv[i][0] == '-' ? "unknown option" : "one log at a time", usage);
			return 2;
		}
		path = argv[i];
	}
	if (!path) {
		fputs(usage, stderr);
		return 2;
	}
	f = fopen(path, "rb");
	text = malloc(cap);
	if (!f || !text) {
		fprintf(stderr, "iologinfo: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		size_t got = fread(text + len, 1, cap - len, f);

		len += got;
		if (len < cap)
			break;
		cap *= 2;
		text = realloc(text, cap);
		if (!text) {
			fprintf(stderr, "iologinfo: %s: out of memory\n", path);
			return 1;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "iologinfo: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fclose(f);
	if (len > IOLOG_REPLAY_LOG_MAX) {
		fprintf(stderr, "iologinfo: %s: %zu bytes; the replay parses up to %u MiB\n", path,
			len, IOLOG_REPLAY_LOG_MAX >> 20);
		return 1;
	}
	n = iolog_max_files(len);
	files = calloc(n, sizeof(*files));
	hash = calloc(iolog_hash_slots(n), sizeof(*hash));
	if (!files || !hash) {
		fprintf(stderr, "iologinfo: %s: out of memory\n", path);
		return 1;
	}
	iolog_init(&log, files, n, hash, iolog_hash_slots(n));
	if (iolog_parse(&log, text, len, check_op, &recorded)) {
		fprintf(stderr, "iologinfo: %s: %s\n", path, log.err);
		return 1;
	}
	printf("version %d\nlines %u\nreads %llu\nduration_us %llu\n", log.version, log.lines,
	       (unsigned long long)log.count[IOLOG_READ],
	       (unsigned long long)iolog_duration_us(&log));
	for (unsigned int i = 0; i < log.nr_files; i++)
		printf("file %.*s %llu %llu %u %llu %u\n", (int)files[i].len, files[i].name,
		       (unsigned long long)files[i].max_end,
		       (unsigned long long)files[i].max_offset, files[i].max_offset_line,
		       (unsigned long long)files[i].reads, files[i].add_line);
	free(text);
	free(files);
	free(hash);
	return 0;
}
