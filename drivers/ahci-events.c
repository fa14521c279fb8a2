/*
 * Classifying a port's interrupt and error status (see drivers/ahci-events.h).
 */
#include "drivers/ahci-events.h"
#include "drivers/ahci.h"

enum ahci_event_class ahci_classify(uint32_t is, uint32_t serr, uint32_t tfd, const char **why)
{
	const char *w = NULL;
	enum ahci_event_class c = AHCI_EV_NONE;

	if (is & AHCI_PxIS_TFES)
		w = "task file error";
	else if (is & (AHCI_PxIS_HBFS | AHCI_PxIS_HBDS))
		w = "host bus error";
	else if (is & AHCI_PxIS_IFS)
		w = "interface fatal error";
	else if (is & AHCI_PxIS_OFS)
		w = "overflow";
	else if (is & (AHCI_PxIS_IPMS | AHCI_PxIS_UFS))
		w = "unexpected FIS";
	else if (is & AHCI_PxIS_LINK)
		w = "link change";
	else if (serr & AHCI_SERR_STOPS)
		w = "SError stopped the transfer";
	else if ((is & (AHCI_PxIS_SDBS | AHCI_PxIS_DHRS | AHCI_PxIS_PSS)) && (tfd & ATA_STS_ERR))
		w = "device error status";
	if (w) {
		c = AHCI_EV_RECOVER;
	} else if ((is & AHCI_PxIS_INFS) || serr) {
		c = AHCI_EV_NOTE;
		w = is & AHCI_PxIS_INFS ? "interface non-fatal error" : "recovered SError";
	}
	if (why)
		*why = w;
	return c;
}
