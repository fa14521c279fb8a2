/*
 * The replay suite (bench/replay-suite.c) and what the replay workload
 * (bench/replay.c) tells it about each run.
 *
 *	bench suite=replay [ra=A,B,...] [timing=recorded|asap] [files=close|keep]
 *			   [dir=/replay/logs]
 *
 * replays every log of @dir with every readahead algorithm the kernel
 * registers (ra_algo_names; or the ra= list), the page cache dropped before
 * each run, and prints one table: log, algorithm, run time, disk reads,
 * average request, stall.
 */
#ifndef BENCH_REPLAY_H
#define BENCH_REPLAY_H

#include "bench/bench.h"

int bench_replay_suite(int argc, char **argv);
/* After a replay phase ended: its figures (@s sampled just before the end) for the table. */
void bench_replay_note(const struct bench *b, const struct bench_sample *s);

#endif
