/* SPDX-License-Identifier: MIT */
/* Placeholder: table writers. */
#ifndef PRIO_WRITE_H
#define PRIO_WRITE_H
#endif
