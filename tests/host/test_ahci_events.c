/*
 * Which port status starts AHCI error recovery and which is only counted
 * (drivers/ahci-events.c): every fatal PxIS bit and a link change recover;
 * SError ERR bits 11:8 recover; a FIS with STS.ERR recovers (QEMU's NCQ
 * error), STS.ERR alone does not; PxIS.INFS and the recovered and
 * diagnostic SError bits a real link sets are counted only.
 */
#include <string.h>

#include "drivers/ahci-events.h"
#include "drivers/ahci.h"
#include "kernel/ktest.h"

static void test_fatal_bits_recover(struct ktest *t)
{
	static const uint32_t bits[] = {AHCI_PxIS_TFES, AHCI_PxIS_HBFS, AHCI_PxIS_HBDS,
					AHCI_PxIS_IFS,	AHCI_PxIS_OFS,	AHCI_PxIS_IPMS,
					AHCI_PxIS_UFS,	AHCI_PxIS_PCS,	AHCI_PxIS_PRCS};
	const char *why = NULL;

	for (unsigned int i = 0; i < ARRAY_SIZE(bits); i++) {
		KT_EXPECT_EQ(t, ahci_classify(bits[i], 0, 0, &why), AHCI_EV_RECOVER);
		KT_EXPECT_TRUE(t, why != NULL);
	}
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_TFES, 0, ATA_STS_ERR, &why), AHCI_EV_RECOVER);
	KT_EXPECT_STREQ(t, why, "task file error");
}

static void test_serr_stop_bits_recover(struct ktest *t)
{
	static const uint32_t bits[] = {AHCI_SERR_ERR_T, AHCI_SERR_ERR_C, AHCI_SERR_ERR_P,
					AHCI_SERR_ERR_E};

	for (unsigned int i = 0; i < ARRAY_SIZE(bits); i++)
		KT_EXPECT_EQ(t, ahci_classify(0, bits[i], 0, NULL), AHCI_EV_RECOVER);
}

static void test_real_link_noise_is_counted(struct ktest *t)
{
	static const uint32_t bits[] = {AHCI_SERR_ERR_I,  AHCI_SERR_ERR_M,  AHCI_SERR_DIAG_N,
					AHCI_SERR_DIAG_I, AHCI_SERR_DIAG_W, AHCI_SERR_DIAG_B,
					AHCI_SERR_DIAG_D, AHCI_SERR_DIAG_C, AHCI_SERR_DIAG_H,
					AHCI_SERR_DIAG_S, AHCI_SERR_DIAG_T, AHCI_SERR_DIAG_F,
					AHCI_SERR_DIAG_X};
	const char *why = NULL;

	for (unsigned int i = 0; i < ARRAY_SIZE(bits); i++)
		KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_SDBS, bits[i], 0, NULL), AHCI_EV_NOTE);
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_INFS, 0, 0, &why), AHCI_EV_NOTE);
	KT_EXPECT_STREQ(t, why, "interface non-fatal error");
	/* a whole DIAG word of noise plus the recovered ERR bits: still no recovery */
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_DHRS, 0x07ff0003u, 0, NULL), AHCI_EV_NOTE);
}

static void test_device_error_status(struct ktest *t)
{
	const char *why = NULL;

	/* QEMU 7.2's failed NCQ command: an SDB FIS with STS.ERR */
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_SDBS, AHCI_SERR_ERR_I, ATA_STS_ERR | 0x40, &why),
		     AHCI_EV_RECOVER);
	KT_EXPECT_STREQ(t, why, "device error status");
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_DHRS, 0, ATA_STS_ERR, NULL), AHCI_EV_RECOVER);
	/* STS.ERR left over from an earlier error, with no FIS just arrived */
	KT_EXPECT_EQ(t, ahci_classify(0, 0, ATA_STS_ERR, NULL), AHCI_EV_NONE);
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_DPS, 0, ATA_STS_ERR, NULL), AHCI_EV_NONE);
}

