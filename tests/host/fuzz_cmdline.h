/*
 * The kernel's own tables of keys for the command-line fuzzer, generated
 * from the kernel image by tools/kernel-keys (build/fuzz/cmdline-tables.c).
 */
#ifndef TESTS_HOST_FUZZ_CMDLINE_H
#define TESTS_HOST_FUZZ_CMDLINE_H

#include "kernel/kv.h"

struct fuzz_workload {
	const char *name;
	const struct kv_spec *params;
	int nr_params;
};

struct fuzz_command {
	const char *name;
	const char *usage;
};

extern const struct kv_spec *const fuzz_kparams;	/* every KPARAM() */
extern const int fuzz_nr_kparams;
extern const struct kv_spec *const fuzz_bench_common; /* ra= ra_kb= ... of every workload */
extern const int fuzz_nr_bench_common;
extern const struct fuzz_workload fuzz_workloads[];	/* every BENCH_WORKLOAD() */
extern const int fuzz_nr_workloads;
extern const struct fuzz_command fuzz_commands[];	/* every KCMD() */
extern const int fuzz_nr_commands;

#endif
