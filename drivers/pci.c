/*
 * PCI configuration mechanism #1 and the boot-time bus scan. Every function
 * found is printed ("pci 00:1f.2 8086:2922 class 01:06:01 SATA (AHCI)") and
 * kept in a small table that drivers walk with pci_get_dev(). The
 * lspci command prints the table again.
 *
 * Mechanism #1: write 0x80000000 | bus << 16 | dev << 11 | fn << 8 | reg
 * to CONFIG_ADDRESS (0xCF8), then access CONFIG_DATA (0xCFC + reg % 4).
 */
#include <stdio.h>

#include "drivers/pci.h"
#include "kernel/cmd.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA	   0xcfc

static struct pci_dev devices[PCI_MAX_DEVICES];
static int nr_devices;
static bool table_overflow;

/* Select the dword holding @off; masked so no interrupt handler moves CONFIG_ADDRESS meanwhile. */
static unsigned long config_select(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	unsigned long flags = local_irq_save();

	outl(PCI_CONFIG_ADDRESS, 0x80000000u | (uint32_t)bus << 16 | (uint32_t)dev << 11 |
					 (uint32_t)fn << 8 | (off & 0xfc));
	return flags;
}

static uint32_t config_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	unsigned long flags = config_select(bus, dev, fn, off);
	uint32_t v = inl(PCI_CONFIG_DATA);

	local_irq_restore(flags);
	return v;
}

uint32_t pci_read32(const struct pci_dev *d, uint8_t off)
{
	return config_read32(d->bus, d->dev, d->fn, off);
}

uint16_t pci_read16(const struct pci_dev *d, uint8_t off)
{
	unsigned long flags = config_select(d->bus, d->dev, d->fn, off);
	uint16_t v = inw(PCI_CONFIG_DATA + (off & 2));

	local_irq_restore(flags);
	return v;
}

uint8_t pci_read8(const struct pci_dev *d, uint8_t off)
{
	unsigned long flags = config_select(d->bus, d->dev, d->fn, off);
	uint8_t v = inb(PCI_CONFIG_DATA + (off & 3));

	local_irq_restore(flags);
	return v;
}

void pci_write32(const struct pci_dev *d, uint8_t off, uint32_t v)
{
	unsigned long flags = config_select(d->bus, d->dev, d->fn, off);

	outl(PCI_CONFIG_DATA, v);
	local_irq_restore(flags);
}

void pci_write16(const struct pci_dev *d, uint8_t off, uint16_t v)
{
	unsigned long flags = config_select(d->bus, d->dev, d->fn, off);

	outw(PCI_CONFIG_DATA + (off & 2), v);
	local_irq_restore(flags);
}

const char *pci_name(const struct pci_dev *d, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x.%x", d->bus, d->dev, d->fn);
	return buf;
}

static const char *class_name(const struct pci_dev *d)
{
	static const struct {
		uint8_t class, subclass;
		const char *name;
	} names[] = {
		{0x01, 0x00, "SCSI"},	    {0x01, 0x01, "IDE"},	{0x01, 0x05, "ATA"},
		{0x01, 0x06, "SATA"},	    {0x01, 0x08, "NVMe"},	{0x02, 0x00, "Ethernet"},
		{0x03, 0x00, "VGA"},	    {0x04, 0x03, "audio"},	{0x06, 0x00, "host bridge"},
		{0x06, 0x01, "ISA bridge"}, {0x06, 0x04, "PCI bridge"}, {0x0c, 0x03, "USB"},
		{0x0c, 0x05, "SMBus"},
	};

	if (d->class == 0x01 && d->subclass == 0x06 && d->prog_if == 0x01)
		return "SATA (AHCI)";
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].class == d->class && names[i].subclass == d->subclass)
			return names[i].name;
	return "";
}

static void print_dev(const struct pci_dev *d)
{
	char name[16];

	pr_info("pci %s %04x:%04x class %02x:%02x:%02x %s\n", pci_name(d, name, sizeof(name)),
		d->vendor, d->device, d->class, d->subclass, d->prog_if, class_name(d));
}

static void probe_function(uint8_t bus, uint8_t dev, uint8_t fn)
{
	uint32_t id = config_read32(bus, dev, fn, PCI_VENDOR_ID);
	uint32_t cls = config_read32(bus, dev, fn, PCI_REVISION_ID);
	struct pci_dev *d;

	if ((id & 0xffff) == 0xffff)
		return;
	if (nr_devices == PCI_MAX_DEVICES) {
		table_overflow = true;
		return;
	}
	d = &devices[nr_devices++];
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	d->vendor = (uint16_t)id;
	d->device = (uint16_t)(id >> 16);
	d->revision = (uint8_t)cls;
	d->prog_if = (uint8_t)(cls >> 8);
	d->subclass = (uint8_t)(cls >> 16);
	d->class = (uint8_t)(cls >> 24);
	d->header_type = (uint8_t)(config_read32(bus, dev, fn, 0x0c) >> 16) & 0x7f;
	print_dev(d);
}

static int pci_init(void)
{
	/* Brute force: 256 x 32 slots is quick and needs no bridge walking. */
	for (int bus = 0; bus < 256; bus++) {
		for (int dev = 0; dev < 32; dev++) {
			uint32_t id = config_read32(bus, dev, 0, PCI_VENDOR_ID);
			uint8_t hdr;

			if ((id & 0xffff) == 0xffff)
				continue;
			hdr = (uint8_t)(config_read32(bus, dev, 0, 0x0c) >> 16);
			for (int fn = 0; fn < ((hdr & PCI_HEADER_MULTIFUNCTION) ? 8 : 1); fn++)
				probe_function(bus, dev, fn);
		}
	}
	if (table_overflow)
		pr_warn("pci: more than %d functions; only the first %d are usable\n",
			PCI_MAX_DEVICES, PCI_MAX_DEVICES);
	pr_info("pci: %d functions\n", nr_devices);
	return 0;
}
INITCALL(INIT_SUBSYS, pci_init);

