/* A gsw tune run's record: one CSV file per finished generation in the
 * run's folder (gen-0001.csv, ...; a row per individual, best first),
 * written and read back, and its chart of piece values by generation drawn
 * as SVG (values.svg) and as text (the workbench's `tune DIR`). */
#ifndef GSW_TUNELOG_H
#define GSW_TUNELOG_H

#include <stddef.h>

#include "core/err.h"
#include "core/evolve.h"

#define TUNE_PIECES 5
#define TUNE_SVG "values.svg"

/* One finished generation, as its CSV file holds it. */
typedef struct tune_gen {
    int gen, n, games, draws;
    double elite[TUNE_PIECES];    /* rank 1's values, normalised to pawn = 1000 */
    double median[TUNE_PIECES];   /* the population's median of the normalised values */
    int elite_raw[TUNE_PIECES];
} tune_gen_t;

/* dir/name into buf: 0, or -1 when it does not fit. */
int tunelog_path(char *buf, size_t n, const char *dir, const char *name);
/* The ranked generation gen (pop[order[0]] best, n of them; the
 * generation's games and draws) as dir/gen-NNNN.csv, written atomically. */
int tunelog_write_gen(const char *dir, int gen, const evo_ind_t *pop, const int *order, int n, int games, int draws,
                      err_t *err);
/* The generations finished in dir (gen-0001.csv, gen-0002.csv, ... up to
 * the first missing one): *h (heap, free()) and *n >= 1, else GSW_EINPUT
 * naming the file and line (no run there, a damaged file). */
int tune_history(const char *dir, tune_gen_t **h, int *n, err_t *err);
/* The chart of h[0..n-1] as dir/values.svg: elite (solid) and median
 * (dashed) values by generation. */
int tunelog_write_svg(const char *dir, const tune_gen_t *h, int n, err_t *err);
/* A text chart of dir's elite values by generation, width x height
 * characters of plot, with the last generation's figures: *text (heap,
 * free()). */
int tune_chart_text(const char *dir, int width, int height, char **text, err_t *err);

#endif
