/*
 * The exit summary (see kernel/summary.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/summary.h"

#define MAX_SOURCES 8

static void (*sources[MAX_SOURCES])(void);
static int nr_sources;
static int nr_lines;
static bool printing;

static char first_error[160];
static bool error_seen;
static char line_buf[160]; /* the console line being written */
static size_t line_len;

void summary_register(void (*fn)(void))
{
	if (nr_sources < MAX_SOURCES)
		sources[nr_sources++] = fn;
}

void summary_line(const char *fmt, ...)
{
	va_list ap;

	if (!printing || nr_lines >= SUMMARY_MAX_LINES)
		return;
	nr_lines++;
	printf("| ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void summary_watch(const char *buf, size_t len)
{
	if (error_seen || printing)
		return;
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			line_buf[line_len] = 0;
			if (!strncmp(line_buf, "error: ", 7)) {
				snprintf(first_error, sizeof(first_error), "%s", line_buf);
				error_seen = true;
				return;
			}
			line_len = 0;
		} else if (line_len < sizeof(line_buf) - 1) {
			line_buf[line_len++] = buf[i];
		}
	}
}

void summary_print(const char *result)
{
	if (printing)
		return; /* a panic while printing the summary */
	printing = true;
	printf("+-- lookahead summary ------------------------------------------------------\n");
	for (int i = 0; i < nr_sources; i++)
		sources[i]();
	summary_line("first error: %s", error_seen ? first_error + 7 : "none");
	printf("+-- result: %s\n", result);
}
