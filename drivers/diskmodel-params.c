/*
 * The disk model's keys, with each key's unit, range and meaning, and what
 * is done with them (see drivers/diskmodel-params.h): a drive's rows looked
 * up and printed, a whole table checked into a struct dm_config, parameter
 * files parsed, and tables copied with one value set. The built-in drives'
 * tables are in drivers/diskmodel-drives.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/diskmodel-params.h"
#include "kernel/kv.h"
#include "kernel/log.h"
#include "mm/mm.h"

/* --- the keys ------------------------------------------------------------------ */

/* Which keys stand in for which: a drive gives one side of each choice. */
enum dm_group {
	G_NONE,
	G_RATE,
	G_RATE_AT,
	G_SEEK,
	G_SEEK_AT,
	G_SEEK_SHAPE,
	G_OVH,
	G_OVH_RANDOM,
	G_CHECK
};

struct dm_key {
	const char *key;
	const char *unit;
	double min, max;
	bool integer, tabled;
	enum dm_group group;
	const char *help;
};

/* clang-format off */
static const struct dm_key dm_keys[] = {
	{"capacity", "sectors", 2048, 281474976710655.0, true, false, G_NONE,
	 "the drive's size in 512-byte sectors"},
	{"rpm", "rev/min", 1000, 30000, false, false, G_NONE, "spindle speed"},
	{"heads", "surfaces", 1, 64, true, false, G_NONE, "recording surfaces"},
	{"zones", "zones", 1, 64, true, false, G_NONE, "recording zones, of equal radial width"},
	{"track_switch", "ms", 0, 20, false, false, G_NONE,
	 "head or cylinder switch during a transfer (and the track skew)"},
	{"rate_outer", "MB/s", 1, 10000, false, false, G_RATE, "sustained rate of zone 0"},
	{"rate_inner", "MB/s", 1, 10000, false, false, G_RATE, "sustained rate of the last zone"},
	{"rate_at", "MB/s", 1, 10000, false, true, G_RATE_AT,
	 "sustained rate at a fraction of the capacity (tabled: AT VALUE)"},
	{"seek_single", "ms", 0.01, 100, false, false, G_SEEK, "single-cylinder seek"},
	{"seek_average", "ms", 0.01, 100, false, false, G_SEEK,
	 "average seek (weighted over all seek lengths)"},
	{"seek_full", "ms", 0.01, 100, false, false, G_SEEK, "full-stroke seek"},
	{"seek_at", "ms", 0.01, 100, false, true, G_SEEK_AT,
	 "seek over a fraction of the stroke (tabled: AT VALUE)"},
	{"seek_shape", "ms", 0.01, 100, false, true, G_SEEK_SHAPE,
	 "a measured drive's seek over a fraction of its stroke (tabled: AT VALUE; the first row "
	 "its one-cylinder seek): the curve's shape, scaled to seek_single, seek_average and "
	 "seek_full"},
	{"overhead", "ms", 0, 100, false, false, G_OVH, "command overhead"},
	{"random_4096", "s", 1, 1000000, false, false, G_OVH_RANDOM,
	 "4096 random single-sector reads, typical (the overhead is solved from it)"},
	{"seq_16m_zone0", "s", 0.001, 1000, false, false, G_CHECK,
	 "16 MiB in 128 commands, zone 0 (a check, not used by the model)"},
	{"seq_16m_zone29", "s", 0.001, 1000, false, false, G_CHECK,
	 "16 MiB in 128 commands, zone 29 (a check, not used by the model)"},
	{"buffer", "KiB", 64, 1048576, true, false, G_NONE, "the drive's buffer"},
	{"segments", "segments", 1, 64, true, false, G_NONE,
	 "buffer segments (each buffer/segments; a read's look-ahead fills its segment)"},
	{"lookahead", "bool", 0, 1, true, false, G_NONE,
	 "1: after a read the drive reads on into its segment (read look-ahead)"},
	{"lookbehind", "bool", 0, 1, true, false, G_NONE,
	 "1: sectors before a read's start that pass under the head are kept (DiskSim's "
	 "'Read any free blocks')"},
	{"zero_latency", "bool", 0, 1, true, false, G_NONE,
	 "1: a read whose head lands inside its range starts there (DiskSim's 'Immediate "
	 "buffer read')"},
	{"min_readahead", "KiB", 0, 1048576, true, false, G_NONE,
	 "read ahead at least this much before another command may move the head; 0: "
	 "stop for any command off the current track"},
	{"bus_rate", "MB/s", 1, 100000, false, false, G_NONE, "buffer-host transfer rate"},
	{"ncq_depth", "commands", 1, 32, true, false, G_NONE, "NCQ queue depth"},
	{"ncq_aging", "ms", 1, 1000000, false, false, G_NONE,
	 "the longest shortest-positioning-first passes a queued command over"},
};
/* clang-format on */

