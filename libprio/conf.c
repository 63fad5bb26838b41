/* SPDX-License-Identifier: MIT */
/*
 * Configuration values shared by every config loader: Slurm 22.05's
 * defaults, and the small grammars of PriorityFlags, PreemptMode and
 * OverSubscribe (slurm-facts §1.0, §9).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/conf.h"
#include "prio/hostlist.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

void prio_config_defaults(struct prio_config *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->priority_type = "priority/basic";
	conf->priority_flags = PRIO_FLAG_FAIR_TREE;
	conf->decay_half_life = 604800;
	conf->calc_period = 300;
	conf->max_age = 604800;
	conf->reset_period = PRIO_RESET_NONE;
	conf->dampening_factor = 1;
	conf->preempt_type = PRIO_PREEMPT_TYPE_NONE;
	conf->preempt_mode = PRIO_PREEMPT_OFF;
	conf->preempt_exempt_time = PRIO_INFINITE;
}

uint32_t prio_priority_flags_parse(const char *s)
{
	uint32_t flags = PRIO_FLAG_FAIR_TREE;

	/* Substring tests, as Slurm does: "xMAX_TRESy" sets MAX_TRES too. */
	if (!s)
		return flags;
	if (strcasestr(s, "ACCRUE_ALWAYS"))
		flags |= PRIO_FLAG_ACCRUE_ALWAYS;
	if (strcasestr(s, "SMALL_RELATIVE_TO_TIME"))
		flags |= PRIO_FLAG_SIZE_RELATIVE;
	if (strcasestr(s, "CALCULATE_RUNNING"))
		flags |= PRIO_FLAG_CALCULATE_RUNNING;
	if (strcasestr(s, "DEPTH_OBLIVIOUS")) {
		flags |= PRIO_FLAG_DEPTH_OBLIVIOUS;
		flags &= ~PRIO_FLAG_FAIR_TREE;
	} else if (strcasestr(s, "NO_FAIR_TREE")) {
		flags &= ~PRIO_FLAG_FAIR_TREE;
	}
	if (strcasestr(s, "TICKET_BASED")) {
		flags |= PRIO_FLAG_TICKET_BASED;
		flags &= ~PRIO_FLAG_FAIR_TREE;
	}
	if (strcasestr(s, "INCR_ONLY"))
		flags |= PRIO_FLAG_INCR_ONLY;
	if (strcasestr(s, "MAX_TRES"))
		flags |= PRIO_FLAG_MAX_TRES;
	if (strcasestr(s, "NO_NORMAL_ALL"))
		flags |= PRIO_FLAG_NO_NORMAL_ASSOC | PRIO_FLAG_NO_NORMAL_PART |
			 PRIO_FLAG_NO_NORMAL_QOS | PRIO_FLAG_NO_NORMAL_TRES;
	if (strcasestr(s, "NO_NORMAL_ASSOC"))
		flags |= PRIO_FLAG_NO_NORMAL_ASSOC;
	if (strcasestr(s, "NO_NORMAL_PART"))
		flags |= PRIO_FLAG_NO_NORMAL_PART;
	if (strcasestr(s, "NO_NORMAL_QOS"))
		flags |= PRIO_FLAG_NO_NORMAL_QOS;
	if (strcasestr(s, "NO_NORMAL_TRES"))
		flags |= PRIO_FLAG_NO_NORMAL_TRES;
	return flags;
}

const char *prio_priority_flags_format(uint32_t flags, char *buf,
				       unsigned size)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ PRIO_FLAG_ACCRUE_ALWAYS, "ACCRUE_ALWAYS" },
		{ PRIO_FLAG_SIZE_RELATIVE, "SMALL_RELATIVE_TO_TIME" },
		{ PRIO_FLAG_CALCULATE_RUNNING, "CALCULATE_RUNNING" },
		{ PRIO_FLAG_DEPTH_OBLIVIOUS, "DEPTH_OBLIVIOUS" },
		{ PRIO_FLAG_FAIR_TREE, "FAIR_TREE" },
		{ PRIO_FLAG_INCR_ONLY, "INCR_ONLY" },
		{ PRIO_FLAG_MAX_TRES, "MAX_TRES" },
		{ PRIO_FLAG_NO_NORMAL_ASSOC, "NO_NORMAL_ASSOC" },
		{ PRIO_FLAG_NO_NORMAL_PART, "NO_NORMAL_PART" },
		{ PRIO_FLAG_NO_NORMAL_QOS, "NO_NORMAL_QOS" },
		{ PRIO_FLAG_NO_NORMAL_TRES, "NO_NORMAL_TRES" },
		{ PRIO_FLAG_TICKET_BASED, "TICKET_BASED" },
	};
	size_t used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].bit))
			continue;
		int n = snprintf(buf + used, size - used, "%s%s", used ? "," : "",
				 names[i].name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

int prio_preempt_mode_parse(const char *s, uint16_t *mode, const char **why)
{
	uint16_t m = 0;
	int exclusive = 0;
	const char *p = s;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if ((n == 3 && !strncasecmp(p, "off", 3)) ||
		    (n == 7 && !strncasecmp(p, "cluster", 7))) {
			exclusive++;
		} else if (n == 6 && !strncasecmp(p, "cancel", 6)) {
			m |= PRIO_PREEMPT_CANCEL;
			exclusive++;
		} else if (n == 7 && !strncasecmp(p, "requeue", 7)) {
			m |= PRIO_PREEMPT_REQUEUE;
			exclusive++;
		} else if ((n == 7 && !strncasecmp(p, "suspend", 7)) ||
			   (n == 2 && !strncasecmp(p, "on", 2))) {
			m |= PRIO_PREEMPT_SUSPEND;
			exclusive++;
		} else if (n == 4 && !strncasecmp(p, "gang", 4)) {
			m |= PRIO_PREEMPT_GANG;
		} else if (n == 6 && !strncasecmp(p, "within", 6)) {
			m |= PRIO_PREEMPT_WITHIN;
		} else {
			*why = "unknown PreemptMode word (expected off, cancel, requeue, suspend, gang or within)";
			return -1;
		}
		p = comma ? comma + 1 : NULL;
	}
	if (exclusive > 1) {
		*why = "at most one of off, cancel, requeue and suspend";
		return -1;
	}
	if ((m & PRIO_PREEMPT_GANG) && (m & PRIO_PREEMPT_WITHIN)) {
		*why = "GANG and WITHIN cannot be combined";
		return -1;
	}
	*mode = m;
	return 0;
}

