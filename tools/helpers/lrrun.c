/*
 * lrrun: replay a fio iolog inside a Linux guest, for tools/linux-ref, which
 * boots Debian's kernel and records its readahead tracepoints while this
 * program reads. A static binary of the host's gcc (make build/host/lrrun),
 * put in the guest's initramfs.
 *
 *	lrrun LOG [access=read|mmap] [advice=normal|sequential|random|willneed]
 *	      [madvise=normal|sequential|random|willneed|hugepage] [prot=read|exec]
 *	      [files=close|keep] [timing=asap|recorded] [think=cpu|sleep] [mnt=/mnt]
 *
 * It replays the log as lookahead's `bench replay` does (bench/replay.c;
 * timing=asap unless told), so the two kernels see the same requests: the log is
 * parsed whole first by lookahead's own parser (bench/iolog.c), each file
 * it opens is looked up at MNT/replay/files/NAME (tools/mkbench --iolog's
 * layout) and sized, and a log the parser refuses, a missing file or a
 * read starting past a file's end stops it before anything is read. Then
 * the log's lines in order, with no pauses (timing=asap): each open an open() of its own
 * (its own readahead state), each read a pread() of the log's offset and
 * length into one buffer as large as the largest read, each close a
 * close(); writes, syncs, trims, waits and unknown actions are skipped.
 * files=keep opens each file once and keeps it to the end.
 *
 * timing=recorded keeps the log's pauses as bench replay's timing=recorded
 * does: a version 3 line no sooner than its timestamp's distance after the
 * previous line's issue, a version 2 wait ending no sooner than its
 * microseconds after the previous wait ended; a line already late does not
 * wait and is counted, and pauses of more than an hour are refused.
 * think= is what a pause is, as bench replay's: cpu (the default) a busy
 * loop on clock_gettime(), sleep a clock_nanosleep() to the line's time.
 * Linux completes I/O on interrupts either way; think=sleep is there so
 * that both kernels are asked the same (lookahead's cooperative threads
 * complete a read during a pause only when it sleeps), and tools/linux-ref's
 * mmap-huge replays so on both sides (docs/linux-ref.md).
 *
 * access=mmap: each open also maps the whole file (PROT_READ, MAP_SHARED)
 * and each read touches one byte of every page of [offset, offset +
 * length), in order, where pread would have copied them: the page faults
 * and their readahead instead of the read path's. The mapping goes at the
 * close.
 *
 * advice=X: posix_fadvise(fd, 0, 0, X) right after each open, and with
 * access=mmap the matching madvise() of the mapping (normal, sequential,
 * random, willneed). Without advice= neither is called. madvise=X (with
 * access=mmap) calls madvise(X) on each mapping after that, and alone:
 * the mapping's hint without the file's (hugepage: MADV_HUGEPAGE, Linux's
 * VM_HUGEPAGE). prot=exec maps with PROT_READ | PROT_EXEC (VM_EXEC).
 *
 * With LRRUN_MARK=NAME in the environment (tools/overhead, which times the
 * replay by the host's clock) it writes "@@oh begin NAME" on stdout right
 * before the first action and "@@oh end NAME" right after the last, each
 * flushed at once.
 *
 * It prints one summary line and exits 0; any error (a read returning
 * other than the log's length clipped at the file's end, a failed open,
 * mmap or advice) is one line naming the log's line, exit status 1; bad
 * arguments (an unknown key, a value not one of its choices, think=sleep
 * without timing=recorded) are one line, exit status 2.
 */
#define _GNU_SOURCE /* asprintf() */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/iolog.h"

enum access { ACCESS_READ, ACCESS_MMAP };
enum advice { ADVICE_NONE = -1, ADVICE_NORMAL, ADVICE_SEQUENTIAL, ADVICE_RANDOM, ADVICE_WILLNEED };

