/*
 * The fio iolog parser (see bench/iolog.h for the grammar and the use).
 * Host-buildable and fuzzed (tests/host/fuzz_iolog.c): the log is
 * untrusted input, so every field is checked before it is used and every
 * refusal names its line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/iolog.h"

const char *const iolog_action_names[IOLOG_NR_ACTIONS] = {
	[IOLOG_ADD] = "add",	       [IOLOG_OPEN] = "open",	[IOLOG_CLOSE] = "close",
	[IOLOG_READ] = "read",	       [IOLOG_WRITE] = "write", [IOLOG_SYNC] = "sync",
	[IOLOG_DATASYNC] = "datasync", [IOLOG_TRIM] = "trim",	[IOLOG_WAIT] = "wait",
};

static const char ver2[] = "fio version 2 iolog";
static const char ver3[] = "fio version 3 iolog";

#define MAX_FIELDS 6 /* one more than version 3's longest line, to tell "too many" */

struct token {
	const char *s;
	size_t len;
};

unsigned int iolog_max_files(size_t len)
{
	/* the shortest add line is "f add\n" */
	return (unsigned int)min_t(size_t, len / 6 + 1, IOLOG_MAX_FILES);
}

unsigned int iolog_hash_slots(unsigned int max_files)
{
	unsigned int n = 16;

	while (n < 2 * max_files)
		n <<= 1;
	return n;
}

void iolog_init(struct iolog *log, struct iolog_file *files, unsigned int max_files, uint32_t *hash,
		unsigned int hash_slots)
{
	memset(log, 0, sizeof(*log));
	log->files = files;
	log->max_files = max_files;
	log->hash = hash;
	log->hash_mask = hash_slots - 1;
	memset(hash, 0, hash_slots * sizeof(*hash));
}

static int vfail(struct iolog *log, unsigned int line, const char *fmt, va_list ap)
{
	int n = 0;

	log->err_line = line;
	if (line)
		n = snprintf(log->err, sizeof(log->err), "line %u: ", line);
	vsnprintf(log->err + n, sizeof(log->err) - (size_t)n, fmt, ap);
	return -EINVAL;
}

