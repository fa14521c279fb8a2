/*
 * The console: COM1 (16550, 115200 8N1) and the VGA text screen. Both are
 * on from the first line of kmain; console=serial|vga|both narrows it once
 * the command line is parsed. newlib's stdout/stderr write here (_write).
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "kernel/types.h"

enum { CONSOLE_SERIAL = 1, CONSOLE_VGA = 2 };

void console_init(void);
void console_select(unsigned int mask);
void console_write(const char *buf, size_t len);

#endif
