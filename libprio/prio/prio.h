/* SPDX-License-Identifier: MIT */
/* libprio: the whole public API.  Include <prio/prio.h>. */
#ifndef PRIO_PRIO_H
#define PRIO_PRIO_H

#include "advance.h"
#include "arena.h"
#include "assoc.h"
#include "billing.h"
#include "conf.h"
#include "error.h"
#include "explain.h"
#include "fairshare.h"
#include "fairshare_explain.h"
#include "format.h"
#include "hostlist.h"
#include "intern.h"
#include "job.h"
#include "order.h"
#include "priority.h"
#include "qos.h"
#include "report_sprio.h"
#include "report_sshare.h"
#include "report_sreport.h"
#include "rollup.h"
#include "sacct.h"
#include "snapshot.h"
#include "source.h"
#include "timestr.h"
#include "tres.h"
#include "usage.h"
#include "value.h"
#include "whatif.h"
#include "window.h"
#include "write.h"

#endif
