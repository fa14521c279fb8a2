/*
 * ohrun: one workload of tools/overhead inside a Linux guest, timed by the
 * host. tools/overhead boots Debian's kernel and lookahead on the same QEMU
 * and the same image and compares how long each takes over the same reads;
 * this program is Linux's side of the raw and buffered workloads (the replay
 * is tools/helpers/lrrun's). A static binary of the host's gcc (make
 * build/host/ohrun), put in the guest's initramfs by tools/overhead.
 *
 *	ohrun NAME raw DEV bs=KiB pattern=seq|rand count=N [seed=N]
 *	ohrun NAME cat FILE bs=BYTES
 *
 * raw: COUNT reads of BS KiB of the block device DEV with O_DIRECT (no page
 * cache, as lookahead's `rawread`), one at a time (queue depth 1): seq from
 * sector 0 on, rand at the offsets lookahead's `rawread pattern=rand seed=N`
 * reads (kernel/prandom.h's xorshift from SEED, a whole read's slot below the
 * disk's end), so the two kernels ask QEMU's disk for the same sectors.
 * cat: read FILE from its start to its end with read(2) of BYTES each, as
 * lookahead's `cat PATH bs=BYTES verify=0` does (the caller drops the page
 * cache first).
 *
 * The host's clock times the workload: right before the first read and right
 * after the last one the program writes "@@oh begin NAME" and "@@oh end NAME"
 * on stdout (the guest's serial console), and tools/overhead stamps each line
 * as it arrives. After the end marker it prints one summary line with the
 * guest's own clock_gettime(CLOCK_MONOTONIC) time of the same span and the
 * bytes read. The data is not looked at, as lookahead's side runs with crc=0
 * and verify=0: both time the reads alone; a short or failed read is an
 * error. Any error is one line, exit status 1; bad arguments exit 2.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kernel/prandom.h"

#define DIE_PREFIX "ohrun: error: "
#include "tools/helpers/die.h"

static void usage(void)
{
	fputs("usage: ohrun NAME raw DEV bs=KiB pattern=seq|rand count=N [seed=N]\n"
	      "       ohrun NAME cat FILE bs=BYTES\n", stderr);
	exit(2);
}

/* KEY=N among @argv's words: its value, or @def when absent (-1: required). */
static uint64_t key_u64(int argc, char **argv, const char *key, int64_t def)
{
	size_t n = strlen(key);

	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], key, n) && argv[i][n] == '=') {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(argv[i] + n + 1, &end, 10);
			if (errno || end == argv[i] + n + 1 || *end) {
				fprintf(stderr, "ohrun: %s: not a number\n", argv[i]);
				usage();
			}
			return v;
		}
	}
	if (def < 0) {
		fprintf(stderr, "ohrun: %s= missing\n", key);
		usage();
	}
	return (uint64_t)def;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void marker(const char *what, const char *name)
{
	/* stdout is the console: one write, unbuffered, so the host stamps it now */
	char line[128];
	int n = snprintf(line, sizeof(line), "@@oh %s %s\n", what, name);

	if (write(1, line, (size_t)n) != n)
		die("cannot write the %s marker", what);
}

static void summary(const char *name, double secs, uint64_t bytes)
{
	printf("ohrun: %s: %llu bytes in %.6f s (guest clock)\n", name, (unsigned long long)bytes,
	       secs);
}

static int run_raw(const char *name, int argc, char **argv)
{
	uint64_t bs, count, seed, size, region;
	const char *pattern = NULL;
	void *buf;
	double t0;
	int fd, rnd;

	if (argc < 1)
		usage();
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "pattern=", 8))
			pattern = argv[i] + 8;
	if (!pattern || (strcmp(pattern, "seq") && strcmp(pattern, "rand")))
		usage();
	rnd = !strcmp(pattern, "rand");
	bs = key_u64(argc, argv, "bs", -1) * 1024;
	count = key_u64(argc, argv, "count", -1);
	/* lookahead's rawread: seed 0 is its fixed stand-in, xorshift never leaves 0 */
	seed = key_u64(argc, argv, "seed", 1);
	if (!seed)
		seed = PRANDOM_SEED_FOR_ZERO;
	if (!bs || !count)
		die("bs= and count= must be positive");
	fd = open(argv[0], O_RDONLY | O_DIRECT);
	if (fd < 0)
		die("%s: %s", argv[0], strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size))
		die("%s: BLKGETSIZE64: %s", argv[0], strerror(errno));
	region = size / bs; /* whole reads that fit, as rawread's region */
	if (!region || (!rnd && count > region))
		die("%s: %llu reads of %llu bytes do not fit in %llu bytes", argv[0],
		    (unsigned long long)count, (unsigned long long)bs, (unsigned long long)size);
	if (posix_memalign(&buf, 4096, bs))
		die("no memory for a %llu-byte buffer", (unsigned long long)bs);
	marker("begin", name);
	t0 = now_s();
	for (uint64_t i = 0; i < count; i++) {
		uint64_t blk = rnd ? prandom_u64(&seed) % region : i;
		ssize_t n = pread(fd, buf, bs, (off_t)(blk * bs));

		if (n != (ssize_t)bs)
			die("%s: read %llu at byte %llu: %s", argv[0], (unsigned long long)i,
			    (unsigned long long)(blk * bs), n < 0 ? strerror(errno) : "short");
	}
	t0 = now_s() - t0;
	marker("end", name);
	summary(name, t0, count * bs);
	return 0;
}

static int run_cat(const char *name, int argc, char **argv)
{
	uint64_t bs, bytes = 0;
	void *buf;
	ssize_t n;
	double t0;
	int fd;

	if (argc < 1)
		usage();
	bs = key_u64(argc, argv, "bs", -1);
	if (!bs)
		die("bs= must be positive");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s", argv[0], strerror(errno));
	buf = malloc(bs);
	if (!buf)
		die("no memory for a %llu-byte buffer", (unsigned long long)bs);
	marker("begin", name);
	t0 = now_s();
	while ((n = read(fd, buf, bs)) > 0) {
		bytes += (uint64_t)n;
	}
	if (n < 0)
		die("%s: read at byte %llu: %s", argv[0], (unsigned long long)bytes,
		    strerror(errno));
	t0 = now_s() - t0;
	marker("end", name);
	summary(name, t0, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: ohrun NAME raw DEV bs=KiB pattern=seq|rand count=N [seed=N]\n"
		     "       ohrun NAME cat FILE bs=BYTES\n"
		     "(tools/overhead's Linux guest program: see tools/helpers/ohrun.c)");
		return 0;
	}
	if (argc < 4)
		usage();
	if (!strcmp(argv[2], "raw"))
		return run_raw(argv[1], argc - 3, argv + 3);
	if (!strcmp(argv[2], "cat"))
		return run_cat(argv[1], argc - 3, argv + 3);
	usage();
}
