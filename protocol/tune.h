/* gsw tune (protocol/tune_cmd.c): evolving chess piece values, and reading a
 * tune run's folder back for charts (the SVG it writes, the workbench's
 * `tune DIR` command). */
#ifndef GSW_TUNE_H
#define GSW_TUNE_H

#include "cli/opts.h"
#include "core/err.h"

#define TUNE_PIECES 5

/* One finished generation, as its CSV file holds it. */
typedef struct tune_gen {
    int gen, n, games, draws;
    double elite[TUNE_PIECES];    /* rank 1's values, normalised to pawn = 1000 */
    double median[TUNE_PIECES];   /* the population's median of the normalised values */
    int elite_raw[TUNE_PIECES];
} tune_gen_t;

/* The generations finished in dir (gen-0001.csv, gen-0002.csv, ... up to
 * the first missing one): *h (heap, free()) and *n >= 1, else GSW_EINPUT
 * naming the file and line (no run there, a damaged file). */
int tune_history(const char *dir, tune_gen_t **h, int *n, err_t *err);
/* A text chart of dir's elite values by generation, width x height
 * characters of plot, with the last generation's figures: *text (heap,
 * free()). */
int tune_chart_text(const char *dir, int width, int height, char **text, err_t *err);

/* gsw tune */
extern const cli_verb_t verb_tune;

#endif
