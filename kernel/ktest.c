/*
 * KTAP runner for the suites registered with KTEST_SUITE(). Output is
 * KTAP version 1: one top-level test per suite, with its cases as an
 * indented subtest, so both prove-style harnesses and kunit tooling read it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/ktest.h"

extern const struct ktest_suite __start_ktest_suites[], __stop_ktest_suites[];

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	t->failures++;
	printf("    # %s: %s:%d: ", t->name, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/*
 * filter is a comma-separated list of suite names: those run; -NAME leaves a
 * suite out, so "-diskmodel" runs every suite but diskmodel (a boot that
 * proves its boot path needs not repeat the long pure-computation suites).
 */
static bool suite_selected(const struct ktest_suite *s, const char *filter)
{
	const char *p;
	size_t n;
	bool plain = false, named = false, minus;

	if (!filter || !*filter)
		return true;
	for (p = filter; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		minus = *p == '-';
		if (strlen(s->name) == n - minus && strncmp(s->name, p + minus, n - minus) == 0) {
			if (minus)
				return false;
			named = true;
		}
		plain |= !minus && n > 0;
	}
	return named || !plain;
}

int ktest_check_filter(const char *filter, char *bad, size_t size)
{
	const struct ktest_suite *s;
	const char *p;
	size_t n, m;
	int minus;

	for (p = filter ? filter : ""; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		minus = *p == '-';
		for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
			if (strlen(s->name) == n - minus && strncmp(s->name, p + minus, n - minus) == 0)
				break;
		if (s == __stop_ktest_suites || n - minus == 0) {
			m = n < size - 1 ? n : size - 1;
			memcpy(bad, p, m);
			bad[m] = '\0';
			return -1;
		}
	}
	return 0;
}

static int run_suite(const struct ktest_suite *s, int num, int *failed_cases)
{
	const struct ktest_case *c;
	const char *skip = s->skip_if ? s->skip_if() : NULL;
	int n = 0, i, failed = 0;

	for (c = s->cases; c->name; c++)
		n++;
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", s->name, n);
	for (i = 0, c = s->cases; c->name; c++, i++) {
		struct ktest t = { .name = c->name };

		if (skip) {
			printf("    ok %d %s # SKIP %s\n", i + 1, c->name, skip);
			continue;
		}
		c->fn(&t);
		if (t.skip_reason && !t.failures)
			printf("    ok %d %s # SKIP %s\n", i + 1, c->name, t.skip_reason);
		else
			printf("    %sok %d %s\n", t.failures ? "not " : "", i + 1, c->name);
		if (t.failures)
			failed++;
	}
	printf("%sok %d %s\n", failed ? "not " : "", num, s->name);
	*failed_cases += failed;
	return failed;
}

int ktest_run_all(const char *filter)
{
	const struct ktest_suite *s;
	int nsuites = 0, num = 0, failed_cases = 0;

	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		if (suite_selected(s, filter))
			nsuites++;
	printf("KTAP version 1\n1..%d\n", nsuites);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		if (suite_selected(s, filter))
			run_suite(s, ++num, &failed_cases);
	printf("# ktest: %d suites, %d failed cases\n", nsuites, failed_cases);
	return failed_cases;
}
