/* SPDX-License-Identifier: MIT */
/*
 * Scalar values as Slurm parses them (slurm-facts §1.0 and §10):
 * unsigned integers with strtoul base 0 ("0x1f", "010" = 8), a "k"/"K"
 * suffix multiplying by 1024 (not for 16-bit values), "UNLIMITED" and
 * "INFINITE" as all ones; booleans yes|up|true|1 / no|down|false|0.
 */
#ifndef PRIO_VALUE_H
#define PRIO_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Each returns 0 and sets *out, or -1 when s[0..n) is not a valid value. */
int prio_parse_uint16(const char *s, size_t n, uint16_t *out);
int prio_parse_uint32(const char *s, size_t n, uint32_t *out);
int prio_parse_uint64(const char *s, size_t n, uint64_t *out);
/* Plain decimal, optional sign, no suffixes (for captured numbers). */
int prio_parse_int64(const char *s, size_t n, int64_t *out);
/* strtod over exactly s[0..n); accepts "inf"/"nan" as printf writes them. */
int prio_parse_double(const char *s, size_t n, double *out);
int prio_parse_bool(const char *s, size_t n, bool *out);

/* Case-insensitive equality of s[0..n) with the NUL-terminated word. */
bool prio_word_eq(const char *s, size_t n, const char *word);

#endif
