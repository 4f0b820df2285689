/* The workbench's `annotate [MS]`: the game on screen valued move by move
 * as `gsw annotate` values a record (solve/annotate.h), into the session's
 * analyses (the value history, `v`), with each move's value and mark and
 * a summary said; and the history's rows for the chart. */
#ifndef GSW_SESSION_ANNOTATE_H
#define GSW_SESSION_ANNOTATE_H

#include "solve/annotate.h"
#include "workbench/session.h"

/* A position's solving time when annotate is given none. */
#define SESSION_ANNOTATE_MS 500.0

/* Annotate plies 0..s->top-1, each position within ms; 1 when stopped. */
int session_annotate(session_t *s, double ms, out_t *out, err_t *err);
/* Ply i's label as the move list numbers it ("23." / "23..." in games of
 * two players, "7." in puzzles). */
void session_ply_label(const session_t *s, int i, char *buf, size_t n);
/* Ply i of the value history for the chart: its annotation from the
 * analyses the session holds (0 when its position has none). */
int session_annot_ply(const session_t *s, int i, annot_ply_t *p);

#endif
