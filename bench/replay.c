/*
 * bench replay: an application's reads, replayed from a fio iolog
 * (bench/iolog.h) on the files of a replay image (tools/mkbench --iolog:
 * the log at /replay/logs/NAME, each file it names at /replay/files/ + its
 * name, a pattern file, so every byte read is checked).
 *
 *	bench replay log=/replay/logs/NAME [timing=asap|recorded [think=cpu|sleep]]
 *		     [files=close|keep] [access=read|mmap] [madvise=X] [prot=read|exec]
 *
 * The whole log is read and parsed before anything is replayed, and every
 * file it opens is looked up and sized: a log the parser refuses, a file
 * the image lacks, or a read starting past what the image holds is one
 * error naming the line, and nothing is replayed. Then, in one phase, the
 * log's lines in order: each open is an open of its own (its own
 * readahead state, as the application had it), each read a pread() of the
 * log's offset and length, each close a close. A read of any length is
 * one request, as the application's was: one larger than the replay's
 * 4 MiB buffer goes through the read path whole and
 * its data through the buffer (bench_pread_through()). files=keep opens each file
 * once and keeps it to the end, so the log's closes and reopens do not
 * reset its readahead state. Writes, syncs and trims are counted and
 * skipped (the file system is read-only); an action the parser does not
 * know stops the log at its line, as any other malformed line.
 *
 * timing=recorded keeps the log's pauses as the reader's think time
 * (compute, on the run's clock), as fio replays them: a version 3 line is
 * issued no sooner than its timestamp's distance after the previous
 * line's issue, and a version 2 wait ends no sooner than its microseconds
 * after the previous wait ended (fio's HOWTO: "relative to the previous
 * wait"). A reader whose reads took longer than the pause does not wait,
 * and does not catch up either (late_lines counts those). So the replay
 * takes at least the trace's own duration (trace_secs), and the time it
 * waited (waited_secs) is the log's pauses less what the reads before
 * them took: not the log's own, it depends on how fast the reads were,
 * and so on the algorithm. timing=asap drops the pauses.
 *
 * think= is what a pause is. cpu (the default) spins on the clock, as a
 * reader computing (bench_think()): threads here are cooperative, so
 * nothing else runs during it, and a read the reader left in flight
 * completes only when the reader next waits for it. sleep sleeps
 * (sleep_ns()), as a reader blocked elsewhere: the disk's completion
 * thread runs meanwhile, so the I/O a read started is done before the
 * next line if the pause is longer than the disk took, as in a Linux
 * guest whose I/O completes on interrupts. tools/linux-ref's mmap-huge
 * needs that: whether a fault meets a folio still under I/O decides its
 * mmap_miss (docs/linux-ref.md).
 *
 * The phase reports the usual figures over all files, what was skipped,
 * and then one line per file (RESULT "bench-file"): opens, reads, bytes,
 * the disk I/Os its reads submitted (readahead windows and pages read
 * alone) and its stall.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/iolog.h"
#include "bench/replay.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/filemap.h"
#include "mm/kobj.h"
#include "mm/mm.h"

/*
 * The log is read whole into one buffer, and it and the tables sized from
 * it come from the page cache's RAM (kvmalloc(), mm/kobj.c), as a
 * program's would: RAM, not a heap, bounds the trace. The reads' buffer
 * (larger reads pass through it).
 */
#define REPLAY_LOG_MAX ((loff_t)IOLOG_REPLAY_LOG_MAX)
#define REPLAY_BUF_MAX KMALLOC_MAX_SIZE
#define FILES_DIR      "/replay/files"

static const char *const timing_names[] = {"asap", "recorded", NULL};
static const char *const think_names[] = {"cpu", "sleep", NULL};
static const char *const files_names[] = {"close", "keep", NULL};
static const char *const access_names[] = {"read", "mmap", NULL};
/* madvise(): "advice" leaves the mapping to advice= (bench's fadvise key), as lrrun does */
static const char *const madvise_names[] = {"advice", "normal", "sequential", "random",
					    "willneed", "hugepage", NULL};
enum { MADV_AS_ADVICE, MADV_NORMAL, MADV_SEQUENTIAL, MADV_RANDOM, MADV_WILLNEED, MADV_HUGEPAGE };
static const char *const prot_names[] = {"read", "exec", NULL};