const char *prio_preempt_mode_format(uint16_t mode, char *buf, unsigned size)
{
	const char *base = "OFF";

	if (mode & PRIO_PREEMPT_CANCEL)
		base = "CANCEL";
	else if (mode & PRIO_PREEMPT_REQUEUE)
		base = "REQUEUE";
	else if (mode & PRIO_PREEMPT_SUSPEND)
		base = "SUSPEND";
	snprintf(buf, size, "%s%s%s", (mode & ~(PRIO_PREEMPT_GANG | PRIO_PREEMPT_WITHIN)) ||
					   !(mode & (PRIO_PREEMPT_GANG | PRIO_PREEMPT_WITHIN)) ? base : "",
		 (mode & PRIO_PREEMPT_GANG) ? ((mode & ~PRIO_PREEMPT_GANG) ? ",GANG" : "GANG") : "",
		 (mode & PRIO_PREEMPT_WITHIN) ? ((mode & ~PRIO_PREEMPT_WITHIN) ? ",WITHIN" : "WITHIN") : "");
	return buf;
}

int prio_oversubscribe_parse(const char *s, uint16_t *max_share)
{
	char *end;
	long n;

	if (!strcasecmp(s, "NO")) {
		*max_share = 1;
	} else if (!strcasecmp(s, "EXCLUSIVE")) {
		*max_share = 0;
	} else if (!strcasecmp(s, "YES")) {
		*max_share = 4;
	} else if (!strcasecmp(s, "FORCE")) {
		*max_share = 4 | PRIO_SHARED_FORCE;
	} else if (!strncasecmp(s, "YES:", 4)) {
		n = strtol(s + 4, &end, 10);
		if (*end || end == s + 4 || n > 0x7fff)
			return -1;
		*max_share = n <= 1 ? 1 : (uint16_t)n; /* n<=1 means NO */
	} else if (!strncasecmp(s, "FORCE:", 6)) {
		n = strtol(s + 6, &end, 10);
		if (*end || end == s + 6 || n > 0x7fff)
			return -1;
		*max_share = n < 1 ? 1 : (uint16_t)((uint16_t)n | PRIO_SHARED_FORCE);
	} else {
		return -1;
	}
	return 0;
}

/* Partitions to nodes and their totals.  (Minimal first version: node
 * lists and CPU totals; TRES weights come with the slurm.conf loader.) */
int prio_config_link(struct prio_snapshot *snap, struct prio_error *err)
{
	for (uint32_t i = 0; i < snap->partition_count; i++) {
		struct prio_partition *p = &snap->partitions[i];
		struct prio_hostlist hl;
		const char *why = NULL;
		uint32_t cpus = 0;

		if (!snap->node_count || !p->nodes_text || p->nodes)
			continue;
		if (prio_word_eq(p->nodes_text, strlen(p->nodes_text), "ALL")) {
			p->nodes = prio_arena_alloc(&snap->arena,
						    snap->node_count * sizeof(uint32_t));
			if (!p->nodes)
				return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
						      "out of memory");
			for (uint32_t k = 0; k < snap->node_count; k++)
				p->nodes[k] = k;
			p->node_count = snap->node_count;
		} else {
			if (prio_hostlist_expand(&snap->arena, p->nodes_text,
						 strlen(p->nodes_text), &hl, &why) < 0)
				return prio_error_set(err, PRIO_ERR_PARSE, p->file,
						      p->line, "Nodes",
						      "invalid hostlist \"%s\": %s",
						      p->nodes_text, why);
			p->nodes = prio_arena_alloc(&snap->arena,
						    (hl.count + 1) * sizeof(uint32_t));
			if (!p->nodes)
				return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
						      "out of memory");
			p->node_count = 0;
			for (size_t k = 0; k < hl.count; k++) {
				prio_id id = prio_intern_find(&snap->strings, hl.names[k],
							      strlen(hl.names[k]));
				struct prio_node *node = prio_snapshot_node(snap, id);

				if (!node)
					return prio_error_set(err, PRIO_ERR_PARSE, p->file,
							      p->line, "Nodes",
							      "partition %s names unknown node %s",
							      prio_snapshot_str(snap, p->name),
							      hl.names[k]);
				p->nodes[p->node_count++] = (uint32_t)(node - snap->nodes);
			}
		}
		for (uint32_t k = 0; k < p->node_count; k++) {
			const struct prio_node *node = &snap->nodes[p->nodes[k]];

			cpus += node->cpus_efctv ? node->cpus_efctv : node->cpus;
		}
		p->total_cpus = cpus;
		p->total_nodes = p->node_count;
	}
	return PRIO_OK;
}