static void test_quiet(struct ktest *t)
{
	KT_EXPECT_EQ(t, ahci_classify(0, 0, 0x50, NULL), AHCI_EV_NONE);
	KT_EXPECT_EQ(t, ahci_classify(AHCI_PxIS_SDBS | AHCI_PxIS_DHRS, 0, 0x50, NULL),
		     AHCI_EV_NONE);
}

static void test_controller_modes(struct ktest *t)
{
	char msg[224];

	/* AHCI, any vendor */
	KT_EXPECT_EQ(t, ahci_match_controller(0x8086, 0x2922, 0x01, 0x06, 0x01, 0xfebf1000, msg,
					      sizeof(msg)),
		     AHCI_MATCH_DRIVE);
	KT_EXPECT_EQ(t, ahci_match_controller(0x197b, 0x2363, 0x01, 0x06, 0x01, 0xfe8fe000, msg,
					      sizeof(msg)),
		     AHCI_MATCH_DRIVE);
	/* Intel RAID mode with a memory BAR5: AHCI underneath */
	KT_EXPECT_EQ(t, ahci_match_controller(0x8086, 0x2822, 0x01, 0x04, 0x00, 0xfebf1000, msg,
					      sizeof(msg)),
		     AHCI_MATCH_DRIVE);
	/* ...but not without one, and not another vendor's RAID */
	KT_EXPECT_EQ(t, ahci_match_controller(0x8086, 0x2822, 0x01, 0x04, 0x00, 0xe001, msg,
					      sizeof(msg)),
		     AHCI_MATCH_WARN);
	KT_EXPECT_TRUE(t, strstr(msg, "RAID mode") && strstr(msg, "BIOS"));
	KT_EXPECT_EQ(t, ahci_match_controller(0x1095, 0x3132, 0x01, 0x04, 0x00, 0xfe000000, msg,
					      sizeof(msg)),
		     AHCI_MATCH_WARN);
	KT_EXPECT_TRUE(t, strstr(msg, "1095:3132") != NULL);
	/* Intel SATA in IDE mode: set AHCI in the BIOS, naming vendor and device */
	KT_EXPECT_EQ(t, ahci_match_controller(0x8086, 0x2920, 0x01, 0x01, 0x8f, 0, msg,
					      sizeof(msg)),
		     AHCI_MATCH_WARN);
	KT_EXPECT_TRUE(t, strstr(msg, "Intel 8086:2920") && strstr(msg, "IDE mode") &&
				  strstr(msg, "set the SATA mode to AHCI"));
	/* JMicron's PATA function: named, never told to switch to AHCI */
	KT_EXPECT_EQ(t, ahci_match_controller(0x197b, 0x2363, 0x01, 0x01, 0x85, 0, msg,
					      sizeof(msg)),
		     AHCI_MATCH_WARN);
	KT_EXPECT_TRUE(t, strstr(msg, "PATA") && !strstr(msg, "set the SATA mode"));
	/* not disk controllers, or other storage: nothing */
	KT_EXPECT_EQ(t, ahci_match_controller(0x8086, 0x2930, 0x0c, 0x05, 0x00, 0, msg,
					      sizeof(msg)),
		     AHCI_MATCH_NONE);
	KT_EXPECT_EQ(t, ahci_match_controller(0x1af4, 0x1001, 0x01, 0x00, 0x00, 0, msg,
					      sizeof(msg)),
		     AHCI_MATCH_NONE);
	KT_EXPECT_EQ(t, msg[0], 0);
}

KTEST_SUITE(ahci_events, NULL, KTEST_CASE(test_controller_modes), KTEST_CASE(test_fatal_bits_recover),
	    KTEST_CASE(test_serr_stop_bits_recover), KTEST_CASE(test_real_link_noise_is_counted),
	    KTEST_CASE(test_device_error_status), KTEST_CASE(test_quiet));
