/*
 * The fio iolog parser (bench/iolog.c): versions 2 and 3 as fio writes
 * them, what it hands the replay, and every refusal with its line number.
 */
#include <stdio.h>
#include <string.h>

#include "bench/iolog.h"
#include "kernel/ktest.h"

#define T_FILES 1200

static struct iolog_file t_files[T_FILES];
static uint32_t t_hash[4096];

struct seen {
	unsigned int n;
	struct iolog_op ops[16];
};

static int record(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	struct seen *s = ctx;

	(void)log;
	if (s->n < ARRAY_SIZE(s->ops))
		s->ops[s->n] = *op;
	s->n++;
	return 0;
}

static int parse(struct iolog *log, const char *text, struct seen *s)
{
	iolog_init(log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	if (s)
		memset(s, 0, sizeof(*s));
	return iolog_parse(log, text, strlen(text), s ? record : NULL, s);
}

static bool name_is(const struct iolog_file *f, const char *name)
{
	return f->len == strlen(name) && !memcmp(f->name, name, f->len);
}

static void test_version2(struct ktest *t)
{
	static const char text[] = "fio version 2 iolog\n"
				   "/data/a add\n"
				   "/data/b add\n"
				   "/data/a open\n"
				   "/data/a read 4096 8192\n"
				   "/data/a write 0 512\n"
				   "/data/a read 0 4096\n"
				   "/data/a wait 2000 0\n"
				   "/data/a sync 0 0\n"
				   "/data/a close\n";
	struct iolog log;
	struct seen s;

	KT_ASSERT_EQ(t, parse(&log, text, &s), 0);
	KT_EXPECT_EQ(t, log.version, 2);
	KT_EXPECT_EQ(t, log.nr_files, 2);
	KT_EXPECT_TRUE(t, name_is(&log.files[0], "/data/a"));
	KT_EXPECT_TRUE(t, name_is(&log.files[1], "/data/b"));
	KT_EXPECT_EQ(t, log.files[0].reads, 2);
	KT_EXPECT_EQ(t, log.files[0].read_bytes, 12288);
	KT_EXPECT_EQ(t, log.files[0].max_offset, 4096);
	KT_EXPECT_EQ(t, log.files[0].max_offset_line, 5);
	KT_EXPECT_EQ(t, log.files[0].max_end, 12288);
	KT_EXPECT_EQ(t, log.files[0].opens, 1);
	KT_EXPECT_EQ(t, log.files[0].open_line, 0);
	KT_EXPECT_EQ(t, log.count[IOLOG_READ], 2);
	KT_EXPECT_EQ(t, log.count[IOLOG_WRITE], 1);
	KT_EXPECT_EQ(t, log.count[IOLOG_SYNC], 1);
	KT_EXPECT_EQ(t, log.count[IOLOG_WAIT], 1);
	KT_EXPECT_EQ(t, iolog_duration_us(&log), 2000);
	KT_ASSERT_EQ(t, s.n, 9);
	KT_EXPECT_EQ(t, s.ops[0].action, IOLOG_ADD);
	KT_EXPECT_EQ(t, s.ops[3].action, IOLOG_READ);
	KT_EXPECT_EQ(t, s.ops[3].line, 5);
	KT_EXPECT_EQ(t, s.ops[3].file, 0);
	KT_EXPECT_EQ(t, s.ops[3].offset, 4096);
	KT_EXPECT_EQ(t, s.ops[3].length, 8192);
	KT_EXPECT_EQ(t, s.ops[6].action, IOLOG_WAIT);
	KT_EXPECT_EQ(t, s.ops[6].file, -1);
	KT_EXPECT_EQ(t, s.ops[6].offset, 2000);
	KT_EXPECT_EQ(t, s.ops[8].action, IOLOG_CLOSE);
}

static void test_version3(struct ktest *t)
{
	/* as fio's write_iolog writes it, CRLF and a missing last newline too */
	static const char text[] = "fio version 3 iolog\r\n"
				   "100 f add\r\n"
				   "150 f open\n"
				   "\n"
				   "  \t\n"
				   "1150\tf  read   0 65536\n"
				   "41150 f read 65536 65536\n"
				   "41150 f trim 0 4096\n"
				   "51000 f close";
	struct iolog log;
	struct seen s;

	KT_ASSERT_EQ(t, parse(&log, text, &s), 0);
	KT_EXPECT_EQ(t, log.version, 3);
	KT_EXPECT_EQ(t, log.lines, 9);
	KT_ASSERT_EQ(t, s.n, 6);
	KT_EXPECT_EQ(t, s.ops[0].gap_us, 0);
	KT_EXPECT_EQ(t, s.ops[0].ts_us, 100);
	KT_EXPECT_EQ(t, s.ops[2].gap_us, 1000);
	KT_EXPECT_EQ(t, s.ops[2].line, 6);
	KT_EXPECT_EQ(t, s.ops[3].gap_us, 40000);
	KT_EXPECT_EQ(t, s.ops[4].gap_us, 0);
	KT_EXPECT_EQ(t, s.ops[4].action, IOLOG_TRIM);
	KT_EXPECT_EQ(t, s.ops[5].gap_us, 9850);
	KT_EXPECT_EQ(t, iolog_duration_us(&log), 50900);
	KT_EXPECT_EQ(t, log.files[0].max_end, 131072);
	KT_EXPECT_EQ(t, log.count[IOLOG_TRIM], 1);
}

/*
 * An action the parser does not know is an error naming its line and the
 * word, where fio would skip it: a misspelt read must not vanish.
 */
static void test_unknown_actions(struct ktest *t)
{
	static const char v2[] = "fio version 2 iolog\n"
				 "f add\n"
				 "f open\n"
				 "f read 0 1\n"
				 "f raed 0 4096\n"
				 "f read 4096 1\n";
	static const char v3[] = "fio version 3 iolog\n"
				 "0 f add\n"
				 "0 f open\n"
				 "5 f read 0 1\n"
				 "9 f frobnicate\n";
	static const char known[] = "fio version 2 iolog\nf add\nf open\nf datasync 0 0\n"
				    "f read 0 1\n";
	struct iolog log;
	struct seen s;

	KT_EXPECT_EQ(t, parse(&log, v2, &s), -EINVAL);
	KT_EXPECT_EQ(t, log.err_line, 5);
	KT_EXPECT_STREQ(t, log.err,
			"line 5: unknown action 'raed' (one of add, open, close, read, write, "
			"sync, datasync, trim, wait)");
	/* nothing after the bad line was handed on */
	KT_EXPECT_EQ(t, s.n, 3);
	KT_EXPECT_EQ(t, parse(&log, v3, NULL), -EINVAL);
	KT_EXPECT_STREQ(t, log.err,
			"line 5: unknown action 'frobnicate' (one of add, open, close, read, "
			"write, sync, datasync, trim)");
	/* the known actions other than reads still parse */
	KT_EXPECT_EQ(t, parse(&log, known, NULL), 0);
	KT_EXPECT_EQ(t, log.count[IOLOG_DATASYNC], 1);
}

static void test_reopen(struct ktest *t)
{
	static const char text[] = "fio version 2 iolog\n"
				   "f add\n"
				   "f open\n"
				   "f read 8192 4096\n"
				   "f close\n"
				   "f open\n"
				   "f read 0 4096\n";
	struct iolog log;

	KT_ASSERT_EQ(t, parse(&log, text, NULL), 0);
	KT_EXPECT_EQ(t, log.files[0].opens, 2);
	KT_EXPECT_EQ(t, log.files[0].open_line, 6);
	KT_EXPECT_EQ(t, log.files[0].max_offset, 8192);
	KT_EXPECT_EQ(t, log.files[0].max_offset_line, 4);
}

static void test_many_files(struct ktest *t)
{
	static char text[T_FILES * 40 + 64];
	size_t n = (size_t)snprintf(text, sizeof(text), "fio version 2 iolog\n");
	struct iolog log;
	unsigned int i;

	for (i = 0; i < 1000; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "/usr/include/h%u.h add\n", i);
	for (i = 0; i < 1000; i += 7)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "/usr/include/h%u.h open\n/usr/include/h%u.h read %u 10\n", i,
				      i, i);
	KT_ASSERT_EQ(t, parse(&log, text, NULL), 0);
	KT_EXPECT_EQ(t, log.nr_files, 1000);
	for (i = 0; i < 1000; i++)
		KT_EXPECT_EQ(t, log.files[i].reads, i % 7 == 0);
	KT_EXPECT_EQ(t, log.files[994].max_end, 1004);

	/* a parser given room for two files says so at the third */
	iolog_init(&log, t_files, 2, t_hash, iolog_hash_slots(2));
	KT_EXPECT_EQ(t, iolog_parse(&log, text, strlen(text), NULL, NULL), -EINVAL);
	KT_EXPECT_STREQ(t, log.err, "line 4: more than 2 files");
	KT_EXPECT_EQ(t, iolog_max_files(0), 1);
	KT_EXPECT_EQ(t, iolog_max_files(1ULL << 30), IOLOG_MAX_FILES);
	KT_EXPECT_EQ(t, iolog_hash_slots(1000), 2048);
}

