/*
 * The bench image's file contents: every 8-byte word of a pattern file is a
 * function of the file and the word's offset, so a reader checks each page
 * as it copies it, with no checksum and no reference copy. tools/helpers/patgen.c
 * writes the files on the host; bench/bench.c checks them in the kernel.
 *
 * A pattern file is a regular file whose name ends in ".pat", or any file
 * under /replay/files/ (see pattern_file()); its seed is the FNV-1a hash of
 * its name (the last path component), so a renamed or swapped file fails
 * the check.
 */
#ifndef BENCH_PATTERN_H
#define BENCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t pattern_seed(const char *path)
{
	const char *name = strrchr(path, '/');
	uint64_t h = 0xcbf29ce484222325ULL;

	for (name = name ? name + 1 : path; *name; name++)
		h = (h ^ (uint8_t)*name) * 0x100000001b3ULL;
	return h;
}

/* splitmix64's finalizer: a well-mixed 64-bit function of @z (also the workloads' hash). */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The word at byte offset 8 * @word (splitmix64 of seed and index). */
static inline uint64_t pattern_word(uint64_t seed, uint64_t word)
{
	return mix64(seed + (word + 1) * 0x9e3779b97f4a7c15ULL);
}

/*
 * Also every file of a replay image (tools/mkbench --iolog), which keeps
 * the traced application's own names under /replay/files/.
 */
static inline int pattern_file(const char *path)
{
	size_t n = strlen(path);

	return (n > 4 && !strcmp(path + n - 4, ".pat")) || !strncmp(path, "/replay/files/", 14);
}

/* A sparse file of the bench image (name ending ".zero"): it reads as zeros. */
static inline int zero_file(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".zero");
}

/*
 * Check @len bytes at @buf, which hold the file's bytes from @pos on
 * (any alignment). Returns the offset of the first wrong byte, or -1.
 */
static inline int64_t pattern_check(uint64_t seed, const void *buf, size_t len, uint64_t pos)
{
	const uint8_t *p = buf;
	size_t i = 0;

	/* unaligned head, byte by byte */
	while (i < len && (pos + i) % 8) {
		uint64_t w = pattern_word(seed, (pos + i) / 8);

		if (p[i] != (uint8_t)(w >> (8 * ((pos + i) % 8))))
			return (int64_t)(pos + i);
		i++;
	}
	for (; i + 8 <= len; i += 8) {
		uint64_t v;

		__builtin_memcpy(&v, p + i, 8);
		if (v != pattern_word(seed, (pos + i) / 8))
			break;
	}
	for (; i < len; i++) {
		uint64_t w = pattern_word(seed, (pos + i) / 8);

		if (p[i] != (uint8_t)(w >> (8 * ((pos + i) % 8))))
			return (int64_t)(pos + i);
	}
	return -1;
}

/*
 * A load through a mapping reads the aligned 8-byte word holding byte @pos
 * (bench_touch()). Of a file of @size bytes, the bytes of that word inside
 * the file: from *@word_pos on, the return value (1..8; 0 if @pos is past the
 * end). A mapping reads as zeros past the end of the file, where the pattern
 * goes on: checking all eight bytes of the last word of a file whose size is
 * not a multiple of 8 would call the right data wrong.
 */
static inline size_t pattern_word_in_file(uint64_t pos, uint64_t size, uint64_t *word_pos)
{
	*word_pos = pos & ~7ULL;
	if (pos >= size)
		return 0;
	return size - *word_pos < 8 ? (size_t)(size - *word_pos) : 8;
}

#endif
