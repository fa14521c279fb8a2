/*
 * RESULT lines: one JSON object per command, on one line, for scripts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/result.h"

static void put(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct result *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, sizeof(r->buf) - r->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(r->buf) - r->len - 2) {
		r->overflow = true;
		return;
	}
	r->len += (size_t)n;
}

static void put_json_string(struct result *r, const char *s)
{
	put(r, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			put(r, "\\%c", c);
		else if (c == '\n')
			put(r, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			put(r, "\\u%04x", c);
		else
			put(r, "%c", c);
	}
	put(r, "\"");
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