static const struct bench_param replay_params[] = {
	{"log", KV_STRING, NULL, (uintptr_t) "", 0, 0,
	 "the fio iolog (tools/mkbench --iolog: /replay/logs/NAME)"},
	{"timing", KV_ENUM, timing_names, 0, 0, 0,
	 "asap, or recorded: the log's waits and timestamps as think time"},
	{"think", KV_ENUM, think_names, 0, 0, 0,
	 "timing=recorded's pauses: cpu spins (no thread else runs), sleep sleeps (I/O completes)"},
	{"files", KV_ENUM, files_names, 0, 0, 0,
	 "close: opens and closes as logged; keep: one open per file to the end"},
	{"access", KV_ENUM, access_names, 0, 0, 0,
	 "read: each read a pread; mmap: each open maps the file, each read touches its pages"},
	{"madvise", KV_ENUM, madvise_names, 0, 0, 0,
	 "access=mmap: the madvise() of each mapping (advice: as advice= says)"},
	{"prot", KV_ENUM, prot_names, 0, 0, 0,
	 "access=mmap: PROT_READ, or exec: PROT_READ|PROT_EXEC (Linux's VM_EXEC)"},
};

/* One action line, as the replay needs it. */
struct rop {
	uint64_t offset;
	uint64_t pause_ns; /* v3: since the previous line's issue; v2 wait: its time */
	uint32_t length;
	int32_t file;
	uint32_t line;
	uint8_t action;
};

#define ROP_CHUNK 2048
struct rop_chunk {
	struct rop_chunk *next;
	unsigned int n;
	struct rop op[ROP_CHUNK];
};

/* A file of the log, in the image. */
struct rfile {
	char *path; /* FILES_DIR + the log's name */
	struct file *f;
	struct file_mmap map; /* access=mmap: the open's mapping (map.pages NULL: none) */
	loff_t size;
	uint64_t opens, reads, bytes, short_reads;
	struct ra_stats ra; /* its opens' counters, added up as they close */
};

struct replay {
	struct bench *b;
	const char *log_path;
	char *text;
	struct iolog log;
	struct iolog_file *lfiles;
	uint32_t *hash;
	struct rop_chunk *ops, *tail;
	uint64_t nr_ops;
	uint32_t max_read;
	struct rfile *files;
	void *buf;
	size_t buf_len;
	bool recorded, keep, mmap;
	/* a pause: bench_think() or sleep_ns(), called alike so that cpu's path is unchanged */
	void (*think)(uint64_t ns);
	unsigned int madvise;	/* MADV_AS_ADVICE, ... */
	bool exec;		/* prot=exec */
	/* what the phase did */
	uint64_t waited_ns, late, short_reads, kept_opens;
	uint32_t stopped_line;
	char why[160]; /* what stopped it */
};

static int store_op(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	struct replay *r = ctx;
	struct rop *o;
	int err = iolog_replay_check(log, op, r->recorded);

	if (err)
		return err;
	if (!r->tail || r->tail->n == ROP_CHUNK) {
		struct rop_chunk *c = kvmalloc(sizeof(*c), GFP_WORKLOAD);
		char room[160];

		if (!c) {
			kobj_room_hint(room, sizeof(room));
			snprintf(log->err, sizeof(log->err),
				 "line %u: no memory for the log's actions (%llu so far, %zu bytes "
				 "each): %s", op->line, (unsigned long long)r->nr_ops,
				 sizeof(struct rop), room);
			return -ENOMEM;
		}
		c->next = NULL;
		c->n = 0;
		if (r->tail)
			r->tail->next = c;
		else
			r->ops = c;
		r->tail = c;
	}
	o = &r->tail->op[r->tail->n++];
	o->offset = op->offset;
	o->length = (uint32_t)op->length;
	o->file = op->file;
	o->line = op->line;
	o->action = (uint8_t)op->action;
	/* asap ignores them; recorded took only pauses of up to an hour */
	o->pause_ns = min_t(uint64_t, iolog_pause_us(op), IOLOG_REPLAY_MAX_PAUSE_US) * 1000;
	if (op->action == IOLOG_READ)
		r->max_read = max(r->max_read, (uint32_t)op->length);
	r->nr_ops++;
	return 0;
}

/* One error line: what had no room, its bytes, what holds the RAM and what would make room. */
static void no_room(struct replay *r, const char *what, uint64_t bytes)
{
	char room[200];

	kobj_room_hint(room, sizeof(room));
	pr_err("bench replay: %s: no memory for %s (%llu bytes): %s\n", r->log_path, what,
	       (unsigned long long)bytes, room);
}

