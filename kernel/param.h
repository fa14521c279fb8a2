/*
 * The kernel command line (kernel/param.c): key=value pairs, declared by
 * the subsystem that uses them with KPARAM() and checked all together at
 * boot, before anything runs. Values may be double-quoted to hold spaces:
 * run="cat /a;cat /b".
 *
 *	KPARAM(mem, KV_SIZE, NULL, "cap usable RAM, as Linux's mem=");
 *	uint64_t bytes;
 *	if (param_get_u64("mem", &bytes) == 0) ...   // -ENOENT when absent
 */
#ifndef KERNEL_PARAM_H
#define KERNEL_PARAM_H

#include "kernel/kv.h"

#define KPARAM(name, type, choices, help)                                        \
	static const struct kv_spec __kparam_##name                              \
		__attribute__((used, section("kparams"), aligned(8))) = {        \
			#name, type, choices, help }

/* A KV_ENUM parameter whose choices @fn returns at run time (registered at link time). */
#define KPARAM_ENUM_FN(name, fn, help)                                           \
	static const struct kv_spec __kparam_##name                              \
		__attribute__((used, section("kparams"), aligned(8))) = {        \
			#name, KV_ENUM, NULL, help, fn }

/*
 * Parse and validate the whole command line, @len bytes as the loader gave
 * it (@cmdline may hold fewer); prints the error and returns -EINVAL.
 */
int param_init(const char *cmdline, size_t len);
int param_get_u64(const char *key, uint64_t *out);
int param_get_str(const char *key, const char **out);
/* Enum value index, or -ENOENT if absent. */
int param_get_enum(const char *key);

#endif
