/*
 * Command-line and shell argument parsing: sizes, integers, times, enums,
 * quoting, and the errors that must name the key.
 */
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/kv.h"
#include "kernel/ktest.h"

static void test_parse_size(struct ktest *t)
{
	uint64_t v = 0;

	KT_EXPECT_EQ(t, kv_parse_size("4096", &v), 0);
	KT_EXPECT_EQ(t, v, 4096);
	KT_EXPECT_EQ(t, kv_parse_size("64K", &v), 0);
	KT_EXPECT_EQ(t, v, 64 << 10);
	KT_EXPECT_EQ(t, kv_parse_size("128m", &v), 0);
	KT_EXPECT_EQ(t, v, 128 << 20);
	KT_EXPECT_EQ(t, kv_parse_size("2G", &v), 0);
	KT_EXPECT_EQ(t, v, 2ULL << 30);
	KT_EXPECT_EQ(t, kv_parse_size("0x1000", &v), 0);
	KT_EXPECT_EQ(t, v, 4096);
	KT_EXPECT_EQ(t, kv_parse_size("12Q", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_size("M", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_size("", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_size("-1", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_size("99999999999999999999", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_size("17179869184G", &v), -ERANGE);
}

static void test_parse_uint(struct ktest *t)
{
	uint64_t v = 0;

	KT_EXPECT_EQ(t, kv_parse_uint("18446744073709551615", &v), 0);
	KT_EXPECT_EQ(t, v, UINT64_MAX);
	KT_EXPECT_EQ(t, kv_parse_uint("18446744073709551616", &v), -ERANGE);
	KT_EXPECT_EQ(t, kv_parse_uint("0x", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_uint("12a", &v), -EINVAL);
	KT_EXPECT_EQ(t, kv_parse_uint("0xfF", &v), 0);
	KT_EXPECT_EQ(t, v, 255);
}

static void test_split_quotes(struct ktest *t)
{
	char line[] = "a=1  run=\"cat /a;cat /b\" \"x=y z\" last";
	char *w[8];
	const char *err = NULL;
	int n = kv_split(line, w, 8, &err);

	KT_ASSERT_EQ(t, n, 4);
	KT_EXPECT_STREQ(t, w[0], "a=1");
	KT_EXPECT_STREQ(t, w[1], "run=cat /a;cat /b");
	KT_EXPECT_STREQ(t, w[2], "x=y z");
	KT_EXPECT_STREQ(t, w[3], "last");

	char bad[] = "run=\"oops";
	KT_EXPECT_EQ(t, kv_split(bad, w, 8, &err), -EINVAL);
	KT_EXPECT_STREQ(t, err, "unterminated double quote");

	char many[] = "a b c";
	KT_EXPECT_EQ(t, kv_split(many, w, 2, &err), -EINVAL);
}

static const char *const colours[] = { "serial", "vga", "both", NULL };
static const struct kv_spec specs[] = {
	{ "mem", KV_SIZE, NULL, "" },
	{ "console", KV_ENUM, colours, "" },
	{ "n", KV_UINT, NULL, "" },
	{ "poll", KV_BOOL, NULL, "" },
	{ "root", KV_STRING, NULL, "" },
};

static void test_parse_good(struct ktest *t)
{
	char line[] = "mem=64M console=vga poll=on root=0:1 /path";
	char *w[8], err[256];
	const char *e, *pos;
	struct kv_value v[ARRAY_SIZE(specs)];
	int n = kv_split(line, w, 8, &e);

	KT_ASSERT_EQ(t, kv_parse(w, n, specs, ARRAY_SIZE(specs), v, &pos, err, sizeof(err)), 0);
	KT_EXPECT_TRUE(t, v[0].present);
	KT_EXPECT_EQ(t, v[0].u, 64 << 20);
	KT_EXPECT_EQ(t, v[1].u, 1);
	KT_EXPECT_STREQ(t, v[1].s, "vga");
	KT_EXPECT_TRUE(t, !v[2].present);
	KT_EXPECT_EQ(t, v[3].u, 1);
	KT_EXPECT_STREQ(t, v[4].s, "0:1");
	KT_EXPECT_STREQ(t, pos, "/path");
}

static void test_parse_errors_name_the_key(struct ktest *t)
{
	struct kv_value v[ARRAY_SIZE(specs)];
	char err[256];
	char w1[] = "frobnicate=1", w2[] = "mem=12Q", w3[] = "console=telnet", w4[] = "bare";
	char *w[1];

	w[0] = w1;
	KT_EXPECT_EQ(t, kv_parse(w, 1, specs, ARRAY_SIZE(specs), v, NULL, err, sizeof(err)), -EINVAL);
	KT_EXPECT_TRUE(t, strstr(err, "unknown key 'frobnicate'") != NULL);
	w[0] = w2;
	KT_EXPECT_EQ(t, kv_parse(w, 1, specs, ARRAY_SIZE(specs), v, NULL, err, sizeof(err)), -EINVAL);
	KT_EXPECT_TRUE(t, strstr(err, "'mem'") != NULL);
	w[0] = w3;
	KT_EXPECT_EQ(t, kv_parse(w, 1, specs, ARRAY_SIZE(specs), v, NULL, err, sizeof(err)), -EINVAL);
	KT_EXPECT_TRUE(t, strstr(err, "serial|vga|both") != NULL);
	w[0] = w4;
	KT_EXPECT_EQ(t, kv_parse(w, 1, specs, ARRAY_SIZE(specs), v, NULL, err, sizeof(err)), -EINVAL);
	KT_EXPECT_TRUE(t, strstr(err, "'bare' is not key=value") != NULL);
	/* the words are left as they were, for the caller's messages */
	KT_EXPECT_STREQ(t, w2, "mem=12Q");
}

/* The whole command line: the loader's file name skipped, a cut line refused. */
static void test_cmdline(struct ktest *t)
{
	static char buf[CMDLINE_MAX], longline[CMDLINE_MAX + 8];
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *line = "build/lookahead32.elf mem=1G root=\"0:1\"";
	char err[256];

	KT_ASSERT_EQ(t, cmdline_parse(line, strlen(line), buf, specs, ARRAY_SIZE(specs), v, err,
				      sizeof(err)),
		     0);
	KT_EXPECT_EQ(t, v[0].u, 1ULL << 30);
	KT_EXPECT_STREQ(t, v[4].s, "0:1");
	/* a loader's line too long for the kernel's copy is an error, not a cut */
	memset(longline, 'x', sizeof(longline) - 1);
	memcpy(longline, "mem=1G root=", 12);
	KT_EXPECT_EQ(t, cmdline_parse(longline, CMDLINE_MAX, buf, specs, ARRAY_SIZE(specs), v, err,
				      sizeof(err)),
		     -EINVAL);
	KT_EXPECT_TRUE(t, strstr(err, "4096 bytes, more than the 4095") != NULL);
	KT_EXPECT_EQ(t, cmdline_parse("\"", 1, buf, specs, ARRAY_SIZE(specs), v, err, sizeof(err)),
		     -EINVAL);
	KT_EXPECT_STREQ(t, err, "unterminated double quote");
}

/* run=: cut at ';', spaces before a command and empty commands skipped. */
static void test_run_list(struct ktest *t)
{
	char list[] = " ;lsblk; cat /a  ;;\tsleep ms=1;", *p = list;

	KT_EXPECT_STREQ(t, cmdline_next_command(&p), "lsblk");
	KT_EXPECT_STREQ(t, cmdline_next_command(&p), "cat /a  ");
	KT_EXPECT_STREQ(t, cmdline_next_command(&p), "sleep ms=1");
	KT_EXPECT_TRUE(t, cmdline_next_command(&p) == NULL);
	KT_EXPECT_TRUE(t, cmdline_next_command(&p) == NULL);
}

/* Times: a unit, or a plain number of the key's unit; exact, in nanoseconds. */
static void test_parse_time(struct ktest *t)
{
	static const struct {
		const char *s;
		uint64_t unit, ns;
		int err;
	} cases[] = {
		{"100", 1000000, 100000000, 0},	  /* plain: the key's unit (ms) */
		{"0x10", 1000, 16000, 0},	  /* plain hex, as KV_UINT reads it */
		{"0", 1000000000, 0, 0},
		{"100ms", 1, 100000000, 0},	  /* a unit: whatever the key's */
		{"250us", 1000000000, 250000, 0},
		{"7ns", 1000000, 7, 0},
		{"2s", 1, 2000000000, 0},
		{"1.5s", 1000000, 1500000000, 0},
		{".5ms", 1, 500000, 0},
		{"3.ms", 1, 3000000, 0},
		{"2min", 1, 120000000000ULL, 0},
		{"0.000000001s", 1, 1, 0},
		{"18446744073709551615ns", 1, UINT64_MAX, 0},
		{"1.5ns", 1, 0, -EINVAL},	  /* finer than a nanosecond */
		{"0.0000000001s", 1, 0, -EINVAL},
		{"ms", 1, 0, -EINVAL},
		{".s", 1, 0, -EINVAL},
		{"1.2.3s", 1, 0, -EINVAL},
		{"-1ms", 1, 0, -EINVAL},
		{"1 ms", 1, 0, -EINVAL},
		{"10MS", 1, 0, -EINVAL},
		{"10m", 1, 0, -EINVAL},		  /* minutes or metres? only "min" */
		{"10h", 1, 0, -EINVAL},
		{"0x10ms", 1, 0, -EINVAL},	  /* hex only plain */
		{"1.5", 1000000, 0, -EINVAL},	  /* a plain number is whole */
		{"", 1, 0, -EINVAL},
		{"18446744073709551616ns", 1, 0, -ERANGE},
		{"18446744074s", 1, 0, -ERANGE},
		{"18446744073709551615", 1000, 0, -ERANGE},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t ns = 12345;
		int err = kv_parse_time(cases[i].s, cases[i].unit, &ns);

		if (err != cases[i].err || (!err && ns != cases[i].ns))
			KT_FAIL(t, "'%s' (unit %llu ns): %d, %llu ns",
				   cases[i].s, (unsigned long long)cases[i].unit, err,
				   (unsigned long long)ns);
	}
	KT_EXPECT_EQ(t, kv_time_unit_ns(KV_TIME_MS), 1000000);
	KT_EXPECT_EQ(t, kv_time_unit_ns(KV_SIZE), 0);
	KT_EXPECT_STREQ(t, kv_time_unit_name(KV_TIME_US), "us");
	KT_EXPECT_EQ(t, kv_time_unit_named("min"), 60000000000ULL);
	KT_EXPECT_EQ(t, kv_time_unit_named("ns"), 1);
	KT_EXPECT_EQ(t, kv_time_unit_named("MB/s"), 0);
}

/* A time key: its value in its own unit, whole; a bad one names the key and the forms. */
static void test_parse_time_keys(struct ktest *t)
{
	static const struct kv_spec tspecs[] = {
		{"interval", KV_TIME_MS, NULL, ""},
		{"think", KV_TIME_NS, NULL, ""},
		{"tail", KV_TIME_S, NULL, ""},
		{"minutes", KV_TIME_MIN, NULL, ""},
	};
	struct kv_value v[ARRAY_SIZE(tspecs)];
	char line[] = "interval=100ms think=2us tail=90 minutes=120s", bad1[] = "interval=1500us",
	     bad2[] = "tail=100x", bad3[] = "interval=100ms,", err[256];
	char *w[8];
	const char *e;
	int n = kv_split(line, w, 8, &e);

	KT_ASSERT_EQ(t, kv_parse(w, n, tspecs, ARRAY_SIZE(tspecs), v, NULL, err, sizeof(err)), 0);
	KT_EXPECT_EQ(t, v[0].u, 100);
	KT_EXPECT_EQ(t, v[1].u, 2000);
	KT_EXPECT_EQ(t, v[2].u, 90);
	KT_EXPECT_EQ(t, v[3].u, 2);
	w[0] = bad1;
	KT_EXPECT_EQ(t, kv_parse(w, 1, tspecs, ARRAY_SIZE(tspecs), v, NULL, err, sizeof(err)),
		     -EINVAL);
	KT_EXPECT_STREQ(t, err,
			"bad value '1500us' for key 'interval': expected a time in whole ms: N "
			"(ms) or N with a unit ns|us|ms|s|min such as 250us, 20ms or 1.5s");
	w[0] = bad2;
	KT_EXPECT_EQ(t, kv_parse(w, 1, tspecs, ARRAY_SIZE(tspecs), v, NULL, err, sizeof(err)),
		     -EINVAL);
	KT_EXPECT_TRUE(t, strstr(err, "'100x' for key 'tail': expected a time in whole s") != NULL);
	w[0] = bad3;
	KT_EXPECT_EQ(t, kv_parse(w, 1, tspecs, ARRAY_SIZE(tspecs), v, NULL, err, sizeof(err)),
		     -EINVAL);
	/* the message fits the 160 bytes bench's and the command line's callers give it */
	KT_EXPECT_TRUE(t, strlen(err) < 160);
}

KTEST_SUITE(kv, NULL, KTEST_CASE(test_parse_size), KTEST_CASE(test_parse_uint),
	    KTEST_CASE(test_split_quotes), KTEST_CASE(test_parse_good),
	    KTEST_CASE(test_parse_errors_name_the_key), KTEST_CASE(test_cmdline),
	    KTEST_CASE(test_run_list), KTEST_CASE(test_parse_time),
	    KTEST_CASE(test_parse_time_keys));