/* Read the whole log and parse it into r->ops; one error line on failure. */
static int load_log(struct replay *r)
{
	struct file *f;
	loff_t size, got = 0;
	unsigned int n;
	int err;

	f = vfs_open(r->log_path, &err);
	if (!f) {
		pr_err("bench replay: %s: %s\n", r->log_path, vfs_errname(err));
		return err;
	}
	size = f->f_inode->i_size;
	if (vfs_mode_ftype(f->f_inode->i_mode) != VFS_FT_REG || size > REPLAY_LOG_MAX) {
		pr_err("bench replay: %s: %s\n", r->log_path,
		       size > REPLAY_LOG_MAX ? "larger than the 2 GiB the replay parses"
					     : "not a regular file");
		vfs_close(f);
		return -EINVAL;
	}
	r->text = kvmalloc(max_t(size_t, (size_t)size, 1), GFP_WORKLOAD);
	if (!r->text) {
		no_room(r, "its text", (uint64_t)size);
		vfs_close(f);
		return -ENOMEM;
	}
	while (got < size) {
		ssize_t m = vfs_read(f, r->text + got, (size_t)(size - got));

		if (m <= 0) {
			pr_err("bench replay: %s: read failed at offset %lld: %s\n", r->log_path,
			       (long long)got, m ? vfs_errname((int)m) : "end of file");
			vfs_close(f);
			return m ? (int)m : -EIO;
		}
		got += m;
	}
	vfs_close(f);
	n = iolog_max_files((size_t)size);
	r->lfiles = kvmalloc(n * sizeof(*r->lfiles), GFP_WORKLOAD);
	r->hash = kvmalloc(iolog_hash_slots(n) * sizeof(*r->hash), GFP_WORKLOAD);
	if (!r->lfiles || !r->hash) {
		no_room(r, "its file table", (uint64_t)n * sizeof(*r->lfiles) +
					     iolog_hash_slots(n) * sizeof(*r->hash));
		return -ENOMEM;
	}
	iolog_init(&r->log, r->lfiles, n, r->hash, iolog_hash_slots(n));
	err = iolog_parse(&r->log, r->text, (size_t)size, store_op, r);
	if (err)
		pr_err("bench replay: %s: %s\n", r->log_path, r->log.err);
	return err;
}

/* Each file the log opens: its path in the image, there, big enough. */
static int resolve_files(struct replay *r)
{
	r->files = kvmalloc(max_t(size_t, r->log.nr_files, 1) * sizeof(*r->files),
			    GFP_WORKLOAD | __GFP_ZERO);
	if (!r->files) {
		no_room(r, "its files' state", (uint64_t)r->log.nr_files * sizeof(*r->files));
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < r->log.nr_files; i++) {
		const struct iolog_file *lf = &r->lfiles[i];
		struct rfile *rf = &r->files[i];
		size_t len = sizeof(FILES_DIR) + 1 + lf->len;
		struct kstat st;
		int err;

		if (!lf->opens)
			continue; /* added, never opened: the replay does not need it */
		if (!iolog_plain_name(lf->name, lf->len)) {
			pr_err("bench replay: %s: line %u: %.*s is not a plain path (an empty, '.' "
			       "or '..' component)\n",
			       r->log_path, lf->add_line, (int)lf->len, lf->name);
			return -EINVAL;
		}
		rf->path = kmalloc(len, GFP_WORKLOAD);
		if (!rf->path) {
			no_room(r, "file names", len);
			return -ENOMEM;
		}
		snprintf(rf->path, len, "%s%s%.*s", FILES_DIR, lf->name[0] == '/' ? "" : "/",
			 (int)lf->len, lf->name);
		err = vfs_stat(rf->path, &st);
		if (!err && vfs_mode_ftype(st.mode) != VFS_FT_REG)
			err = -EISDIR;
		if (err) {
			pr_err("bench replay: %s: line %u: %.*s: %s is not a file of the image "
			       "(%s); tools/mkbench --iolog builds one\n",
			       r->log_path, lf->add_line, (int)lf->len, lf->name, rf->path,
			       vfs_errname(err));
			return err;
		}
		rf->size = st.size;
		if (lf->reads && lf->max_offset > (uint64_t)st.size) {
			pr_err("bench replay: %s: line %u: a read at offset %llu of %.*s, past "
			       "what the image holds (%lld bytes)\n",
			       r->log_path, lf->max_offset_line, (unsigned long long)lf->max_offset,
			       (int)lf->len, lf->name, (long long)st.size);
			return -EINVAL;
		}
	}
	return 0;
}