#define NR_KEYS ((int)(sizeof(dm_keys) / sizeof(dm_keys[0])))

static const struct dm_key *key_of(const char *key)
{
	for (int i = 0; i < NR_KEYS; i++)
		if (!strcmp(dm_keys[i].key, key))
			return &dm_keys[i];
	return NULL;
}

/* A key whose unit is a time (ms, s): it takes its value in any time unit too. */
static bool time_key(const struct dm_key *k)
{
	return kv_time_unit_named(k->unit) != 0;
}

/*
 * @num @unit (a number and a time unit: "8500" "us") as a value of the time
 * key @k, in its own unit: kernel/kv.c's kv_parse_time(), exact to the
 * nanosecond. False if it is not such a time.
 */
static bool time_value(const struct dm_key *k, const char *num, const char *unit, double *v)
{
	uint64_t own = kv_time_unit_named(k->unit), ns;
	char buf[64];

	if (!own || !kv_time_unit_named(unit) ||
	    snprintf(buf, sizeof(buf), "%s%s", num, unit) >= (int)sizeof(buf) ||
	    kv_parse_time(buf, own, &ns))
		return false;
	*v = (double)ns / (double)own;
	return true;
}

bool dm_key_value(const char *key, const char *text, double *v)
{
	const struct dm_key *k = key_of(key);
	size_t n = strlen(text), l = 0;
	char num[64];
	char *end;

	/* a time key's value with a unit: the longest time unit the text ends in */
	for (size_t i = 1; k && time_key(k) && i <= 3 && i < n; i++)
		if (kv_time_unit_named(text + n - i))
			l = i;
	if (l && n - l < sizeof(num)) {
		memcpy(num, text, n - l);
		num[n - l] = 0;
		return time_value(k, num, text + n - l, v);
	}
	*v = strtod(text, &end);
	return *text && !*end;
}

/* "rpm (rev/min, 1000..30000: spindle speed)" */
static void describe_key(char *buf, size_t len, const struct dm_key *k)
{
	snprintf(buf, len, "%s%s (%s, %g..%g%s: %s)", k->key, k->tabled ? " AT" : "", k->unit,
		 k->min, k->max, k->integer ? ", whole" : "", k->help);
}

/* --- a drive's rows --------------------------------------------------------------- */

static const struct dm_param *find_row(const struct dm_drive *d, const char *key)
{
	for (int i = 0; i < d->nr_params; i++)
		if (!strcmp(d->params[i].key, key))
			return &d->params[i];
	return NULL;
}

double dm_param(const struct dm_drive *drive, const char *key)
{
	const struct dm_param *p = find_row(drive, key);

	if (!p)
		panic("diskmodel: drive %s has no parameter %s", drive->name, key);
	return p->value;
}

int dm_format_param(char *buf, size_t len, const struct dm_param *p)
{
	const struct dm_key *k = key_of(p->key);
	char at[24] = "";

	if (k && k->tabled)
		snprintf(at, sizeof(at), "%.10g ", p->at);
	return snprintf(buf, len, "%-14s %s%.10g %s %s", p->key, at, p->value, p->unit,
			p->source ? p->source : "");
}

