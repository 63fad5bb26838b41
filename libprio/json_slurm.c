/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the --json readers (json_slurm.h): data_parser's wrapped
 * numbers, the "meta" object of each release, and the lines where array
 * elements start (for messages: jansson keeps no positions).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json_slurm.h"
#include "prio/slurm_version.h"

const char *jsl_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "?";
}

/* {"set": B, "infinite": B, "number": N}: all three members, of those
 * types, or the wrapper is refused (a cut or edited file). */
static enum jsl_num unwrap(const json_t *v, const json_t **number)
{
	const json_t *set = json_object_get(v, "set");
	const json_t *inf = json_object_get(v, "infinite");

	*number = json_object_get(v, "number");
	if (!json_is_boolean(set) || !json_is_boolean(inf) ||
	    !json_is_number(*number))
		return JSL_BAD;
	if (json_is_true(inf))
		return JSL_INFINITE;
	return json_is_true(set) ? JSL_SET : JSL_UNSET;
}

/* The number v holds: v itself, or a wrapper's "number". */
static enum jsl_num inner(const json_t *v, const json_t **num)
{
	if (json_is_null(v))
		return JSL_UNSET;
	*num = v;
	return json_is_object(v) ? unwrap(v, num) : JSL_SET;
}

enum jsl_num jsl_int(const json_t *v, json_int_t *out)
{
	enum jsl_num k = inner(v, &v);

	if (k != JSL_SET)
		return k;
	if (!json_is_integer(v))
		return JSL_BAD;
	*out = json_integer_value(v);
	return JSL_SET;
}

enum jsl_num jsl_real(const json_t *v, double *out)
{
	enum jsl_num k = inner(v, &v);

	if (k != JSL_SET)
		return k;
	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "Infinity") == 0)
			return JSL_INFINITE;
		return strcmp(json_string_value(v), "NaN") == 0 ? JSL_UNSET
								 : JSL_BAD;
	}
	if (!json_is_number(v))
		return JSL_BAD;
	*out = json_number_value(v);
	return JSL_SET;
}

static const char *const nonfinite[] = {"-Infinity", "Infinity", "NaN"};

/* The bare word at s[i] (outside strings, at a value's start), or NULL. */
static const char *nonfinite_at(const char *s, size_t n, size_t i)
{
	for (size_t k = 0; k < sizeof(nonfinite) / sizeof(nonfinite[0]); k++) {
		size_t len = strlen(nonfinite[k]);

		if (n - i >= len && memcmp(s + i, nonfinite[k], len) == 0)
			return nonfinite[k];
	}
	return NULL;
}

char *jsl_quote_nonfinite(const char *s, size_t n, size_t *out_n)
{
	size_t extra = 0, o = 0;
	bool in_str = false;
	char *out = NULL;

	/* count first: most files have none and are not copied */
	for (size_t pass = 0; pass < 2; pass++) {
		in_str = false;
		for (size_t i = 0; i < n; i++) {
			const char *w;

			if (in_str) {
				if (s[i] == '\\' && i + 1 < n) {
					if (pass)
						out[o++] = s[i];
					i++;
				} else if (s[i] == '"') {
					in_str = false;
				}
			} else if (s[i] == '"') {
				in_str = true;
			} else if ((w = nonfinite_at(s, n, i))) {
				size_t len = strlen(w);

				if (pass) {
					out[o++] = '"';
					memcpy(out + o, w, len);
					o += len;
					out[o++] = '"';
				}
				extra += 2;
				i += len - 1;
				continue;
			}
			if (pass)
				out[o++] = s[i];
		}
		if (pass == 0) {
			if (!extra) {
				*out_n = 0;
				return NULL;
			}
			if (!(out = malloc(n + extra))) {
				*out_n = 1;
				return NULL;
			}
		}
	}
	*out_n = o;
	return out;
}

/* "data_parser/v0.0.42", "openapi/v0.0.38": the last number. */
static unsigned parser_of(const char *s)
{
	const char *v = s ? strstr(s, "v0.0.") : NULL;

	return v ? (unsigned)strtoul(v + 5, NULL, 10) : 0;
}

