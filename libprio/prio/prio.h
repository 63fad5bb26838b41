/* SPDX-License-Identifier: MIT */
/* libprio: the whole public API.  Include <prio/prio.h>. */
#ifndef PRIO_PRIO_H
#define PRIO_PRIO_H

#include "arena.h"
#include "assoc.h"
#include "billing.h"
#include "conf.h"
#include "fairshare.h"
#include "error.h"
#include "format.h"
#include "hostlist.h"
#include "intern.h"
#include "job.h"
#include "qos.h"
#include "sacct.h"
#include "snapshot.h"
#include "source.h"
#include "timestr.h"
#include "tres.h"
#include "value.h"
#include "whatif.h"
#include "write.h"

#endif
