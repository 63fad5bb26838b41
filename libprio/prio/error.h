/* SPDX-License-Identifier: MIT */
/*
 * Errors and diagnostics.  The library never prints or exits: every failure
 * fills a struct prio_error naming the file, line and field, and returns a
 * negative prio_status.  Commands print it as "tool: file:line: field: msg".
 */
#ifndef PRIO_ERROR_H
#define PRIO_ERROR_H

#include <stdarg.h>
#include <stddef.h>

enum prio_status {
	PRIO_OK = 0,
	PRIO_ERR_PARSE = -1,   /* malformed input */
	PRIO_ERR_IO = -2,      /* cannot open or read */
	PRIO_ERR_NOMEM = -3,   /* allocation failed */
	PRIO_ERR_USAGE = -4,   /* bad argument from the caller */
	PRIO_ERR_MISSING = -5, /* a needed input is absent */
	PRIO_ERR_LIMIT = -6,   /* input exceeds a safety limit */
};

struct prio_error {
	int status;          /* enum prio_status, PRIO_OK when clear */
	char file[256];      /* input name as the user gave it, "" if none */
	unsigned long line;  /* 1-based, 0 when not line-related */
	char field[64];      /* key, column or field name, "" if none */
	char message[512];   /* what is wrong, without file/line/field */
};

void prio_error_clear(struct prio_error *err);

/* Fill err and return status (always negative), so loaders can write
 * "return prio_error_set(err, PRIO_ERR_PARSE, file, line, "Key", "...")". */
int prio_error_set(struct prio_error *err, int status, const char *file,
		   unsigned long line, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int prio_error_setv(struct prio_error *err, int status, const char *file,
		    unsigned long line, const char *field, const char *fmt,
		    va_list ap);

/* "file:line: field: message" (parts omitted when empty) into buf. */
const char *prio_error_format(const struct prio_error *err, char *buf,
			      size_t size);

const char *prio_status_name(int status);

#endif
