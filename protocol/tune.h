/* gsw tune: chess piece values evolved by a genetic algorithm whose games
 * are played by our engine against itself (protocol/tune_cmd.c); the run's
 * files are db/tunelog.h's. */
#ifndef GSW_TUNE_H
#define GSW_TUNE_H

#include <stdint.h>
#include <stdio.h>

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
    uint64_t rescored_nodes;   /* a file of scores by another engine (rescored.txt): its nodes a
                                  position, and its command; 0 and "": gsw's own search */
    char rescored_by[256];
} tune_games_t;
/* Reads text; *good is the length of its whole games (a last game cut
 * short, as by a crash, is left out and said by *good < len). GSW_EINPUT
 * with the line and the reason for anything else. */
int tune_games_parse(const char *text, size_t len, tune_games_t *s, size_t *good, err_t *err);
void tune_games_free(tune_games_t *s);
/* A games file whole into *text (NULL when there is none yet). */
int tune_read_file(const char *path, char **text, size_t *len, err_t *err);
/* "1-0", "1/2-1/2" or "0-1" for a result of 2, 1 or 0. */
const char *tune_result_name(int r);

#define TUNE_SCORE_MAX 3000     /* a kept score's bound (mates included) */
#define TUNE_RESCORE_NODES 5000 /* --rescore-nodes' default */
/* --rescore (protocol/tune_rescore.c): every position of g scored again by
 * the UCI engine cmd at nodes a position, into rpath (games.txt's form,
 * its header naming the engine and nodes): the games already there are
 * kept, the rest scored and appended a game at a time. Then g's scores
 * become the engine's (g->rescored_*). GSW_EFAIL when stopped by Ctrl-C
 * (what is scored is kept); GSW_EINPUT for a file of other settings. */
int tune_rescore(const char *cmd, uint64_t nodes, const char *rpath, tune_games_t *g, FILE *say, err_t *err);

#endif
