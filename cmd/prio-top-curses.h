/* SPDX-License-Identifier: MIT */
/*
 * The one place that decides which curses prio-top uses (htop's
 * ProvideCurses.h): the wide-character ncurses that configure found with
 * pkg-config (ncursesw), whose headers live either in ncursesw/ or at the
 * top of the include path.  Only the screen layer (prio-top-screen.c)
 * includes it; every other file draws through that layer.
 */
#ifndef PRIO_TOP_CURSES_H
#define PRIO_TOP_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/curses.h>
#elif defined(HAVE_NCURSES_CURSES_H)
#include <ncurses/curses.h>
#else
#include <curses.h>
#endif

#endif
