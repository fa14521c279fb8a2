/*
 * Machine-readable results: every command prints exactly one line
 *	RESULT {"cmd":"cat","path":"/big.bin","bytes":73400320,...}
 * built with these helpers (kernel/result.c, host-buildable). Strings are
 * JSON-escaped; the line is printed by result_end().
 */
#ifndef KERNEL_RESULT_H
#define KERNEL_RESULT_H

#include "kernel/types.h"

struct result {
	char buf[4096];
	size_t len;
	bool overflow;
};

void result_begin(struct result *r, const char *cmd);
void result_str(struct result *r, const char *key, const char *val);
void result_u64(struct result *r, const char *key, uint64_t val);
void result_i64(struct result *r, const char *key, int64_t val);
void result_bool(struct result *r, const char *key, bool val);
/* A number with @decimals digits after the point. */
void result_double(struct result *r, const char *key, double val, int decimals);
/* A raw JSON value (object, array) written as is. */
void result_raw(struct result *r, const char *key, const char *json);
/*
 * A JSON fragment (an array or an object) built piece by piece, for
 * result_raw(). An overflow is remembered and nothing more is written, so
 * the caller can tell and substitute a short valid value.
 */
struct json_buf {
	char buf[3584];
	size_t len;
	bool overflow;
};

void json_init(struct json_buf *j);
void json_printf(struct json_buf *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* @s as a quoted, escaped JSON string. */
void json_string(struct json_buf *j, const char *s);

/* Close the object and print the line; returns its length. */
size_t result_end(struct result *r);
/* The line without printing it (for tests): closes the object. */
const char *result_finish(struct result *r);

#endif
