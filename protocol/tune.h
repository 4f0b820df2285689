/* gsw tune: chess piece values evolved by a genetic algorithm whose games
 * are played by our engine against itself (protocol/tune_cmd.c); the run's
 * files are db/tunelog.h's. */
#ifndef GSW_TUNE_H
#define GSW_TUNE_H

#include "cli/opts.h"
#include "core/err.h"
#include "games/chess/ch.h"

/* gsw tune */
extern const cli_verb_t verb_tune;

/* gsw tune chess --eval (protocol/tune_eval.c): called by tune's verb. */
int tune_eval_run(cli_args_t *o);

/* A --eval run's games.txt, read: its header's settings, every position
 * kept with its game's number, result (2 White won, 1 a draw, 0 Black
 * won) and search score, and which games are there. */
typedef struct tune_games {
    uint64_t nodes, seed;
    int random;      /* random plies after the book opening */
    ch_pos_t *pos;
    int32_t *game;
    int8_t *result;
    int16_t *score;  /* the search's score, White's view; INT16_MIN: none kept (an older file) */
    size_t n, cap;
    uint8_t *done;   /* [game number]: 1 when it is there */
    int done_cap;
    int games;
} tune_games_t;
/* Reads text; *good is the length of its whole games (a last game cut
 * short, as by a crash, is left out and said by *good < len). GSW_EINPUT
 * with the line and the reason for anything else. */
int tune_games_parse(const char *text, size_t len, tune_games_t *s, size_t *good, err_t *err);
void tune_games_free(tune_games_t *s);

#endif
