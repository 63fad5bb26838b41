/* SPDX-License-Identifier: MIT */
/* Placeholder: the format grammars (sprio -o, sshare -o). */
#ifndef PRIO_FORMAT_H
#define PRIO_FORMAT_H
#endif
