/*
 * Fuzzing the fio iolog parser (bench/iolog.c), whose input is whatever
 * log a user brings. Built with clang -fsanitize=fuzzer,address,undefined
 * as build/host/fuzz_iolog (bench/host.mk; `make fuzz`, and briefly in
 * `make test` through tests/host/fuzz_iolog.t). Besides the sanitizers'
 * findings, a broken promise of the parser is one: every op it hands on
 * names a file in range that was added and is open, every read lies within
 * what the file table says its reads reach, a success has reads and the
 * per-file counts add up to the log's, and a failure names a line that
 * exists (or the whole log) with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/iolog.h"

static struct iolog_file files[IOLOG_MAX_FILES];
static uint32_t hash[2 * 2 * IOLOG_MAX_FILES];

#define CHECK(c)                                                                 \
	do {                                                                     \
		if (!(c)) {                                                      \
			fprintf(stderr, "fuzz_iolog: broken promise: %s\n", #c); \
			abort();                                                 \
		}                                                                \
	} while (0)

static int check_op(void *ctx, struct iolog *log, const struct iolog_op *op)
{
	unsigned int *prev_line = ctx;

	CHECK(op->line > *prev_line && op->line == log->lines);
	*prev_line = op->line;
	CHECK((unsigned int)op->action < IOLOG_NR_ACTIONS); /* an unknown one is an error */
	if (op->action == IOLOG_WAIT) {
		CHECK(op->file == -1);
	} else {
		const struct iolog_file *f;

		CHECK(op->file >= 0 && (unsigned int)op->file < log->nr_files);
		f = &log->files[op->file];
		CHECK(f->len >= 1 && f->len <= IOLOG_NAME_MAX);
		if (op->action == IOLOG_READ) {
			CHECK(f->open_line);
			CHECK(op->offset <= f->max_offset);
			CHECK(op->offset + op->length <= f->max_end);
			CHECK(op->length <= UINT32_MAX);
		}
		if (op->action == IOLOG_CLOSE)
			CHECK(!f->open_line);
	}
	CHECK(log->version == 2 || log->version == 3);
	if (log->version == 2)
		CHECK(op->ts_us == 0 && op->gap_us == 0);
	else
		CHECK(op->ts_us >= log->first_ts && op->ts_us == log->last_ts);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int n = iolog_max_files(size), prev_line = 0;
	struct iolog log;
	uint64_t reads = 0;
	int err;

	CHECK(n >= 1 && n <= IOLOG_MAX_FILES && iolog_hash_slots(n) <= sizeof(hash) / 4);
	iolog_init(&log, files, n, hash, iolog_hash_slots(n));
	err = iolog_parse(&log, (const char *)data, size, check_op, &prev_line);
	CHECK(log.nr_files <= n);
	if (err) {
		CHECK(err == -EINVAL);
		CHECK(log.err[0] && strlen(log.err) < sizeof(log.err));
		CHECK(log.err_line <= log.lines);
		return 0;
	}
	CHECK(log.count[IOLOG_READ] > 0);
	for (unsigned int i = 0; i < log.nr_files; i++)
		reads += log.files[i].reads;
	CHECK(reads == log.count[IOLOG_READ]);
	CHECK(iolog_duration_us(&log) <= (log.version == 3 ? log.last_ts : log.wait_us));
	return 0;
}
