/*
 * copybench: what the benchmarks pay per byte they read, on the run's clock.
 * Every byte a workload reads is copied out of the page cache (memcpy in
 * do_generic_mapping_read) and then checked against its pattern
 * (bench/pattern.h); the suites read about 100 GB, so these two loops are
 * most of the guest's instructions. Under tools/run-qemu's virtual clock
 * (-icount shift=0) one nanosecond is one guest instruction, so the figures
 * are instructions per byte, exactly; on the real clock they are ns per byte.
 *
 * Each copy method copies 4 KiB pages out of a 1 MiB "cache" into a 64 KiB
 * buffer, as a 64 KiB read does; the string instructions are measured too,
 * because how TCG counts them (one instruction per iteration, or one for
 * all) decides what is cheapest under -icount. Each check method checks the
 * same 64 KiB buffer of a pattern file's bytes. Each method runs three times,
 * interleaved with the others, and its fastest round counts: under the
 * virtual clock the rounds agree; on a shared host the minimum is the least
 * disturbed.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/pattern-check.h"
#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define CACHE_BYTES (1u << 20)
#define BUF_BYTES   (64u << 10)
#define PAGE_BYTES  4096u
#define ROUNDS	    3

static void copy_memcpy(void *d, const void *s, size_t n)
{
	memcpy(d, s, n);
}

static void copy_rep_movsb(void *d, const void *s, size_t n)
{
	__asm__ __volatile__("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void copy_rep_movsq(void *d, const void *s, size_t n)
{
	size_t q = n / 8;

	__asm__ __volatile__("rep movsq" : "+D"(d), "+S"(s), "+c"(q) : : "memory");
}

/* 128 bytes a step as 16 single movsq (n: a multiple of 128): no rep prefix */
static void copy_movsq16(void *d, const void *s, size_t n)
{
	size_t steps = n / 128;

	__asm__ __volatile__("1:\n\t"
			     ".rept 16\n\t"
			     "movsq\n\t"
			     ".endr\n\t"
			     "dec %2\n\t"
			     "jnz 1b"
			     : "+D"(d), "+S"(s), "+r"(steps)
			     :
			     : "memory");
}

/* 128 bytes a step through eight general registers, loads then stores */
static void copy_gpr(void *d, const void *s, size_t n)
{
	uint64_t *dq = d;
	const uint64_t *sq = s;

	for (size_t i = 0; i < n / 8; i += 16) {
		uint64_t a[16];

		for (int k = 0; k < 16; k++)
			a[k] = sq[i + k];
		for (int k = 0; k < 16; k++)
			dq[i + k] = a[k];
	}
}

/* 128 bytes a step through eight XMM registers (n: a multiple of 128). */
static void copy_sse2(void *d, const void *s, size_t n)
{
	__asm__ __volatile__("1:\n\t"
			     "movdqu (%1), %%xmm0\n\t"
			     "movdqu 16(%1), %%xmm1\n\t"
			     "movdqu 32(%1), %%xmm2\n\t"
			     "movdqu 48(%1), %%xmm3\n\t"
			     "movdqu 64(%1), %%xmm4\n\t"
			     "movdqu 80(%1), %%xmm5\n\t"
			     "movdqu 96(%1), %%xmm6\n\t"
			     "movdqu 112(%1), %%xmm7\n\t"
			     "movdqu %%xmm0, (%0)\n\t"
			     "movdqu %%xmm1, 16(%0)\n\t"
			     "movdqu %%xmm2, 32(%0)\n\t"
			     "movdqu %%xmm3, 48(%0)\n\t"
			     "movdqu %%xmm4, 64(%0)\n\t"
			     "movdqu %%xmm5, 80(%0)\n\t"
			     "movdqu %%xmm6, 96(%0)\n\t"
			     "movdqu %%xmm7, 112(%0)\n\t"
			     "add $128, %1\n\t"
			     "add $128, %0\n\t"
			     "sub $128, %2\n\t"
			     "jnz 1b"
			     : "+r"(d), "+r"(s), "+r"(n)
			     :
			     : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
			       "xmm7");
}

/* clang-format off */
static const struct {
	const char *name;
	void (*copy)(void *d, const void *s, size_t n);
} copies[] = {
	{"memcpy", copy_memcpy},
	{"rep-movsb", copy_rep_movsb},
	{"rep-movsq", copy_rep_movsq},
	{"sse2", copy_sse2},
	{"movsq-x16", copy_movsq16},
	{"gpr-x16", copy_gpr},
};
/* clang-format on */

static const struct {
	const char *name;
	int64_t (*check)(uint64_t seed, const void *buf, size_t len, uint64_t pos);
} checks[] = {
	{"pattern_check", pattern_check},
	{"pattern_check_fast", pattern_check_fast},
};

/* ns per byte on the run's clock: instructions per byte under the virtual clock */
static double per_byte(uint64_t ns, uint64_t bytes)
{
	return (double)ns / (double)bytes;
}

