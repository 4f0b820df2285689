/* The registry of knowledge sources (source.h) and what they share: the
 * root's answer from an oracle, and the searches' oracle over a chain. */
#include "solve/source.h"

#include <stdio.h>
#include <string.h>

#include "core/dfpn.h"

/* The chain, in order: the cache, the endgame databases and tablebases,
 * the Syzygy tablebases (after gsw's own, whose DTM says more), strong
 * solutions, the opening books (the shipped one is asked first at
 * the root: source_kind_t.first). A new kind: its file, and a line here. */
const source_kind_t *const source_registry[] = {
    &source_cache,
    &source_egdb,
    &source_syzygy,
    &source_strong,
    &source_book_shipped,
    &source_book_cache,
    NULL,
};

int source_settles(const source_query_t *q, val_t lo, val_t hi)
{
    if (lo == hi) return 1;
    if (q->goal >= 0 && q->proof_numbers) {   /* one goal: does the interval decide it? */
        val_t T = q->goal == DFPN_GOAL_WIN ? 1 : 0;
        return lo >= T || hi < T;
    }
    return q->wdl && (lo > VAL_DRAW || hi < VAL_DRAW || (lo >= VAL_DRAW && hi <= VAL_DRAW));
}

int source_conversion_plies(const gv_t *v, const gsw_oracle_t *o, const void *child)
{
    int plies;
    if (v->ops->pos_reversible && v->ops->pos_reversible(v, child, NULL) == 0) return 1;   /* the move converts */
    if (o->conversion && o->conversion(o->ctx, child, &plies)) return plies + 1;
    return -1;
}

move_t source_oracle_best(const gv_t *v, const gsw_oracle_t *o, const void *pos)
{
    const game_ops_t *O = v->ops;
    move_t mv[GSW_MAX_MOVES], best = MOVE_NONE;
    int n = O->moves(v, pos, mv), bestc = -1;
    val_t bestlo = -VAL_INF, besthi = -VAL_INF;
    GSW_POSBUF c[GSW_MAX_POS];
    for (int i = 0; i < n; i++) {
        memcpy(c, pos, O->pos_size);
        O->play(v, c, mv[i]);
        val_t cl, ch, tv;
        if (O->terminal(v, c, &tv)) cl = ch = tv;
        else if (!o->probe(o->ctx, v, c, &cl, &ch)) continue;
        /* the child's [cl, ch] is [val_up(ch), val_up(cl)] for the mover:
           what the move is sure of first (a move the move-count rule leaves
           between a loss and a draw is no draw), then what it may reach */
        val_t lo = val_up(ch), hi = val_up(cl);
        /* a result without its distance (win/draw/loss files): progress is
           the conversion, soonest for the winner, latest for the loser */
        int conv = cl != ch ? source_conversion_plies(v, o, c) : -1;
        if (lo > bestlo || (lo == bestlo && hi > besthi)
            || (lo == bestlo && hi == besthi && cl != ch && source_conversion_better(cl, conv, bestc))) {
            bestlo = lo;
            besthi = hi;
            best = mv[i];
            bestc = conv;
        }
    }
    return best;
}

int source_oracle_answer(const source_query_t *q, const gsw_oracle_t *o, source_answer_t *a)
{
    double t0 = gsw_now_ms();
    val_t lo, hi;
    if (!o->probe(o->ctx, q->v, q->pos, &lo, &hi)) return 0;
    gsw_count_oracle_t co;   /* the game's values: under its move-count rule */
    int far = -1;            /* the conversion of a result the rule leaves without its distance */
    val_t raw = VAL_DRAW;
    if (q->ab && q->ab->count) {
        val_t clo, chi;
        o = game_count_oracle(&co, o, &q->ab->count);
        o->probe(o->ctx, q->v, q->pos, &clo, &chi);
        /* the rule took the distance away: a search finds it where the
           conversion is near; a far one that comes in time (a mate longer
           than the rule allows, converted first) leaves the result, without
           its distance, since no search reaches that deep */
        int conv;
        if (lo == hi && clo != chi) {
            if (!(clo > VAL_DRAW || chi < VAL_DRAW) || !o->conversion || !o->conversion(o->ctx, q->pos, &conv)
                || conv <= SOURCE_SEARCH_CONVERSION)
                return 0;
            far = conv;
            raw = lo;
        } else if (lo == hi && lo != VAL_DRAW && clo == VAL_DRAW && chi == VAL_DRAW)
            snprintf(a->note, sizeof a->note, "by the %s: no conversion in the %d plies left; %s in %d plies without it",
                     q->v->ops->count_rule, game_count_left(q->v, q->pos), val_is_win(lo) ? "wins" : "loses",
                     val_plies(lo));
        lo = clo;
        hi = chi;
    }
    if (!source_settles(q, lo, hi) && !(lo > VAL_DRAW || hi < VAL_DRAW)) return 0;
    a->lo = lo;
    a->hi = hi;
    if (far >= 0)   /* (the result under the rule, without its distance: why) */
        snprintf(a->note, sizeof a->note, "under the %s: converts in %d plies; %s in %d plies without it",
                 q->v->ops->count_rule, far, val_is_win(raw) ? "wins" : "loses", val_plies(raw));
    a->best = source_oracle_best(q->v, o, q->pos);
    a->time_ms = gsw_now_ms() - t0;
    a->use = SOURCE_ANSWER;
    return 1;
}

/* Several sources' oracles, asked in turn: the first that knows pos. */
static int source_chain_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    const source_chain_t *c = ctx;
    for (int i = 0; i < c->nbelow; i++)
        if (c->below[i]->probe(c->below[i]->ctx, v, pos, lo, hi)) return 1;
    return 0;
}

static int source_chain_conversion(void *ctx, const void *pos, int *plies)
{
    const source_chain_t *c = ctx;
    for (int i = 0; i < c->nbelow; i++)
        if (c->below[i]->conversion && c->below[i]->conversion(c->below[i]->ctx, pos, plies)) return 1;
    return 0;
}

const gsw_oracle_t *source_chain_oracle(source_chain_t *c, const source_query_t *q)
{
    c->nbelow = 0;
    for (int i = 0; i < c->n; i++) {
        const source_t *s = &c->src[i];
        if (!s->kind || !s->kind->oracle) continue;
        const gsw_oracle_t *o = s->kind->oracle(s->ctx, q);
        if (!o) continue;
        c->below[c->nbelow++] = o;
        if (s->kind->shadows) break;
    }
    if (c->nbelow <= 1) return c->nbelow ? c->below[0] : NULL;
    c->multi.probe = source_chain_probe;
    c->multi.conversion = source_chain_conversion;
    c->multi.ctx = c;
    return &c->multi;
}
