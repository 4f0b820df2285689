/* One-player puzzles from the command line (solitaire): solve, analyze,
 * count (which also routes to the endgame databases' and the BDDs' counts)
 * and bench (the heuristic players side by side). */
#ifndef GSW_PUZZLE_CMD_H
#define GSW_PUZZLE_CMD_H

#include "cli/opts.h"

/* gsw solve and gsw analyze of a puzzle */
int cli_puzzle_solve(cli_opts_t *o);
int cli_puzzle_analyze(cli_opts_t *o);

extern const cli_verb_t verb_count, verb_bench;

#endif
