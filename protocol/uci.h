/* gsw uci: gsw as a UCI chess engine on stdin and stdout. */
#ifndef GSW_UCI_H
#define GSW_UCI_H

#include "cli/opts.h"
#include "core/ab.h"

extern const cli_verb_t verb_uci;

/* UCI_LimitStrength's levels: UCI_Elo's range, the level (1-9, the
 * workbench's heuristic:L: depth 2L, at most 200L ms a move) for a UCI_Elo
 * (the strongest not rated above it). */
#define UCI_ELO_MIN 1560   /* level 1's rating: uci_level_elo[0] */
#define UCI_ELO_MAX 2310   /* level 9's */
int uci_level(int elo);
/* A level's depth and time (2L plies, 200L ms) within what ao already
 * allows. */
void uci_level_limits(int level, ab_options_t *ao);
/* The chess variant gsw uci and gsw match open for the piece values
 * values (against the game's defaults) into spec (size n): plain "chess",
 * evaluated by the network, when they are the defaults and terms is 0;
 * otherwise "chess:values=...", evaluated by terms. terms: UseNetwork
 * false, or a strength level (the levels were rated with the terms).
 * Returns 1 for the plain variant, 0 for a values= one. */
int uci_variant_spec(const int values[5], const int defaults[5], int terms, char *spec, size_t n);

#endif
