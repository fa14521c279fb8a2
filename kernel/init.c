/*
 * init_fail(): the record of a boot-time set-up that makes the whole run
 * pointless (kernel/init.h). The floors' init calls report here; kmain
 * (init/main.c, above them all) asks init_failures() once every init call
 * has run and exits with failure before any command.
 */
#include "kernel/init.h"
#include "kernel/log.h"

static int nr_init_failures;

void init_fail(const char *what)
{
	pr_err("%s\n", what);
	nr_init_failures++;
}

int init_failures(void)
{
	return nr_init_failures;
}
