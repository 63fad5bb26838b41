/* SPDX-License-Identifier: MIT */
/* Internal: scontrol "Key=Value" splitting (see kvscan.h). */
#include "config.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "kvscan.h"

/* Length of the key if text[0..len) starts with "Identifier=", else 0. */
static size_t key_at(const char *text, size_t len)
{
	size_t i = 0;

	if (len == 0 || !isalpha((unsigned char)text[0]))
		return 0;
	while (i < len) {
		unsigned char c = (unsigned char)text[i];

		if (c == '=')
			return i;
		if (!isalnum(c) && c != '_' && c != ':' && c != '/' && c != '.' &&
		    c != '-')
			return 0;
		i++;
	}
	return 0;
}

int kv_split(const char *text, size_t len, struct kv_pair *pairs,
	     size_t *count, size_t max, const char **stray, size_t *stray_len)
{
	size_t i = 0;
	const char *stray_start = NULL, *stray_end = NULL;
	struct kv_pair *last = *count ? &pairs[*count - 1] : NULL;
	bool own_last = false;

	while (i < len) {
		size_t start, end, klen;

		while (i < len && (text[i] == ' ' || text[i] == '\t'))
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && text[i] != ' ' && text[i] != '\t')
			i++;
		end = i;
		klen = key_at(text + start, end - start);
		if (klen) {
			if (*count >= max)
				return -1;
			last = &pairs[(*count)++];
			own_last = true;
			last->key = text + start;
			last->key_len = klen;
			last->val = text + start + klen + 1;
			last->val_len = end - (start + klen + 1);
		} else if (last && own_last) {
			last->val_len = (size_t)(text + end - last->val);
		} else {
			if (!stray_start)
				stray_start = text + start;
			stray_end = text + end;
		}
	}
	if (stray) {
		*stray = stray_start;
		*stray_len = stray_start ? (size_t)(stray_end - stray_start) : 0;
	}
	return 0;
}

bool kv_key_is(const struct kv_pair *p, const char *key)
{
	return strlen(key) == p->key_len && memcmp(p->key, key, p->key_len) == 0;
}

bool kv_key_is_nocase(const struct kv_pair *p, const char *key)
{
	return strlen(key) == p->key_len &&
	       strncasecmp(p->key, key, p->key_len) == 0;
}

bool kv_val_unset(const char *val, size_t len)
{
	static const char *const unset[] = { "(null)", "N/A", "None", "Unknown",
					     "n/a" };

	if (len == 0)
		return true;
	for (size_t i = 0; i < sizeof(unset) / sizeof(unset[0]); i++)
		if (strlen(unset[i]) == len && memcmp(val, unset[i], len) == 0)
			return true;
	return false;
}