static const char *const access_names[] = {"read", "mmap", NULL};
static const char *const advice_names[] = {"normal", "sequential", "random", "willneed", NULL};
static const char *const files_names[] = {"close", "keep", NULL};
static const int fadvice[] = {POSIX_FADV_NORMAL, POSIX_FADV_SEQUENTIAL, POSIX_FADV_RANDOM,
			      POSIX_FADV_WILLNEED};
static const int madvice[] = {MADV_NORMAL, MADV_SEQUENTIAL, MADV_RANDOM, MADV_WILLNEED,
			      MADV_HUGEPAGE};
static const char *const madvise_names[] = {"normal", "sequential", "random", "willneed",
					    "hugepage", NULL};
static const char *const prot_names[] = {"read", "exec", NULL};
static const char *const timing_names[] = {"asap", "recorded", NULL};
static const char *const think_names[] = {"cpu", "sleep", NULL};

/* One action line the replay acts on. */
struct op {
	uint64_t offset, length;
	uint64_t pause_ns; /* timing=recorded: v3 since the last line's issue; v2 wait: its time */
	int file;
	unsigned int line;
	enum iolog_action action;
};

/* A file of the log, on the guest's mount. */
struct rfile {
	char *path;
	off_t size;
	int fd; /* -1: not open */
	unsigned char *map;
	uint64_t opens;
};

struct replay {
	const char *log_path;
	struct iolog log;
	struct op *ops;
	size_t nr_ops, cap_ops;
	uint64_t max_read;
	struct rfile *files;
	enum access access;
	enum advice advice;
	int madvise;	/* an index of madvise_names, or -1: none of its own */
	bool exec;	/* prot=exec */
	bool keep;
	bool recorded;	/* timing=recorded */
	bool sleep;	/* think=sleep */
	unsigned char *buf;
	long page;
	uint64_t reads, bytes, pages_touched, kept_opens;
	uint64_t waited_ns, late; /* timing=recorded: time paused, lines already late */
	unsigned long touch_sum; /* what the touches read, so that they are not optimised away */
};

#define DIE_PREFIX "lrrun: "
#include "tools/helpers/die.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: lrrun LOG [access=read|mmap] "
		"[advice=normal|sequential|random|willneed] "
		"[madvise=normal|sequential|random|willneed|hugepage] [prot=read|exec] "
		"[files=close|keep] [timing=asap|recorded] [think=cpu|sleep] [mnt=DIR]\n");
	exit(2);
}

/* The index of @val in @names, or a usage error naming @key. */
static int choice(const char *key, const char *val, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(val, names[i]))
			return i;
	fprintf(stderr, "lrrun: %s=%s: not one of", key, val);
	for (int i = 0; names[i]; i++)
		fprintf(stderr, " %s", names[i]);
	fputc('\n', stderr);
	exit(2);
}

static int store_op(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	struct replay *r = ctx;
	int err = iolog_replay_check(log, op, r->recorded);

	if (err)
		return err;
	/*
	 * Only these act; the rest is skipped as bench replay skips it, but under
	 * timing=recorded each line keeps its place in time (its pause comes first).
	 */
	if (op->action != IOLOG_OPEN && op->action != IOLOG_CLOSE && op->action != IOLOG_READ &&
	    !r->recorded)
		return 0;
	if (r->nr_ops == r->cap_ops) {
		r->cap_ops = r->cap_ops ? 2 * r->cap_ops : 4096;
		r->ops = realloc(r->ops, r->cap_ops * sizeof(*r->ops));
		if (!r->ops)
			die("%s: no memory for %zu actions", r->log_path, r->cap_ops);
	}
	r->ops[r->nr_ops++] = (struct op){
		.offset = op->offset,
		.length = op->length,
		.file = op->file,
		.line = op->line,
		.action = op->action,
		.pause_ns = min_t(uint64_t, iolog_pause_us(op), IOLOG_REPLAY_MAX_PAUSE_US) * 1000,
	};
	if (op->action == IOLOG_READ && op->length > r->max_read)
		r->max_read = op->length;
	return 0;
}

