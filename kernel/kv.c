/*
 * key=value words: splitting with double quotes, typed value parsing and
 * checking against a spec. Shared by the command line and the shell. Every
 * key that is a time takes units (kv_parse_time()), as sizes take K/M/G.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kv.h"

int kv_parse_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -EINVAL;
	}
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -ERANGE;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

int kv_parse_size(const char *s, uint64_t *out)
{
	char num[32];
	size_t n;
	unsigned int shift = 0;
	uint64_t v;

	if (!s || !*s)
		return -EINVAL;
	n = strlen(s);
	switch (s[n - 1]) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	}
	if (shift)
		n--;
	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = 0;
	if (kv_parse_uint(num, &v))
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int kv_parse_bool(const char *s, uint64_t *out)
{
	static const char *const yes[] = { "1", "yes", "on", "true" };
	static const char *const no[] = { "0", "no", "off", "false" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcmp(s, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcmp(s, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static const struct {
	const char *name;
	uint64_t ns;
} time_units[] = {
	[KV_TIME_NS - KV_TIME_NS] = {"ns", 1},
	[KV_TIME_US - KV_TIME_NS] = {"us", 1000},
	[KV_TIME_MS - KV_TIME_NS] = {"ms", 1000000},
	[KV_TIME_S - KV_TIME_NS] = {"s", 1000000000},
	[KV_TIME_MIN - KV_TIME_NS] = {"min", 60000000000ULL},
};

uint64_t kv_time_unit_ns(enum kv_type type)
{
	return type >= KV_TIME_NS && type <= KV_TIME_MIN ? time_units[type - KV_TIME_NS].ns : 0;
}

const char *kv_time_unit_name(enum kv_type type)
{
	return type >= KV_TIME_NS && type <= KV_TIME_MIN ? time_units[type - KV_TIME_NS].name
							  : NULL;
}

uint64_t kv_time_unit_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(time_units); i++)
		if (!strcmp(name, time_units[i].name))
			return time_units[i].ns;
	return 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

int kv_parse_time(const char *s, uint64_t unit_ns, uint64_t *ns)
{
	uint64_t m = 0, p = 1, g, v, unit = 0;
	size_t n, len = 0, digits = 0;
	bool dot = false;

	if (!s || !*s || !unit_ns)
		return -EINVAL;
	n = strlen(s);
	/* the unit: the longest name the text ends in ("ms", not "s") */
	for (size_t i = 0; i < ARRAY_SIZE(time_units); i++) {
		size_t l = strlen(time_units[i].name);

		if (n > l && l > len && !strcmp(s + n - l, time_units[i].name)) {
			unit = time_units[i].ns;
			len = l;
		}
	}
	if (!unit) {
		/* a plain number: the key's own unit, read as before there were units */
		if (kv_parse_uint(s, &v))
			return -EINVAL;
		if (v && unit_ns > UINT64_MAX / v)
			return -ERANGE;
		*ns = v * unit_ns;
		return 0;
	}
	/* with a unit: digits with at most one '.' (2, 2.5, .5, 2.) */
	for (const char *q = s; q < s + n - len; q++) {
		if (*q == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*q < '0' || *q > '9')
			return -EINVAL;
		if (m > (UINT64_MAX - (uint64_t)(*q - '0')) / 10 || (dot && p > UINT64_MAX / 10))
			return -ERANGE;
		m = m * 10 + (uint64_t)(*q - '0');
		if (dot)
			p *= 10;
		digits++;
	}
	if (!digits)
		return -EINVAL;
	/* m / p units, exactly: (m / (p / g)) * (unit / g), g = gcd(unit, p) */
	g = gcd64(unit, p);
	if (m % (p / g))
		return -EINVAL; /* a fraction of a nanosecond */
	v = m / (p / g);
	if (v && unit / g > UINT64_MAX / v)
		return -ERANGE;
	*ns = v * (unit / g);
	return 0;
}

int kv_split(char *line, char **words, int max, const char **err)
{
	char *r = line, *w = line;
	int n = 0;

	for (;;) {
		bool quoted = false, started = false;

		while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
			r++;
		if (!*r)
			break;
		if (n == max) {
			*err = "too many words";
			return -EINVAL;
		}
		words[n] = w;
		while (*r && (quoted || (*r != ' ' && *r != '\t' && *r != '\n' && *r != '\r'))) {
			if (*r == '"') {
				quoted = !quoted;
				r++;
				started = true;
				continue;
			}
			*w++ = *r++;
			started = true;
		}
		if (quoted) {
			*err = "unterminated double quote";
			return -EINVAL;
		}
		(void)started;
		if (*r)
			r++;
		*w++ = 0;
		n++;
	}
	return n;
}

