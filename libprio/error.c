/* SPDX-License-Identifier: MIT */
/* Error records: the one place messages are composed, never printed. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "prio/error.h"

void prio_error_clear(struct prio_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

static void copy_field(char *dst, size_t size, const char *src)
{
	if (!src)
		src = "";
	snprintf(dst, size, "%s", src);
}

int prio_error_setv(struct prio_error *err, int status, const char *file,
		    unsigned long line, const char *field, const char *fmt,
		    va_list ap)
{
	if (status >= 0)
		status = PRIO_ERR_PARSE;
	if (!err)
		return status;
	err->status = status;
	copy_field(err->file, sizeof(err->file), file);
	err->line = line;
	copy_field(err->field, sizeof(err->field), field);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	return status;
}

int prio_error_set(struct prio_error *err, int status, const char *file,
		   unsigned long line, const char *field, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = prio_error_setv(err, status, file, line, field, fmt, ap);
	va_end(ap);
	return rc;
}

const char *prio_error_format(const struct prio_error *err, char *buf,
			      size_t size)
{
	size_t used = 0;
	int n;

	if (!size)
		return buf;
	buf[0] = '\0';
#define APPEND(...)                                                        \
	do {                                                               \
		n = snprintf(buf + used, size - used, __VA_ARGS__);        \
		if (n < 0)                                                 \
			return buf;                                        \
		used += (size_t)n < size - used ? (size_t)n : size - used - 1; \
	} while (0)
	if (err->file[0] && err->line)
		APPEND("%s:%lu: ", err->file, err->line);
	else if (err->file[0])
		APPEND("%s: ", err->file);
	if (err->field[0])
		APPEND("%s: ", err->field);
	APPEND("%s", err->message[0] ? err->message : prio_status_name(err->status));
#undef APPEND
	return buf;
}

const char *prio_status_name(int status)
{
	switch (status) {
	case PRIO_OK: return "success";
	case PRIO_ERR_PARSE: return "malformed input";
	case PRIO_ERR_IO: return "input/output error";
	case PRIO_ERR_NOMEM: return "out of memory";
	case PRIO_ERR_USAGE: return "invalid argument";
	case PRIO_ERR_MISSING: return "missing input";
	case PRIO_ERR_LIMIT: return "input exceeds a limit";
	}
	return "unknown error";
}
