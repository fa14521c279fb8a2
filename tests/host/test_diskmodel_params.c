/*
 * Parameter files (drivers/diskmodel-params.c), untrusted input a user
 * carries from another machine: the built-in table printed and read back
 * gives the same model, command for command; a tabled (probed-style) file
 * builds; and every bad file is refused with one message naming its line
 * and what the key accepts.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel-params.h"
#include "drivers/diskmodel.h"
#include "kernel/ktest.h"
#include "kernel/prandom.h"
#include "mm/mm.h"

static const char *params_ready(void)
{
	if (!mm_ready() && mm_host_init(64ULL << 20) < 0)
		return "cannot set up a host memory arena";
	return NULL;
}

/* The built-in drive as a parameter file, as `diskmodel` prints it. */
static size_t builtin_file(char *buf, size_t len)
{
	const struct dm_drive *d = dm_find_drive("hitachi-t7k250");
	size_t at = (size_t)snprintf(buf, len, "# printed by the test\nname %s\ndesc %s\n", d->name,
				     d->desc);

	for (int i = 0; i < d->nr_params && at < len; i++) {
		at += (size_t)dm_format_param(buf + at, len - at, &d->params[i]);
		at += (size_t)snprintf(buf + at, len - at, "\n");
	}
	return at;
}

/* A signature of a model's answers to a fixed mix of commands. */
static uint64_t signature(struct disk_model *m)
{
	uint64_t sig = 0, now = 0, x = 12345;

	for (int i = 0; i < 300; i++) {
		struct dm_completion c;

		prandom_u64(&x);
		if (dm_submit(m, i % 4, DM_READ,
			      i % 3 ? x % 300000000 : 1000000 + 128 * (uint64_t)i,
			      1 + (uint32_t)(x % 256), now))
			return 0;
		if (i % 4 == 3)
			while (dm_next_event(m) != DM_NONE) {
				now = dm_next_event(m);
				while (dm_reap(m, now, &c) >= 0)
					sig = sig * 31 + c.done_ns;
			}
	}
	return sig;
}

static void test_dmp_round_trip(struct ktest *t)
{
	static char buf[32768];
	char err[512];
	size_t n = builtin_file(buf, sizeof(buf));
	struct dm_drive *d;
	struct disk_model *a, *b;
	uint64_t sa;

	KT_ASSERT_LE(t, n + 1, sizeof(buf));
	d = dm_parse_params("builtin", buf, n, err, sizeof(err));
	if (!d)
		printf("    # %s\n", err);
	KT_ASSERT_TRUE(t, d != NULL);
	KT_EXPECT_EQ(t, strcmp(d->name, "hitachi-t7k250"), 0);
	a = dm_create("hitachi-t7k250", 0);
	b = dm_create_drive(d, 0);
	dm_drive_free(d);
	KT_ASSERT_TRUE(t, a && b);
	sa = signature(a);
	KT_EXPECT_EQ(t, sa, signature(b));
	KT_EXPECT_NE(t, sa, 0);
	dm_destroy(a);
	dm_destroy(b);
}

/* A probed drive: tabled rates and seeks, a given overhead. */
static const char tabled[] = "name probed-sda\n"
			     "desc a disk measured by bench diskprobe\n"
			     "capacity 312581808 sectors [probe] IDENTIFY\n"
			     "rpm 7200 rev/min [probe]\n"
			     "heads 3 surfaces assumed\n"
			     "zones 30 zones assumed\n"
			     "track_switch 1.479 ms assumed\n"
			     "rate_at 0 67.8 MB/s\n"
			     "rate_at 0.5 55 MB/s\n"
			     "rate_at 1 32.9 MB/s\n"
			     "seek_at 0.00001 1.0 ms\n"
			     "seek_at 0.01 2.1 ms\n"
			     "seek_at 0.33 8.5 ms\n"
			     "seek_at 1 20 ms\n"
			     "overhead 0.17 ms\n"
			     "buffer 8190 KiB\n"
			     "segments 7 segments\n"
			     "lookahead 1 bool\n"
			     "lookbehind 1 bool\n"
			     "zero_latency 0 bool\n"
			     "min_readahead 0 KiB\n"
			     "bus_rate 300 MB/s\n"
			     "ncq_depth 32 commands\n"
			     "ncq_aging 1000 ms\n";

