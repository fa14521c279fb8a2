/*
 * What the benchmark framework's files share and the workloads do not use
 * (the workloads' API is bench/bench.h): bench/bench.c's bench_run_argv()
 * parses a run's command line with bench/bench-params.c's parse_args().
 */
#ifndef BENCH_BENCH_INTERNAL_H
#define BENCH_BENCH_INTERNAL_H

#include "bench/bench.h"

/* Parse argv against the workload's and the common keys; one error line on failure. */
int parse_args(struct bench *b, int argc, char **argv);

#endif
