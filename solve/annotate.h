/* Annotation of a played game through the analyst: every position valued
 * (proven where the cache, the endgame databases, the book, a strong
 * solution or a proof within a budget settles it; an engine score, marked
 * not proven, elsewhere), each move's value for its mover before and after
 * it, a best move, and the marks: "?" where a proven value fell one step
 * (a win to a draw, a draw to a loss), "??" two steps (a win to a loss),
 * "!" the only move that kept a proven value. `gsw annotate` and the
 * workbench's `annotate` share it; the analyses it fills are the
 * analyst's own (analysis_t), so a front end keeps them as its history. */
#ifndef GSW_ANNOTATE_H
#define GSW_ANNOTATE_H

#include <stddef.h>

#include "solve/analyst.h"

/* A value for one player: its proven class (3 win, 2 draw, 1 loss, 0 not
 * proven) and bounds, and an engine score where one was searched. */
typedef struct annot_value {
    int cls;
    val_t lo, hi;          /* proven bounds (cls: exact when lo == hi) */
    int scored;            /* score holds an engine score (not proven) */
    int32_t score;
} annot_value_t;

/* One ply of the game: the move and what it did for its mover. */
typedef struct annot_ply {
    move_t move;
    char text[24];
    int nmoves;            /* legal moves the mover had */
    int mover;             /* the player who made it (pos_turn) */
    annot_value_t before, after;
    move_t best;           /* MOVE_NONE: none known */
    char best_text[24];
    annot_value_t best_value;
    const char *mark;      /* "", "?", "??", "!" */
} annot_ply_t;

/* What the game's line means for the analysis an of line[ply] (line[0..ply]
 * the game's positions): the positions a search must meet as repetitions
 * (played twice already since the last move that cannot be undone) into
 * t's line, and the moves that end the game by a rule of play there
 * (threefold repetition, a move-count rule), proven as that result. */
void annotate_line_fill(const gv_t *v, const void *const *line, int ply, analysis_t *an, analyst_task_t *t);

/* Value the position pos of analysis an (listed, its line filled, task t):
 * its value within ms of solving, then, where that is not proven, every
 * move's engine score within ms / 2. A finished game's position gets its
 * result. Returns 0, 1 when stopped (the analyst's stop flag), -1 on error. */
int annotate_position(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, double ms, err_t *err);
/* The move played from pos (analysis an) led to the position whose
 * analysis is next (valued by annotate_position): the move's entry in an
 * takes what next proves (or its engine score). */
void annotate_link(const gv_t *v, analysis_t *an, move_t played, const analysis_t *next);
/* For the "!": where the played move kept a proven value, prove the other
 * moves (within ms) to see whether any kept it too. Returns as
 * annotate_position. */
int annotate_only(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, move_t played, double ms,
                  err_t *err);
/* The ply's annotation from the analysis an of its position pos (linked). */
void annotate_read(const gv_t *v, const void *pos, const analysis_t *an, move_t played, annot_ply_t *out);

/* "win", "draw", "loss", "unknown" for a class. */
const char *annotate_class_name(int cls);
/* A value in words for the mover: "mate in 3" / "mated in 2" (chess,
 * counting moves), "win in 17 plies", "draw", "win" (distance not known),
 * "~+0.35 (engine, not proven)", "unknown". */
void annotate_value_text(const gv_t *v, const annot_value_t *x, char *buf, size_t n);
/* 1 for games whose values count moves to mate (chess): "mate in N"
 * in the mover's moves; others count plies. */
int annotate_mate_game(const gv_t *v);

/* The summary of p[0..n-1] in a player's words: each proven value thrown
 * away ("White threw the win away at move 23 (23. Kf3? draw; 23. Kg4 wins,
 * mate in 31)"), else what held. label[i] numbers ply i ("23." or "23..."
 * for games counted in moves, "7." for plies when plies is set); names[2]
 * the players. */
void annotate_summary(const gv_t *v, const annot_ply_t *p, int n, const char (*label)[16], int plies,
                      const char *const names[2], char *buf, size_t len);

#endif