static void test_dmp_tabled(struct ktest *t)
{
	char err[512];
	struct dm_drive *d =
		dm_parse_params("tabled", tabled, sizeof(tabled) - 1, err, sizeof(err));
	struct disk_model *m;
	struct dm_geometry g;

	if (!d)
		printf("    # %s\n", err);
	KT_ASSERT_TRUE(t, d != NULL);
	m = dm_create_drive(d, 0);
	dm_drive_free(d);
	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	KT_EXPECT_TRUE(t, g.seek_tabled);
	KT_EXPECT_EQ(t, (uint64_t)(g.overhead_ns + 0.5), 170000);
	/* the curve goes through its points; the rates follow the table */
	KT_EXPECT_EQ(t, (uint64_t)(dm_seek_ns(m, g.cylinders - 1) + 0.5), 20000000);
	KT_EXPECT_LT(t, dm_zone_rate(m, 0), 68.5e6);
	KT_EXPECT_GT(t, dm_zone_rate(m, 0), 66.5e6);
	KT_EXPECT_LT(t, dm_zone_rate(m, (int)g.zones - 1), 34e6);
	KT_EXPECT_NE(t, signature(m), 0);
	dm_destroy(m);
}

/* @text with the line @old replaced by @new (or appended when @old is NULL). */
static size_t edit(char *out, size_t len, const char *text, const char *old, const char *new)
{
	const char *at = old ? strstr(text, old) : NULL;

	if (!old)
		return (size_t)snprintf(out, len, "%s%s", text, new);
	if (!at)
		return 0;
	return (size_t)snprintf(out, len, "%.*s%s%s", (int)(at - text), text, new,
				at + strlen(old));
}

struct bad_case {
	const char *old, *new; /* the edit to the tabled file */
	const char *want;      /* in the message */
};