/* Each bad log fails with exactly this message. */
static const char *const bad_logs[][2] = {
	{"", "an empty log: no version line"},
	{"fio version 2 iolog\n", "no reads: nothing to replay"},
	{"fio version 2 iolog\nf add\nf open\nf write 0 4096\nf close\n",
	 "no reads: nothing to replay"},
	{"f add\nf open\nf read 0 1\n",
	 "line 1: not a fio iolog: the first line must be 'fio version 2 iolog' or 'fio version 3 "
	 "iolog'"},
	{"\nfio version 2 iolog\n",
	 "line 1: not a fio iolog: the first line must be 'fio version 2 iolog' or 'fio version 3 "
	 "iolog'"},
	{"fio version 1 iolog\n", "line 1: only fio iolog versions 2 and 3 are supported"},
	{"fio version 2 iolog\nf add\nf open\nf read x12 4096\n",
	 "line 4: offset 'x12' is not an unsigned decimal number"},
	{"fio version 2 iolog\nf add\nf open\nf read -1 4096\n",
	 "line 4: offset '-1' is not an unsigned decimal number"},
	{"fio version 2 iolog\nf add\nf open\nf read 0 4k\n",
	 "line 4: length '4k' is not an unsigned decimal number"},
	{"fio version 2 iolog\nf add\nf open\nf read 0 4294967296\n",
	 "line 4: length 4294967296 is larger than 4294967295"},
	{"fio version 2 iolog\nf add\nf open\nf read 18446744073709551616 1\n",
	 "line 4: offset 18446744073709551616 is larger than 18446744073709551615"},
	{"fio version 2 iolog\nf add\nf open\nf read 18446744073709551615 1\n",
	 "line 4: offset 18446744073709551615 + length 1 is past 2^64"},
	{"fio version 2 iolog\nf add\nf open\ng read 0 4096\n",
	 "line 4: read of g, a file never added"},
	{"fio version 2 iolog\nf add\nf read 0 4096\n", "line 3: read of f, which is not open"},
	{"fio version 2 iolog\nf add\nf open\nf close\nf read 0 1\n",
	 "line 5: read of f, which is not open (it was closed)"},
	{"fio version 2 iolog\nf add\nf write 0 1\n", "line 3: write of f, which is not open"},
	{"fio version 2 iolog\nf add\nf open\nf open\n",
	 "line 4: f opened twice (open since line 3)"},
	{"fio version 2 iolog\nf add\nf add\n", "line 3: f added twice (first at line 2)"},
	{"fio version 2 iolog\ng open\n", "line 2: open of g, a file never added"},
	{"fio version 2 iolog\nf add\nf close\n", "line 3: close of f, which is not open"},
	{"fio version 2 iolog\nf add\nf open\nf read 0\n",
	 "line 4: 3 fields; version 2 takes FILE ACTION or FILE ACTION OFFSET LENGTH"},
	{"fio version 2 iolog\nf\n",
	 "line 2: 1 fields; version 2 takes FILE ACTION or FILE ACTION OFFSET LENGTH"},
	{"fio version 2 iolog\nf add\nf open\nf read 0 1 2 3\n",
	 "line 4: 6 fields; version 2 takes FILE ACTION or FILE ACTION OFFSET LENGTH"},
	{"fio version 2 iolog\nf add\nf open\nf read 0 1 2 3 4 5 6\n",
	 "line 4: more than 6 fields"},
	{"fio version 2 iolog\nf add\nf open\nf read\n", "line 4: read needs OFFSET LENGTH"},
	{"fio version 2 iolog\nf add 0 0\n", "line 2: add takes no OFFSET LENGTH"},
	{"fio version 3 iolog\n0 f add\n0 f open\n0 f read 0 1\n0 f wait 100 0\n",
	 "line 5: wait is not allowed in version 3 (its timestamps say when)"},
	{"fio version 3 iolog\n5 f add\n4 f open\n",
	 "line 3: timestamp 4 is before the previous line's 5"},
	{"fio version 3 iolog\nf add\n",
	 "line 2: 2 fields; version 3 takes TIME FILE ACTION or TIME FILE ACTION OFFSET LENGTH"},
	{"fio version 3 iolog\n1e3 f add\n",
	 "line 2: timestamp '1e3' is not an unsigned decimal number"},
	{"fio version 2 iolog\nf add\nf open\nf wait 18446744073709551615 0\nf wait 1 0\n",
	 "line 5: the waits add up past 2^64 microseconds"},
};