/* --- checking a table ------------------------------------------------------------- */

struct dm_err {
	char *buf;
	size_t len;
};

/* One message naming @key and what it accepts; returns -EINVAL. */
static int check_fail(struct dm_err *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int check_fail(struct dm_err *e, const char *key, const char *fmt, ...)
{
	const struct dm_key *k = key_of(key);
	char what[256] = "";
	va_list ap;
	int o;

	if (k)
		describe_key(what, sizeof(what), k);
	va_start(ap, fmt);
	o = vsnprintf(e->buf, e->len, fmt, ap);
	va_end(ap);
	if (k && o >= 0 && (size_t)o < e->len)
		snprintf(e->buf + o, e->len - o, ": %s", what);
	return -EINVAL;
}

/* Tabled rows of @key into @at/@v: increasing positions in [0, 1], from 0 when @from_zero. */
static int tabled(struct dm_err *e, const struct dm_drive *d, const char *key, double *at,
		  double *v, int *n, bool from_zero)
{
	*n = 0;
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];

		if (strcmp(p->key, key))
			continue;
		if (*n == DM_MAX_POINTS)
			return check_fail(e, key, "more than %d '%s' rows", DM_MAX_POINTS, key);
		if (!(p->at >= 0 && p->at <= 1) || (*n && p->at <= at[*n - 1]) ||
		    (from_zero && !*n && p->at != 0) || (!from_zero && p->at <= 0))
			return check_fail(
				e, key, "'%s' rows need increasing positions in %s (row at %g)",
				key, from_zero ? "[0, 1], the first at 0" : "(0, 1]", p->at);
		at[*n] = p->at;
		v[*n] = p->value;
		(*n)++;
	}
	return 0;
}

