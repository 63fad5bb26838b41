/* SPDX-License-Identifier: MIT */
/*
 * prio-top's scrollable panel (htop's Panel): a cursor over `count` lines
 * of which `height` are on screen.  Views keep one per list and draw only
 * the lines from `first` to `first + height`, so a 100k-line queue costs a
 * screenful per frame.
 */
#include "config.h"

#include "prio-top.h"

void top_panel_fit(struct top_panel *p)
{
	uint32_t h = p->height > 0 ? (uint32_t)p->height : 1;

	if (p->count == 0) {
		p->selected = p->first = 0;
		return;
	}
	if (p->selected >= p->count)
		p->selected = p->count - 1;
	if (p->selected < p->first)
		p->first = p->selected;
	if (p->selected >= p->first + h)
		p->first = p->selected - h + 1;
	/* no blank lines at the bottom while there are lines above */
	if (p->first + h > p->count)
		p->first = p->count > h ? p->count - h : 0;
}

bool top_panel_move(struct top_panel *p, enum top_action a)
{
	uint32_t page = p->height > 1 ? (uint32_t)p->height - 1 : 1;

	switch (a) {
	case TOP_A_UP:
		if (p->selected)
			p->selected--;
		break;
	case TOP_A_DOWN:
		if (p->selected + 1 < p->count)
			p->selected++;
		break;
	case TOP_A_PGUP:
		p->selected = p->selected > page ? p->selected - page : 0;
		p->first = p->first > page ? p->first - page : 0;
		break;
	case TOP_A_PGDN:
		p->selected += page;
		p->first += page;
		break;
	case TOP_A_HOME:
		p->selected = 0;
		break;
	case TOP_A_END:
		p->selected = p->count ? p->count - 1 : 0;
		break;
	default:
		return false;
	}
	top_panel_fit(p);
	return true;
}

void top_panel_select(struct top_panel *p, uint32_t line)
{
	uint32_t h = p->height > 0 ? (uint32_t)p->height : 1;

	p->selected = line;
	if (line < p->first || line >= p->first + h)
		p->first = line > h / 2 ? line - h / 2 : 0;
	top_panel_fit(p);
}
