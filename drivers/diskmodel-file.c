/*
 * A disk model from a parameter file (disk_model=file): tools/run-qemu
 * --disk-model PATH hands the file to the kernel through QEMU's fw_cfg as
 * opt/lookahead/diskmodel, as it names the clock. The file is parsed once,
 * at the first modelled disk, by drivers/diskmodel-params.c; a bad file is
 * one error naming its line, and no disk gets a half-read model.
 */
#include <stdio.h>

#include "drivers/diskmodel-params.h"
#include "kernel/exit.h"
#include "kernel/log.h"
#include "mm/mm.h"

#define DM_FW_CFG_NAME "opt/lookahead/diskmodel"
#define DM_FILE_BYTES  65536

const struct dm_drive *dm_file_drive(void)
{
	static struct dm_drive *drive;
	static bool tried;
	char err[512];
	size_t whole = 0;
	char *text;
	int n;

	if (tried)
		return drive;
	tried = true;
	text = kmalloc(DM_FILE_BYTES + 1);
	if (!text) {
		pr_err("diskmodel: out of memory for the parameter file\n");
		return NULL;
	}
	n = qemu_fw_cfg_read(DM_FW_CFG_NAME, text, DM_FILE_BYTES + 1, &whole);
	if (n < 0) {
		pr_err("diskmodel: disk_model=file, but no parameter file was given (fw_cfg %s: "
		       "tools/run-qemu --disk-model PATH; a real machine has none)\n",
		       DM_FW_CFG_NAME);
	} else if (whole > DM_FILE_BYTES) {
		pr_err("diskmodel: the parameter file holds %zu bytes, more than %u\n", whole,
		       DM_FILE_BYTES);
	} else if (!(drive = dm_parse_params("the parameter file", text, (size_t)n, err,
					     sizeof(err)))) {
		pr_err("%s\n", err);
	}
	kfree(text);
	return drive;
}