/* A version member: "24" (23.11+) or 24 (22.05, 23.02). */
static int number_member(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (int)json_integer_value(v);
	if (json_is_string(v))
		return atoi(json_string_value(v));
	return -1;
}

void jsl_meta_read(const json_t *root, struct jsl_meta *m)
{
	const json_t *meta = json_object_get(root, "meta");
	const json_t *plugin, *slurm, *release, *ver;

	m->parser = 0;
	m->release = 0;
	if (!json_is_object(meta))
		return;
	plugin = json_object_get(meta, "plugin");
	if (!plugin)
		plugin = json_object_get(meta, "plugins"); /* 23.02 */
	m->parser = parser_of(
	    json_string_value(json_object_get(plugin, "data_parser")));
	if (!m->parser) /* 22.05: the openapi plugin printed it */
		m->parser =
		    parser_of(json_string_value(json_object_get(plugin, "type")));
	slurm = json_object_get(meta, "slurm");
	if (!slurm)
		slurm = json_object_get(meta, "Slurm"); /* 22.05, 23.02 */
	release = json_object_get(slurm, "release");
	if (json_is_string(release)) {
		uint16_t r;

		if (prio_slurm_version_parse(json_string_value(release),
					     json_string_length(release),
					     &r) == 0)
			m->release = r;
	}
	ver = json_object_get(slurm, "version");
	if (!m->release && json_is_object(ver)) {
		int major = number_member(ver, "major");
		int minor = number_member(ver, "minor");

		if (major >= 14 && major <= 99 && minor >= 1 && minor <= 12)
			m->release = (uint16_t)(major * 100 + minor);
	}
}

uint32_t jsl_line_of(const char *s, size_t pos)
{
	uint32_t line = 1;

	for (size_t i = 0; i < pos; i++)
		line += s[i] == '\n';
	return line;
}

#define MAX_DEPTH 4

uint32_t *jsl_element_lines(const char *s, size_t n, const char *outer,
			    const char *inner, size_t *count)
{
	const char *path[2] = {outer, inner};
	unsigned npath = inner ? 2 : 1;
	/* opener[d]: the member name whose value is the container at depth d
	 * (the root object is depth 1) */
	const char *opener[MAX_DEPTH + 2] = {0};
	size_t opener_n[MAX_DEPTH + 2] = {0};
	const char *last = NULL; /* last string closed at the current depth */
	size_t last_n = 0, cap = 64, k = 0;
	uint32_t *lines = malloc(cap * sizeof(*lines));
	uint32_t line = 1;
	unsigned depth = 0;

	if (!lines)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			line++;
		} else if (c == '"') {
			size_t start = ++i;

			while (i < n && s[i] != '"') {
				if (s[i] == '\\')
					i++;
				else if (s[i] == '\n')
					line++;
				i++;
			}
			last = s + start;
			last_n = i - start;
		} else if (c == '{' || c == '[') {
			bool match = c == '{' && depth == npath + 1;

			for (unsigned p = 0; match && p < npath; p++)
				match = opener[p + 2] &&
					opener_n[p + 2] == strlen(path[p]) &&
					memcmp(opener[p + 2], path[p],
					       opener_n[p + 2]) == 0;
			if (match) {
				if (k == cap) {
					uint32_t *nl;

					cap *= 2;
					nl = realloc(lines,
						     cap * sizeof(*lines));
					if (!nl) {
						free(lines);
						return NULL;
					}
					lines = nl;
				}
				lines[k++] = line;
			}
			depth++;
			if (depth <= MAX_DEPTH + 1) {
				opener[depth] = last;
				opener_n[depth] = last_n;
			}
			last = NULL;
		} else if (c == '}' || c == ']') {
			if (depth)
				depth--;
			last = NULL;
		} else if (c == ',') {
			last = NULL;
		}
	}
	*count = k;
	return lines;
}
