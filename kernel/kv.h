/*
 * key=value parsing shared by the kernel command line (kernel/param.c) and
 * the arguments of shell commands (kernel/cmd.c). Host-buildable.
 *
 * A spec lists the accepted keys with their types; kv_parse() checks every
 * "key=value" word against it and fails with one line naming the key and
 * what it accepts. Nothing is ever silently defaulted: an unknown key or a
 * malformed value is an error.
 */
#ifndef KERNEL_KV_H
#define KERNEL_KV_H

#include "kernel/types.h"

enum kv_type {
	KV_STRING,	/* any text */
	KV_UINT,	/* decimal or 0x hex, 64-bit */
	KV_SIZE,	/* bytes with an optional K/M/G/T suffix (either case) */
	KV_ENUM,	/* one of .choices */
	KV_BOOL,	/* 0/1, yes/no, on/off, true/false */
	/*
	 * Times (kv_parse_time()): a number with a unit ns, us, ms or s, or a
	 * plain number in the key's own unit, the one the type names (its
	 * meaning before units). The value is in that unit and must be a whole
	 * number of it: 1500us for a key in ms is an error, not 1 ms.
	 */
	KV_TIME_NS,
	KV_TIME_US,
	KV_TIME_MS,
	KV_TIME_S,
	KV_TIME_MIN,
};

struct kv_spec {
	const char *key;
	enum kv_type type;
	const char *const *choices;	/* KV_ENUM: NULL-terminated */
	const char *help;
	/* KV_ENUM whose choices are known only at run time (e.g. registered algorithms) */
	const char *const *(*choices_fn)(void);
};

struct kv_value {
	const struct kv_spec *spec;
	const char *raw;		/* points into the parsed string */
	bool present;
	uint64_t u;			/* KV_UINT, KV_SIZE, KV_BOOL, KV_ENUM index, KV_TIME_* */
	const char *s;			/* KV_STRING, KV_ENUM: the text */
};

int kv_parse_uint(const char *s, uint64_t *out);
int kv_parse_size(const char *s, uint64_t *out);
int kv_parse_bool(const char *s, uint64_t *out);

/*
 * A time: a decimal number (12, 1.5) followed by a unit, ns, us, ms or s
 * (250us, 1.5s), or a plain number (decimal or 0x hex, as KV_UINT) of
 * @unit_ns nanoseconds. *@ns gets it in nanoseconds. -EINVAL if it is not a
 * time or not a whole number of nanoseconds, -ERANGE past 2^64 - 1 ns.
 */
int kv_parse_time(const char *s, uint64_t unit_ns, uint64_t *ns);
/* The nanoseconds in a plain number of a KV_TIME_* @type's unit; 0 for other types. */
uint64_t kv_time_unit_ns(enum kv_type type);
/* The unit's name of a KV_TIME_* @type ("ms"), or NULL. */
const char *kv_time_unit_name(enum kv_type type);
/* The nanoseconds in one @name ("ns", "us", "ms", "s", "min"); 0 if it names no time unit. */
uint64_t kv_time_unit_named(const char *name);

/*
 * Split @line in place into words at unquoted spaces, removing double
 * quotes ("a=b c" and a="b c" give the word a=b c). Returns the number of
 * words (at most @max), or -EINVAL with *@err set for an unterminated quote
 * or too many words.
 */
int kv_split(char *line, char **words, int max, const char **err);

/*
 * Check each of @nwords words against @specs (n entries) and fill @vals
 * (n entries, indexed like @specs). A word without '=' is accepted only if
 * @positional is non-NULL, which then receives it (at most one).
 * On error writes one message into @err (size @errlen) and returns -EINVAL.
 */
int kv_parse(char **words, int nwords, const struct kv_spec *specs, int n,
	     struct kv_value *vals, const char **positional, char *err, size_t errlen);

/* Describe what @spec accepts, e.g. "one of serial|vga|both". */
void kv_describe(const struct kv_spec *spec, char *buf, size_t len);

#endif
