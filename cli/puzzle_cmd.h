/* One-player puzzles from the command line (solitaire): solve, analyze,
 * count (which also routes to the endgame databases' and the BDDs' counts)
 * and bench (the heuristic players side by side). */
#ifndef GSW_PUZZLE_CMD_H
#define GSW_PUZZLE_CMD_H

#include "cli/opts.h"

/* gsw solve and gsw analyze of a puzzle */
/* --board FILE: a puzzle's board from text art (solve, analyze, count, bench). */
#define PUZZLE_OPT_BOARD { "board", OPT_STR, "FILE", "a puzzle's board drawn as text (o peg, . hole)", 0, 0, NULL }
int cli_puzzle_solve(cli_args_t *o);
int cli_puzzle_analyze(cli_args_t *o);

extern const cli_verb_t verb_count, verb_bench;

#endif
