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

/* gsw bench GAME --players (bench_cmd.c's verb hands it over): a puzzle's
 * heuristic players side by side, pegs left and time. */
int cli_bench_players(cli_args_t *o);

extern const cli_verb_t verb_count;

#endif
