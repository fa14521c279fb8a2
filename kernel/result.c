/*
 * RESULT lines: one JSON object per command, on one line, for scripts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/result.h"

/* Append to buf[0..cap) at *len; on overflow set *overflow and write nothing more. */
static void vappend(char *buf, size_t cap, size_t *len, bool *overflow, const char *fmt,
		    va_list ap)
{
	int n;

	if (*overflow)
		return;
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	/* keep room for the closing brace result_finish() adds */
	if (n < 0 || (size_t)n >= cap - *len - 2) {
		*overflow = true;
		return;
	}
	*len += (size_t)n;
}

static void put(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(r->buf, sizeof(r->buf), &r->len, &r->overflow, fmt, ap);
	va_end(ap);
}

void json_init(struct json_buf *j)
{
	j->len = 0;
	j->buf[0] = 0;
	j->overflow = false;
}

void json_printf(struct json_buf *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(j->buf, sizeof(j->buf), &j->len, &j->overflow, fmt, ap);
	va_end(ap);
}

/* JSON string escaping, written through @emit (put or json_printf). */
#define EMIT_JSON_STRING(emit, dst, s)                                           \
	do {                                                                     \
		emit(dst, "\"");                                                \
		for (const char *__p = (s); *__p; __p++) {                       \
			unsigned char __c = (unsigned char)*__p;                 \
			if (__c == '"' || __c == '\\')                           \
				emit(dst, "\\%c", __c);                         \
			else if (__c == '\n')                                    \
				emit(dst, "\\n");                                 \
			else if (__c < 0x20 || __c >= 0x7f)                      \
				emit(dst, "\\u%04x", __c);                        \
			else                                                     \
				emit(dst, "%c", __c);                            \
		}                                                                \
		emit(dst, "\"");                                                \
	} while (0)

static void put_json_string(struct result *r, const char *s)
{
	EMIT_JSON_STRING(put, r, s);
}

void json_string(struct json_buf *j, const char *s)
{
	EMIT_JSON_STRING(json_printf, j, s);
}

static void key(struct result *r, const char *k)
{
	put(r, ",");
	put_json_string(r, k);
	put(r, ":");
}

void result_begin(struct result *r, const char *cmd)
{
	r->len = 0;
	r->overflow = false;
	put(r, "{\"cmd\":");
	put_json_string(r, cmd);
}

void result_str(struct result *r, const char *k, const char *val)
{
	key(r, k);
	put_json_string(r, val ? val : "");
}

void result_u64(struct result *r, const char *k, uint64_t val)
{
	key(r, k);
	put(r, "%llu", (unsigned long long)val);
}

void result_i64(struct result *r, const char *k, int64_t val)
{
	key(r, k);
	put(r, "%lld", (long long)val);
}

void result_bool(struct result *r, const char *k, bool val)
{
	key(r, k);
	put(r, val ? "true" : "false");
}

void result_double(struct result *r, const char *k, double val, int decimals)
{
	key(r, k);
	if (val != val || val > 1e300 || val < -1e300)
		put(r, "null");		/* JSON has no NaN or infinity */
	else
		put(r, "%.*f", decimals, val);
}

void result_raw(struct result *r, const char *k, const char *json)
{
	key(r, k);
	put(r, "%s", json);
}

const char *result_finish(struct result *r)
{
	if (r->overflow) {
		/* Better a short valid line than a truncated invalid one. */
		r->len = 0;
		r->overflow = false;
		put(r, "{\"cmd\":\"?\",\"error\":\"result too long\"");
	}
	put(r, "}");
	return r->buf;
}

size_t result_end(struct result *r)
{
	const char *line = result_finish(r);

	printf("RESULT %s\n", line);
	return strlen(line);
}
