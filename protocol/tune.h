/* gsw tune: chess piece values evolved by a genetic algorithm whose games
 * are played by our engine against itself (protocol/tune_cmd.c); the run's
 * files are db/tunelog.h's. */
#ifndef GSW_TUNE_H
#define GSW_TUNE_H

#include "cli/opts.h"
#include "core/err.h"

/* gsw tune */
extern const cli_verb_t verb_tune;

#endif