static int config_check(const struct dm_drive *d, struct dm_config *c, struct dm_err *e)
{
	bool have[G_CHECK + 1] = {false};

	memset(c, 0, sizeof(*c));
	c->overhead_ms = c->random_4096_s = -1;
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];
		const struct dm_key *k = key_of(p->key);

		if (!k)
			return check_fail(e, p->key, "unknown key '%s'", p->key);
		if (!(p->value >= k->min && p->value <= k->max) ||
		    (k->integer && p->value != floor(p->value)))
			return check_fail(e, p->key, "%s %g is out of range", p->key, p->value);
		have[k->group] = true;
	}
	/* every plain key once, and one side of each choice */
	for (int i = 0; i < NR_KEYS; i++) {
		const struct dm_key *k = &dm_keys[i];
		int n = 0;

		for (int j = 0; j < d->nr_params; j++)
			n += !strcmp(d->params[j].key, k->key);
		if (n > 1 && !k->tabled)
			return check_fail(e, k->key, "'%s' is given twice", k->key);
		if (n == 0 && (k->group == G_NONE || (k->group == G_RATE && !have[G_RATE_AT]) ||
			       (k->group == G_SEEK && !have[G_SEEK_AT]) ||
			       (k->group == G_OVH && !have[G_OVH_RANDOM])))
			return check_fail(e, k->key, "missing key '%s'", k->key);
	}
	if (have[G_RATE] && have[G_RATE_AT])
		return check_fail(e, "rate_at",
				  "give rate_outer and rate_inner or rate_at rows, "
				  "not both");
	if (have[G_SEEK] && have[G_SEEK_AT])
		return check_fail(e, "seek_at",
				  "give seek_single, seek_average and seek_full or "
				  "seek_at rows, not both");
	if (have[G_SEEK_SHAPE] && !have[G_SEEK])
		return check_fail(e, "seek_shape",
				  "seek_shape rows are scaled to seek_single, seek_average "
				  "and seek_full: give those three");
	if (have[G_OVH] && have[G_OVH_RANDOM])
		return check_fail(e, "overhead", "give overhead or random_4096, not both");
	c->capacity = (uint64_t)dm_param(d, "capacity");
	c->rpm = dm_param(d, "rpm");
	c->heads = (uint32_t)dm_param(d, "heads");
	c->zones = (uint32_t)dm_param(d, "zones");
	c->track_switch_ms = dm_param(d, "track_switch");
	if (have[G_RATE]) {
		c->rate_outer = dm_param(d, "rate_outer");
		c->rate_inner = dm_param(d, "rate_inner");
	} else {
		if (tabled(e, d, "rate_at", c->rate_at, c->rate_mbps, &c->nr_rate_at, true))
			return -EINVAL;
		if (c->nr_rate_at < 2)
			return check_fail(e, "rate_at", "rate_at needs two rows or more");
	}
	if (have[G_SEEK]) {
		c->seek_single = dm_param(d, "seek_single");
		c->seek_average = dm_param(d, "seek_average");
		c->seek_full = dm_param(d, "seek_full");
		if (!(c->seek_single < c->seek_average && c->seek_average < c->seek_full))
			return check_fail(e, "seek_average",
					  "want seek_single < seek_average < seek_full");
		if (tabled(e, d, "seek_shape", c->seek_shape_at, c->seek_shape_ms,
			   &c->nr_seek_shape, false))
			return -EINVAL;
		if (have[G_SEEK_SHAPE] && c->nr_seek_shape < DM_SHAPE_MIN_ROWS)
			return check_fail(e, "seek_shape", "seek_shape needs %d rows or more",
					  DM_SHAPE_MIN_ROWS);
	} else {
		if (tabled(e, d, "seek_at", c->seek_at, c->seek_ms, &c->nr_seek_at, false))
			return -EINVAL;
		if (c->nr_seek_at < 2 || c->seek_at[c->nr_seek_at - 1] != 1)
			return check_fail(e, "seek_at",
					  "seek_at needs two rows or more, the last "
					  "at 1 (the full stroke)");
	}
	if (have[G_OVH])
		c->overhead_ms = dm_param(d, "overhead");
	else
		c->random_4096_s = dm_param(d, "random_4096");
	c->buffer_kb = (uint32_t)dm_param(d, "buffer");
	c->segments = (uint32_t)dm_param(d, "segments");
	c->lookahead = dm_param(d, "lookahead") != 0;
	c->lookbehind = dm_param(d, "lookbehind") != 0;
	c->zero_latency = dm_param(d, "zero_latency") != 0;
	c->min_readahead_kb = (uint32_t)dm_param(d, "min_readahead");
	c->bus_rate = dm_param(d, "bus_rate");
	c->ncq_depth = (uint32_t)dm_param(d, "ncq_depth");
	c->ncq_aging_ms = dm_param(d, "ncq_aging");
	if (c->buffer_kb / c->segments < 4)
		return check_fail(e, "segments", "a segment (buffer/segments) under 4 KiB");
	if (c->min_readahead_kb > c->buffer_kb / c->segments)
		return check_fail(e, "min_readahead",
				  "min_readahead is more than a segment "
				  "(buffer/segments = %u KiB)",
				  c->buffer_kb / c->segments);
	return 0;
}

int dm_config_of(const struct dm_drive *d, struct dm_config *c)
{
	char msg[384];
	struct dm_err e = {msg, sizeof(msg)};

	if (!config_check(d, c, &e))
		return 0;
	pr_err("diskmodel: %s: %s\n", d->name, msg);
	return -EINVAL;
}

/* --- parameter files --------------------------------------------------------------- */

#define DM_FILE_MAX 65536
#define DM_LINE_MAX 512
#define DM_ROWS_MAX (NR_KEYS + 3 * DM_MAX_POINTS) /* three tabled keys */

/* One allocation: the drive, its rows and a copy of the text the strings point into. */
struct dm_parsed {
	struct dm_drive drive;
	struct dm_param rows[DM_ROWS_MAX];
	char text[];
};

