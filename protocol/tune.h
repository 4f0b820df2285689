/* gsw tune: chess piece values evolved by a genetic algorithm whose games
 * are played by our engine against itself (protocol/tune_cmd.c); the run's
 * files are db/tunelog.h's. */
#ifndef GSW_TUNE_H
#define GSW_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include "cli/json.h"
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

/* A 64-bit mix (splitmix64's finaliser): the runs' random choices, and
 * which games are held out (a game in ten: tune_mix(game ^ 0x5EED) % 10 == 0). */
static inline uint64_t tune_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

#define TUNE_SCORE_MAX 3000     /* a kept score's bound (mates included) */
#define TUNE_RESCORE_NODES 5000 /* --rescore-nodes' default */
/* --rescore (protocol/tune_rescore.c): every position of g scored again by
 * the UCI engine cmd at nodes a position, into rpath (games.txt's form,
 * its header naming the engine and nodes): the games already there are
 * kept, the rest scored and appended a game at a time. Then g's scores
 * become the engine's (g->rescored_*). GSW_EFAIL when stopped by Ctrl-C
 * (what is scored is kept); GSW_EINPUT for a file of other settings. */
int tune_rescore(const char *cmd, uint64_t nodes, const char *rpath, tune_games_t *g, FILE *say, err_t *err);

/* --net (protocol/tune_net.c): the evaluation network trained on g's
 * scored positions (hidden units, epochs, Adam's step, the seed of its
 * start and shuffles, threads), its weights written to path in the form
 * of games/chess/ch_nn_weights.h; progress and losses to say. */
typedef struct tune_net_opts {
    int hidden, epochs, threads;
    double rate;
    uint64_t seed;
    const char *path;
} tune_net_opts_t;
/* What a fit came to: positions, and the held-out losses of the built-in
 * evaluation by terms and of the network (as the engine evaluates it,
 * antisymmetric: ch_nn.c) at its start and at its end. */
typedef struct tune_net_result {
    size_t train, held_out;
    int epochs;   /* finished */
    double builtin_held_out, start_held_out, held_out_loss, train_loss, time_s;
} tune_net_result_t;
int tune_net_fit(const tune_games_t *g, const tune_net_opts_t *o, FILE *say, tune_net_result_t *res, err_t *err);
/* gsw tune chess --eval --net H on the folder dir's games g (scored):
 * the options read from o, progress to say, --json's document to stdout;
 * GSW_OK, or the error said in one line. */
int tune_net_run(cli_args_t *o, const tune_games_t *g, const char *dir, FILE *say);
/* A number in JSON to 8 significant digits (null where not finite). */
void tune_json_fine(json_t *j, const char *k, double v);

#endif
