/* SPDX-License-Identifier: MIT */
/*
 * The viewer's association tree (prio/top.h): one line per association in
 * sshare's order (prio_assoc_link keeps each parent's children in that
 * order: users by name, then sub-accounts), with its depth and the "last
 * child" flags of its ancestors so a front end can draw the branches, and
 * the lines left once collapsed branches are hidden.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "top_model.h"

int top_tree_build(struct prio_top *t)
{
	const struct prio_snapshot *snap = t->snap;
	uint32_t n = snap->assoc_count, count = 0;
	uint32_t *stack;
	uint64_t *mask;

	free(t->nodes);
	free(t->collapsed);
	free(t->tree_view);
	t->nodes = calloc(n ? n : 1, sizeof(*t->nodes));
	t->collapsed = calloc(n ? n : 1, sizeof(*t->collapsed));
	t->tree_view = calloc(n ? n : 1, sizeof(*t->tree_view));
	t->nnodes = t->ntree_view = 0;
	stack = malloc((n ? n : 1) * sizeof(*stack));
	mask = malloc((n ? n : 1) * sizeof(*mask));
	if (!t->nodes || !t->collapsed || !t->tree_view || !stack || !mask) {
		free(stack);
		free(mask);
		return PRIO_ERR_NOMEM;
	}
	/* Depth-first, children in their linked order: push them reversed.
	 * mask[i] holds the node's own last_mask. */
	if (n) {
		stack[count++] = 0;
		mask[0] = 1;
	}
	while (count) {
		uint32_t i = stack[--count], k = 0;
		const struct prio_assoc *a = &snap->assocs[i];
		struct prio_top_node *node = &t->nodes[t->nnodes++];
		uint32_t first = count;

		node->assoc = i;
		node->depth = a->depth;
		node->last_mask = mask[i];
		node->has_children = a->first_child != PRIO_ASSOC_NONE;
		if (a->depth >= 63)
			continue; /* the mask has 64 bits: deeper is refused */
		for (uint32_t c = a->first_child; c != PRIO_ASSOC_NONE;
		     c = snap->assocs[c].next_sibling, k++) {
			bool last =
			    snap->assocs[c].next_sibling == PRIO_ASSOC_NONE;

			mask[c] =
			    (mask[i] & ((UINT64_C(1) << (a->depth + 1)) - 1)) |
			    (last ? UINT64_C(1) << (a->depth + 1) : 0);
			if (count < n)
				stack[count++] = c;
		}
		/* reverse this node's children so the first comes out first */
		for (uint32_t x = first, y = count; x + 1 < y; x++, y--) {
			uint32_t tmp = stack[x];

			stack[x] = stack[y - 1];
			stack[y - 1] = tmp;
		}
	}
	free(stack);
	free(mask);
	top_tree_view(t);
	return PRIO_OK;
}

void top_tree_view(struct prio_top *t)
{
	uint32_t hide_below = UINT32_MAX; /* depth of a collapsed line */

	t->ntree_view = 0;
	for (uint32_t k = 0; k < t->nnodes; k++) {
		const struct prio_top_node *node = &t->nodes[k];

		if (hide_below != UINT32_MAX && node->depth > hide_below)
			continue;
		hide_below = t->collapsed[node->assoc] && node->has_children
				 ? node->depth
				 : UINT32_MAX;
		t->tree_view[t->ntree_view++] = k;
	}
}

void prio_top_tree_collapse(struct prio_top *t, uint32_t assoc, bool collapsed)
{
	if (assoc >= t->snap->assoc_count)
		return;
	t->collapsed[assoc] = collapsed;
	top_tree_view(t);
}

void prio_top_tree_expand_all(struct prio_top *t)
{
	memset(t->collapsed, 0,
	       (t->snap->assoc_count ? t->snap->assoc_count : 1) *
		   sizeof(*t->collapsed));
	top_tree_view(t);
}

uint32_t prio_top_tree_find(const struct prio_top *t, uint32_t assoc)
{
	for (uint32_t k = 0; k < t->ntree_view; k++)
		if (t->nodes[t->tree_view[k]].assoc == assoc)
			return k;
	return UINT32_MAX;
}