static void close_rfile(struct replay *r, struct rfile *rf)
{
	struct ra_stats st;

	if (rf->map.pages)
		filemap_munmap(&rf->map);
	ra_file_stats(&rf->f->f_ra, &st);
	ra_stats_add(&rf->ra, &st);
	bench_close(r->b, rf->f);
	rf->f = NULL;
}

/* The pause before @o under timing=recorded; *@anchor is the time it counts from. */
static void pause_before(struct replay *r, const struct rop *o, uint64_t *anchor)
{
	uint64_t due, now = ktime_ns();

	if (r->log.version == 2 && o->action != IOLOG_WAIT)
		return;
	due = *anchor + o->pause_ns;
	/*
	 * Written so that GCC lays the pause out of line as it did the direct call to
	 * bench_think() before think= came (the condition the other way round puts the
	 * indirect call inline, a jump fewer): under the virtual clock one instruction
	 * on this path moves every recorded replay's times.
	 */
	if (due <= now) {
		if (o->pause_ns)
			r->late++;
	} else {
		r->think(due - now);
		r->waited_ns += ktime_ns() - now;
	}
	if (o->action == IOLOG_WAIT)
		*anchor = ktime_ns(); /* the next wait counts from this one's end */
}

/*
 * access=mmap: map the open file as a program would (lrrun's mmap(), then
 * the madvise() matching the phase's advice, or madvise='s own: sequential
 * and random set the mapping's hint, hugepage Linux's VM_HUGEPAGE, willneed
 * reads the range ahead once more). prot=exec is a VM_EXEC mapping; a hint
 * overrides it (7.2 reads a VM_SEQ_READ exec mapping as sequential, and a
 * VM_RAND_READ one through VM_EXEC's path, which with no mark to meet is
 * exec's whole behaviour here).
 */
static int map_rfile(struct replay *r, struct rfile *rf)
{
	static const enum filemap_advice fault_advice[] = {
		[FADV_NORMAL] = FAULT_ADV_NORMAL, [FADV_SEQUENTIAL] = FAULT_ADV_SEQUENTIAL,
		[FADV_RANDOM] = FAULT_ADV_RANDOM, [FADV_WILLNEED] = FAULT_ADV_NORMAL,
	};
	static const enum filemap_advice madvice[] = {
		[MADV_NORMAL] = FAULT_ADV_NORMAL, [MADV_SEQUENTIAL] = FAULT_ADV_SEQUENTIAL,
		[MADV_RANDOM] = FAULT_ADV_RANDOM, [MADV_WILLNEED] = FAULT_ADV_NORMAL,
		[MADV_HUGEPAGE] = FAULT_ADV_HUGEPAGE,
	};
	enum filemap_advice adv = r->madvise == MADV_AS_ADVICE ? fault_advice[r->b->advice]
							      : madvice[r->madvise];
	bool willneed = r->madvise == MADV_AS_ADVICE ? r->b->advice == FADV_WILLNEED
						     : r->madvise == MADV_WILLNEED;
	int err;

	if (r->exec && (adv == FAULT_ADV_NORMAL || adv == FAULT_ADV_RANDOM))
		adv = FAULT_ADV_EXEC;
	err = filemap_mmap(rf->f, adv, &rf->map);
	if (err) {
		snprintf(r->why, sizeof(r->why), "%s would not map: %s", rf->path, errname(err));
		return err;
	}
	if (willneed)
		file_ra_fadvise(rf->f, 0, rf->size, FADV_WILLNEED);
	return 0;
}

/* access=mmap's read: the byte at @offset, then the first byte of each later page. */
static ssize_t touch_pages(struct replay *r, struct rfile *rf, uint64_t offset, uint64_t len)
{
	uint64_t pos = offset, end = offset + len;

	while (pos < end) {
		bench_touch(r->b, rf->f, rf->map.va + pos, (loff_t)pos);
		if (rf->map.error) {
			snprintf(r->why, sizeof(r->why), "a fault at page %lu of %s failed: %s",
				 rf->map.error_index, rf->path, errname(rf->map.error));
			return rf->map.error;
		}
		pos = (pos | (PAGE_SIZE - 1)) + 1;
	}
	return (ssize_t)len;
}

