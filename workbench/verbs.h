/* The workbench's verbs in the command line's table (main.c lists them):
 * play, shell and lesson. */
#ifndef GSW_WB_VERBS_H
#define GSW_WB_VERBS_H

#include "cli/opts.h"

extern const cli_verb_t verb_play, verb_shell, verb_lesson;

#endif
