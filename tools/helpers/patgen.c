/*
 * Write bench pattern files (bench/pattern.h): every 8-byte word a function
 * of the file's name and the word's offset. Host tool for tools/mkbench.
 *
 *	patgen FILE SIZE	SIZE in bytes
 *	patgen --list LIST	each line of LIST ("-": stdin) "SIZE FILE": a replay
 *				image's many files in one process (100,000 of them
 *				took minutes as a process each)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pattern.h"

/* Write @path, @size bytes of its pattern; 0, or 1 after an error line. */
static int patgen(const char *path, unsigned long long size)
{
	static uint64_t buf[1 << 17]; /* 1 MiB */
	uint64_t seed, word = 0;
	FILE *f;

	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "patgen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	seed = pattern_seed(path);
	while (size) {
		size_t n = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		for (size_t i = 0; i < (n + 7) / 8; i++)
			buf[i] = pattern_word(seed, word++);
		if (fwrite(buf, 1, n, f) != n) {
			fprintf(stderr, "patgen: %s: %s\n", path, strerror(errno));
			fclose(f);
			return 1;
		}
		size -= n;
	}
	if (fclose(f)) {
		fprintf(stderr, "patgen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* SIZE in bytes: 0 with *@size, or 2 after an error line naming @where. */
static int parse_size(const char *s, unsigned long long *size, const char *where)
{
	char *end;

	errno = 0;
	*size = strtoull(s, &end, 10);
	if (errno || *end || !*s || *s == '-') {
		fprintf(stderr, "patgen: %sSIZE '%s' is not a number of bytes\n", where, s);
		return 2;
	}
	return 0;
}

static int from_list(const char *list)
{
	static char line[8192];
	FILE *f = strcmp(list, "-") ? fopen(list, "r") : stdin;
	unsigned long n = 0;

	if (!f) {
		fprintf(stderr, "patgen: %s: %s\n", list, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long size;
		char where[64], *sp, *nl = strchr(line, '\n');

		n++;
		snprintf(where, sizeof(where), "%s line %lu: ", list, n);
		if (!nl) {
			fprintf(stderr, "patgen: %sno newline within %zu bytes\n", where,
				sizeof(line));
			return 2;
		}
		*nl = 0;
		sp = strchr(line, ' ');
		if (!sp || !sp[1]) {
			fprintf(stderr, "patgen: %sexpected SIZE FILE, got '%s'\n", where, line);
			return 2;
		}
		*sp = 0;
		if (parse_size(line, &size, where))
			return 2;
		if (patgen(sp + 1, size))
			return 1;
	}
	if (ferror(f) || (f != stdin && fclose(f))) {
		fprintf(stderr, "patgen: %s: %s\n", list, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long size;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: patgen FILE SIZE | patgen --list LIST\n"
		       "  a bench pattern file (bench/pattern.h) of SIZE bytes: each 8-byte\n"
		       "  word a function of the file's name and its offset; --list: one\n"
		       "  for each \"SIZE FILE\" line of LIST (-: stdin)\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--list"))
		return from_list(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: patgen FILE SIZE | patgen --list LIST\n");
		return 2;
	}
	if (parse_size(argv[2], &size, ""))
		return 2;
	return patgen(argv[1], size);
}