static const char *const *spec_choices(const struct kv_spec *spec)
{
	static const char *const none[] = { NULL };

	if (spec->choices_fn)
		return spec->choices_fn();
	return spec->choices ? spec->choices : none;
}

void kv_describe(const struct kv_spec *spec, char *buf, size_t len)
{
	const char *const *choices = spec_choices(spec);

	size_t n;

	switch (spec->type) {
	case KV_STRING:
		snprintf(buf, len, "a string");
		break;
	case KV_UINT:
		snprintf(buf, len, "an unsigned integer");
		break;
	case KV_SIZE:
		snprintf(buf, len, "a size such as 4096, 64K, 128M or 2G");
		break;
	case KV_BOOL:
		snprintf(buf, len, "one of 0|1|yes|no|on|off|true|false");
		break;
	case KV_TIME_NS:
	case KV_TIME_US:
	case KV_TIME_MS:
	case KV_TIME_S:
	case KV_TIME_MIN:
		snprintf(buf, len, "a time in whole %s: N (%s) or N with a unit ns|us|ms|s|min "
			 "such as 250us, 20ms or 1.5s",
			 kv_time_unit_name(spec->type), kv_time_unit_name(spec->type));
		break;
	case KV_ENUM:
		n = (size_t)snprintf(buf, len, "one of ");
		for (int i = 0; choices[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", choices[i]);
		break;
	}
}

static int parse_value(const struct kv_spec *spec, const char *raw, struct kv_value *v)
{
	v->spec = spec;
	v->raw = raw;
	v->s = raw;
	switch (spec->type) {
	case KV_STRING:
		return 0;
	case KV_UINT:
		return kv_parse_uint(raw, &v->u);
	case KV_SIZE:
		return kv_parse_size(raw, &v->u);
	case KV_BOOL:
		return kv_parse_bool(raw, &v->u);
	case KV_TIME_NS:
	case KV_TIME_US:
	case KV_TIME_MS:
	case KV_TIME_S:
	case KV_TIME_MIN: {
		uint64_t ns, unit = kv_time_unit_ns(spec->type);

		if (kv_parse_time(raw, unit, &ns) || ns % unit)
			return -EINVAL;
		v->u = ns / unit;
		return 0;
	}
	case KV_ENUM:
		for (int i = 0; spec_choices(spec)[i]; i++) {
			if (strcmp(raw, spec_choices(spec)[i]) == 0) {
				v->u = (uint64_t)i;
				return 0;
			}
		}
		return -EINVAL;
	}
	return -EINVAL;
}

int kv_parse(char **words, int nwords, const struct kv_spec *specs, int n,
	     struct kv_value *vals, const char **positional, char *err, size_t errlen)
{
	char what[160];

	for (int i = 0; i < n; i++)
		vals[i] = (struct kv_value){ .spec = &specs[i] };
	if (positional)
		*positional = NULL;
	for (int w = 0; w < nwords; w++) {
		char *eq = strchr(words[w], '=');
		int i;

		if (!eq) {
			if (positional && !*positional) {
				*positional = words[w];
				continue;
			}
			snprintf(err, errlen, "'%s' is not key=value", words[w]);
			return -EINVAL;
		}
		*eq = 0;
		for (i = 0; i < n; i++)
			if (strcmp(specs[i].key, words[w]) == 0)
				break;
		if (i == n) {
			size_t len = (size_t)snprintf(err, errlen, "unknown key '%s'; known keys:",
						      words[w]);
			for (int k = 0; k < n && len < errlen; k++)
				len += (size_t)snprintf(err + len, errlen - len, " %s", specs[k].key);
			*eq = '=';
			return -EINVAL;
		}
		if (parse_value(&specs[i], eq + 1, &vals[i])) {
			kv_describe(&specs[i], what, sizeof(what));
			snprintf(err, errlen, "bad value '%s' for key '%s': expected %s", eq + 1,
				 specs[i].key, what);
			*eq = '=';
			return -EINVAL;
		}
		vals[i].present = true;
		*eq = '=';
	}
	return 0;
}