static void test_bad_logs(struct ktest *t)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_logs); i++) {
		struct iolog log;

		KT_EXPECT_EQ(t, parse(&log, bad_logs[i][0], NULL), -EINVAL);
		if (strcmp(log.err, bad_logs[i][1]))
			KT_FAIL(t, "log %u: got '%s', want '%s'", i, log.err, bad_logs[i][1]);
	}
}

static void test_bad_bytes(struct ktest *t)
{
	static char text[IOLOG_LINE_MAX + 64];
	static const char nul[] = "fio version 2 iolog\nf add\nf\0open\n";
	char longname[IOLOG_NAME_MAX + 2];
	struct iolog log;
	size_t n;

	iolog_init(&log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	KT_EXPECT_EQ(t, iolog_parse(&log, nul, sizeof(nul) - 1, NULL, NULL), -EINVAL);
	KT_EXPECT_STREQ(t, log.err, "line 3: a NUL byte: not a text file");

	n = (size_t)snprintf(text, sizeof(text), "fio version 2 iolog\nf add\n");
	memset(text + n, 'x', IOLOG_LINE_MAX);
	text[n + IOLOG_LINE_MAX] = '\0';
	KT_EXPECT_EQ(t, parse(&log, text, NULL), -EINVAL);
	KT_EXPECT_STREQ(t, log.err, "line 3: longer than 4095 bytes");

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	snprintf(text, sizeof(text), "fio version 2 iolog\n%s add\n", longname);
	KT_EXPECT_EQ(t, parse(&log, text, NULL), -EINVAL);
	KT_EXPECT_STREQ(t, log.err, "line 2: a file name longer than 256 bytes");
	longname[IOLOG_NAME_MAX] = '\0';
	snprintf(text, sizeof(text), "fio version 2 iolog\n%s add\n%s open\n%s read 0 1\n",
		 longname, longname, longname);
	KT_EXPECT_EQ(t, parse(&log, text, NULL), 0);

	/* unprintable bytes in a message come out as '?' */
	KT_EXPECT_EQ(t,
		     parse(&log, "fio version 2 iolog\nf add\nf open\nf read \x01\x7f 1\n", NULL),
		     -EINVAL);
	KT_EXPECT_STREQ(t, log.err,
			"line 4: offset '?"
			"?' is not an unsigned decimal number");
}

/* A callback's error stops the parse with its code. */
static int refuse_third(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	(void)ctx;
	if (op->line == 3) {
		snprintf(log->err, sizeof(log->err), "line 3: refused");
		return -ENOSPC;
	}
	return 0;
}

static void test_callback_stops(struct ktest *t)
{
	static const char text[] = "fio version 2 iolog\nf add\nf open\nf read 0 1\n";
	struct iolog log;

	iolog_init(&log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	KT_EXPECT_EQ(t, iolog_parse(&log, text, strlen(text), refuse_third, NULL), -ENOSPC);
	KT_EXPECT_EQ(t, log.count[IOLOG_READ], 0);
}

/* The replay's own limit (iolog_replay_check()): pauses of an hour with timing=recorded. */
static int check_recorded(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	return iolog_replay_check(log, op, *(bool *)ctx);
}

static void test_replay_check(struct ktest *t)
{
	static const char v2[] = "fio version 2 iolog\nf add\nf open\nf read 0 1\n"
				 "f wait 3600000000 0\nf wait 3600000001 0\n";
	static const char v3[] = "fio version 3 iolog\n0 f add\n0 f open\n5 f read 0 1\n"
				 "3600000006 f read 0 4294967295\n";
	struct iolog log;
	bool recorded = true;

	iolog_init(&log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	KT_EXPECT_EQ(t, iolog_parse(&log, v2, strlen(v2), check_recorded, &recorded), -EINVAL);
	KT_EXPECT_EQ(t, log.err_line, 6);
	KT_EXPECT_STREQ(t, log.err,
			"line 6: a pause of 3600 s; timing=recorded keeps pauses of up to an hour "
			"(timing=asap drops them)");
	iolog_init(&log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	KT_EXPECT_EQ(t, iolog_parse(&log, v3, strlen(v3), check_recorded, &recorded), -EINVAL);
	KT_EXPECT_EQ(t, log.err_line, 5);
	/* timing=asap drops the pauses: both replay, and so does a read of 4 GiB - 1 */
	recorded = false;
	iolog_init(&log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	KT_EXPECT_EQ(t, iolog_parse(&log, v2, strlen(v2), check_recorded, &recorded), 0);
	iolog_init(&log, t_files, T_FILES, t_hash, iolog_hash_slots(T_FILES));
	KT_EXPECT_EQ(t, iolog_parse(&log, v3, strlen(v3), check_recorded, &recorded), 0);
	KT_EXPECT_EQ(t, log.files[0].max_end, 4294967295ULL);
}

KTEST_SUITE(iolog, NULL, KTEST_CASE(test_version2), KTEST_CASE(test_version3),
	    KTEST_CASE(test_unknown_actions), KTEST_CASE(test_reopen), KTEST_CASE(test_many_files),
	    KTEST_CASE(test_bad_logs), KTEST_CASE(test_bad_bytes), KTEST_CASE(test_callback_stops),
	    KTEST_CASE(test_replay_check));
