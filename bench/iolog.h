/*
 * fio's iolog, versions 2 and 3 (bench/iolog.c, host-buildable): the parser
 * behind `bench replay`. The grammar is fio's (HOWTO "Trace file format",
 * iolog.c read_iolog()):
 *
 *	fio version 2 iolog			fio version 3 iolog
 *	FILE add|open|close			TIME FILE add|open|close
 *	FILE ACTION OFFSET LENGTH		TIME FILE ACTION OFFSET LENGTH
 *
 * ACTION is read, write, sync, datasync, trim or (version 2 only) wait,
 * whose OFFSET is microseconds to wait; TIME is microseconds since the run
 * began. FILE is a name without blanks, at most 256 bytes (fio's %256s);
 * numbers are unsigned decimal, LENGTH at most 2^32 - 1 (fio's %u).
 *
 * Where fio prints a message and goes on, this parser stops at the first
 * line it cannot take and says which and why, so nothing is replayed from
 * a log that is not what its author meant: a line with the wrong number
 * of fields, a number that is not one, a read of a file never added or
 * not open, a file added or opened twice, a timestamp going backwards, a
 * wait in version 3. A log without its version line, an empty log and a
 * log with no reads are errors too, and so is an action the parser does
 * not know (fio skips it: here a misspelt "raed" would drop a read).
 *
 *	struct iolog log;
 *	unsigned int n = iolog_max_files(len);
 *	iolog_init(&log, files, n, hash, iolog_hash_slots(n));	// caller's memory
 *	if (iolog_parse(&log, text, len, each_op, ctx))
 *		printf("%s\n", log.err);		// "line 12: ..."
 *
 * The parser does not write to @text: file names point into it.
 */
#ifndef BENCH_IOLOG_H
#define BENCH_IOLOG_H

#include "kernel/types.h"

#define IOLOG_NAME_MAX	256  /* fio's %256s */
#define IOLOG_LINE_MAX	4096 /* fio reads each line with fgets() into 4096 bytes */
#define IOLOG_MAX_FILES (1U << 20) /* a replay holds their table in RAM: 56 MiB at most */

enum iolog_action {
	IOLOG_ADD,
	IOLOG_OPEN,
	IOLOG_CLOSE,
	IOLOG_READ,
	IOLOG_WRITE,
	IOLOG_SYNC,
	IOLOG_DATASYNC,
	IOLOG_TRIM,
	IOLOG_WAIT,
	IOLOG_NR_ACTIONS,
	IOLOG_UNKNOWN = IOLOG_NR_ACTIONS /* action_of()'s answer for a word it does not know */
};

extern const char *const iolog_action_names[IOLOG_NR_ACTIONS];

struct iolog_file {
	const char *name; /* in the log's text, @len bytes, not NUL-terminated */
	unsigned int len;
	unsigned int add_line, open_line; /* open_line 0: not open now */
	uint32_t opens;
	uint64_t reads, read_bytes;
	uint64_t max_offset; /* the largest offset read, at line max_offset_line */
	unsigned int max_offset_line;
	uint64_t max_end; /* the largest offset + length read */
};

/* One action line, as iolog_parse() hands it on. */
struct iolog_op {
	enum iolog_action action;
	unsigned int line;
	int file;		 /* index in log->files; -1 for wait */
	uint64_t offset, length; /* wait: offset is the microseconds to wait */
	uint64_t ts_us;		 /* version 3: the line's timestamp; 0 in version 2 */
	uint64_t gap_us;	 /* version 3: since the previous action line's timestamp */
};

struct iolog;
/* Called for each action line in order; a non-zero return stops the parse with it. */
typedef int (*iolog_op_fn)(void *ctx, struct iolog *log, const struct iolog_op *op);

struct iolog {
	struct iolog_file *files;
	unsigned int max_files, nr_files;
	uint32_t *hash; /* open addressing over files: index + 1, 0 empty */
	unsigned int hash_mask;

	int version;	    /* 2 or 3 once the first line is read */
	unsigned int lines; /* lines read so far */
	uint64_t count[IOLOG_NR_ACTIONS];
	bool have_ts;
	uint64_t first_ts, last_ts; /* version 3, microseconds */
	uint64_t wait_us;	    /* version 2: the waits, summed */
	unsigned int err_line;	    /* the line an error names (0: none) */
	char err[320];
};

/* The most files a log of @len bytes can add (each needs an add line), capped. */
unsigned int iolog_max_files(size_t len);
/* Slots of the name hash for @max_files files: a power of two, at least twice as many. */
unsigned int iolog_hash_slots(unsigned int max_files);
/* @files holds @max_files entries, @hash @hash_slots (iolog_hash_slots()) words. */
void iolog_init(struct iolog *log, struct iolog_file *files, unsigned int max_files, uint32_t *hash,
		unsigned int hash_slots);
/*
 * Parse @len bytes of @text, calling @fn (may be NULL) for each action
 * line. 0, or -EINVAL with log->err naming the line and the fault, or
 * what @fn returned (log->err is then the caller's to fill).
 */
int iolog_parse(struct iolog *log, const char *text, size_t len, iolog_op_fn fn, void *ctx);
/* The trace's own duration in microseconds: version 3's last - first timestamp, or the waits. */
uint64_t iolog_duration_us(const struct iolog *log);

/*
 * What `bench replay` can replay of a log the parser takes, in one place
 * for the kernel (bench/replay.c) and tools/mkbench (build/host/iologinfo),
 * which refuses before any boot what the replay would refuse after it.
 * Any read length the grammar allows replays (one request, whatever its
 * size). The log is read whole into RAM (kvmalloc(), mm/kobj.c: the page
 * cache's, as a program's buffer), so RAM bounds it; the parser counts in
 * 32 bits, so 2 GiB at most. timing=recorded keeps pauses of up to an
 * hour: a longer one in a trace is a mistake or a clock that jumped.
 */
#define IOLOG_REPLAY_LOG_MAX	  (2U << 30)
#define IOLOG_REPLAY_MAX_PAUSE_US (3600ULL * 1000000)
#define IOLOG_REPLAY_NAME_MAX	  48  /* a log's file name in /replay/logs, NUL included */
#define IOLOG_REPLAY_LOGS_MAX	  256 /* logs the replay suite takes from one folder */

/* The pause timing=recorded keeps before @op: a wait's time, or the gap since the last line. */
static inline uint64_t iolog_pause_us(const struct iolog_op *op)
{
	return op->action == IOLOG_WAIT ? op->offset : op->gap_us;
}

/*
 * Whether the replay can replay @op (an iolog_parse() callback's op) with
 * timing=recorded (@recorded) or asap: 0, or -EINVAL with log->err naming
 * the line and why.
 */
int iolog_replay_check(struct iolog *log, const struct iolog_op *op, bool recorded);

/*
 * Every component of the file name @name (@len bytes) a plain one: no empty,
 * "." or ".." component, so that a log names nothing outside the folder its
 * files are replayed in (bench replay's files=, lrrun's mount point).
 */
static inline bool iolog_plain_name(const char *name, unsigned int len)
{
	unsigned int i = name[0] == '/';

	if (i == len)
		return false;
	while (i <= len) {
		unsigned int j = i;

		while (j < len && name[j] != '/')
			j++;
		if (j == i || (j - i == 1 && name[i] == '.') ||
		    (j - i == 2 && name[i] == '.' && name[i + 1] == '.'))
			return false;
		i = j + 1;
	}
	return true;
}

#endif
