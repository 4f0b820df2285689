/* Engine matches (gsw match) and the UCI front end (gsw uci), chess only:
 * the openings a match starts its games from (a built-in book or a file),
 * a UCI engine run as a child process behind pipes, and the Elo estimate
 * of a score. protocol/match.c plays the games, protocol/uci.c speaks UCI itself. */
#ifndef GSW_MATCH_H
#define GSW_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli/opts.h"
#include "core/game.h"

/* ---- openings (protocol/match_openings.c) ---- */

#define MATCH_OPENING_PLIES 64
typedef struct match_opening {
    GSW_POSBUF start[GSW_MAX_POS];   /* where the game starts (the standard start, or a FEN) */
    int n;                           /* the opening's moves from start */
    move_t moves[MATCH_OPENING_PLIES];
    int line;                        /* its line in the text (1-based) */
    char name[48];                   /* the comment line just above it ("# Ruy Lopez"), or "" */
} match_opening_t;

/* Openings from text, one a line: a FEN (a line holding '/'), or a list
 * of moves from the start in SAN or UCI ("1. e4 e5 2. Nf3", "e2e4 e7e5";
 * move numbers and a result are skipped). Blank lines and lines starting
 * with '#' are skipped; such a comment names the opening below it. Every move is checked legal and an opening must
 * leave a game that is not over. GSW_OK with *out (heap, free()) holding
 * *n >= 1 openings, else GSW_EINPUT naming the line and the problem. */
int match_openings_parse(const gv_t *v, const char *text, match_opening_t **out, int *n, err_t *err);
/* The built-in book: about twenty common short opening lines. */
int match_openings_builtin(const gv_t *v, match_opening_t **out, int *n, err_t *err);
/* The file path's openings (at most 16 MB). */
int match_openings_file(const gv_t *v, const char *path, match_opening_t **out, int *n, err_t *err);

/* ---- a UCI engine as a child process (protocol/match_engine.c) ---- */

typedef struct match_engine {
    pid_t pid;               /* 0: not running */
    int to, from;            /* its stdin (we write), its stdout (we read) */
    char buf[16384];         /* what it wrote that is not yet a whole line */
    size_t len;
    char name[128];          /* from "id name" */
    char opt[64][48];        /* the options it declared */
    int nopt;
    char why[256];           /* why the last call failed, in a few words */
} match_engine_t;

/* Start cmd (words split at blanks, '...' and "..." quote), wait for
 * uciok, set each "NAME=VALUE" of opts (an option the engine did not
 * declare is GSW_EINPUT), and wait for readyok. The child gets its own
 * process group (Ctrl-C is ours to handle). "gsw" as the program runs
 * this very executable when no gsw is on the PATH. stop: polled. */
int engine_start(match_engine_t *e, const char *cmd, const char *const *opts, int nopts, gsw_flag_t *stop,
                 err_t *err);
/* Send one line (a newline is added). 0, or -1 when the engine is gone. */
int engine_send(match_engine_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Read lines until one whose first word is word; it goes into line.
 * Returns 0, -1 on timeout, -2 when the engine closed its output (it
 * died: e->why says how), -3 when *stop was set. */
int engine_expect(match_engine_t *e, const char *word, double timeout_ms, gsw_flag_t *stop, char *line, size_t n);
/* A new game: "ucinewgame", then "isready" until "readyok" (the engine
 * clears its table). engine_expect's codes; -2 with e->why set when a
 * command cannot be sent. */
int engine_newgame(match_engine_t *e, double timeout_ms, gsw_flag_t *stop);
/* Search the position of fen to nodes and read the last score it gave
 * for its best line (bounds left out), the side to move's: *cp
 * centipawns, or *mate moves to mate (+ it mates, - it is mated; *cp 0).
 * 0, engine_expect's codes, or -4 when no score came before bestmove
 * (e->why says). */
int engine_score(match_engine_t *e, const char *fen, uint64_t nodes, double timeout_ms, gsw_flag_t *stop, int *cp,
                 int *mate);
/* Ask it to quit, wait a moment, then kill it; reap it. Safe to repeat. */
void engine_close(match_engine_t *e);

/* ---- the score ---- */

/* The Elo difference a score of w wins, d draws and l losses suggests,
 * and half its 95% confidence interval. Returns 0 when it is finite, else
 * (no games, all won, all lost) 1 with *elo +-INFINITY or 0. */
int match_elo(int w, int d, int l, double *elo, double *margin);

/* gsw match */
extern const cli_verb_t verb_match;

#endif
