/*
 * What a fio iolog needs from an image, by the kernel's own parser
 * (bench/iolog.c), so tools/mkbench --iolog sizes the files exactly as
 * `bench replay` will check them and refuses a log with the same message.
 *
 *	iologinfo LOG
 *
 * Prints "version N", "lines N", "reads N", "duration_us N", then one line
 * a file the log adds:
 *	file NAME MAX_END MAX_OFFSET MAX_OFFSET_LINE READS
 * (NAME holds no blanks: the grammar splits on them). A log the parser
 * refuses: "iologinfo: LOG: line N: why" on stderr, exit status 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/iolog.h"

int main(int argc, char **argv)
{
	struct iolog_file *files;
	struct iolog log;
	uint32_t *hash;
	unsigned int n;
	size_t len = 0, cap = 1 << 16;
	char *text;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: iologinfo LOG\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	text = malloc(cap);
	if (!f || !text) {
		fprintf(stderr, "iologinfo: %s: %s\n", argv[1], strerror(errno));
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
			fprintf(stderr, "iologinfo: %s: out of memory\n", argv[1]);
			return 1;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "iologinfo: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fclose(f);
	n = iolog_max_files(len);
	files = calloc(n, sizeof(*files));
	hash = calloc(iolog_hash_slots(n), sizeof(*hash));
	if (!files || !hash) {
		fprintf(stderr, "iologinfo: %s: out of memory\n", argv[1]);
		return 1;
	}
	iolog_init(&log, files, n, hash, iolog_hash_slots(n));
	if (iolog_parse(&log, text, len, NULL, NULL)) {
		fprintf(stderr, "iologinfo: %s: %s\n", argv[1], log.err);
		return 1;
	}
	printf("version %d\nlines %u\nreads %llu\nduration_us %llu\n", log.version, log.lines,
	       (unsigned long long)log.count[IOLOG_READ],
	       (unsigned long long)iolog_duration_us(&log));
	for (unsigned int i = 0; i < log.nr_files; i++)
		printf("file %.*s %llu %llu %u %llu\n", (int)files[i].len, files[i].name,
		       (unsigned long long)files[i].max_end,
		       (unsigned long long)files[i].max_offset, files[i].max_offset_line,
		       (unsigned long long)files[i].reads);
	free(text);
	free(files);
	free(hash);
	return 0;
}