static int replay_one(struct replay *r, const struct rop *o)
{
	struct rfile *rf = o->file >= 0 ? &r->files[o->file] : NULL;
	uint64_t expect;
	ssize_t n;

	switch (o->action) {
	case IOLOG_OPEN:
		if (r->keep && rf->f) {
			r->kept_opens++;
			return 0;
		}
		rf->f = bench_open(r->b, rf->path);
		if (!rf->f) {
			snprintf(r->why, sizeof(r->why), "%s would not open", rf->path);
			return -EIO;
		}
		if (r->mmap && rf->size && map_rfile(r, rf))
			return -EIO;
		rf->opens++;
		return 0;
	case IOLOG_CLOSE:
		if (!r->keep)
			close_rfile(r, rf);
		return 0;
	case IOLOG_READ:
		expect = o->offset >= (uint64_t)rf->size
				 ? 0
				 : min_t(uint64_t, o->length, (uint64_t)rf->size - o->offset);
		/*
		 * One read request whatever its length, as the application made it:
		 * one larger than the buffer passes through it, checked as it fills;
		 * access=mmap touches the pages of a mapping instead.
		 */
		if (r->mmap)
			n = touch_pages(r, rf, o->offset, expect);
		else if (o->length <= r->buf_len)
			n = bench_pread(r->b, rf->f, r->buf, o->length, (loff_t)o->offset);
		else
			n = bench_pread_through(r->b, rf->f, r->buf, r->buf_len, o->length,
						(loff_t)o->offset);
		rf->reads++;
		if (n > 0)
			rf->bytes += (uint64_t)n;
		if (n != (ssize_t)expect) {
			snprintf(r->why, sizeof(r->why),
				 "a read of %u bytes at %llu of %s returned %lld%s%s%s, not %llu",
				 o->length, (unsigned long long)o->offset, rf->path, (long long)n,
				 n < 0 ? " (" : "", n < 0 ? vfs_errname((int)n) : "",
				 n < 0 ? ")" : "", (unsigned long long)expect);
			return -EIO;
		}
		if (expect < o->length) {
			rf->short_reads++;
			r->short_reads++;
		}
		return 0;
	default:
		return 0; /* add, wait, and what a read-only replay skips */
	}
}

static void per_file_results(struct replay *r)
{
	unsigned int shown = 0, order[10], nshow = 0;

	/* the ten files with the most disk I/Os, for the console */
	for (unsigned int i = 0; i < r->log.nr_files; i++) {
		struct rfile *rf = &r->files[i];
		uint64_t ios = rf->ra.sync_ios + rf->ra.async_ios + rf->ra.readpage_ios;
		unsigned int k;

		if (!rf->reads)
			continue;
		shown++;
		for (k = nshow; k > 0; k--) {
			struct rfile *o = &r->files[order[k - 1]];

			if (o->ra.sync_ios + o->ra.async_ios + o->ra.readpage_ios >= ios)
				break;
			if (k < ARRAY_SIZE(order))
				order[k] = order[k - 1];
		}
		if (k < ARRAY_SIZE(order)) {
			order[k] = i;
			nshow += nshow < ARRAY_SIZE(order);
		}
	}
	for (unsigned int k = 0; k < nshow; k++) {
		struct rfile *rf = &r->files[order[k]];

		printf("bench replay:   %-40s %3llu opens %6llu reads %8llu KiB, %5lu disk I/Os "
		       "(%lu windows, %lu pages alone), stall %.3f s\n",
		       rf->path + sizeof(FILES_DIR) - 1, (unsigned long long)rf->opens,
		       (unsigned long long)rf->reads, (unsigned long long)(rf->bytes >> 10),
		       rf->ra.sync_ios + rf->ra.async_ios + rf->ra.readpage_ios, rf->ra.windows,
		       rf->ra.readpage_ios, (double)rf->ra.stall_ns / 1e9);
	}
	if (shown > nshow)
		printf("bench replay:   (%u more files: their RESULT bench-file lines)\n",
		       shown - nshow);
	for (unsigned int i = 0; i < r->log.nr_files; i++) {
		struct rfile *rf = &r->files[i];
		struct result res;

		if (!rf->reads)
			continue;
		result_begin(&res, "bench-file");
		result_str(&res, "workload", "replay");
		if (r->b->suite)
			result_str(&res, "suite", r->b->suite);
		result_str(&res, "log", r->log_path);
		result_str(&res, "ra", r->b->ra->name);
		result_str(&res, "path", rf->path + sizeof(FILES_DIR) - 1);
		result_u64(&res, "opens", rf->opens);
		result_u64(&res, "reads", rf->reads);
		result_u64(&res, "bytes", rf->bytes);
		result_u64(&res, "short_reads", rf->short_reads);
		result_u64(&res, "ios", rf->ra.sync_ios + rf->ra.async_ios + rf->ra.readpage_ios);
		ra_result_counters(&res, &rf->ra);
		result_double(&res, "stall_secs", (double)rf->ra.stall_ns / 1e9, 6);
		result_end(&res);
	}
}