int pci_dev_count(void)
{
	return nr_devices;
}

struct pci_dev *pci_get_dev(int i)
{
	return i >= 0 && i < nr_devices ? &devices[i] : NULL;
}

int pci_bar(struct pci_dev *d, int bar, uint64_t *base, uint64_t *size)
{
	uint8_t off = (uint8_t)(PCI_BAR0 + 4 * bar);
	uint16_t cmd = pci_read16(d, PCI_COMMAND);
	uint32_t lo = pci_read32(d, off), hi = 0, mlo, mhi = 0xffffffffu;
	bool is64 = (lo & 0x6) == 0x4;
	uint64_t mask;

	if (bar < 0 || bar > 5 || (d->header_type != 0 && bar > 1) || (lo & 1) ||
	    (is64 && bar == 5))
		return -EINVAL;
	if (is64)
		hi = pci_read32(d, off + 4);
	/* Size it with decoding off, so the all-ones probe never decodes. */
	pci_write16(d, PCI_COMMAND, cmd & ~(PCI_COMMAND_MEMORY | PCI_COMMAND_IO));
	pci_write32(d, off, 0xffffffffu);
	mlo = pci_read32(d, off);
	pci_write32(d, off, lo);
	if (is64) {
		pci_write32(d, off + 4, 0xffffffffu);
		mhi = pci_read32(d, off + 4);
		pci_write32(d, off + 4, hi);
	}
	pci_write16(d, PCI_COMMAND, cmd);
	mask = ((uint64_t)mhi << 32 | (mlo & ~0xfu));
	if (!is64)
		mask |= 0xffffffff00000000ull;
	*base = ((uint64_t)hi << 32) | (lo & ~0xfu);
	*size = ~mask + 1;
	if (!(mlo & ~0xfu) || !*base)
		return -EINVAL;
	return 0;
}

void pci_enable(struct pci_dev *d, uint16_t bits)
{
	pci_write16(d, PCI_COMMAND, pci_read16(d, PCI_COMMAND) | bits);
}

uint8_t pci_find_capability(struct pci_dev *d, uint8_t id)
{
	uint8_t pos;

	if (!(pci_read16(d, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = pci_read8(d, PCI_CAPABILITY_LIST) & 0xfc;
	/* 48 capabilities fit in the 192 bytes after the header: more is a loop. */
	for (int n = 0; pos >= 0x40 && n < 48; n++) {
		if (pci_read8(d, pos) == id)
			return pos;
		pos = pci_read8(d, pos + 1) & 0xfc;
	}
	return 0;
}

int pci_enable_msi(struct pci_dev *d, int vector)
{
	uint8_t cap = pci_find_capability(d, PCI_CAP_ID_MSI);
	uint64_t addr;
	uint32_t data;
	uint16_t ctrl;
	uint8_t data_off;

	if (!cap)
		return -ENODEV;
	msi_compose(vector, &addr, &data);
	ctrl = pci_read16(d, cap + PCI_MSI_FLAGS);
	/* one message: multiple message enable = 0 */
	ctrl &= (uint16_t) ~(PCI_MSI_FLAGS_QSIZE | PCI_MSI_FLAGS_ENABLE);
	pci_write16(d, cap + PCI_MSI_FLAGS, ctrl);
	pci_write32(d, cap + 4, (uint32_t)addr);
	if (ctrl & PCI_MSI_FLAGS_64BIT) {
		pci_write32(d, cap + 8, (uint32_t)(addr >> 32));
		data_off = cap + 12;
	} else {
		data_off = cap + 8;
	}
	pci_write16(d, data_off, (uint16_t)data);
	if (ctrl & PCI_MSI_FLAGS_MASKBIT)
		pci_write32(d, data_off + 4, 0); /* mask bits: vector 0 unmasked */
	pci_enable(d, PCI_COMMAND_INTX_DISABLE | PCI_COMMAND_MASTER);
	pci_write16(d, cap + PCI_MSI_FLAGS, ctrl | PCI_MSI_FLAGS_ENABLE);
	return 0;
}

static int cmd_lspci(int argc, char **argv)
{
	struct result r;
	char list[1500];
	size_t len = 0;

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	list[len++] = '[';
	for (int i = 0; i < nr_devices; i++) {
		const struct pci_dev *d = &devices[i];
		int n;

		print_dev(d);
		n = snprintf(list + len, sizeof(list) - len,
			     "%s\"%02x:%02x.%x %04x:%04x %02x:%02x:%02x\"", i ? "," : "", d->bus,
			     d->dev, d->fn, d->vendor, d->device, d->class, d->subclass,
			     d->prog_if);
		if (n < 0 || (size_t)n >= sizeof(list) - len - 1)
			break; /* the count below still says how many there are */
		len += (size_t)n;
	}
	list[len++] = ']';
	list[len] = 0;
	result_begin(&r, "lspci");
	result_u64(&r, "devices", (uint64_t)nr_devices);
	result_raw(&r, "list", list);
	result_end(&r);
	return 0;
}
KCMD(lspci, cmd_lspci, "lspci", "list the PCI functions found at boot");
