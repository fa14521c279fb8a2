/*
 * The kernel command line, checked as a whole against every KPARAM()
 * before anything uses it, so a typo stops the boot with one line naming
 * the key rather than being ignored.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/cmd.h"
#include "kernel/cmdline.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/result.h"

#define MAX_PARAMS	96

extern const struct kv_spec __start_kparams[], __stop_kparams[];

static char cmdline_copy[CMDLINE_MAX];
static char cmdline_words[CMDLINE_MAX];
static struct kv_value values[MAX_PARAMS];
static int nparams;

int param_init(const char *cmdline, size_t len)
{
	char err[512];

	nparams = (int)(__stop_kparams - __start_kparams);
	if (nparams > MAX_PARAMS)
		panic("%d kernel parameters declared, at most %d", nparams, MAX_PARAMS);
	snprintf(cmdline_copy, sizeof(cmdline_copy), "%s", cmdline);
	if (cmdline_parse(cmdline, len, cmdline_words, __start_kparams, nparams, values, err,
			  sizeof(err))) {
		pr_err("command line: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static const struct kv_value *lookup(const char *key)
{
	for (int i = 0; i < nparams; i++)
		if (strcmp(__start_kparams[i].key, key) == 0)
			return &values[i];
	panic("parameter '%s' is read but was never declared with KPARAM()", key);
}

int param_get_u64(const char *key, uint64_t *out)
{
	const struct kv_value *v = lookup(key);

	if (!v->present)
		return -ENOENT;
	*out = v->u;
	return 0;
}

int param_get_str(const char *key, const char **out)
{
	const struct kv_value *v = lookup(key);

	if (!v->present)
		return -ENOENT;
	*out = v->s;
	return 0;
}

int param_get_enum(const char *key)
{
	const struct kv_value *v = lookup(key);

	return v->present ? (int)v->u : -ENOENT;
}

static int cmd_params(int argc, char **argv)
{
	char what[160];

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	for (const struct kv_spec *s = __start_kparams; s < __stop_kparams; s++) {
		kv_describe(s, what, sizeof(what));
		printf("  %-12s %s (%s)\n", s->key, s->help, what);
	}
	struct result r;

	result_begin(&r, "params");
	result_u64(&r, "count", (uint64_t)(__stop_kparams - __start_kparams));
	result_str(&r, "cmdline", cmdline_copy);
	result_end(&r);
	return 0;
}
KCMD(params, cmd_params, "params", "list the command-line keys and the command line given");
