/*
 * Leaving the kernel with one of three outcomes. Under QEMU the
 * isa-debug-exit device (port 0xf4) turns them into the process exit
 * status ((v << 1) | 1, which tools/run-qemu maps back to 0/1/2). On a
 * real machine the result stays on the screen and the CPU halts.
 */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include "kernel/types.h"

enum exit_status { EXIT_OK = 0, EXIT_FAILURE_STATUS = 1, EXIT_PANIC = 2 };

__noreturn void kernel_exit(enum exit_status status);
bool running_under_qemu(void);
/*
 * Under QEMU: copy the fw_cfg file @name (-fw_cfg name=NAME,string=...)
 * into @buf as a string; its length, or -ENOENT.
 */
int qemu_fw_cfg_file(const char *name, char *buf, size_t len);
/* The same, and the file's whole size in *@whole (more than was copied: truncated). */
int qemu_fw_cfg_read(const char *name, char *buf, size_t len, size_t *whole);

#endif
