/*
 * hash_64(): a 64-bit key to @bits bits by multiplying with the golden
 * ratio (Knuth's multiplicative hashing, as Linux's hash_64() in
 * include/linux/hash.h) and keeping the top bits, which the multiplication
 * mixes best. The page cache's index hash and the page-lock wait table
 * both use it: one multiplier, written once.
 */
#ifndef KERNEL_HASH_H
#define KERNEL_HASH_H

#include <stdint.h>

/* 2^64 / phi, rounded to odd */
#define GOLDEN_RATIO_64 0x9e3779b97f4a7c15UL

static inline uint64_t hash_64(uint64_t val, unsigned int bits)
{
	return (val * GOLDEN_RATIO_64) >> (64 - bits);
}

#endif