static int cmd_copybench(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"mb", KV_UINT, NULL, "MiB to copy and to check with each method (default 16)"},
		{"only", KV_STRING, NULL, "one method, once (to time it from the host)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	uint64_t mb = 16, bytes, seed = pattern_seed("copybench.pat");
	const char *unit = ktime_is_virtual() ? "instructions/byte" : "ns/byte";
	uint64_t copy_ns[ARRAY_SIZE(copies)], check_ns[ARRAY_SIZE(checks)];
	const char *only;
	bool found = false;
	uint8_t *cache, *buf;
	struct result r;
	int err = 0;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (v[0].present) {
		if (!v[0].u || v[0].u > 4096) {
			pr_err("copybench: mb=%s: 1 to 4096\n", v[0].raw);
			return -EINVAL;
		}
		mb = v[0].u;
	}
	bytes = mb << 20;
	only = v[1].present ? v[1].s : NULL;
	for (unsigned int m = 0; only && m < ARRAY_SIZE(copies); m++)
		found |= !strcmp(only, copies[m].name);
	for (unsigned int m = 0; only && m < ARRAY_SIZE(checks); m++)
		found |= !strcmp(only, checks[m].name);
	if (only && !found) {
		pr_err("copybench: only=%s: no such method\n", only);
		return -EINVAL;
	}
	for (unsigned int m = 0; m < ARRAY_SIZE(copies); m++)
		copy_ns[m] = UINT64_MAX;
	for (unsigned int m = 0; m < ARRAY_SIZE(checks); m++)
		check_ns[m] = UINT64_MAX;
	cache = kmalloc(CACHE_BYTES);
	buf = kmalloc(BUF_BYTES);
	if (!cache || !buf) {
		pr_err("copybench: no memory for a 1 MiB and a 64 KiB buffer\n");
		kfree(cache);
		kfree(buf);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < CACHE_BYTES / 8; i++) {
		uint64_t w = pattern_word(seed, i % (BUF_BYTES / 8));

		memcpy(cache + 8 * i, &w, 8);
	}
	result_begin(&r, "copybench");
	result_u64(&r, "mb", mb);
	result_str(&r, "unit", unit);
	printf("copybench: %llu MiB each, %s (%s clock)\n", (unsigned long long)mb, unit,
	       ktime_clock_name());
	for (unsigned int round = 0; round < (only ? 1 : ROUNDS); round++) {
		for (unsigned int m = 0; m < ARRAY_SIZE(copies); m++) {
			uint64_t t0, off = 0;

			if (only && strcmp(only, copies[m].name))
				continue;
			memset(buf, 0, BUF_BYTES);
			t0 = ktime_ns();
			for (uint64_t done = 0; done < bytes; done += PAGE_BYTES) {
				copies[m].copy(buf + done % BUF_BYTES, cache + off, PAGE_BYTES);
				off = (off + PAGE_BYTES) % CACHE_BYTES;
			}
			copy_ns[m] = min(copy_ns[m], ktime_ns() - t0);
			if (memcmp(buf, cache, BUF_BYTES)) {
				pr_err("copybench: copy %s: wrong bytes\n", copies[m].name);
				err = -EIO;
			}
		}
		memcpy(buf, cache, BUF_BYTES);
		for (unsigned int m = 0; m < ARRAY_SIZE(checks); m++) {
			uint64_t t0 = ktime_ns();
			int64_t bad = -1;

			if (only && strcmp(only, checks[m].name))
				continue;
			for (uint64_t done = 0; done < bytes && bad < 0; done += BUF_BYTES)
				bad = checks[m].check(seed, buf, BUF_BYTES, 0);
			check_ns[m] = min(check_ns[m], ktime_ns() - t0);
			if (bad >= 0) {
				pr_err("copybench: check %s: wrong data at %lld\n", checks[m].name,
				       (long long)bad);
				err = -EIO;
			}
		}
	}
	for (unsigned int m = 0; m < ARRAY_SIZE(copies); m++) {
		if (copy_ns[m] == UINT64_MAX)
			continue;
		printf("  copy  %-20s %7.4f\n", copies[m].name, per_byte(copy_ns[m], bytes));
		result_double(&r, copies[m].name, per_byte(copy_ns[m], bytes), 4);
	}
	for (unsigned int m = 0; m < ARRAY_SIZE(checks); m++) {
		if (check_ns[m] == UINT64_MAX)
			continue;
		printf("  check %-20s %7.4f\n", checks[m].name, per_byte(check_ns[m], bytes));
		result_double(&r, checks[m].name, per_byte(check_ns[m], bytes), 4);
	}
	result_str(&r, "clock", ktime_clock_name());
	result_end(&r);
	kfree(cache);
	kfree(buf);
	return err;
}
KCMD(copybench, cmd_copybench, "copybench [mb=N]",
     "instructions (virtual clock) or ns per byte of the read path's copy and pattern check");