/*
 * Where the replay stopped, on error @err: one error line naming the line of
 * the log and what failed (a read or fault out of memory: with what holds
 * the RAM and what would make room); or, when what failed was an open that
 * said why itself (bench_open()'s error line names what ran out and what
 * would make room; b->open_err is set by nothing else here), a note beside
 * it, so that a run that stops prints one error line. Returns the error the
 * replay fails with: -ENOMEM when memory ran out, else @err. Out of line,
 * and replay_one() untouched, so that the phase's loop compiles as before
 * (under the virtual clock an instruction more there moves every time).
 */
static __attribute__((noinline)) int stopped(struct replay *r, int err)
{
	char room[200] = "";

	if (r->b->open_err) {
		printf("bench replay: %s: stopped at line %u (the error above), the figures are "
		       "up to line %u of %u\n",
		       r->log_path, r->stopped_line, r->stopped_line, r->log.lines);
		return r->b->open_err;
	}
	/* replay_one() said the read's or the fault's error in words */
	if (strstr(r->why, errname(-ENOMEM))) {
		room[0] = ':';
		room[1] = ' ';
		kobj_room_hint(room + 2, sizeof(room) - 2);
		err = -ENOMEM;
	}
	pr_err("bench replay: %s: line %u: %s%s; stopped there, the figures are up to line %u "
	       "of %u\n",
	       r->log_path, r->stopped_line, r->why, room, r->stopped_line, r->log.lines);
	return err;
}

static int run_phase(struct replay *r)
{
	struct bench *b = r->b;
	uint64_t total = 0, anchor;
	const char *name = strrchr(r->log_path, '/');
	struct bench_sample s;
	struct mm_stats mm;
	int err = 0;

	for (unsigned int i = 0; i < r->log.nr_files; i++)
		total += r->lfiles[i].read_bytes;
	r->buf_len = clamp((size_t)r->max_read, (size_t)PAGE_SIZE, (size_t)REPLAY_BUF_MAX);
	r->buf = bench_buffer(b, r->buf_len);
	if (!r->buf)
		return -ENOMEM;
	mm_get_stats(&mm); /* the log, its tables and the buffer: the page cache's RAM they hold */
	bench_phase_begin(b, name ? name + 1 : r->log_path, NULL, total);
	anchor = ktime_ns();
	for (struct rop_chunk *c = r->ops; c && !err; c = c->next) {
		for (unsigned int i = 0; i < c->n && !err; i++) {
			const struct rop *o = &c->op[i];

			if (r->recorded)
				pause_before(r, o, &anchor);
			/* in version 3 the next line counts from this one's issue */
			if (r->log.version == 3)
				anchor = ktime_ns();
			err = replay_one(r, o);
			if (err)
				r->stopped_line = o->line;
		}
	}
	for (unsigned int i = 0; i < r->log.nr_files; i++)
		if (r->files[i].f)
			close_rfile(r, &r->files[i]);
	bench_sample(b, &s);
	if (r->stopped_line) {
		err = stopped(r, err);
		b->errors++;
		bench_result_u64(b, "stopped_line", r->stopped_line);
	}
	bench_result_u64(b, "lines", r->log.lines);
	bench_result_u64(b, "version", (uint64_t)r->log.version);
	bench_result_u64(b, "files", r->log.nr_files);
	bench_result_u64(b, "log_reads", r->log.count[IOLOG_READ]);
	bench_result_u64(b, "short_reads", r->short_reads);
	bench_result_u64(b, "opens", r->log.count[IOLOG_OPEN]);
	bench_result_u64(b, "closes", r->log.count[IOLOG_CLOSE]);
	bench_result_u64(b, "kept_opens", r->kept_opens);
	bench_result_u64(b, "skipped_writes", r->log.count[IOLOG_WRITE]);
	bench_result_u64(b, "skipped_syncs",
			 r->log.count[IOLOG_SYNC] + r->log.count[IOLOG_DATASYNC]);
	bench_result_u64(b, "skipped_trims", r->log.count[IOLOG_TRIM]);
	bench_result_u64(b, "waits", r->log.count[IOLOG_WAIT]);
	bench_result_double(b, "trace_secs", (double)iolog_duration_us(&r->log) / 1e6, 6);
	bench_result_double(b, "waited_secs", (double)r->waited_ns / 1e9, 6);
	bench_result_u64(b, "late_lines", r->late);
	bench_result_u64(b, "kernel_objs_kb", mm.kernel_objs * (PAGE_SIZE / 1024));
	if (bench_phase_end(b))
		err = err ? err : -EIO;
	bench_replay_note(b, &s);
	per_file_results(r);
	return err;
}

