/*
 * Write a bench pattern file (bench/pattern.h): every 8-byte word a function
 * of the file's name and the word's offset. Host tool for tools/mkbench.
 *
 *	patgen FILE SIZE	SIZE in bytes
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pattern.h"

int main(int argc, char **argv)
{
	static uint64_t buf[1 << 17]; /* 1 MiB */
	unsigned long long size;
	uint64_t seed, word = 0;
	char *end;
	FILE *f;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: patgen FILE SIZE\n"
		       "  a bench pattern file (bench/pattern.h) of SIZE bytes: each 8-byte\n"
		       "  word a function of the file's name and its offset\n");
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: patgen FILE SIZE\n");
		return 2;
	}
	errno = 0;
	size = strtoull(argv[2], &end, 10);
	if (errno || *end || !*argv[2]) {
		fprintf(stderr, "patgen: SIZE '%s' is not a number of bytes\n", argv[2]);
		return 2;
	}
	f = fopen(argv[1], "wb");
	if (!f) {
		fprintf(stderr, "patgen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	seed = pattern_seed(argv[1]);
	while (size) {
		size_t n = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		for (size_t i = 0; i < (n + 7) / 8; i++)
			buf[i] = pattern_word(seed, word++);
		if (fwrite(buf, 1, n, f) != n) {
			fprintf(stderr, "patgen: %s: %s\n", argv[1], strerror(errno));
			fclose(f);
			return 1;
		}
		size -= n;
	}
	if (fclose(f)) {
		fprintf(stderr, "patgen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