static void test_dmp_errors(struct ktest *t)
{
	static const struct bad_case cases[] = {
		{"rpm 7200 rev/min [probe]\n", "rpm 7200 rev/min [probe]\nrpmx 1 rev/min\n",
		 "line 5: unknown key 'rpmx'"},
		{"rpm 7200 rev/min [probe]\n", "",
		 "line 23 (the end of the file): missing key 'rpm': "
		 "rpm (rev/min, 1000..30000"},
		{"rpm 7200 rev/min", "rpm 99000 rev/min",
		 "line 4: rpm 99000 is out of range: rpm "
		 "(rev/min, 1000..30000"},
		{"rpm 7200 rev/min", "rpm 7200 rpm", "line 4: 'rpm' is in rev/min, not 'rpm'"},
		{"rpm 7200 rev/min", "rpm fast rev/min", "line 4: 'rpm' wants a number: rpm"},
		{"rpm 7200 rev/min [probe]", "rpm", "line 4: 'rpm' wants a number (none given)"},
		{"rpm 7200 rev/min [probe]", "rpm 7200",
		 "line 4: 'rpm' is in rev/min, not '(no unit)'"},
		{"rpm 7200 rev/min", "rpm 0x1c20 rev/min", "line 4: 'rpm' wants a number"},
		{"rpm 7200 rev/min", "rpm nan rev/min", "line 4: 'rpm' wants a number"},
		{"rpm 7200 rev/min", "rpm 1e999 rev/min", "line 4: 'rpm' wants a number"},
		{"heads 3 surfaces", "heads 2.5 surfaces",
		 "line 5: heads 2.5 is out of range: heads "
		 "(surfaces, 1..64, whole"},
		{NULL, "rpm 5400 rev/min\n", "line 25: 'rpm' again"},
		{"seek_at 0.01 2.1 ms", "seek_at 0.5 2.1 ms", "need increasing positions"},
		{"seek_at 0.01 2.1 ms", "seek_at 1.5 2.1 ms",
		 "line 12: seek_at position 1.5 is "
		 "outside 0..1"},
		{"seek_at 0.01 2.1 ms", "seek_at 2.1 ms",
		 "line 12: seek_at position 2.1 is outside"},
		{"seek_at 1 20 ms\n", "", "seek_at needs two rows or more, the last at 1"},
		{"rate_at 0 67.8", "rate_at 0.1 67.8", "the first at 0"},
		{NULL, "seek_full 20 ms\n", "not both"},
		{"overhead 0.17 ms\n", "", "missing key 'overhead'"},
		{"name probed-sda", "name probed sda", "line 1: name 'probed sda': one word"},
		{NULL, "name again\n", "line 25: a second 'name' line"},
		{"desc a disk measured by bench diskprobe", "desc", "line 2: 'desc' needs a text"},
		{"min_readahead 0 KiB", "min_readahead 4096 KiB",
		 "min_readahead is more than a "
		 "segment"},
		{"segments 7 segments", "segments 64 segments\nbuffer 128 KiB", "'buffer' again"},
		{"lookbehind 1 bool", "lookbehind 2 bool", "line 19: lookbehind 2 is out of range"},
		{"bus_rate 300 MB/s", "bus_rate 300 MB/s \x01", "line 22: a control character"},
		{NULL, "seek_shape 0.001 1 ms\n",
		 "seek_shape rows are scaled to seek_single, seek_average and seek_full"},
		{"seek_at 0.00001 1.0 ms\nseek_at 0.01 2.1 ms\nseek_at 0.33 8.5 ms\nseek_at 1 20 "
		 "ms\n",
		 "seek_single 1 ms\nseek_average 8.5 ms\nseek_full 20 ms\nseek_shape 0.001 1 ms\n"
		 "seek_shape 1 9 ms\n",
		 "seek_shape needs 4 rows or more"},
		/* a time key takes any time unit (kernel/kv.c), exact; other keys only theirs */
		{"overhead 0.17 ms", "overhead 0.17 kHz",
		 "line 15: 'overhead' is in ms (or another time unit: ns, us, ms, s, min), not "
		 "'kHz'"},
		{"overhead 0.17 ms", "overhead 0.0000005 us",
		 "line 15: overhead 0.0000005 us is not a decimal time of whole nanoseconds"},
		{"overhead 0.17 ms", "overhead 0.2 s", "line 15: overhead 0.2 s is out of range"},
		{"overhead 0.17 ms", "overhead 1e-3 s", "line 15: overhead 1e-3 s is not a decimal time"},
		{"rpm 7200 rev/min", "rpm 7200 s", "line 4: 'rpm' is in rev/min, not 's'"},
	};
	static char buf[32768];
	char err[512];

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		size_t n = edit(buf, sizeof(buf), tabled, c->old, c->new);
		struct dm_drive *d;

		KT_EXPECT_NE(t, n, 0);
		err[0] = 0;
		d = dm_parse_params("f.params", buf, n, err, sizeof(err));
		if (d || !strstr(err, c->want) || !strstr(err, "diskmodel: f.params: ")) {
			KT_FAIL(t, "case %u: got '%s', want '%s'", i, d ? "a model" : err, c->want);
			dm_drive_free(d);
		}
	}
	/* a NUL byte, a long line, a file too large, an empty file */
	memcpy(buf, tabled, sizeof(tabled));
	buf[40] = 0;
	KT_EXPECT_TRUE(t, !dm_parse_params("f", buf, sizeof(tabled) - 1, err, sizeof(err)));
	KT_EXPECT_TRUE(t, strstr(err, "line 2: a NUL byte") != NULL);
	memset(buf, 'a', 600);
	buf[600] = 0;
	KT_EXPECT_TRUE(t, !dm_parse_params("f", buf, 600, err, sizeof(err)));
	KT_EXPECT_TRUE(t, strstr(err, "line 1: longer than 512 characters") != NULL);
	KT_EXPECT_TRUE(t, !dm_parse_params("f", buf, 70000, err, sizeof(err)));
	KT_EXPECT_TRUE(t, strstr(err, "70000 bytes, more than") != NULL);
	KT_EXPECT_TRUE(t, !dm_parse_params("f", "", 0, err, sizeof(err)));
	KT_EXPECT_TRUE(t,
		       strstr(err, "line 0 (the end of the file): missing key 'capacity'") != NULL);
	/* figures no seek curve fits: the file parses, no model is built from it */
	{
		static char good[32768];
		struct dm_drive *d;
		size_t n;

		builtin_file(good, sizeof(good));
		n = edit(buf, sizeof(buf), good, "seek_full      20 ms", "seek_full 95 ms");
		KT_ASSERT_NE(t, n, 0);
		n = edit(good, sizeof(good), buf, "seek_average   8.5 ms", "seek_average 1.01 ms");
		KT_ASSERT_NE(t, n, 0);
		d = dm_parse_params("f", good, n, err, sizeof(err));
		KT_ASSERT_TRUE(t, d != NULL);
		KT_EXPECT_TRUE(t, dm_create_drive(d, 0) == NULL);
		dm_drive_free(d);
	}
}

