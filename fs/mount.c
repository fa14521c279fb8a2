/*
 * Mounting the root filesystem at boot (INIT_FS, after the disk drivers):
 * root=DISK[:PART] names the disk (blk_get_disk numbering, as disk= of the
 * block commands) and optionally its MBR partition 1-4; without root= the
 * first disk holding an ext2 superblock (whole disk or Linux partition) is
 * mounted. A root= that cannot be mounted is fatal (init_fail): a run that
 * asked for a filesystem must not go on without it. Without root=, a
 * failed mount is printed and the commands that need files fail.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/blkdev.h"
#include "fs/ext2.h"
#include "kernel/init.h"
#include "kernel/log.h"
#include "kernel/param.h"

KPARAM(root, KV_STRING, NULL,
       "root filesystem DISK[:PART]: disk number, optional MBR partition 1-4 "
       "(default: the first disk holding ext2)");

/* kernel/init.c: print @what and make the whole run fail. */

/* "N" or "N:P", decimal, P in 1-4; false for anything else. */
static bool parse_root(const char *s, int *disk, int *part)
{
	unsigned long d = 0, p = 0;
	const char *q = s;

	if (*q < '0' || *q > '9')
		return false;
	while (*q >= '0' && *q <= '9' && d < BLK_MAX_DISKS)
		d = d * 10 + (unsigned long)(*q++ - '0');
	if (*q == ':') {
		q++;
		if (*q < '1' || *q > '4' || q[1])
			return false;
		p = (unsigned long)(*q++ - '0');
	}
	if (*q || d >= BLK_MAX_DISKS)
		return false;
	*disk = (int)d;
	*part = (int)p;
	return true;
}

static int mount_given_root(const char *root)
{
	char why[256];
	struct block_device *bdev;
	struct super_block *sb;
	int disk, part;

	if (!parse_root(root, &disk, &part)) {
		snprintf(why, sizeof(why),
			 "root=%s: expected DISK[:PART], e.g. 0 or 0:1 "
			 "(partitions 1-4)",
			 root);
		init_fail(why);
		return -EINVAL;
	}
	bdev = blk_get_disk(disk);
	if (!bdev) {
		snprintf(why, sizeof(why), "root=%s: there is no disk %d (%d disks found)", root,
			 disk, blk_disk_count());
		init_fail(why);
		return -ENODEV;
	}
	sb = ext2_mount(bdev, part, false);
	if (IS_ERR(sb)) {
		snprintf(why, sizeof(why), "root=%s: cannot mount %s: %s", root, bdev->name,
			 ext2_mount_error()[0] ? ext2_mount_error() : "error");
		init_fail(why);
		return (int)PTR_ERR(sb);
	}
	vfs_root = sb;
	return 0;
}

static int mount_root(void)
{
	const char *root;

	if (param_get_str("root", &root) == 0)
		return mount_given_root(root);
	for (int i = 0; i < blk_disk_count(); i++) {
		struct block_device *bdev = blk_get_disk(i);
		struct super_block *sb;

		if (!ext2_probe(bdev))
			continue;
		sb = ext2_mount(bdev, 0, false);
		if (IS_ERR(sb))
			return (int)PTR_ERR(sb); /* the reason was printed */
		vfs_root = sb;
		return 0;
	}
	pr_info("ext2: no disk holds an ext2 filesystem (%d disks): nothing mounted\n",
		blk_disk_count());
	return 0;
}
INITCALL(INIT_FS, mount_root);
