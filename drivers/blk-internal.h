/*
 * The block layer's own header, shared by the core (drivers/blk-core.c:
 * plugs, requests, merging, dispatch and completion) and the disks
 * (drivers/blk-genhd.c: registration and the table of disks): the core
 * runs every disk's queue when a plug is flushed, and the host tests'
 * blk_reset_disks() forgets them.
 */
#ifndef DRIVERS_BLK_INTERNAL_H
#define DRIVERS_BLK_INTERNAL_H

#include "drivers/blkdev.h"

/* The registered disks, in the order of their names (sda, sdb, ...). */
extern struct block_device *disks[BLK_MAX_DISKS];
extern int nr_disks;

/*
 * Start the thread that fires @q's elevator timer at q->timer_ns
 * (drivers/blk-timer.c, kernel only: weak, so NULL on the host, where tests
 * fire the timer themselves with elv_timer_fire()). 0 or -ENOMEM.
 */
int blk_timer_start(struct request_queue *q) __attribute__((weak));

#endif
