/*
 * Fuzzing the ext2 reader. ext2_fuzz_one() takes the input as a whole
 * disk, mounts it, walks every directory (readdir, lstat, stat), reads
 * every regular file (the start, the middle and the end, through the real
 * page cache, readahead and block layer) and every symlink, then unmounts.
 * Any crash, sanitizer report, hang or leak is a finding; errors reported
 * by the reader are the expected outcome for most inputs.
 *
 * Built two ways:
 *  - with -DEXT2_LIBFUZZER and clang -fsanitize=fuzzer,address,undefined:
 *    build/host/fuzz_ext2, run by `make fuzz FUZZ_SECONDS=N`;
 *  - into build/host/test_ext2, where the suite ext2_fuzz_corpus runs the
 *    seed corpus (tools/mkimage: build/img/fuzz/) and a fixed set of
 *    seeded single-byte corruptions of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/ext2.h"
#include "kernel/ktest.h"
#include "mm/mm.h"
#include "tests/host/test_ext2_disk.h"

#define WALK_MAX_DEPTH	 10
#define WALK_MAX_ENTRIES 2000 /* per input: corrupt dirs can be huge */
#define WALK_MAX_DIRS	 256
#define READ_CHUNK	 (64 * 1024)

struct fuzz_stats {
	bool mounted;
	unsigned int dirs, files, links, entries, errors;
	uint64_t bytes;
};

struct walk {
	struct fuzz_stats *st;
	uint32_t dirs_seen[WALK_MAX_DIRS]; /* directory inodes entered (loops) */
	unsigned int nr_dirs;
	uint8_t buf[READ_CHUNK];
};

struct dir_entries {
	unsigned int n;
	char names[64][EXT2_NAME_LEN + 1];
	unsigned int more; /* entries past the 64 kept */
};

static int keep_name(void *ctx, const char *name, unsigned int len, uint32_t ino,
		     unsigned int ftype)
{
	struct dir_entries *de = ctx;

	(void)ino;
	(void)ftype;
	if (de->n + de->more >= WALK_MAX_ENTRIES)
		return 1; /* a huge (corrupt) directory: enough of it */
	if (de->n >= ARRAY_SIZE(de->names)) {
		de->more++;
		return 0;
	}
	memcpy(de->names[de->n], name, len);
	de->names[de->n][len] = '\0';
	de->n++;
	return 0;
}

static void read_file(struct walk *w, const char *path)
{
	struct file *f;
	loff_t size, offs[3];
	int err;

	f = vfs_open(path, &err);
	if (!f) {
		w->st->errors++;
		return;
	}
	w->st->files++;
	size = f->f_inode->i_size;
	/* corrupt sizes reach terabytes: read three windows, not everything */
	offs[0] = 0;
	offs[1] = size / 2;
	offs[2] = size > READ_CHUNK ? size - READ_CHUNK : 0;
	for (int i = 0; i < 3; i++) {
		ssize_t n = vfs_pread(f, w->buf, sizeof(w->buf), offs[i]);

		if (n < 0) {
			w->st->errors++;
			break;
		}
		w->st->bytes += (uint64_t)n;
	}
	vfs_close(f);
}

static void walk_dir(struct walk *w, const char *path, int depth)
{
	struct dir_entries *de;
	struct file *f;
	int err;

	if (depth > WALK_MAX_DEPTH || w->nr_dirs >= WALK_MAX_DIRS)
		return;
	f = vfs_open(path, &err);
	if (!f) {
		w->st->errors++;
		return;
	}
	for (unsigned int i = 0; i < w->nr_dirs; i++) {
		if (w->dirs_seen[i] == f->f_inode->i_ino) {
			vfs_close(f); /* a directory loop (or a hard link to a dir) */
			return;
		}
	}
	w->dirs_seen[w->nr_dirs++] = f->f_inode->i_ino;
	w->st->dirs++;
	de = calloc(1, sizeof(*de));
	if (!de) {
		vfs_close(f);
		return;
	}
	if (vfs_readdir(f, keep_name, de))
		w->st->errors++;
	vfs_close(f);
	for (unsigned int i = 0; i < de->n && w->st->entries < WALK_MAX_ENTRIES; i++) {
		char child[1024];
		struct kstat st;

		if (!strcmp(de->names[i], ".") || !strcmp(de->names[i], ".."))
			continue;
		w->st->entries++;
		snprintf(child, sizeof(child), "%s%s%s", path, path[1] ? "/" : "", de->names[i]);
		if (vfs_lstat(child, &st)) {
			w->st->errors++;
			continue;
		}
		if (EXT2_ISDIR(st.mode)) {
			walk_dir(w, child, depth + 1);
		} else if (EXT2_ISREG(st.mode)) {
			read_file(w, child);
		} else if (EXT2_ISLNK(st.mode)) {
			char target[VFS_PATH_MAX + 1];

			w->st->links++;
			if (vfs_readlink(child, target, sizeof(target)) < 0)
				w->st->errors++;
			/* following it exercises lookup of arbitrary targets */
			if (vfs_stat(child, &st) == 0 && EXT2_ISREG(st.mode))
				read_file(w, child);
		}
	}
	free(de);
}

