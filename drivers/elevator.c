/*
 * The registry of I/O schedulers (elevators): every struct elevator_type
 * that ELEVATOR() put in the elevators section, sorted by name once, the
 * default the one flagged ELV_DEFAULT unless elevator= names another (as
 * 2.6.20's elv_register() and chosen_elevator do, block/elevator.c). The
 * elevators themselves are drivers/NAME-iosched.c, one file each.
 * Host-buildable, like the core.
 */
#include <string.h>

#include "drivers/elevator.h"
#include "kernel/log.h"

/* weak: a host program that links no elevator has an empty registry */
extern const struct elevator_type *const __start_elevators[] __attribute__((weak));
extern const struct elevator_type *const __stop_elevators[] __attribute__((weak));

/* More than any tree needs; the registry says so once if a build ever has more. */
#define ELV_MAX 16

static const struct elevator_type *elv_sorted[ELV_MAX];
static const char *elv_sorted_names[ELV_MAX + 1];
static unsigned int elv_nr_sorted;
static bool elv_sorted_done;
static const struct elevator_type *elv_chosen;

/* The section's order is link order, which differs between kernel and host: sort by name. */
static void elv_registry_sort(void)
{
	const struct elevator_type *const *p;

	elv_sorted_done = true;
	for (p = __start_elevators; p < __stop_elevators; p++) {
		unsigned int i;

		if (elv_nr_sorted == ELV_MAX) {
			pr_err("elevator: more than %d registered, %s and later left out\n",
			       ELV_MAX, (*p)->name);
			break;
		}
		for (i = elv_nr_sorted; i > 0 && strcmp(elv_sorted[i - 1]->name, (*p)->name) > 0;
		     i--)
			elv_sorted[i] = elv_sorted[i - 1];
		elv_sorted[i] = *p;
		elv_nr_sorted++;
	}
	for (unsigned int i = 0; i < elv_nr_sorted; i++)
		elv_sorted_names[i] = elv_sorted[i]->name;
	elv_sorted_names[elv_nr_sorted] = NULL;
}

const struct elevator_type *elv_at(unsigned int i)
{
	if (!elv_sorted_done)
		elv_registry_sort();
	return i < elv_nr_sorted ? elv_sorted[i] : NULL;
}

const struct elevator_type *elv_find(const char *name)
{
	const struct elevator_type *e;

	for (unsigned int i = 0; (e = elv_at(i)); i++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

const char *const *elv_names(void)
{
	elv_at(0);
	return elv_sorted_names;
}

const struct elevator_type *elv_default(void)
{
	const struct elevator_type *e;

	if (elv_chosen)
		return elv_chosen;
	for (unsigned int i = 0; (e = elv_at(i)); i++)
		if (e->flags & ELV_DEFAULT)
			return e;
	return elv_at(0);
}

int elv_set_default(const char *name)
{
	const struct elevator_type *e = elv_find(name);

	if (!e)
		return -EINVAL;
	elv_chosen = e;
	return 0;
}