static void load_log(struct replay *r)
{
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap);
	struct iolog_file *files;
	uint32_t *hash;
	unsigned int n;
	FILE *f;

	f = fopen(r->log_path, "rb");
	if (!f || !text)
		die("%s: %s", r->log_path, strerror(errno));
	for (;;) {
		len += fread(text + len, 1, cap - len, f);
		if (len < cap)
			break;
		cap *= 2;
		text = realloc(text, cap);
		if (!text)
			die("%s: no memory to read it", r->log_path);
	}
	if (ferror(f))
		die("%s: %s", r->log_path, strerror(errno));
	fclose(f);
	n = iolog_max_files(len);
	files = calloc(n, sizeof(*files));
	hash = calloc(iolog_hash_slots(n), sizeof(*hash));
	if (!files || !hash)
		die("%s: no memory for its file table", r->log_path);
	iolog_init(&r->log, files, n, hash, iolog_hash_slots(n));
	if (iolog_parse(&r->log, text, len, store_op, r))
		die("%s: %s", r->log_path, r->log.err);
	/* the file names point into @text, which stays for the run */
}

static void resolve_files(struct replay *r, const char *mnt)
{
	r->files = calloc(r->log.nr_files ? r->log.nr_files : 1, sizeof(*r->files));
	if (!r->files)
		die("no memory for %u files", r->log.nr_files);
	for (unsigned int i = 0; i < r->log.nr_files; i++) {
		const struct iolog_file *lf = &r->log.files[i];
		struct rfile *rf = &r->files[i];
		unsigned int skip;
		struct stat st;

		rf->fd = -1;
		if (!lf->opens)
			continue;
		if (!iolog_plain_name(lf->name, lf->len))
			die("%s: line %u: %.*s is not a plain path (an empty, '.' or '..' "
			    "component)",
			    r->log_path, lf->add_line, (int)lf->len, lf->name);
		skip = lf->name[0] == '/';
		if (asprintf(&rf->path, "%s/replay/files/%.*s", mnt, (int)(lf->len - skip),
			     lf->name + skip) < 0)
			die("no memory for file names");
		if (stat(rf->path, &st))
			die("%s: line %u: %s: %s (tools/mkbench --iolog builds the image)",
			    r->log_path, lf->add_line, rf->path, strerror(errno));
		if (!S_ISREG(st.st_mode))
			die("%s: line %u: %s is not a regular file", r->log_path, lf->add_line,
			    rf->path);
		rf->size = st.st_size;
		if (lf->reads && lf->max_offset > (uint64_t)st.st_size)
			die("%s: line %u: a read at offset %llu of %s, past its end (%lld bytes)",
			    r->log_path, lf->max_offset_line, (unsigned long long)lf->max_offset,
			    rf->path, (long long)st.st_size);
	}
}

static void open_file(struct replay *r, struct rfile *rf, const struct op *o)
{
	int err;

	if (rf->fd >= 0) {
		/* files=keep: the first open stays (without keep the parser refuses this) */
		r->kept_opens++;
		return;
	}
	rf->fd = open(rf->path, O_RDONLY);
	if (rf->fd < 0)
		die("%s: line %u: open %s: %s", r->log_path, o->line, rf->path, strerror(errno));
	rf->opens++;
	if (r->advice != ADVICE_NONE) {
		err = posix_fadvise(rf->fd, 0, 0, fadvice[r->advice]);
		if (err)
			die("%s: line %u: posix_fadvise(%s, %s): %s", r->log_path, o->line,
			    rf->path, advice_names[r->advice], strerror(err));
	}
	if (r->access != ACCESS_MMAP || !rf->size)
		return; /* an empty file has nothing to map, and no read of it touches a page */
	rf->map = mmap(NULL, (size_t)rf->size, PROT_READ | (r->exec ? PROT_EXEC : 0), MAP_SHARED,
		       rf->fd, 0);
	if (rf->map == MAP_FAILED)
		die("%s: line %u: mmap %s (%lld bytes): %s", r->log_path, o->line, rf->path,
		    (long long)rf->size, strerror(errno));
	if (r->advice != ADVICE_NONE && madvise(rf->map, (size_t)rf->size, madvice[r->advice]))
		die("%s: line %u: madvise(%s, %s): %s", r->log_path, o->line, rf->path,
		    advice_names[r->advice], strerror(errno));
	if (r->madvise >= 0 && madvise(rf->map, (size_t)rf->size, madvice[r->madvise]))
		die("%s: line %u: madvise(%s, %s): %s", r->log_path, o->line, rf->path,
		    madvise_names[r->madvise], strerror(errno));
}

