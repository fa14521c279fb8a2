/*
 * Exit paths. QEMU is recognised by its fw_cfg signature (port 0x510) on a
 * CPU that reports a hypervisor, so a real machine never gets writes to
 * ports it might use for something else.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include "kernel/exit.h"
#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/summary.h"

#define FW_CFG_PORT_SEL	    0x510
#define FW_CFG_PORT_DATA    0x511
#define FW_CFG_SIGNATURE    0x0000
#define FW_CFG_FILE_DIR	    0x0019
#define ISA_DEBUG_EXIT_PORT 0xf4

bool running_under_qemu(void)
{
	static int cached = -1;
	unsigned int a, b, c, d;
	char sig[5];

	if (cached >= 0)
		return cached;
	cached = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return false;
	outw(FW_CFG_PORT_SEL, FW_CFG_SIGNATURE);
	for (int i = 0; i < 4; i++)
		sig[i] = (char)inb(FW_CFG_PORT_DATA);
	sig[4] = 0;
	cached = sig[0] == 'Q' && sig[1] == 'E' && sig[2] == 'M' && sig[3] == 'U';
	return cached;
}

static uint32_t fw_cfg_be32(void)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v = v << 8 | inb(FW_CFG_PORT_DATA);
	return v;
}

int qemu_fw_cfg_file(const char *name, char *buf, size_t len)
{
	return qemu_fw_cfg_read(name, buf, len, NULL);
}

int qemu_fw_cfg_read(const char *name, char *buf, size_t len, size_t *whole)
{
	uint32_t count;

	if (!running_under_qemu() || !len)
		return -ENOENT;
	outw(FW_CFG_PORT_SEL, FW_CFG_FILE_DIR);
	count = fw_cfg_be32();
	/* a directory entry: be32 size, be16 select, be16 reserved, char name[56] */
	for (uint32_t i = 0; i < count && i < 4096; i++) {
		uint32_t size = fw_cfg_be32();
		uint16_t select = (uint16_t)(inb(FW_CFG_PORT_DATA) << 8);
		char ename[56];

		select |= inb(FW_CFG_PORT_DATA);
		(void)inb(FW_CFG_PORT_DATA);
		(void)inb(FW_CFG_PORT_DATA);
		for (int k = 0; k < 56; k++)
			ename[k] = (char)inb(FW_CFG_PORT_DATA);
		ename[55] = 0;
		if (strcmp(ename, name))
			continue;
		outw(FW_CFG_PORT_SEL, select);
		size_t n = size < len - 1 ? size : len - 1;

		if (whole)
			*whole = size;
		for (size_t k = 0; k < n; k++)
			buf[k] = (char)inb(FW_CFG_PORT_DATA);
		buf[n] = 0;
		return (int)n;
	}
	return -ENOENT;
}

void kernel_exit(enum exit_status status)
{
	static const char *const names[] = {"success", "failure", "panic"};

	summary_print(names[status]);
	printf("lookahead: exit %s\n", names[status]);
	fflush(stdout);
	if (running_under_qemu())
		outl(ISA_DEBUG_EXIT_PORT, status);
	/* Not QEMU, or QEMU without isa-debug-exit: stop here with the result on screen. */
	for (;;)
		__asm__ __volatile__("cli; hlt");
}
