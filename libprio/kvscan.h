/* SPDX-License-Identifier: MIT */
/*
 * Internal: split scontrol's "Key=Value Key=Value" text into pairs.
 * scontrol prints values with spaces unquoted (OS=Linux 6.1 #1 SMP ...), so a
 * whitespace-separated piece that does not start with "Identifier=" belongs
 * to the previous value.  Keys may hold ':' and '/' (AllocNode:Sid,
 * CPUs/Task).  Pairs point into the caller's text; nothing is copied.
 */
#ifndef PRIO_KVSCAN_H
#define PRIO_KVSCAN_H

#include <stdbool.h>
#include <stddef.h>

struct kv_pair {
	const char *key;
	size_t key_len;
	const char *val;
	size_t val_len;
};

/* Append the pairs of text[0..len) to pairs[*count..max).  Returns 0, or -1
 * when more than max pairs would be needed.  Text before the first key (a
 * header such as "Configuration data as of ...") is reported through
 * stray and stray_len when non-NULL. */
int kv_split(const char *text, size_t len, struct kv_pair *pairs,
	     size_t *count, size_t max, const char **stray, size_t *stray_len);

/* Case-sensitive / case-insensitive key comparison. */
bool kv_key_is(const struct kv_pair *p, const char *key);
bool kv_key_is_nocase(const struct kv_pair *p, const char *key);
/* True for values scontrol prints for "unset": "(null)", "N/A", "None",
 * "Unknown", "" . */
bool kv_val_unset(const char *val, size_t len);

#endif
