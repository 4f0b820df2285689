/* Syzygy tablebases as a knowledge source (solve/source.h): chess positions
 * of few pieces answered from the tables players own, read through Fathom
 * (games/chess/ch_syzygy.h), at the root and below it. After gsw's own
 * tablebases in the chain: where gsw's DTM of the ending is built it says
 * "mate in N"; elsewhere Syzygy says win, draw or loss, with its distance
 * to zeroing (DTZ) as the distance to conversion, so the move-count rule
 * (chess's 50-move rule) reads them as Syzygy defines it: a win whose DTZ
 * does not fit in the plies the clock leaves is a draw by the rule. At the
 * root its move is Fathom's, the one that keeps the result under the rule.
 * While the tables cover a position, gsw's own tablebase of it is not built
 * on demand (source_kind_t.covers). */
#include "solve/source.h"

#include <stdio.h>
#include <stdlib.h>

#include "games/chess/ch_syzygy.h"

typedef struct syzygy_src {
    gsw_oracle_t oracle;
} syzygy_src_t;

/* A result as bounds for the side to move; without the rule, a cursed win
 * is a win and a blessed loss a loss (their distances unknown). */
static void syzygy_bounds(int wdl, int counted, val_t *lo, val_t *hi)
{
    if (counted && (wdl == CH_SZ_CURSED || wdl == CH_SZ_BLESSED)) wdl = CH_SZ_DRAW;
    if (wdl > CH_SZ_DRAW) {
        *lo = VAL_PROVEN;
        *hi = val_win(1);
    } else if (wdl < CH_SZ_DRAW) {
        *lo = val_loss(0);
        *hi = -VAL_PROVEN;
    } else
        *lo = *hi = VAL_DRAW;
}

static int syzygy_oracle_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    (void)ctx;
    (void)v;
    int wdl;
    if (!ch_syzygy_wdl(pos, &wdl)) return 0;
    syzygy_bounds(wdl, 0, lo, hi);
    return 1;
}

/* DTZ: the plies to the next capture or pawn's move that keeps the result */
static int syzygy_oracle_conversion(void *ctx, const void *pos, int *plies)
{
    (void)ctx;
    ch_syzygy_root_t r;
    if (!ch_syzygy_root(pos, 0, &r) || r.wdl == CH_SZ_DRAW) return 0;
    *plies = r.dtz;
    return 1;
}

static int syzygy_src_open(const source_env_t *env, void **ctx, err_t *err)
{
    if (env->v->game != &chess_game || !ch_syzygy_largest()) return 0;
    syzygy_src_t *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory"), -1;
    s->oracle = (gsw_oracle_t){ syzygy_oracle_probe, syzygy_oracle_conversion, s };
    *ctx = s;
    return 1;
}

static void syzygy_src_close(void *ctx)
{
    free(ctx);
}

/* The root: Fathom's result at the position's 50-move clock (0 when the
 * solve values the position alone) and its move. */
static int syzygy_src_probe(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err)
{
    (void)ctx;
    (void)err;
    double t0 = gsw_now_ms();
    const ch_pos_t *p = q->pos;
    int counted = q->ab && q->ab->count;
    ch_syzygy_root_t r;
    if (!ch_syzygy_root(p, counted ? p->halfmove : 0, &r)) return 0;
    syzygy_bounds(r.wdl, counted, &a->lo, &a->hi);
    a->best = r.best;
    if (counted && (r.wdl == CH_SZ_CURSED || r.wdl == CH_SZ_BLESSED))   /* what the rule changed, said */
        snprintf(a->note, sizeof a->note, "Syzygy: %s without the 50-move rule, DTZ %d", r.wdl > 0 ? "a win" : "a loss",
                 r.dtz);
    else if (r.wdl != CH_SZ_DRAW) snprintf(a->note, sizeof a->note, "Syzygy, DTZ %d", r.dtz);
    else snprintf(a->note, sizeof a->note, "Syzygy");
    a->time_ms = gsw_now_ms() - t0;
    a->use = SOURCE_ANSWER;
    return 1;
}

static const gsw_oracle_t *syzygy_src_oracle(void *ctx, const source_query_t *q)
{
    (void)q;   /* every root; the heuristic engine's too */
    syzygy_src_t *s = ctx;
    return &s->oracle;
}

static int syzygy_src_conversion(void *ctx, const void *pos, int *plies)
{
    return syzygy_oracle_conversion(ctx, pos, plies);
}

static int syzygy_src_covers(void *ctx, const void *pos)
{
    (void)ctx;
    int wdl;
    return ch_syzygy_wdl(pos, &wdl);
}

static void syzygy_src_describe(void *ctx, source_description_t *d)
{
    (void)ctx;
    d->name = "syzygy";
    d->phrase = "the Syzygy tablebases";
}

const source_kind_t source_syzygy = {
    .open = syzygy_src_open,
    .probe = syzygy_src_probe,
    .oracle = syzygy_src_oracle,
    .describe = syzygy_src_describe,
    .close = syzygy_src_close,
    .conversion = syzygy_src_conversion,
    .covers = syzygy_src_covers,
};
