/* SPDX-License-Identifier: MIT */
/*
 * prio-calc: the multifactor priority of pending jobs, as sprio prints it.
 * This version loads and checks snapshots (--check); the priority table
 * itself comes with the priority engine.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"

#define USAGE "prio-calc [--snapshot DIR | --conf F --assoc F --jobs F ...] --check [-P|--csv|--json] [-h]"

enum { OPT_CHECK = OPT_COMMON_LAST + 1 };

static void help(void)
{
	printf("Usage: %s\n\n"
	       "Compute, explain and audit Slurm multifactor job priorities from files.\n\n"
	       "      --check            load the inputs, report what they hold and every\n"
	       "                         problem (exit 0 clean, 2 on errors)\n",
	       USAGE);
	cmd_common_help(stdout);
	printf("\nExit status: 0 success, 1 the answer is no, 2 usage or input error.\n"
	       "See prio-calc(1) and prio-tools(7).\n");
}

int main(int argc, char **argv)
{
	static const struct option own[] = {
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "parsable", no_argument, NULL, 'P' },
		{ "noheader", no_argument, NULL, 'h' },
	};
	struct option longopts[CMD_COMMON_LONG_OPTION_COUNT + 4];
	struct cmd_common c;
	struct prio_snapshot snap;
	bool check = false;
	int opt, rc;

	cmd_common_init(&c, "prio-calc");
	memcpy(longopts, cmd_common_long_options,
	       sizeof(cmd_common_long_options));
	memcpy(longopts + CMD_COMMON_LONG_OPTION_COUNT, own, sizeof(own));
	memset(&longopts[CMD_COMMON_LONG_OPTION_COUNT + 3], 0, sizeof(longopts[0]));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":Ph", longopts, NULL)) != -1) {
		if (cmd_common_option(&c, opt, optarg))
			continue;
		switch (opt) {
		case OPT_CHECK: check = true; break;
		case 'P': c.mode = CMD_OUT_PARSABLE2; break;
		case 'h': c.noheader = true; break;
		case OPT_HELP: help(); return EXIT_OK;
		case OPT_VERSION: printf("prio-calc (prio-tools) %s\n", PACKAGE_VERSION); return EXIT_OK;
		case ':':
			cmd_usage_error(&c, USAGE, "option '%s' needs a value", argv[optind - 1]);
		default:
			cmd_usage_error(&c, USAGE, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd_usage_error(&c, USAGE, "unexpected argument '%s'", argv[optind]);
	if (!check)
		cmd_usage_error(&c, USAGE, "nothing to do: this version offers --check only");
	cmd_load_snapshot(&c, &snap);
	rc = cmd_check_report(&c, &snap);
	prio_snapshot_free(&snap);
	return rc;
}