/* A whole number or a finite decimal; *end gets where it stopped. */
static bool parse_number(const char *s, double *v)
{
	char *end;

	if (!*s || strlen(s) > 40 || strpbrk(s, "xXpPnNiI"))
		return false; /* no hex floats, inf or nan */
	*v = strtod(s, &end);
	return *end == 0 && isfinite(*v);
}

/* The next space-separated word of *@p (NUL-terminated in place), or NULL. */
static char *next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = 0;
	*p = s;
	return w;
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* A parameter file being parsed: its name and line for the messages, where they go. */
struct dm_parse {
	const char *fname;
	char *err;
	size_t errlen;
	int lineno;
};

/* Write "diskmodel: FILE: " and the message into the error buffer; returns -1. */
static int __attribute__((format(printf, 2, 3))) parse_fail(struct dm_parse *ps,
							    const char *fmt, ...)
{
	int o = snprintf(ps->err, ps->errlen, "diskmodel: %s: ", ps->fname);
	va_list ap;

	if (o > 0 && (size_t)o < ps->errlen) {
		va_start(ap, fmt);
		vsnprintf(ps->err + o, ps->errlen - o, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The file as a whole before its lines: not too long, and text. 0, or -1 with the error. */
static int check_file(struct dm_parse *ps, const char *text, size_t len)
{
	const char *z;
	int at = 1;

	if (len > DM_FILE_MAX) {
		snprintf(ps->err, ps->errlen,
			 "diskmodel: %s: %zu bytes, more than a parameter file's %u", ps->fname,
			 len, DM_FILE_MAX);
		return -1;
	}
	z = memchr(text, 0, len);
	if (!z)
		return 0;
	for (const char *q = text; q < z; q++)
		at += *q == '\n';
	snprintf(ps->err, ps->errlen,
		 "diskmodel: %s: line %d: a NUL byte; a parameter file is text", ps->fname, at);
	return -1;
}

/* A 'name' or 'desc' line: @key and the rest of the line @p, its text. */
static int parse_text_key(struct dm_parse *ps, struct dm_parsed *pd, const char *key, char *p)
{
	char *v = trim(p);

	if (!*v)
		return parse_fail(ps, "line %d: '%s' needs a text\n", ps->lineno, key);
	if (strcmp(key, "name")) {
		if (pd->drive.desc)
			return parse_fail(ps, "line %d: a second 'desc' line\n", ps->lineno);
		pd->drive.desc = v;
		return 0;
	}
	if (pd->drive.name)
		return parse_fail(ps, "line %d: a second 'name' line\n", ps->lineno);
	if (strlen(v) > 40 || strpbrk(v, " \t\"'"))
		return parse_fail(ps, "line %d: name '%s': one word of up to 40 characters\n",
				  ps->lineno, v);
	pd->drive.name = v;
	return 0;
}

/* A key that is none of the model's: the error lists the ones there are. */
static int unknown_key(struct dm_parse *ps, const char *key)
{
	char what[256];
	int o = 0;

	for (int i = 0; i < NR_KEYS && o < (int)sizeof(what) - 20; i++)
		o += snprintf(what + o, sizeof(what) - o, "%s%s", i ? " " : "", dm_keys[i].key);
	return parse_fail(ps, "line %d: unknown key '%s' (known: name desc %s)\n", ps->lineno,
			  key, what);
}

/*
 * The rest @p of a line of key @k (named @key as written) into row @r: a
 * tabled key's position, the value and its unit, which for a time may be
 * another time unit (us, ms, s, ...: kernel/kv.c's), converted into the
 * key's own; what remains is the row's source.
 */
static int parse_row(struct dm_parse *ps, const struct dm_key *k, const char *key, char *p,
		     struct dm_param *r)
{
	int lineno = ps->lineno;
	char what[256], *w, *u;

	describe_key(what, sizeof(what), k);
	r->key = k->key;
	if (k->tabled) {
		w = next_word(&p);
		if (!w || !parse_number(w, &r->at))
			return parse_fail(ps, "line %d: '%s' wants a position then a value: %s\n",
					  lineno, key, what);
		if (!(r->at >= 0 && r->at <= 1))
			return parse_fail(ps, "line %d: %s position %s is outside 0..1: %s\n",
					  lineno, key, w, what);
	}
	w = next_word(&p);
	if (!w || !parse_number(w, &r->value))
		return parse_fail(ps, "line %d: '%s' wants a number%s: %s\n", lineno, key,
				  w ? "" : " (none given)", what);
	u = next_word(&p);
	/* a time in another unit (kernel/kv.c's parser), in the key's own */
	if (u && strcmp(u, k->unit) && time_key(k) && kv_time_unit_named(u) &&
	    !time_value(k, w, u, &r->value))
		return parse_fail(ps, "line %d: %s %s %s is not a decimal time of whole "
				  "nanoseconds: %s\n", lineno, key, w, u, what);
	if (!(r->value >= k->min && r->value <= k->max) ||
	    (k->integer && r->value != floor(r->value)))
		return parse_fail(ps, "line %d: %s %s%s%s is out of range: %s\n", lineno, key, w,
				  u && time_key(k) && kv_time_unit_named(u) ? " " : "",
				  u && time_key(k) && kv_time_unit_named(u) ? u : "", what);
	if (!u || (strcmp(u, k->unit) && !(time_key(k) && kv_time_unit_named(u))))
		return parse_fail(ps, "line %d: '%s' is in %s%s, not '%s': %s\n", lineno, key,
				  k->unit,
				  time_key(k) ? " (or another time unit: ns, us, ms, s, min)" : "",
				  u ? u : "(no unit)", what);
	r->unit = k->unit;
	r->source = *trim(p) ? trim(p) : "(file)";
	return 0;
}

/* Line @s of the file (NUL-terminated) into @pd, the next row at pd->rows[*@n]. */
static int parse_line(struct dm_parse *ps, struct dm_parsed *pd, char *s, int *n)
{
	const struct dm_key *k;
	char *p, *key;

	if (strlen(s) > DM_LINE_MAX)
		return parse_fail(ps, "line %d: longer than %d characters\n", ps->lineno,
				  DM_LINE_MAX);
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\r')
			return parse_fail(ps, "line %d: a control character (%#x); a parameter "
					  "file is text\n", ps->lineno, (unsigned char)*p);
	p = s;
	key = next_word(&p);
	if (!key || key[0] == '#')
		return 0;
	if (!strcmp(key, "name") || !strcmp(key, "desc"))
		return parse_text_key(ps, pd, key, p);
	k = key_of(key);
	if (!k)
		return unknown_key(ps, key);
	if (*n == DM_ROWS_MAX)
		return parse_fail(ps, "line %d: more than %d rows\n", ps->lineno, DM_ROWS_MAX);
	if (parse_row(ps, k, key, p, &pd->rows[*n]))
		return -1;
	for (int i = 0; i < *n && !k->tabled; i++)
		if (pd->rows[i].key == k->key)
			return parse_fail(ps, "line %d: '%s' again (first given on an earlier "
					  "line)\n", ps->lineno, key);
	(*n)++;
	return 0;
}

/* The whole-table checks once every line is read: missing keys, choices, tabled rows. */
static int check_table(struct dm_parse *ps, struct dm_parsed *pd)
{
	struct dm_config *c = kmalloc(sizeof(*c));
	char msg[384];
	struct dm_err e = {msg, sizeof(msg)};
	int bad;

	if (!c)
		return parse_fail(ps, "out of memory checking the table\n");
	bad = config_check(&pd->drive, c, &e);
	kfree(c);
	if (bad)
		return parse_fail(ps, "line %d (the end of the file): %s\n", ps->lineno, msg);
	return 0;
}

struct dm_drive *dm_parse_params(const char *fname, const char *text, size_t len, char *err,
				 size_t errlen)
{
	struct dm_parse ps = {fname, err, errlen, 0};
	struct dm_parsed *pd;
	char *s, *line;
	int n = 0;

	if (check_file(&ps, text, len))
		return NULL;
	pd = kzalloc(sizeof(*pd) + len + 1);
	if (!pd) {
		snprintf(err, errlen, "diskmodel: %s: out of memory for the parameter table",
			 fname);
		return NULL;
	}
	memcpy(pd->text, text, len);
	pd->text[len] = 0;
	pd->drive.params = pd->rows;
	for (s = pd->text; s && *s; s = line) {
		char *eol = strchr(s, '\n');

		ps.lineno++;
		line = eol ? eol + 1 : NULL;
		if (eol)
			*eol = 0;
		if (parse_line(&ps, pd, s, &n))
			goto fail;
	}
	pd->drive.nr_params = n;
	if (!pd->drive.name)
		pd->drive.name = "file";
	if (!pd->drive.desc)
		pd->drive.desc = fname;
	if (check_table(&ps, pd))
		goto fail;
	return &pd->drive;
fail:
	kfree(pd);
	return NULL;
}

void dm_drive_free(struct dm_drive *d)
{
	kfree(d);
}

/*
 * A deep copy of @d in one allocation (freed by dm_drive_free), with the
 * scalar row @set (if not NULL) given @value.
 */
static struct dm_drive *drive_copy(const struct dm_drive *d, const struct dm_param *set,
				   double value)
{
	size_t strs = strlen(d->name) + strlen(d->desc) + 2, size;
	struct dm_drive *c;
	struct dm_param *rows;
	const char *src;
	char *at, note[96];

	snprintf(note, sizeof(note),
		 "set by the diskmodel command (the table says %.10g): ", set ? set->value : 0.0);
	for (int i = 0; i < d->nr_params; i++)
		strs += strlen(d->params[i].source ? d->params[i].source : "") + 1;
	strs += strlen(note);
	size = sizeof(*c) + (size_t)d->nr_params * sizeof(*rows) + strs;
	c = kzalloc(size);
	if (!c)
		return NULL;
	rows = (struct dm_param *)(c + 1);
	at = (char *)(rows + d->nr_params);
	c->name = at;
	at = stpcpy(at, d->name) + 1;
	c->desc = at;
	at = stpcpy(at, d->desc) + 1;
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];
		const struct dm_key *k = key_of(p->key);

		rows[i] = *p;
		rows[i].key = k ? k->key : "?";
		rows[i].unit = k ? k->unit : "?";
		rows[i].source = at;
		src = p->source ? p->source : "";
		if (p == set) {
			/* set again: the first note already says what the table said */
			rows[i].value = value;
			if (strncmp(src, note, strlen("set by the diskmodel command (")))
				at = stpcpy(at, note);
		}
		at = stpcpy(at, src) + 1;
	}
	c->params = rows;
	c->nr_params = d->nr_params;
	return c;
}

struct dm_drive *dm_drive_dup(const struct dm_drive *d)
{
	return drive_copy(d, NULL, 0);
}

struct dm_drive *dm_drive_set(const struct dm_drive *d, const char *key, double value, char *err,
			      size_t errlen)
{
	const struct dm_key *k = key_of(key);
	const struct dm_param *p = find_row(d, key);
	struct dm_drive *c;
	char what[256];

	if (!k || k->tabled || !p) {
		snprintf(err, errlen, "diskmodel: %s: no scalar parameter '%s' to set", d->name,
			 key);
		return NULL;
	}
	describe_key(what, sizeof(what), k);
	if (!(value >= k->min && value <= k->max) || (k->integer && value != floor(value))) {
		snprintf(err, errlen, "diskmodel: %s=%g is out of range: %s", key, value, what);
		return NULL;
	}
	c = drive_copy(d, p, value);
	if (!c)
		snprintf(err, errlen, "diskmodel: out of memory for a copy of the table");
	return c;
}