static void close_file(struct replay *r, struct rfile *rf, unsigned int line)
{
	if (rf->map && munmap(rf->map, (size_t)rf->size))
		die("%s: line %u: munmap %s: %s", r->log_path, line, rf->path, strerror(errno));
	rf->map = NULL;
	if (close(rf->fd))
		die("%s: line %u: close %s: %s", r->log_path, line, rf->path, strerror(errno));
	rf->fd = -1;
}

static void read_file(struct replay *r, struct rfile *rf, const struct op *o)
{
	uint64_t expect = 0;
	ssize_t n;

	if (o->offset < (uint64_t)rf->size)
		expect = min_t(uint64_t, o->length, (uint64_t)rf->size - o->offset);
	r->reads++;
	if (r->access == ACCESS_MMAP) {
		uint64_t pos = o->offset, end = o->offset + expect;

		/* the byte at the offset, then the first byte of each later page */
		while (pos < end) {
			r->touch_sum += *(volatile unsigned char *)(rf->map + pos);
			r->pages_touched++;
			pos = (pos / (uint64_t)r->page + 1) * (uint64_t)r->page;
		}
		r->bytes += expect;
		return;
	}
	/*
	 * One pread() of the whole length, as bench replay's: a regular file's read returns it
	 * all but at the end of the file, and anything else is the kernel's doing to report.
	 */
	n = pread(rf->fd, r->buf, (size_t)o->length, (off_t)o->offset);
	if (n < 0)
		die("%s: line %u: a read of %llu bytes at %llu of %s: %s", r->log_path, o->line,
		    (unsigned long long)o->length, (unsigned long long)o->offset, rf->path,
		    strerror(errno));
	if ((uint64_t)n != expect)
		die("%s: line %u: a read of %llu bytes at %llu of %s returned %lld, not %llu",
		    r->log_path, o->line, (unsigned long long)o->length,
		    (unsigned long long)o->offset, rf->path, (long long)n,
		    (unsigned long long)expect);
	r->bytes += (uint64_t)n;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* timing=recorded's pause before @o, as bench replay's pause_before(); *@anchor counts it. */
static void pause_before(struct replay *r, const struct op *o, uint64_t *anchor)
{
	uint64_t due, now = now_ns();

	if (r->log.version == 2 && o->action != IOLOG_WAIT)
		return;
	due = *anchor + o->pause_ns;
	if (due > now) {
		if (r->sleep) {
			struct timespec t = {.tv_sec = (time_t)(due / 1000000000),
					     .tv_nsec = (long)(due % 1000000000)};

			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
				;
		} else {
			while (now_ns() < due)
				;
		}
		r->waited_ns += now_ns() - now;
	} else if (o->pause_ns) {
		r->late++;
	}
	if (o->action == IOLOG_WAIT)
		*anchor = now_ns(); /* the next wait counts from this one's end */
}

static void replay(struct replay *r)
{
	uint64_t anchor = now_ns();

	for (size_t i = 0; i < r->nr_ops; i++) {
		const struct op *o = &r->ops[i];
		struct rfile *rf = o->file >= 0 ? &r->files[o->file] : NULL;

		if (r->recorded)
			pause_before(r, o, &anchor);
		/* in version 3 the next line counts from this one's issue */
		if (r->log.version == 3)
			anchor = now_ns();
		switch (o->action) {
		case IOLOG_OPEN:
			open_file(r, rf, o);
			break;
		case IOLOG_CLOSE:
			if (!r->keep)
				close_file(r, rf, o->line);
			break;
		case IOLOG_READ:
			read_file(r, rf, o);
			break;
		default:
			break;
		}
	}
	for (unsigned int i = 0; i < r->log.nr_files; i++)
		if (r->files[i].fd >= 0)
			close_file(r, &r->files[i], r->log.lines);
}

int main(int argc, char **argv)
{
	struct replay r = {.access = ACCESS_READ, .advice = ADVICE_NONE, .madvise = -1};
	const char *mnt = "/mnt";
	struct timespec t0, t1;
	uint64_t opens = 0;
	char timing[96] = "";

	if (argc < 2 || argv[1][0] == '-')
		usage();
	r.log_path = argv[1];
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			usage();
		*eq = '\0';
		if (!strcmp(argv[i], "access"))
			r.access = (enum access)choice("access", eq + 1, access_names);
		else if (!strcmp(argv[i], "advice"))
			r.advice = (enum advice)choice("advice", eq + 1, advice_names);
		else if (!strcmp(argv[i], "madvise"))
			r.madvise = choice("madvise", eq + 1, madvise_names);
		else if (!strcmp(argv[i], "prot"))
			r.exec = choice("prot", eq + 1, prot_names) == 1;
		else if (!strcmp(argv[i], "files"))
			r.keep = choice("files", eq + 1, files_names) == 1;
		else if (!strcmp(argv[i], "timing"))
			r.recorded = choice("timing", eq + 1, timing_names) == 1;
		else if (!strcmp(argv[i], "think"))
			r.sleep = choice("think", eq + 1, think_names) == 1;
		else if (!strcmp(argv[i], "mnt") && eq[1])
			mnt = eq + 1;
		else
			usage();
	}
	if (r.access != ACCESS_MMAP && (r.madvise >= 0 || r.exec)) {
		fprintf(stderr, "lrrun: madvise= and prot= are a mapping's: with access=mmap\n");
		exit(2);
	}
	if (r.sleep && !r.recorded) {
		fprintf(stderr, "lrrun: think=sleep is timing=recorded's (timing=asap has no "
			"pauses)\n");
		exit(2);
	}
	r.page = sysconf(_SC_PAGESIZE);
	load_log(&r);
	resolve_files(&r, mnt);
	if (r.access == ACCESS_READ) {
		r.buf = malloc(r.max_read ? (size_t)r.max_read : 1);
		if (!r.buf)
			die("no memory for a read of %llu bytes", (unsigned long long)r.max_read);
	}
	if (getenv("LRRUN_MARK")) {
		printf("@@oh begin %s\n", getenv("LRRUN_MARK"));
		fflush(stdout);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	replay(&r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (getenv("LRRUN_MARK")) {
		printf("@@oh end %s\n", getenv("LRRUN_MARK"));
		fflush(stdout);
	}
	for (unsigned int i = 0; i < r.log.nr_files; i++)
		opens += r.files[i].opens;
	/* asap's line as it was; recorded says how it paused */
	if (r.recorded)
		snprintf(timing, sizeof(timing), " timing=recorded think=%s; waited %.3f s, "
			 "%llu lines late", think_names[r.sleep], (double)r.waited_ns / 1e9,
			 (unsigned long long)r.late);
	printf("lrrun: %s: %llu reads, %llu bytes, %llu opens (%llu kept), %llu pages touched; "
	       "access=%s advice=%s madvise=%s prot=%s files=%s%s; %.3f s\n",
	       r.log_path, (unsigned long long)r.reads, (unsigned long long)r.bytes,
	       (unsigned long long)opens, (unsigned long long)r.kept_opens,
	       (unsigned long long)r.pages_touched, access_names[r.access],
	       r.advice == ADVICE_NONE ? "none" : advice_names[r.advice],
	       r.madvise < 0 ? "none" : madvise_names[r.madvise], prot_names[r.exec],
	       files_names[r.keep], timing,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