static int ext2_fuzz_one(const uint8_t *data, size_t size, struct fuzz_stats *st)
{
	struct block_device *bdev;
	struct super_block *sb;
	struct walk *w;

	memset(st, 0, sizeof(*st));
	bdev = ext2_test_disk_mem(data, size);
	if (!bdev)
		return -ENOMEM;
	sb = ext2_mount(bdev, 0, true);
	if (IS_ERR(sb)) {
		ext2_test_disk_done();
		return 0;
	}
	st->mounted = true;
	vfs_root = sb;
	w = calloc(1, sizeof(*w));
	if (w) {
		w->st = st;
		walk_dir(w, "/", 0);
		free(w);
	}
	st->errors += (unsigned int)EXT2_SB(sb)->s_errors;
	vfs_root = NULL;
	ext2_umount(sb);
	ext2_test_disk_done();
	return 0;
}

#ifdef EXT2_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the block layer and read path report errors on stdout: keep them quiet */
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return ext2_test_mm_ready() ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_stats st;

	ext2_fuzz_one(data, size, &st);
	return 0;
}
#endif

/* --- the corpus as a regression test -------------------------------------------- */

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static char seed_path[600];

static const char *seeds_ready(void)
{
	const char *why = ext2_test_mm_ready();
	FILE *f;

	if (why)
		return why;
	snprintf(seed_path, sizeof(seed_path), "%s/fuzz/seed-1k.img", ext2_test_img_dir());
	f = fopen(seed_path, "rb");
	if (!f)
		return "no seed corpus (run tools/mkimage)";
	fclose(f);
	return NULL;
}

static const char *const seeds[] = {"seed-1k.img", "seed-2k.img", "seed-4k.img", "seed-rev0.img"};

static uint8_t *load_seed(struct ktest *t, const char *name, size_t *len)
{
	uint8_t *img;

	snprintf(seed_path, sizeof(seed_path), "%s/fuzz/%s", ext2_test_img_dir(), name);
	img = load(seed_path, len);
	if (!img)
		KT_FAIL(t, "cannot read %s", seed_path);
	return img;
}

static void test_seeds_clean(struct ktest *t)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(seeds); i++) {
		struct fuzz_stats st;
		size_t len;
		uint8_t *img = load_seed(t, seeds[i], &len);

		if (!img)
			continue;
		KT_EXPECT_EQ(t, ext2_fuzz_one(img, len, &st), 0);
		/* the tiny tree: /, /sub; a.txt, ind.bin, sub/x, sub/holes; 2 links */
		if (!st.mounted || st.errors || st.dirs != 3 || st.files < 6 || st.links != 2)
			KT_FAIL(t, "%s: mounted %d, %u dirs, %u files, %u links, %u errors",
				seeds[i], st.mounted, st.dirs, st.files, st.links, st.errors);
		free(img);
	}
}

/*
 * Deterministic mutations: in each seed, bytes of the metadata area (the
 * first 16 KiB) set to values that stress limits. Nothing may crash; some
 * must still mount and some must fail, or the test is not testing.
 */
static void test_seed_mutations(struct ktest *t)
{
	static const uint8_t values[] = {0x00, 0xff, 0x01, 0x80, 0x7f, 0x0c};
	unsigned int mounted = 0, refused = 0, with_errors = 0;
	uint32_t x = 20070517;

	for (unsigned int i = 0; i < ARRAY_SIZE(seeds); i++) {
		size_t len;
		uint8_t *img = load_seed(t, seeds[i], &len);

		if (!img)
			continue;
		for (int n = 0; n < 150; n++) {
			struct fuzz_stats st;
			size_t off, span = min_t(size_t, len, 16384);
			uint8_t old;

			x = x * 1103515245u + 12345u;
			off = (x >> 8) % span;
			old = img[off];
			img[off] = values[(x >> 4) % ARRAY_SIZE(values)];
			KT_EXPECT_EQ(t, ext2_fuzz_one(img, len, &st), 0);
			img[off] = old;
			if (!st.mounted)
				refused++;
			else if (st.errors)
				with_errors++;
			else
				mounted++;
		}
		free(img);
	}
	KT_EXPECT_GT(t, mounted, 0);
	KT_EXPECT_GT(t, refused, 0);
	KT_EXPECT_GT(t, with_errors, 0);
}

KTEST_SUITE(ext2_fuzz_corpus, seeds_ready, KTEST_CASE(test_seeds_clean),
	    KTEST_CASE(test_seed_mutations));
