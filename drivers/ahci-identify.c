/*
 * ATA IDENTIFY DEVICE at bring-up (see drivers/ahci-internal.h): the
 * command issued in slot 0 and waited for, then its 512 bytes checked
 * (ATA, the integrity word's checksum, DMA and 48-bit addressing supported
 * and enabled, a logical sector of 512 or 4096 bytes, a capacity that fits)
 * and turned into the block device's model, serial, firmware, size, NCQ
 * depth and largest transfer (ahci_ncq, ahci_max_kb).
 */
#include <string.h>

#include "drivers/ahci-internal.h"
#include "kernel/io.h"
#include "kernel/log.h"
#include "mm/mm.h"

/* ATA strings: two characters per word, high byte first, padded with spaces. */
static void ata_string(const uint16_t *id, int word, int nwords, char *out)
{
	int n = 0;

	for (int i = 0; i < nwords; i++) {
		out[n++] = (char)(id[word + i] >> 8);
		out[n++] = (char)id[word + i];
	}
	out[n] = 0;
	while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == 0))
		out[--n] = 0;
	for (int i = 0; i < n; i++)
		if (out[i] < 0x20 || out[i] > 0x7e)
			out[i] = '?';
}

int ahci_identify(struct ahci_port *port)
{
	struct page *buf = alloc_page();
	struct ahci_cmd_table *t = port->tables[0];
	struct fis_reg_h2d *fis;
	uint32_t is = 0;
	int err;

	if (!buf)
		return -ENOMEM;
	memset(page_address(buf), 0, PAGE_SIZE);
	fis = prep_header(port, 0, 1, false);
	t->prdt[0] = (struct ahci_prd){(uint32_t)virt_to_phys(page_address(buf)),
				       (uint32_t)(virt_to_phys(page_address(buf)) >> 32), 0, 511};
	fis->fis_type = FIS_TYPE_REG_H2D;
	fis->pmport_c = FIS_H2D_C;
	fis->command = ATA_CMD_IDENTIFY_DEVICE;
	err = ahci_exec_sync(port, 0, T_IDENTIFY_NS, &is);
	if (err)
		ahci_dump_regs(port, "IDENTIFY DEVICE failed", is);
	else if (port->cmd_list[0].prdbc != 512)
		pr_warn("%s: IDENTIFY moved %u bytes, not 512\n", port->name,
			port->cmd_list[0].prdbc);
	memcpy(port->id, page_address(buf), sizeof(port->id));
	free_pages(buf, 0);
	return err;
}

/* Check the IDENTIFY data and fill in the block device; -EINVAL with a message if unusable. */
int ahci_parse_identify(struct ahci_port *port)
{
	const uint16_t *id = port->id;
	struct block_device *bdev = &port->bdev;
	uint64_t capacity;
	uint32_t lss = 512;
	unsigned int max_kb;

	if (id[ATA_ID_CONFIG] & 0x8000) {
		pr_err("%s: IDENTIFY says this is not an ATA device (word 0 = %04x)\n", port->name,
		       id[ATA_ID_CONFIG]);
		return -EINVAL;
	}
	if ((id[ATA_ID_INTEGRITY] & 0xff) == 0xa5) {
		uint8_t sum = 0;

		for (int i = 0; i < 512; i++)
			sum += ((const uint8_t *)id)[i];
		if (sum) {
			pr_err("%s: IDENTIFY data fails its checksum (word 255 = %04x)\n",
			       port->name, id[ATA_ID_INTEGRITY]);
			return -EINVAL;
		}
	}
	if (!(id[ATA_ID_CAPABILITY] & (1u << 8)) || !(id[ATA_ID_COMMAND_SET_2] & (1u << 10))) {
		pr_err("%s: the disk lacks DMA or 48-bit addressing (words 49/83 = %04x/%04x); "
		       "not supported\n",
		       port->name, id[ATA_ID_CAPABILITY], id[ATA_ID_COMMAND_SET_2]);
		return -EINVAL;
	}
	/* supported is not enabled: a DCO can switch 48-bit addressing off (word 86) */
	if (!(id[86] & (1u << 10))) {
		pr_err("%s: 48-bit addressing is supported but disabled (word 86 = %04x); "
		       "not supported\n",
		       port->name, id[86]);
		return -EINVAL;
	}
	capacity = (uint64_t)id[100] | (uint64_t)id[101] << 16 | (uint64_t)id[102] << 32 |
		   (uint64_t)id[103] << 48;
	if ((id[ATA_ID_SECTOR_SIZE] & 0xc000) == 0x4000 && (id[ATA_ID_SECTOR_SIZE] & (1u << 12)))
		lss = 2 * ((uint32_t)id[117] | (uint32_t)id[118] << 16);
	if (lss != 512 && lss != 4096) {
		pr_err("%s: logical sector size %u bytes; only 512 and 4096 are supported\n",
		       port->name, lss);
		return -EINVAL;
	}
	port->lss_shift = lss == 4096 ? 3 : 0;
	if (!capacity || capacity >= (1ULL << 48) >> port->lss_shift) {
		pr_err("%s: IDENTIFY reports a capacity of %llu sectors\n", port->name,
		       (unsigned long long)capacity);
		return -EINVAL;
	}
	ata_string(id, ATA_ID_MODEL, 20, bdev->model);
	ata_string(id, ATA_ID_SERIAL, 10, bdev->serial);
	ata_string(id, ATA_ID_FW_REV, 4, bdev->firmware);
	bdev->logical_sector_size = lss;
	bdev->nr_sectors = capacity << port->lss_shift;
	/* nominal media rotation rate: 1 is a solid-state device, 0 not reported (Linux: spins) */
	bdev->nonrot = id[217] == 1;

	/* word 76 is valid only when neither 0000h nor FFFFh */
	port->ncq = (port->host->cap & AHCI_CAP_SNCQ) && id[ATA_ID_SATA_CAPABILITY] != 0 &&
		    id[ATA_ID_SATA_CAPABILITY] != 0xffff &&
		    (id[ATA_ID_SATA_CAPABILITY] & (1u << 8)) && ahci_param("ahci_ncq", 1);
	if (port->ncq) {
		unsigned int depth = min_t(unsigned int, (id[ATA_ID_QUEUE_DEPTH] & 0x1f) + 1,
					   port->host->nr_slots);

		port->slot_mask = depth == 32 ? 0xffffffffu : (1u << depth) - 1;
		bdev->queue_depth = depth;
	} else {
		port->slot_mask = 1;
		bdev->queue_depth = 1;
	}
	bdev->ncq = port->ncq;

	max_kb = (unsigned int)ahci_param("ahci_max_kb", AHCI_DEF_MAX_KB);
	/* the device's limit: a 16-bit sector count (0 = 65536) */
	max_kb = min_t(unsigned int, max_kb, (65536u * lss) / 1024);
	bdev->max_sectors = ALIGN_DOWN(max_kb * 2, 1u << port->lss_shift);
	return 0;
}
