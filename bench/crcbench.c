/*
 * crcbench: the speed of kernel/crc32.c (PCLMULQDQ folding where the CPU has
 * it, else slicing-by-8 tables) against the plain table-per-byte loop, on the
 * same buffer, on the run's clock. Under QEMU the byte loop is what made a
 * checksum hide the emulated disk; the ratio is the point. Under the virtual
 * clock the ratio counts instructions; on the real clock TCG's PCLMULQDQ
 * helper is slow, so there the tables win (run-qemu --no-icount to see).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

/* The reference: one 256-entry table, one byte per step (zlib's simple loop). */
static uint32_t crc32_bytewise(uint32_t crc, const uint8_t *p, size_t len)
{
	static uint32_t table[256];

	if (!table[1])
		for (uint32_t n = 0; n < 256; n++) {
			uint32_t c = n;

			for (int k = 0; k < 8; k++)
				c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[n] = c;
		}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int cmd_crcbench(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"mb", KV_UINT, NULL, "MiB to checksum with each loop (default 16)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	uint64_t mb = 16, t0, t1, t2;
	const size_t chunk = 1 << 20;
	uint32_t a = 0, b = 0;
	struct result r;
	uint8_t *buf;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (v[0].present) {
		if (!v[0].u || v[0].u > 4096) {
			pr_err("crcbench: mb=%s: 1 to 4096\n", v[0].raw);
			return -EINVAL;
		}
		mb = v[0].u;
	}
	buf = kmalloc(chunk);
	if (!buf) {
		pr_err("crcbench: no memory for a 1 MiB buffer\n");
		return -ENOMEM;
	}
	for (size_t i = 0; i < chunk; i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 9));
	t0 = ktime_ns();
	for (uint64_t i = 0; i < mb; i++)
		a = crc32(a, buf, chunk);
	t1 = ktime_ns();
	for (uint64_t i = 0; i < mb; i++)
		b = crc32_bytewise(b, buf, chunk);
	t2 = ktime_ns();
	kfree(buf);
	if (a != b) {
		pr_err("crcbench: the two loops disagree (%08x, %08x)\n", a, b);
		return -EIO;
	}
	double sliced = (double)(mb << 20) / 1e6 / ((double)(t1 - t0) / 1e9);
	double bytewise = (double)(mb << 20) / 1e6 / ((double)(t2 - t1) / 1e9);

	printf("crcbench: %llu MiB: crc32 (%s) %.1f MB/s, byte at a time %.1f MB/s: %.2fx "
	       "(%s clock)\n",
	       (unsigned long long)mb,
	       crc32_uses_clmul() ? "PCLMULQDQ folding" : "slicing-by-8 tables", sliced, bytewise,
	       sliced / bytewise, ktime_clock_name());
	result_begin(&r, "crcbench");
	result_u64(&r, "mb", mb);
	result_str(&r, "method", crc32_uses_clmul() ? "pclmulqdq" : "slicing-by-8");
	result_double(&r, "crc32_mbps", sliced, 1);
	result_double(&r, "bytewise_mbps", bytewise, 1);
	result_double(&r, "speedup", sliced / bytewise, 2);
	result_str(&r, "clock", ktime_clock_name());
	result_end(&r);
	return 0;
}
KCMD(crcbench, cmd_crcbench, "crcbench [mb=N]",
     "crc32 speed: slicing-by-8 against the byte-at-a-time loop");
