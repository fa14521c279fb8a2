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

static char first_error[320];
static bool error_seen;
static char line_buf[320]; /* the console line being written */
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

/* Columns of one summary line's text: "| " and it fit an 80-column screen. */
#define SUMMARY_TEXT_COLS	76
#define FIRST_ERROR_LINES	3

/* The first error, wrapped at spaces over up to FIRST_ERROR_LINES lines. */
static void print_first_error(void)
{
	const char *p = error_seen ? first_error + 7 : "none";
	const char *lead = "first error: ";

	for (int n = 0; *p && n < FIRST_ERROR_LINES; n++) {
		size_t room = SUMMARY_TEXT_COLS - strlen(lead), len = strlen(p);

		if (len > room) {
			len = room;
			while (len > room / 2 && p[len] != ' ')
				len--;	/* break at a space if there is one late enough */
			if (n == FIRST_ERROR_LINES - 1)
				len = room - 3;
		}
		summary_line("%s%.*s%s", lead, (int)len, p,
			     n == FIRST_ERROR_LINES - 1 && strlen(p) > len ? "..." : "");
		p += len;
		while (*p == ' ')
			p++;
		lead = "  ";
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
	print_first_error();
	printf("+-- result: %s\n", result);
}
