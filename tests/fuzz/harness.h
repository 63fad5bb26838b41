/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness shared by the loader targets: feed the input to one
 * loader (with and without --keep-going), then link the snapshot, then free
 * it.  Any crash, hang, leak or sanitizer report is a bug to turn into a
 * regression test.
 */
#include <stddef.h>
#include <stdint.h>

#include "prio/prio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_one(const uint8_t *data, size_t size, bool keep_going)
{
	struct prio_snapshot snap;
	struct prio_source src;
	struct prio_error err;

	if (prio_snapshot_init(&snap) < 0)
		return;
	snap.keep_going = keep_going;
	prio_source_from_memory(&src, "fuzz", (const char *)data, size);
	if (FUZZ_LOAD(&snap, &src, &err) == 0)
		(void)prio_snapshot_finish(&snap, &err);
	prio_snapshot_free(&snap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size, false);
	fuzz_one(data, size, true);
	return 0;
}
