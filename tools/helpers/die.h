/*
 * The guest helpers' (lrrun, ohrun) way to fail: one line on stderr, DIE_PREFIX
 * then the message, and exit status 1. The includer defines DIE_PREFIX first.
 */
#ifndef TOOLS_HELPERS_DIE_H
#define TOOLS_HELPERS_DIE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs(DIE_PREFIX, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

#endif
