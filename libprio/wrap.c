/* SPDX-License-Identifier: MIT */
/* Prose folded to a width (prio/wrap.h). */
#include "prio/wrap.h"

uint32_t prio_wrap(const char *line, int width, struct prio_wrap_piece *out)
{
	int indent = 0, cont;
	uint32_t n = 0;
	const char *p = line;

	while (line[indent] == ' ')
		indent++;
	cont = indent + 2 < width / 2 ? indent + 2 : 0;
	do {
		int room = width - (n ? cont : 0), cols = 0;
		const char *q = p, *space = NULL;

		if (room < 1)
			room = 1;
		while (*q && cols < room) {
			if (*q == ' ' && q > p)
				space = q;
			q++;
			while ((*q & 0xc0) == 0x80)
				q++;
			cols++;
		}
		if (*q && space && *q != ' ')
			q = space; /* cut at the last space */
		if (out)
			out[n] = (struct prio_wrap_piece){p, (size_t)(q - p),
							  n ? cont : 0};
		n++;
		p = q;
		while (*p == ' ' && n)
			p++;
	} while (*p);
	return n;
}