/* An error at line @line. */
static int vfail_line(struct iolog *log, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int vfail_line(struct iolog *log, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vfail(log, line, fmt, ap);
	va_end(ap);
	return err;
}

/* An error at the line being read. */
static int fail(struct iolog *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct iolog *log, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vfail(log, log->lines, fmt, ap);
	va_end(ap);
	return err;
}

/* An error about the whole log. */
static int fail_log(struct iolog *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail_log(struct iolog *log, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vfail(log, 0, fmt, ap);
	va_end(ap);
	return err;
}

/* @t for a message: at most 40 bytes, anything not printable ASCII as '?'. */
static const char *show(char *buf, const struct token *t)
{
	size_t n = min_t(size_t, t->len, 40), i;

	for (i = 0; i < n; i++)
		buf[i] = t->s[i] >= 0x20 && t->s[i] < 0x7f ? t->s[i] : '?';
	if (n < t->len)
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* An unsigned decimal number, nothing else: -EINVAL, or -ERANGE above @max. */
static int parse_num(const struct token *t, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!t->len)
		return -EINVAL;
	for (size_t i = 0; i < t->len; i++) {
		unsigned int d = (unsigned int)(t->s[i] - '0');

		if (d > 9)
			return -EINVAL;
		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int number(struct iolog *log, const struct token *t, const char *what, uint64_t max,
		  uint64_t *out)
{
	char buf[48];
	int err = parse_num(t, max, out);

	if (err == -ERANGE)
		return fail(log, "%s %s is larger than %llu", what, show(buf, t),
			    (unsigned long long)max);
	if (err)
		return fail(log, "%s '%s' is not an unsigned decimal number", what, show(buf, t));
	return 0;
}

static uint32_t name_hash(const struct token *t)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < t->len; i++)
		h = (h ^ (uint8_t)t->s[i]) * 16777619u;
	return h;
}

/* The file named @t: its index, or -1; *@slot is where it would go. */
static int lookup(struct iolog *log, const struct token *t, uint32_t *slot)
{
	uint32_t i = name_hash(t) & log->hash_mask;

	for (;; i = (i + 1) & log->hash_mask) {
		uint32_t v = log->hash[i];
		const struct iolog_file *f;

		if (!v) {
			*slot = i;
			return -1;
		}
		f = &log->files[v - 1];
		if (f->len == t->len && !memcmp(f->name, t->s, t->len))
			return (int)(v - 1);
	}
}

static int add_file(struct iolog *log, const struct token *t)
{
	char buf[48];
	uint32_t slot;
	int i = lookup(log, t, &slot);
	struct iolog_file *f;

	if (i >= 0)
		return fail(log, "%s added twice (first at line %u)", show(buf, t),
			    log->files[i].add_line);
	if (log->nr_files == log->max_files)
		return fail(log, "more than %u files", log->max_files);
	f = &log->files[log->nr_files];
	memset(f, 0, sizeof(*f));
	f->name = t->s;
	f->len = (unsigned int)t->len;
	f->add_line = log->lines;
	log->hash[slot] = ++log->nr_files;
	return (int)(log->nr_files - 1);
}

static enum iolog_action action_of(const struct token *t)
{
	for (int a = 0; a < IOLOG_UNKNOWN; a++)
		if (strlen(iolog_action_names[a]) == t->len &&
		    !memcmp(iolog_action_names[a], t->s, t->len))
			return (enum iolog_action)a;
	return IOLOG_UNKNOWN;
}

/* The file an I/O or close names must have been added and be open. */
static int open_file(struct iolog *log, const struct token *t, enum iolog_action a)
{
	char buf[48];
	uint32_t slot;
	int i = lookup(log, t, &slot);

	if (i < 0)
		return fail(log, "%s of %s, a file never added", iolog_action_names[a],
			    show(buf, t));
	if (!log->files[i].open_line)
		return fail(log, "%s of %s, which is not open%s", iolog_action_names[a],
			    show(buf, t), log->files[i].opens ? " (it was closed)" : "");
	return i;
}

static int version_line(struct iolog *log, const char *s, size_t len)
{
	while (len && is_blank(s[len - 1]))
		len--;
	if (len == sizeof(ver2) - 1 && !memcmp(s, ver2, len))
		log->version = 2;
	else if (len == sizeof(ver3) - 1 && !memcmp(s, ver3, len))
		log->version = 3;
	else if (len >= 12 && !memcmp(s, "fio version ", 12))
		return fail(log, "only fio iolog versions 2 and 3 are supported");
	else
		return fail(log, "not a fio iolog: the first line must be '%s' or '%s'", ver2,
			    ver3);
	return 0;
}

static int action_line(struct iolog *log, struct token *tok, int n, iolog_op_fn fn, void *ctx)
{
	struct iolog_op op = {.line = log->lines, .file = -1};
	int base = log->version == 3, err;
	bool io_form = n == base + 4;
	char buf[48];
	uint64_t ts = 0;

	if (n != base + 2 && !io_form)
		return fail(log,
			    "%d fields; version %d takes %sFILE ACTION or %sFILE ACTION "
			    "OFFSET LENGTH",
			    n, log->version, base ? "TIME " : "", base ? "TIME " : "");
	if (base) {
		err = number(log, &tok[0], "timestamp", UINT64_MAX, &ts);
		if (err)
			return err;
		if (log->have_ts && ts < log->last_ts)
			return fail(log, "timestamp %llu is before the previous line's %llu",
				    (unsigned long long)ts, (unsigned long long)log->last_ts);
	}
	if (tok[base].len > IOLOG_NAME_MAX)
		return fail(log, "a file name longer than %d bytes", IOLOG_NAME_MAX);
	op.action = action_of(&tok[base + 1]);
	/*
	 * fio prints "bad iolog file action" and skips such a line. We refuse it:
	 * a misspelt action ("raed") would silently drop a read the application
	 * made, and the replay would measure another program than the one traced.
	 */
	if (op.action == IOLOG_UNKNOWN)
		return fail(log,
			    "unknown action '%s' (one of add, open, close, read, write, "
			    "sync, datasync, trim%s)",
			    show(buf, &tok[base + 1]), base ? "" : ", wait");
	if (op.action <= IOLOG_CLOSE && io_form)
		return fail(log, "%s takes no OFFSET LENGTH", iolog_action_names[op.action]);
	if (op.action > IOLOG_CLOSE && !io_form)
		return fail(log, "%s needs OFFSET LENGTH", iolog_action_names[op.action]);
	if (io_form) {
		err = number(log, &tok[base + 2], "offset", UINT64_MAX, &op.offset);
		if (!err)
			err = number(log, &tok[base + 3], "length", UINT32_MAX, &op.length);
		if (err)
			return err;
		if (op.action != IOLOG_WAIT && op.offset + op.length < op.offset)
			return fail(log, "offset %llu + length %llu is past 2^64",
				    (unsigned long long)op.offset, (unsigned long long)op.length);
	}
	switch (op.action) {
	case IOLOG_ADD:
		op.file = add_file(log, &tok[base]);
		break;
	case IOLOG_OPEN: {
		uint32_t slot;

		op.file = lookup(log, &tok[base], &slot);
		if (op.file < 0)
			return fail(log, "open of %s, a file never added", show(buf, &tok[base]));
		if (log->files[op.file].open_line)
			return fail(log, "%s opened twice (open since line %u)",
				    show(buf, &tok[base]), log->files[op.file].open_line);
		log->files[op.file].open_line = log->lines;
		log->files[op.file].opens++;
		break;
	}
	case IOLOG_CLOSE:
		op.file = open_file(log, &tok[base], op.action);
		if (op.file >= 0)
			log->files[op.file].open_line = 0;
		break;
	case IOLOG_READ:
	case IOLOG_WRITE:
	case IOLOG_SYNC:
	case IOLOG_DATASYNC:
	case IOLOG_TRIM:
		op.file = open_file(log, &tok[base], op.action);
		if (op.file >= 0 && op.action == IOLOG_READ) {
			struct iolog_file *f = &log->files[op.file];

			f->reads++;
			f->read_bytes += op.length;
			if (f->reads == 1 || op.offset > f->max_offset) {
				f->max_offset = op.offset;
				f->max_offset_line = log->lines;
			}
			f->max_end = max(f->max_end, op.offset + op.length);
		}
		break;
	case IOLOG_WAIT:
		if (base)
			return fail(log, "wait is not allowed in version 3 (its timestamps say "
					 "when)");
		if (log->wait_us + op.offset < log->wait_us)
			return fail(log, "the waits add up past 2^64 microseconds");
		log->wait_us += op.offset;
		break;
	default:
		break;
	}
	if (op.file < 0 && op.action <= IOLOG_TRIM)
		return -EINVAL; /* add_file() or open_file() said why */
	if (base) {
		op.ts_us = ts;
		op.gap_us = log->have_ts ? ts - log->last_ts : 0;
		if (!log->have_ts)
			log->first_ts = ts;
		log->have_ts = true;
		log->last_ts = ts;
	}
	log->count[op.action]++;
	return fn ? fn(ctx, log, &op) : 0;
}

static int one_line(struct iolog *log, const char *s, size_t len, iolog_op_fn fn, void *ctx)
{
	struct token tok[MAX_FIELDS];
	int n = 0;
	size_t i = 0;

	if (len >= IOLOG_LINE_MAX)
		return fail(log, "longer than %d bytes", IOLOG_LINE_MAX - 1);
	if (memchr(s, '\0', len))
		return fail(log, "a NUL byte: not a text file");
	if (!log->version)
		return version_line(log, s, len);
	while (i < len) {
		size_t start;

		while (i < len && is_blank(s[i]))
			i++;
		if (i == len)
			break;
		if (n == MAX_FIELDS)
			return fail(log, "more than %d fields", MAX_FIELDS);
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		tok[n].s = s + start;
		tok[n].len = i - start;
		n++;
	}
	if (!n)
		return 0; /* a blank line */
	return action_line(log, tok, n, fn, ctx);
}

int iolog_parse(struct iolog *log, const char *text, size_t len, iolog_op_fn fn, void *ctx)
{
	size_t pos = 0;
	int err;

	if (!len)
		return fail_log(log, "an empty log: no version line");
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		log->lines++;
		err = one_line(log, text + pos, end - pos, fn, ctx);
		if (err)
			return err;
		pos = end + 1;
	}
	if (!log->count[IOLOG_READ])
		return fail_log(log, "no reads: nothing to replay");
	return 0;
}

uint64_t iolog_duration_us(const struct iolog *log)
{
	if (log->version == 3)
		return log->have_ts ? log->last_ts - log->first_ts : 0;
	return log->wait_us;
}

int iolog_replay_check(struct iolog *log, const struct iolog_op *op, bool recorded)
{
	uint64_t pause_us = iolog_pause_us(op);

	if (recorded && pause_us > IOLOG_REPLAY_MAX_PAUSE_US)
		return vfail_line(
			log, op->line,
			"a pause of %llu s; timing=recorded keeps pauses of up to an hour "
			"(timing=asap drops them)",
			(unsigned long long)(pause_us / 1000000));
	return 0;
}