static int replay_run(struct bench *b)
{
	struct replay *r = kzalloc(sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	r->b = b;
	r->log_path = bench_s(b, "log");
	r->recorded = bench_u(b, "timing") == 1;
	r->think = bench_u(b, "think") == 1 ? sleep_ns : bench_think;
	r->keep = bench_u(b, "files") == 1;
	r->mmap = bench_u(b, "access") == 1;
	r->madvise = (unsigned int)bench_u(b, "madvise");
	r->exec = bench_u(b, "prot") == 1;
	if (!r->recorded && r->think == sleep_ns) {
		pr_err("bench replay: think=sleep is timing=recorded's (timing=asap has no "
		       "pauses)\n");
		err = -EINVAL;
		goto out;
	}
	if (!r->mmap && (r->madvise != MADV_AS_ADVICE || r->exec)) {
		pr_err("bench replay: madvise= and prot= are a mapping's: with access=mmap\n");
		err = -EINVAL;
		goto out;
	}
	if (r->exec && r->madvise == MADV_HUGEPAGE) {
		pr_err("bench replay: prot=exec with madvise=hugepage: not modelled (Linux's "
		       "VM_EXEC and VM_HUGEPAGE together)\n");
		err = -EINVAL;
		goto out;
	}
	if (!r->log_path[0]) {
		pr_err("bench replay: which log? log=PATH (tools/mkbench --iolog puts them in "
		       "/replay/logs/)\n");
		err = -EINVAL;
		goto out;
	}
	err = load_log(r);
	if (!err)
		err = resolve_files(r);
	if (err)
		goto out;
#define PLURAL(n) ((n) == 1 ? "" : "s")
	{
		uint64_t reads = r->log.count[IOLOG_READ], writes = r->log.count[IOLOG_WRITE];
		uint64_t syncs = r->log.count[IOLOG_SYNC] + r->log.count[IOLOG_DATASYNC];
		uint64_t trims = r->log.count[IOLOG_TRIM];

		printf("bench replay: %s: fio iolog version %d, %u line%s, %llu read%s of %u "
		       "file%s; skipped: %llu write%s, %llu sync%s, %llu trim%s; %s timing%s, "
		       "files %s\n",
		       r->log_path, r->log.version, r->log.lines, PLURAL(r->log.lines),
		       (unsigned long long)reads, PLURAL(reads), r->log.nr_files,
		       PLURAL(r->log.nr_files), (unsigned long long)writes, PLURAL(writes),
		       (unsigned long long)syncs, PLURAL(syncs), (unsigned long long)trims,
		       PLURAL(trims), timing_names[r->recorded],
		       r->think == sleep_ns ? " (think=sleep)" : "", files_names[r->keep]);
	}
#undef PLURAL
	err = run_phase(r);
out:
	for (unsigned int i = 0; r->files && i < r->log.nr_files; i++)
		kfree(r->files[i].path);
	while (r->ops) {
		struct rop_chunk *c = r->ops;

		r->ops = c->next;
		kvfree(c);
	}
	kvfree(r->files);
	kfree(r->buf);
	kvfree(r->hash);
	kvfree(r->lfiles);
	kvfree(r->text);
	kfree(r);
	return err;
}

BENCH_WORKLOAD(replay, "an application's reads from a fio iolog (tools/mkbench --iolog)",
	       replay_params, replay_run, false);
