/*
 * Fuzzing the disk model's parameter files: dm_fuzz_one() parses the input
 * as a parameter file and, when it is accepted, builds the model and runs a
 * mix of reads, writes and flushes through it at queue depths up to 8,
 * checking that every command finishes, in time order, no earlier than it
 * was issued. Any crash, sanitizer report, hang or broken rule is a
 * finding; refusing the file is the expected outcome for most inputs.
 *
 * Built two ways:
 *  - with -DDM_LIBFUZZER and clang -fsanitize=fuzzer,address,undefined:
 *    build/host/fuzz_diskmodel, run by `make fuzz` (and briefly by `make
 *    test`, tests/host/fuzz_diskmodel.t) on tests/fuzz/diskmodel/;
 *  - into build/host/test_diskmodel, where the suite diskmodel_fuzz_corpus
 *    runs the corpus and a fixed set of seeded corruptions of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/diskmodel-params.h"
#include "drivers/diskmodel.h"
#include "kernel/ktest.h"
#include "kernel/prandom.h"
#include "mm/mm.h"

/* Returns 1 if a model was built and ran, 0 if the file was refused, -1 on a broken rule. */
int dm_fuzz_one(const uint8_t *data, size_t size)
{
	char err[512];
	struct dm_drive *d = dm_parse_params("fuzz", (const char *)data, size, err, sizeof(err));
	struct disk_model *m;
	struct dm_geometry g;
	uint64_t now = 0, x = 0x9e3779b97f4a7c15ULL, done = 0, issued = 0;
	int ret = 1;

	if (!d)
		return 0;
	m = dm_create_drive(d, 0);
	dm_drive_free(d);
	if (!m)
		return 0;
	dm_geometry(m, &g);
	for (size_t i = 0; i < size; i++)
		x = (x ^ data[i]) * 0x100000001b3ULL;
	for (int round = 0; round < 16 && ret > 0; round++) {
		int qd = 1 + round % 8;

		for (int tag = 0; tag < qd; tag++) {
			uint64_t lba;
			uint32_t n;

			prandom_u64(&x);
			n = 1 + (uint32_t)(x % 2048);
			if (n > g.nr_sectors)
				n = (uint32_t)g.nr_sectors;
			lba = (x >> 20) % (g.nr_sectors - n + 1);
			if (dm_submit(m, tag,
				      x % 7 == 0    ? DM_WRITE
				      : x % 13 == 0 ? DM_FLUSH
						    : DM_READ,
				      lba, n, now))
				ret = -1;
			issued++;
		}
		while (ret > 0 && dm_next_event(m) != DM_NONE) {
			struct dm_completion c;
			uint64_t t = dm_next_event(m);

			if (t < now) {
				ret = -1;
				break;
			}
			now = t;
			while (dm_reap(m, now, &c) >= 0) {
				if (c.done_ns > now || c.done_ns < c.arrive_ns)
					ret = -1;
				done++;
			}
		}
		now += x % 3000000;
	}
	if (ret > 0 && done != issued)
		ret = -1;
	dm_destroy(m);
	return ret;
}

#ifdef DM_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char **argv[])
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return mm_host_init(64ULL << 20) < 0 ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (dm_fuzz_one(data, size) < 0)
		abort();
	return 0;
}
#endif

/* --- the corpus as a regression test ---------------------------------------------- */

static const char *corpus_ready(void)
{
	if (!mm_ready() && mm_host_init(64ULL << 20) < 0)
		return "cannot set up a host memory arena";
	return NULL;
}

static size_t load(const char *path, uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

static void test_dm_fuzz_corpus(struct ktest *t)
{
	static const char *const files[] = {"tests/fuzz/diskmodel/t7k250.params",
					    "tests/fuzz/diskmodel/tabled.params"};
	static uint8_t buf[65536], mut[65536];
	unsigned int built = 0, refused = 0;
	uint64_t x = 42;

	for (unsigned int f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		size_t n = load(files[f], buf, sizeof(buf));

		KT_ASSERT_NE(t, n, 0);
		KT_EXPECT_EQ(t, dm_fuzz_one(buf, n), 1);
		/* seeded corruptions: one byte changed, a digit bumped, a line cut short */
		for (int i = 0; i < 400; i++) {
			size_t at, m = n;
			int r;

			prandom_u64(&x);
			memcpy(mut, buf, n);
			at = x % n;
			switch (i % 4) {
			case 0:
				mut[at] = (uint8_t)(x >> 32);
				break;
			case 1:
				mut[at] = (uint8_t)("0123456789.-e \n"[(x >> 40) % 15]);
				break;
			case 2:
				m = at;
				break;
			default:
				memmove(mut + at, mut + at + 1, n - at - 1);
				m = n - 1;
				break;
			}
			r = dm_fuzz_one(mut, m);
			KT_EXPECT_GE(t, r, 0);
			built += r == 1;
			refused += r == 0;
		}
	}
	printf("    # corpus: %u corrupted files built a model, %u were refused\n", built, refused);
	KT_EXPECT_GT(t, built, 0);
	KT_EXPECT_GT(t, refused, 0);
}

KTEST_SUITE(diskmodel_fuzz_corpus, corpus_ready, KTEST_CASE(test_dm_fuzz_corpus));
