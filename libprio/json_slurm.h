/* SPDX-License-Identifier: MIT */
/*
 * Internal: what the readers of Slurm's --json outputs (squeue, sshare)
 * share.  Slurm prints them through its data_parser plugin, whose version
 * (v0.0.38 in 22.05 to v0.0.45 in 26.05) decides the shapes:
 *  - a number is plain (v0.0.38, and plain-typed fields later) or, from
 *    v0.0.39 on for most fields, the object {"set": B, "infinite": B,
 *    "number": N}: set false means unset (Slurm's NO_VAL), infinite true
 *    means INFINITE (then set is false too);
 *  - "meta" names the plugin and the Slurm release, in three spellings:
 *    22.05 {"plugin": {"type": "openapi/v0.0.38"}, "Slurm": {"release"}},
 *    23.02 {"plugins": {"data_parser": "data_parser/v0.0.39"}, "Slurm"},
 *    23.11+ {"plugin": {"data_parser": "data_parser/v0.0.40"}, "slurm"};
 *  - a plain double that is infinite or not a number is printed by json-c
 *    as the bare words Infinity, -Infinity or NaN, which JSON does not have
 *    (23.11 and 24.05 sshare --json: LevelFS of a user without usage);
 *    Slurm's "complex" mode prints the string "Infinity" instead.
 */
#ifndef PRIO_JSON_SLURM_H
#define PRIO_JSON_SLURM_H

#include <jansson.h>
#include <stdint.h>

enum jsl_num {
	JSL_SET,      /* a value */
	JSL_UNSET,    /* null, or {"set": false} */
	JSL_INFINITE, /* {"infinite": true} */
	JSL_BAD,      /* neither a number nor a well-formed wrapper */
};

/* A copy of s[0..n) with json-c's bare Infinity, -Infinity and NaN (outside
 * strings) turned into the strings "Infinity", "-Infinity" and "NaN" that
 * jsl_real() reads; NULL with *out_n 0 when there are none (use s as it
 * is), NULL with *out_n 1 when out of memory. */
char *jsl_quote_nonfinite(const char *s, size_t n, size_t *out_n);

/* An integer, plain or wrapped. */
enum jsl_num jsl_int(const json_t *v, json_int_t *out);
/* A number (integer or real), plain or wrapped; the strings "Infinity" and
 * "NaN" are INFINITE and unset. */
enum jsl_num jsl_real(const json_t *v, double *out);

/* "an object", "a string"... for messages. */
const char *jsl_type_name(const json_t *v);

/* What "meta" says: the data_parser version (38 for v0.0.38...; 0 when
 * unknown) and the Slurm release as YYMM (0 when unknown). */
struct jsl_meta {
	unsigned parser;
	uint16_t release;
};
void jsl_meta_read(const json_t *root, struct jsl_meta *m);

/* The first line of src (1-based) where a depth-2 object starts inside the
 * top-level array reached through the member path `outer`/`inner` (inner
 * NULL: the array is root[outer]); one entry per element, in order, found
 * with a light scan of strings and brackets (jansson keeps no positions).
 * NULL when out of memory. */
uint32_t *jsl_element_lines(const char *s, size_t n, const char *outer,
			    const char *inner, size_t *count);

/* The line of byte offset pos. */
uint32_t jsl_line_of(const char *s, size_t pos);

#endif
