/*
 * Basic types and helpers shared by the kernel and the host builds.
 *
 * Everything under mm/, fs/ and the hardware-independent parts of drivers/
 * includes this instead of reaching for kernel-only headers, so the same
 * file compiles freestanding (in the kernel) and hosted (tests, fuzzers).
 * HOST_BUILD is defined by the host build.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <errno.h>

typedef unsigned long pgoff_t;
/* glibc's sys/types.h defines loff_t; newlib's does not. */
#ifndef __GLIBC__
typedef __loff_t loff_t;
#endif
typedef uint64_t sector_t;
typedef uint64_t phys_addr_t;

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_CACHE_SHIFT PAGE_SHIFT
#define PAGE_CACHE_SIZE	PAGE_SIZE
#ifndef PAGE_CACHE_MASK
#define PAGE_CACHE_MASK	PAGE_MASK
#endif
#define SECTOR_SHIFT	9
#define SECTOR_SIZE	(1U << SECTOR_SHIFT)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ALIGN_UP(x, a)	(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define BIT(n)		(1UL << (n))

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __unused
#define __unused	__attribute__((unused))
#endif
#ifndef __packed
#define __packed	__attribute__((packed))
#endif
#ifndef __aligned
#define __aligned(n)	__attribute__((aligned(n)))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((noreturn))
#endif
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
/*
 * No libFuzzer coverage (clang -fsanitize=fuzzer) in a checker that the
 * fuzzers call after every operation: its comparisons say nothing of the
 * code under test, and cost more than it. Sanitizers stay.
 */
#if defined(__clang__)
#define __no_coverage	__attribute__((no_sanitize("coverage")))
#else
#define __no_coverage
#endif

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()	__asm__ __volatile__("" ::: "memory")

/* Linux-style error pointers: the top 4095 addresses encode -errno. */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE((unsigned long)ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR(ptr); }

static inline bool is_power_of_2(unsigned long n) { return n && !(n & (n - 1)); }
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}
static inline unsigned int ilog2(unsigned long n) { return 63 - __builtin_clzl(n); }

#endif
