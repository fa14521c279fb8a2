/*
 * Helpers the block layer's shell commands share (drivers/blk-cmd.c,
 * bench/rawread.c, bench/blkcheck.c, drivers/diskmodel-cmd.c): the /proc/diskstats-style lines
 * of one disk, the disk=N argument, the disk=N filter with its JSON array,
 * and closing that array.
 */
#ifndef DRIVERS_BLK_CMD_H
#define DRIVERS_BLK_CMD_H

#include "drivers/blkdev.h"
#include "kernel/kv.h"
#include "kernel/result.h"

void print_diskstats(struct block_device *b);
/* disk=N of a command that needs one disk: the disk, or NULL after an error naming N. */
struct block_device *arg_disk(const char *cmd, const struct kv_value *v);
/*
 * The disk=N filter of diskstats and diskmodel: parse @argv against @specs
 * (v[0] is disk=), set *@one (NULL: every disk) and open @j's JSON array.
 */
int disks_args(const char *cmd, int argc, char **argv, const struct kv_spec *specs, int n,
	       struct kv_value *v, struct block_device **one, struct json_buf *j);
/* Close the array; after an overflow it is emptied, with a warning naming @cmd. */
const char *jend_array(struct json_buf *j, const char *cmd);

#endif
