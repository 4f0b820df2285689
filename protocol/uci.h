/* gsw uci: gsw as a UCI chess engine on stdin and stdout. */
#ifndef GSW_UCI_H
#define GSW_UCI_H

#include "cli/opts.h"

extern const cli_verb_t verb_uci;

/* UCI_LimitStrength's levels: UCI_Elo's range, the level (1-9, the
 * workbench's heuristic:L: depth 2L, at most 200L ms a move) for a UCI_Elo
 * (the strongest not rated above it), and a level's rating. */
#define UCI_ELO_MIN 1520   /* level 1's rating: uci_level_elo[0] */
#define UCI_ELO_MAX 2270   /* level 9's */
int uci_level(int elo);
int uci_level_rating(int level);

#endif
