/*
 * The kernel command line as text (see kernel/cmdline.h).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/cmdline.h"

int cmdline_parse(const char *cmdline, size_t len, char *buf, const struct kv_spec *specs, int n,
		  struct kv_value *vals, char *err, size_t errlen)
{
	char *words[CMDLINE_MAX_WORDS], **first = words;
	const char *split_err = "";
	int nwords;

	/* A cut command line could end inside a run= list: refuse it whole. */
	if (len >= CMDLINE_MAX) {
		snprintf(err, errlen, "%zu bytes, more than the %d this kernel keeps", len,
			 CMDLINE_MAX - 1);
		return -EINVAL;
	}
	memcpy(buf, cmdline, len);
	buf[len] = 0;
	nwords = kv_split(buf, words, CMDLINE_MAX_WORDS, &split_err);
	if (nwords < 0) {
		if (!strcmp(split_err, "too many words"))
			snprintf(err, errlen, "more than %d words", CMDLINE_MAX_WORDS);
		else
			snprintf(err, errlen, "%s", split_err);
		return -EINVAL;
	}
	if (nwords > 0 && !strchr(words[0], '=') && strchr(words[0], '/')) {
		first++;
		nwords--;
	}
	return kv_parse(first, nwords, specs, n, vals, NULL, err, errlen);
}

char *cmdline_next_command(char **cursor)
{
	while (*cursor) {
		char *cmd = *cursor, *semi = strchr(cmd, ';');

		if (semi)
			*semi++ = 0;
		*cursor = semi;
		while (*cmd == ' ' || *cmd == '\t')
			cmd++;
		if (*cmd)
			return cmd;
	}
	return NULL;
}
