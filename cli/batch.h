/* The batch file of `gsw solve --batch FILE`: one position a line (a move
 * string or "startpos"), optionally followed by its expected score; '#'
 * starts a comment line. Every position is parsed (for v) as it is read. */
#ifndef GSW_BATCH_H
#define GSW_BATCH_H

#include <stdio.h>

#include "core/err.h"
#include "core/game.h"

typedef struct batch_line {
    char *moves;           /* as written ("startpos" kept); free each */
    int has_expected;
    int expected;
} batch_line_t;

/* Read path ("-": stdin) into *out (*count lines; free each moves, then
 * the array). GSW_EINPUT with path:line for a bad line. */
int batch_read(const gv_t *gv, const char *path, batch_line_t **out, int *count, err_t *err);
/* The same from an open stream; name is used in messages. */
int batch_parse(const gv_t *gv, FILE *f, const char *name, batch_line_t **out, int *count, err_t *err);

#endif
