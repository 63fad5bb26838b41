/* SPDX-License-Identifier: MIT */
#ifndef PRIO_CMD_COMMON_H
#define PRIO_CMD_COMMON_H
#endif
