/* gsw annotate: a game's record (PGN, PDN, a Connect Four move string)
 * valued move by move through the analyst (solve/annotate.h) and written
 * back with each move's value as a comment, the marks ? ?? !, and a
 * summary in a player's words; or --json. */
#ifndef GSW_ANNOTATE_CMD_H
#define GSW_ANNOTATE_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_annotate;

#endif