/* dm_drive_set: a copy with one value changed, refused out of range. */
static void test_dmp_set(struct ktest *t)
{
	const struct dm_drive *base = dm_find_drive("hitachi-t7k250");
	char err[256];
	struct dm_drive *d = dm_drive_set(base, "segments", 16, err, sizeof(err));

	KT_ASSERT_TRUE(t, d != NULL);
	KT_EXPECT_EQ(t, (int)dm_param(d, "segments"), 16);
	KT_EXPECT_EQ(t, (int)dm_param(base, "segments"), 7);
	dm_drive_free(d);
	KT_EXPECT_TRUE(t, !dm_drive_set(base, "segments", 65, err, sizeof(err)));
	KT_EXPECT_TRUE(t, strstr(err, "segments=65 is out of range") != NULL);
	KT_EXPECT_TRUE(t, !dm_drive_set(base, "rate_at", 1, err, sizeof(err)));
	KT_EXPECT_TRUE(t, !dm_drive_set(base, "nosuch", 1, err, sizeof(err)));
}

/*
 * Times in other units: a parameter file's "overhead 170 us", "ncq_aging 1 s" and
 * "track_switch 1479000 ns" build the model "0.17 ms", "1000 ms" and "1.479 ms" build,
 * command for command; set= values with a unit (dm_key_value()).
 */
static void test_dmp_time_units(struct ktest *t)
{
	static char buf[4096], buf2[4096];
	char err[512];
	struct dm_drive *a = dm_parse_params("ms", tabled, sizeof(tabled) - 1, err, sizeof(err)), *b;
	struct disk_model *ma, *mb;
	size_t n;
	double v;

	n = edit(buf, sizeof(buf), tabled, "overhead 0.17 ms", "overhead 170 us");
	n = n ? edit(buf2, sizeof(buf2), buf, "ncq_aging 1000 ms", "ncq_aging 1 s") : 0;
	n = n ? edit(buf, sizeof(buf), buf2, "track_switch 1.479 ms", "track_switch 1479000 ns")
	      : 0;
	KT_ASSERT_NE(t, n, 0);
	b = dm_parse_params("units", buf, n, err, sizeof(err));
	if (!b)
		printf("    # %s\n", err);
	KT_ASSERT_TRUE(t, a && b);
	KT_EXPECT_TRUE(t, dm_param(b, "overhead") == 0.17);
	KT_EXPECT_TRUE(t, dm_param(b, "ncq_aging") == 1000);
	KT_EXPECT_TRUE(t, dm_param(b, "track_switch") == 1.479);
	ma = dm_create_drive(a, 0);
	mb = dm_create_drive(b, 0);
	KT_ASSERT_TRUE(t, ma && mb);
	KT_EXPECT_EQ(t, signature(ma), signature(mb));
	dm_destroy(ma);
	dm_destroy(mb);
	dm_drive_free(a);
	dm_drive_free(b);

	KT_EXPECT_TRUE(t, dm_key_value("overhead", "170us", &v) && v == 0.17);
	KT_EXPECT_TRUE(t, dm_key_value("overhead", "0.17", &v) && v == 0.17);
	KT_EXPECT_TRUE(t, dm_key_value("random_4096", "2min", &v) && v == 120);
	KT_EXPECT_TRUE(t, dm_key_value("seek_single", "0.5ms", &v) && v == 0.5);
	KT_EXPECT_TRUE(t, !dm_key_value("overhead", "1.5ns", &v)); /* finer than a ns */
	KT_EXPECT_TRUE(t, !dm_key_value("overhead", "17x", &v));
	KT_EXPECT_TRUE(t, !dm_key_value("segments", "7s", &v)); /* not a time */
	KT_EXPECT_TRUE(t, !dm_key_value("overhead", "", &v));
}

KTEST_SUITE(diskmodel_params, params_ready, KTEST_CASE(test_dmp_round_trip),
	    KTEST_CASE(test_dmp_tabled), KTEST_CASE(test_dmp_errors), KTEST_CASE(test_dmp_set),
	    KTEST_CASE(test_dmp_time_units));
