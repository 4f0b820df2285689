/* The retrograde engine: solves one build unit of an endgame database by
 * propagating values backwards from the positions whose value is known
 * (no move left, or a move out of the unit into a finished slice), level by
 * level in distance, so every win is the shortest and every loss the
 * longest. Game-independent: the caller supplies each node's moves inside
 * the unit (a count), its best exit and its predecessors (core/retro.h). */
#include "core/retro_run.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/pfor.h"

const char *retro_metric_name(retro_metric_t m)
{
    static const char *const names[RETRO_METRICS] = { "wld", "dtc", "dtw" };
    return (unsigned)m < RETRO_METRICS ? names[m] : "?";
}

int retro_metric_parse(const char *s, retro_metric_t *m)
{
    for (int i = 0; i < RETRO_METRICS; i++)
        if (!strcmp(s, retro_metric_name((retro_metric_t)i))) { *m = (retro_metric_t)i; return 0; }
    return -1;
}

const char *retro_game_metric_name(const retro_game_t *rg, retro_metric_t m)
{
    return m == RETRO_DTW && rg && rg->mate_metric ? "dtm" : retro_metric_name(m);
}

int retro_game_metric_parse(const retro_game_t *rg, const char *s, retro_metric_t *m)
{
    for (int i = 0; i < RETRO_METRICS; i++)
        if (!strcmp(s, retro_game_metric_name(rg, (retro_metric_t)i))) { *m = (retro_metric_t)i; return 0; }
    return -1;
}

val_t retro_to_val(retro_val_t r)
{
    if (r == RETRO_UNKNOWN) return VAL_DRAW;
    return retro_is_loss(r) ? val_loss(retro_dist(r)) : val_win(retro_dist(r));
}

retro_val_t retro_from_val(val_t v)
{
    if (val_is_win(v)) return retro_win(val_plies(v) > RETRO_MAX_DIST ? RETRO_MAX_DIST : val_plies(v));
    if (val_is_loss(v)) return retro_loss(val_plies(v) > RETRO_MAX_DIST ? RETRO_MAX_DIST : val_plies(v));
    return RETRO_UNKNOWN;
}

static void retro_init_node(retro_run_t *r, int tid, uint64_t i, err_t *e)
{
    val_t best = VAL_WIN + 1;
    int nin = r->u->moves(r->u->ctx, tid, r->lo + i, r->scratch[tid], &best, e);
    if (nin < 0) { retro_fail(r, e); return; }
    if (nin > 255) {
        err_set(e, GSW_EFAIL, "retro: node %llu has %d moves inside its unit", (unsigned long long)(r->lo + i), nin);
        retro_fail(r, e);
        return;
    }
    uint16_t x = EX_NONE;
    if (best <= VAL_WIN) {
        x = val_is_proven_decisive(best) ? retro_from_val(best) : EX_DRAW;
        if (x != EX_DRAW) {
            int d = ex_dist(x), m = __atomic_load_n(&r->maxex, __ATOMIC_RELAXED);
            while (d > m && !__atomic_compare_exchange_n(&r->maxex, &m, d, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        }
    } else if (nin == 0) {
        err_set(e, GSW_EFAIL, "retro: node %llu has neither a move nor a value", (unsigned long long)(r->lo + i));
        retro_fail(r, e);
        return;
    }
    r->node[i] = (retro_node_t){ .val = RETRO_UNKNOWN, .ex = x, .cnt = (uint16_t)nin };
}

/* Lists of nodes (predecessors or moves) of up to RETRO_GROUP nodes into
 * buf (RETRO_MAX_MOVES each), their targets and the nodes themselves
 * prefetched. The worker makes one group's lists while the group before
 * waits, then applies that one: on a large unit the random reads of a group
 * then arrive while the next group's lists are made. */
static int retro_lists(retro_run_t *r, int tid, const uint64_t *at, int g, int *nl, uint64_t *buf, err_t *e)
{
    const retro_unit_t *u = r->u;
    /* (read once: the lists written below could alias them) */
    const uint64_t n = u->n;
    retro_node_t *const node = r->node;
    /* the targets' place: this part's nodes, or the check's copy of every
       value (an address past them is only a prefetch, which never faults) */
    const uintptr_t base = r->all ? (uintptr_t)r->all : (uintptr_t)node;
    const uintptr_t size = r->all ? sizeof *r->all : sizeof *node;
    const uint64_t off = r->all ? 0 : r->lo;
    const int bucketed = r->phase == 2 && r->bw;   /* (their targets are read later, bucket by bucket) */
    /* (the place in init's kept lists is held here and stored once: the
       threads' places share a cache line) */
    const uint8_t *cur = r->phase == 4 ? r->cursor[tid] : NULL;
    for (int j = 0; j < g; j++) __builtin_prefetch(&node[at[j]], 0);
    for (int j = 0; j < g; j++) {
        uint64_t *l = buf + (size_t)j * RETRO_MAX_MOVES;
        if (cur)   /* init's list of this node */
            cur = retro_keep_get(cur, l, &nl[j]);
        else
            nl[j] = r->phase == 2 ? u->preds(u->ctx, tid, r->lo + at[j], l, e)
                                  : u->moves(u->ctx, tid, r->lo + at[j], l, NULL, e);
        if (nl[j] < 0) { retro_fail(r, e); return -1; }
        for (int k = 0; k < nl[j]; k++) {
            if (l[k] >= n) {
                err_set(e, GSW_EFAIL, "retro: node %llu has a %s %llu outside the unit",
                        (unsigned long long)(r->lo + at[j]), r->phase == 2 ? "predecessor" : "move to",
                        (unsigned long long)l[k]);
                retro_fail(r, e);
                return -1;
            }
            if (!bucketed) __builtin_prefetch((const void *)(base + (uintptr_t)(l[k] - off) * size), 1);
        }
    }
    if (r->phase == 4) r->cursor[tid] = cur;
    return 0;
}

/* Level d's frontier nodes at[0..g-1] with their predecessor lists: each
 * predecessor of this part is settled here, another part's is sent there. */
static void retro_propagate_apply(retro_run_t *r, int tid, const uint64_t *at, int g, const int *np,
                                  const uint64_t *buf, err_t *e)
{
    const uint64_t lo = r->lo, nloc = r->nloc;
    if (r->bw) {   /* (how much the buckets will hold: phase 5's threads) */
        uint64_t n = 0;
        for (int j = 0; j < g; j++) n += (uint64_t)np[j];
        __atomic_add_fetch(&r->gathered, n, __ATOMIC_RELAXED);
    }
    for (int j = 0; j < g; j++) {
        int lost = retro_is_loss(r->node[at[j]].val);
        const uint64_t *pred = buf + (size_t)j * RETRO_MAX_MOVES;
        if (r->bw) {   /* gathered, to be settled bucket by bucket (phase 5) */
            retro_chain_t *bw = r->bw + (size_t)tid * r->nbk;
            for (int k = 0; k < np[j]; k++) {
                retro_chain_t *c = &bw[pred[k] >> r->bshift];
                if (!c->tail || c->n == RETRO_BLOCK) {   /* a new block: from this thread's pool, or made */
                    retro_block_t *x = r->pool[tid];
                    if (x) r->pool[tid] = x->next;
                    else if (!(x = malloc(sizeof *x))) {
                        err_set(e, GSW_EFAIL, "retro: out of memory for the propagation's buckets");
                        retro_fail(r, e);
                        return;
                    }
                    x->next = NULL;
                    if (c->tail) c->tail->next = x;
                    else c->head = x;
                    c->tail = x;
                    c->n = 0;
                }
                c->tail->w[c->n++] = pred[k] << 1 | (uint64_t)lost;
            }
            continue;
        }
        if (!r->comm) {   /* (the undivided unit's loop, kept apart: it is the hot one) */
            for (int k = 0; k < np[j]; k++) retro_settle(r, tid, pred[k], lost, e);
            continue;
        }
        for (int k = 0; k < np[j]; k++) {
            uint64_t o = pred[k] - lo;
            if (o < nloc) {
                retro_settle(r, tid, o, lost, e);
                continue;
            }
            if (retro_words_add(&r->obox[(size_t)tid * (size_t)r->comm->parts + (size_t)retro_owner(r, pred[k])],
                                pred[k] << 1 | (uint64_t)lost)) {
                err_set(e, GSW_EFAIL, "retro: out of memory for the messages to other parts");
                retro_fail(r, e);
                return;
            }
        }
    }
}

/* --- the check, and its order for an undivided unit ---
 *
 * The check's order for an undivided unit (retro_unit_t.spans): a slice
 * whose index is high * low + low-part, with the moves of positions that
 * share the low part landing close together, is checked tile by tile: a
 * few consecutive low parts (RETRO_TILE) for every high part, so the
 * values the check reads for one tile stay in the cache instead of being
 * fetched at random from all of the unit's. Init's kept lists are read at
 * each row of a tile from the offset init recorded there (segoff). A span
 * without such a low part is one row, read in index order. */

/* retro_solve's check of nodes at[0..g-1] with their move lists: each
 * value is the best of its exit and its moves inside the unit (read from
 * r->all in a divided unit's replicated check). */
static void retro_check_apply(retro_run_t *r, const uint64_t *at, int g, const int *nm, const uint64_t *buf, err_t *e)
{
    const retro_val_t *const all = r->all;
    for (int j = 0; j < g; j++) {
        const retro_node_t *x = &r->node[at[j]];
        val_t best = ex_value(x->ex);
        if (best > VAL_WIN) best = -VAL_INF;
        const uint64_t *m = buf + (size_t)j * RETRO_MAX_MOVES;
        if (!all)   /* (the undivided unit's loop, kept apart: it is the hot one) */
            for (int k = 0; k < nm[j]; k++) {
                val_t c = val_up(retro_to_val(r->node[m[k]].val));
                if (c > best) best = c;
            }
        else
            for (int k = 0; k < nm[j]; k++) {
                val_t c = val_up(retro_to_val(all[m[k]]));
                if (c > best) best = c;
            }
        if (retro_to_val(x->val) == best) continue;
        retro_mismatch(r, r->lo + at[j], retro_to_val(x->val), best, e);
        return;
    }
}

/* The span a node lies in (spans are few). */
static const retro_span_t *retro_span_of(const retro_run_t *r, uint64_t node)
{
    int k = 0;
    while (k + 1 < r->nspan && node >= r->span[k + 1].at) k++;
    return &r->span[k];
}

static int retro_tiles_init(retro_run_t *r)
{
    const retro_unit_t *u = r->u;
    if (u->comm || !u->nspans || !u->span_at || u->span_at[0] != 0 || u->span_at[u->nspans] != u->n) return 0;
    if (!(r->span = calloc((size_t)u->nspans + 1, sizeof *r->span))) return -1;
    uint64_t seg = 0, unit = 0;
    for (int k = 0; k < u->nspans; k++) {
        retro_span_t *s = &r->span[k];
        s->at = u->span_at[k];
        s->n = u->span_at[k + 1] - s->at;
        uint64_t low = u->span_low ? u->span_low[k] : 0;
        if (low >= 2 * RETRO_TILE && low < s->n && s->n % low == 0) {   /* tiles of RETRO_TILE lows */
            s->low = low;
            s->w = RETRO_TILE;
            s->hb = RETRO_CHUNK / RETRO_TILE;
        } else {   /* one row, in index order, RETRO_ROW nodes a unit of work */
            s->low = s->n ? s->n : 1;
            s->w = RETRO_ROW;
            s->hb = 1;
        }
        s->rows = s->n / s->low;
        s->tiles = (s->low + s->w - 1) / s->w;
        s->nhb = (s->rows + s->hb - 1) / s->hb;
        s->seg0 = seg;
        s->unit0 = unit;
        seg += s->rows * s->tiles;
        unit += s->n ? s->tiles * s->nhb : 0;
    }
    r->span[u->nspans].at = u->n;
    r->span[u->nspans].seg0 = seg;
    r->span[u->nspans].unit0 = unit;
    r->nspan = u->nspans;
    r->units = unit;
    if (r->kept && !(r->segoff = calloc(seg ? seg : 1, sizeof *r->segoff))) return -1;
    return 0;
}

static void retro_tiles_free(retro_run_t *r)
{
    free(r->span);
    free(r->segoff);
    r->span = NULL;
    r->segoff = NULL;
}

static void retro_tiles_mark_at(const retro_run_t *r, uint64_t node, retro_mark_t *m)
{
    const retro_span_t *s = retro_span_of(r, node);
    m->s = s;
    m->row = (node - s->at) / s->low;
    m->col = (node - s->at) % s->low;
}

static void retro_tiles_mark(retro_run_t *r, retro_mark_t *m, uint32_t offset)
{
    const retro_span_t *s = m->s;
    if (m->col % s->w == 0) r->segoff[s->seg0 + m->row * s->tiles + m->col / s->w] = offset;
    if (++m->col < s->low) return;
    m->col = 0;
    m->row++;
    while (m->row >= m->s->rows && m->s + 1 < r->span + r->nspan) {   /* (past any empty span) */
        m->s++;
        m->row = 0;
    }
}

static uint64_t retro_check_unit(retro_run_t *r, int tid, uint64_t unit, err_t *e)
{
    const retro_unit_t *u = r->u;
    const retro_span_t *s = r->span;
    while (unit >= s[1].unit0) s++;
    uint64_t k = unit - s->unit0, t = k / s->nhb, h0 = k % s->nhb * s->hb;
    uint64_t h1 = h0 + s->hb < s->rows ? h0 + s->hb : s->rows, done = 0;
    const uint64_t n = u->n;
    const retro_val_t *all = r->all;
    uint64_t at[2][RETRO_GROUP];
    int g[2] = { 0, 0 }, nl[2][RETRO_GROUP], h = 0;
    uint64_t *buf[2] = { r->scratch[tid], r->scratch[tid] + (size_t)RETRO_GROUP * RETRO_MAX_MOVES };
    for (uint64_t row = h0; row < h1; row++) {
        uint64_t x0 = s->at + row * s->low + t * s->w, end = s->at + (row + 1) * s->low;
        uint64_t x1 = x0 + s->w < end ? x0 + s->w : end;
        const uint8_t *cur = r->kept ? r->kept[x0 / RETRO_CHUNK] : NULL;
        if (cur) cur += r->segoff[s->seg0 + row * s->tiles + t];
        for (uint64_t x = x0; x < x1; x++) {
            if (x != x0 && x % RETRO_CHUNK == 0) cur = r->kept ? r->kept[x / RETRO_CHUNK] : NULL;
            uint64_t *l = buf[h] + (size_t)g[h] * RETRO_MAX_MOVES;
            int *c = &nl[h][g[h]];
            if (cur)
                cur = retro_keep_get(cur, l, c);
            else if ((*c = u->moves(u->ctx, tid, x, l, NULL, e)) < 0) {
                retro_fail(r, e);
                return done;
            }
            for (int q = 0; q < *c; q++) {
                if (l[q] >= n) {
                    err_set(e, GSW_EFAIL, "retro: node %llu has a move to %llu outside the unit",
                            (unsigned long long)x, (unsigned long long)l[q]);
                    retro_fail(r, e);
                    return done;
                }
                __builtin_prefetch(&all[l[q]], 0);
            }
            at[h][g[h]++] = x;
            if (g[h] == RETRO_GROUP) {   /* the group before is applied while this one's reads arrive */
                if (g[h ^ 1]) retro_check_apply(r, at[h ^ 1], g[h ^ 1], nl[h ^ 1], buf[h ^ 1], e);
                g[h ^ 1] = 0;
                h ^= 1;
                if (__atomic_load_n(&r->failed, __ATOMIC_RELAXED)) return done;
            }
        }
        done += x1 - x0;
    }
    if (g[h ^ 1]) retro_check_apply(r, at[h ^ 1], g[h ^ 1], nl[h ^ 1], buf[h ^ 1], e);
    if (g[h]) retro_check_apply(r, at[h], g[h], nl[h], buf[h], e);
    return done;
}

/* The nodes thread tid resolved from bucket k (its next frontier from
 * `start` on, each once) put in order: the next level then decodes and
 * reads them in index order, where one position's decoding serves the
 * next (ckr_position keeps the slower-moving parts). A bitmap of the
 * bucket's range, or an insertion sort for a few. */
static int retro_order(retro_run_t *r, int tid, uint64_t start, uint64_t k)
{
    uint64_t n = r->tn[tid] - start;
    if (n < 2) return 0;
    uint32_t *a = r->tnext[tid] + start;
    if (n <= 32) {
        for (uint64_t i = 1; i < n; i++) {
            uint32_t x = a[i];
            uint64_t j = i;
            for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
            a[j] = x;
        }
        return 0;
    }
    uint64_t words = ((uint64_t)1 << r->bshift) / 64 + 1, base = k << r->bshift;
    if (!r->bits[tid] && !(r->bits[tid] = calloc(words, sizeof **r->bits))) return -1;
    uint64_t *b = r->bits[tid], lo = words, hi = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t o = a[i] - base;
        b[o >> 6] |= (uint64_t)1 << (o & 63);
        if (o >> 6 < lo) lo = o >> 6;
        if (o >> 6 > hi) hi = o >> 6;
    }
    uint64_t at = 0;
    for (uint64_t w = lo; w <= hi; w++)
        for (uint64_t x = b[w]; x; x &= x - 1) a[at++] = (uint32_t)(base + (w << 6) + (uint64_t)__builtin_ctzll(x));
    memset(b + lo, 0, (hi - lo + 1) * sizeof *b);
    return 0;
}

/* Bucket k of a round: every thread's settlements for its nodes, settled
 * by this thread alone (so without atomic updates), their nodes fetched a
 * few ahead: they fall at random within the bucket's range. */
static void retro_settle_bucket(retro_run_t *r, int tid, uint64_t k, err_t *e)
{
    enum { AHEAD = 16 };
    int t = retro_threads(r->u);
    uint64_t start = r->tn[tid];
    for (int i = 0; i < t; i++) {
        retro_chain_t *c = &r->bw[(size_t)i * r->nbk + k];
        for (retro_block_t *x = c->head; x; x = x->next) {
            const uint64_t *a = x->w;
            uint64_t n = x == c->tail ? c->n : RETRO_BLOCK;
            for (uint64_t q = 0; q < n && q < AHEAD; q++) __builtin_prefetch(&r->node[a[q] >> 1], 1);
            for (uint64_t q = 0; q < n; q++) {
                if (q + AHEAD < n) __builtin_prefetch(&r->node[a[q + AHEAD] >> 1], 1);
                retro_settle_as(r, tid, a[q] >> 1, (int)(a[q] & 1), e, 0);
            }
        }
        if (c->head) {   /* the blocks, settled, join this thread's pool */
            c->tail->next = r->pool[tid];
            r->pool[tid] = c->head;
            c->head = c->tail = NULL;
            c->n = 0;
        }
    }
    if (retro_order(r, tid, start, k)) {
        err_set(e, GSW_EFAIL, "retro: out of memory for the frontier");
        retro_fail(r, e);
    }
}

/* Items a..b of a propagation (2) or check (4) phase, a group at a time,
 * each group's lists made while the group before it waits for memory. */
static void retro_groups(retro_run_t *r, int tid, uint64_t a, uint64_t b, err_t *e)
{
    uint64_t at[2][RETRO_GROUP];
    int g[2], nl[2][RETRO_GROUP];
    uint64_t *buf[2] = { r->scratch[tid], r->scratch[tid] + (size_t)RETRO_GROUP * RETRO_MAX_MOVES };
    uint64_t i = a;
    for (int h = 0, first = 1;; h ^= 1, first = 0) {
        g[h] = 0;
        for (; g[h] < RETRO_GROUP && i < b; g[h]++, i++) at[h][g[h]] = r->phase == 2 ? r->items[i] : i;
        if (g[h] && retro_lists(r, tid, at[h], g[h], nl[h], buf[h], e)) return;
        int p = h ^ 1;   /* the group before: its reads are on their way */
        if (!first) {
            if (r->phase == 2) retro_propagate_apply(r, tid, at[p], g[p], nl[p], buf[p], e);
            else retro_check_apply(r, at[p], g[p], nl[p], buf[p], e);
        }
        if (!g[h] || __atomic_load_n(&r->failed, __ATOMIC_RELAXED)) return;
    }
}

static void *retro_worker(void *arg_)
{
    struct { retro_run_t *r; int tid; } *arg = arg_;
    retro_run_t *r = arg->r;
    int tid = arg->tid;
    const retro_unit_t *u = r->u;
    err_t e = { 0 };
    double t0 = retro_ms();
    uint64_t items = 0;
    for (;;) {
        if (__atomic_load_n(&r->failed, __ATOMIC_RELAXED)) break;
        if (u->stop && *u->stop) {
            err_set(&e, GSW_EFAIL, "stopped");
            retro_fail(r, &e);
            break;
        }
        uint64_t chunk = r->phase >= 5 ? 1 : r->phase == 2 ? RETRO_CHUNK / 16 : RETRO_CHUNK;
        uint64_t a = __atomic_fetch_add(&r->next, chunk, __ATOMIC_RELAXED);
        if (a >= r->work) break;
        uint64_t b = a + chunk < r->work ? a + chunk : r->work;
        uint8_t *keep = NULL;   /* init: this chunk's lists, kept for the check */
        size_t klen = 0, kcap = 0;
        retro_mark_t mark = { NULL, 0, 0 };   /* init: where the check's segments begin in keep */
        if (r->phase == 0 && r->kept) {
            kcap = (size_t)(b - a) * 16;
            keep = malloc(kcap);
            if (r->segoff) retro_tiles_mark_at(r, a, &mark);
        }
        if (r->phase == 4) r->cursor[tid] = r->kept ? r->kept[a / RETRO_CHUNK] : NULL;
        uint64_t edges = 0;
        for (uint64_t i = a; i < b && !__atomic_load_n(&r->failed, __ATOMIC_RELAXED);) {
            if (r->phase == 0) {
                retro_init_node(r, tid, i++, &e);
                if (__atomic_load_n(&r->failed, __ATOMIC_RELAXED)) break;
                int nin = r->node[i - 1].cnt;
                edges += (uint64_t)nin;
                if (!keep) continue;
                if (klen + 1 + 4 * (size_t)nin > kcap) {
                    uint8_t *x = realloc(keep, kcap = 2 * kcap + 1 + 4 * (size_t)nin);
                    if (!x) { free(keep); keep = NULL; continue; }
                    keep = x;
                }
                if (r->segoff) retro_tiles_mark(r, &mark, (uint32_t)klen);
                size_t put = retro_keep_put(keep + klen, r->scratch[tid], nin);
                if (!put) { free(keep); keep = NULL; continue; }
                klen += put;
                continue;
            }
            if (r->phase == 5) {
                retro_settle_bucket(r, tid, i++, &e);
                continue;
            }
            if (r->phase == 6) {
                items += retro_check_unit(r, tid, i++, &e);
                continue;
            }
            if (r->phase == 3) {
                if (u->check(u->ctx, tid, i, r->val, &e)) retro_fail(r, &e);
                i++;
                continue;
            }
            retro_groups(r, tid, i, b, &e);
            break;
        }
        if (keep) {   /* kept while the budget allows; else the check lists these nodes' moves again */
            uint64_t bytes = klen;
            if (__atomic_add_fetch(&r->kept_bytes, bytes, __ATOMIC_RELAXED) <= r->u->keep_bytes) {
                uint8_t *x = realloc(keep, klen ? klen : 1);
                r->kept[a / RETRO_CHUNK] = x ? x : keep;
            } else {
                __atomic_sub_fetch(&r->kept_bytes, bytes, __ATOMIC_RELAXED);
                free(keep);
            }
        }
        if (edges) __atomic_add_fetch(&r->edges, edges, __ATOMIC_RELAXED);
        if (r->phase < 5) items += b - a;   /* (nodes, not buckets or units) */
        uint64_t done = __atomic_add_fetch(&r->done, b - a, __ATOMIC_RELAXED);
        if (tid == 0 && u->progress && r->phase != 2 && r->phase != 5) {
            pthread_mutex_lock(&r->lock);
            u->progress(u->ctx, r->phase ? "check" : "init", done, r->work);
            pthread_mutex_unlock(&r->lock);
        }
    }
    r->busy[tid] += retro_ms() - t0;
    r->titems[tid] += items;
    return NULL;
}

/* One phase over `work` items on u->threads threads (this one included;
 * one alone when the work is small). Its wall time; each thread's wait
 * is that less its busy time. */
int retro_phase(retro_run_t *r, int phase, uint64_t work, double *wall)
{
    int t = retro_threads(r->u);
    if ((phase == 5 ? r->gathered : work) < 2048) t = 1;   /* (buckets: by what they hold) */
    r->phase = phase;
    r->work = work;
    r->next = 0;
    r->done = 0;
    struct { retro_run_t *r; int tid; } args[256];
    pthread_t th[256];
    int started = 0;
    double t0 = retro_ms();
    double busy0[256];
    memcpy(busy0, r->busy, sizeof busy0);
    for (int i = 1; i < t; i++) {
        args[i].r = r;
        args[i].tid = i;
        if (pthread_create(&th[i], NULL, retro_worker, &args[i])) break;
        started = i;
    }
    args[0].r = r;
    args[0].tid = 0;
    retro_worker(&args[0]);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    double w = retro_ms() - t0;
    if (wall) *wall += w;
    if (r->u->stats) {
        retro_stats_t *s = r->u->stats;
        int n = r->u->threads < RETRO_STATS_THREADS ? r->u->threads : RETRO_STATS_THREADS;
        if (n > s->threads) s->threads = n;
        for (int i = 0; i < n; i++) {
            double b = r->busy[i] - busy0[i];
            s->busy_ms[i] += b;
            s->wait_ms[i] += w > b ? w - b : 0;
        }
    }
    return r->failed ? -1 : 0;
}

/* The propagation's buckets for a unit of n nodes: 2^shift nodes each, or
 * 0 when it is settled at once. Of about a core's cache (2^17 nodes, 768
 * KB) but at most 65,536 of them; a test's bits are kept as they are. */
static int retro_bucket_shift(uint64_t n, int bits)
{
    if (bits < 0 || (!bits && n < RETRO_BUCKET_MIN)) return 0;
    int s = bits > 0 ? bits : 17;
    while (s < 63 && (n >> s) >= 65536) s++;
    return s;
}

uint64_t retro_bucket_bytes(uint64_t n, int threads, int bucket_bits)
{
    int s = retro_bucket_shift(n, bucket_bits);
    if (!s) return 0;
    /* a round's words (8 bytes, 8 a frontier node: twice a 7-piece king
       unit's average) and a block partly filled per bucket and thread */
    return (uint64_t)RETRO_ROUND * 8 * 8 + ((n >> s) + 1) * (uint64_t)retro_clamp_threads(threads) * sizeof(retro_block_t);
}

static void retro_run_free(retro_run_t *r)
{
    for (int i = 0; i < 256; i++) {
        free(r->tnext[i]);
        free(r->scratch[i]);
        free(r->bits[i]);
    }
    if (r->u->stats) {
        int n = r->u->threads < RETRO_STATS_THREADS ? r->u->threads : RETRO_STATS_THREADS;
        for (int i = 0; i < n; i++) r->u->stats->items[i] += r->titems[i];
    }
    if (r->kept)
        for (uint64_t k = 0; k <= r->nloc / RETRO_CHUNK; k++) free(r->kept[k]);
    free(r->kept);
    if (r->obox) {
        int t = retro_threads(r->u);
        for (size_t k = 0; k < (size_t)t * (size_t)r->comm->parts; k++) free(r->obox[k].a);
    }
    free(r->obox);
    for (uint64_t k = 0; r->bw && k < (uint64_t)retro_threads(r->u) * r->nbk; k++)
        for (retro_block_t *x = r->bw[k].head, *y; x; x = y) {
            y = x->next;
            free(x);
        }
    free(r->bw);
    for (int i = 0; i < 256; i++)
        for (retro_block_t *x = r->pool[i], *y; x; x = y) {
            y = x->next;
            free(x);
        }
    free(r->node);
    retro_tiles_free(r);
    pthread_mutex_destroy(&r->lock);
}

static int retro_run_init(retro_run_t *r, const retro_unit_t *u)
{
    memset(r, 0, sizeof *r);
    r->u = u;
    r->nloc = u->n;
    pthread_mutex_init(&r->lock, NULL);
    int t = retro_threads(u);
    if (u->comm) {
        r->comm = u->comm;
        r->lo = u->comm->lo[u->comm->me];
        r->nloc = u->comm->lo[u->comm->me + 1] - r->lo;
        if (!(r->obox = calloc((size_t)t * (size_t)u->comm->parts, sizeof *r->obox))) return -1;
    }
    for (int i = 0; i < t; i++)
        if (!(r->scratch[i] = malloc((size_t)2 * RETRO_GROUP * RETRO_MAX_MOVES * sizeof **r->scratch))) return -1;
    if (!u->comm && (r->bshift = retro_bucket_shift(u->n, u->bucket_bits))) {
        r->nbk = (u->n >> r->bshift) + 1;
        if (!(r->bw = calloc((size_t)t * r->nbk, sizeof *r->bw))) return -1;
    }
    return 0;
}

/* --- the passes between phases, on the unit's threads too --- */

static int retro_decisive(const retro_node_t *x) { return x->ex != EX_NONE && x->ex != EX_DRAW; }

static void retro_count_exits(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    retro_job_t *j = ctx;
    uint64_t *h = j->off + a / RETRO_SORT_CHUNK * (uint64_t)j->nd;
    for (uint64_t i = a; i < b; i++)
        if (retro_decisive(&j->r->node[i])) h[ex_dist(j->r->node[i].ex)]++;
}

static void retro_place_exits(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    retro_job_t *j = ctx;
    uint64_t *at = j->off + a / RETRO_SORT_CHUNK * (uint64_t)j->nd;
    for (uint64_t i = a; i < b; i++)
        if (retro_decisive(&j->r->node[i])) j->bnode[at[ex_dist(j->r->node[i].ex)]++] = (uint32_t)i;
}

void retro_copy_vals(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    retro_job_t *j = ctx;
    for (uint64_t i = a; i < b; i++) j->val[i] = j->r->node[i].val;
}

/* The decisive exits by distance (a counting sort, each distance in index
 * order), so each level visits only its own: *bstart (maxex + 2 entries)
 * and *bnode. Counted and placed chunk by chunk on the unit's threads. */
static int retro_sort_exits(retro_run_t *r, uint64_t **bstart, uint32_t **bnode, uint64_t *nb)
{
    uint64_t n = r->nloc, nch = n / RETRO_SORT_CHUNK + 1;
    retro_job_t j = { r, NULL, NULL, r->maxex + 1, NULL };
    *bstart = calloc((size_t)r->maxex + 2, sizeof **bstart);
    j.off = calloc(nch * (uint64_t)j.nd, sizeof *j.off);
    if (!*bstart || !j.off) goto oom;
    gsw_pfor(r->u->threads, n, RETRO_SORT_CHUNK, retro_count_exits, &j);
    for (uint64_t k = 0; k < nch; k++)
        for (int d = 0; d < j.nd; d++) (*bstart)[d + 1] += j.off[k * j.nd + d];
    for (int d = 0; d <= r->maxex; d++) (*bstart)[d + 1] += (*bstart)[d];
    *nb = (*bstart)[r->maxex + 1];
    for (int d = 0; d < j.nd; d++)
        for (uint64_t k = 0, at = (*bstart)[d]; k < nch; k++) {
            uint64_t c = j.off[k * j.nd + d];
            j.off[k * j.nd + d] = at;
            at += c;
        }
    if (!(*bnode = j.bnode = malloc((*nb ? *nb : 1) * sizeof **bnode))) goto oom;
    gsw_pfor(r->u->threads, n, RETRO_SORT_CHUNK, retro_place_exits, &j);
    free(j.off);
    return 0;
oom:
    free(j.off);
    err_set(&r->err, GSW_EFAIL, "retro: out of memory for a unit of %llu positions", (unsigned long long)n);
    return -1;
}

int retro_solve(const retro_unit_t *u, retro_val_t *val, err_t *err)
{
    retro_run_t r;
    if (u->stats) memset(u->stats, 0, sizeof *u->stats);
    const retro_comm_t *cm = u->comm;
    if (cm) {   /* the parts must cover the unit, in order */
        int ok = cm->parts >= 1 && cm->me >= 0 && cm->me < cm->parts && cm->lo && cm->lo[0] == 0 &&
                 cm->lo[cm->parts] == u->n && cm->exchange && cm->max;
        for (int p = 0; ok && p < cm->parts; p++) ok = cm->lo[p] <= cm->lo[p + 1];
        if (!ok) return err_set(err, GSW_EFAIL, "retro: the parts of a divided unit do not cover it");
    }
    if (retro_run_init(&r, u)) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: out of memory");
    }
    /* (the frontier holds this part's nodes in 32 bits; the kept lists hold
       nodes of the unit in 32 bits, so past 2^32 nodes none are kept) */
    uint64_t most = r.nloc;   /* (every part decides alike, by the largest part) */
    for (int p = 0; cm && p < cm->parts; p++)
        if (cm->lo[p + 1] - cm->lo[p] > most) most = cm->lo[p + 1] - cm->lo[p];
    if (most >= UINT32_MAX) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: a unit of %llu positions is more than one build can hold%s",
                       (unsigned long long)u->n, cm ? " (divide it between more ranks)" : " (divide it between ranks)");
    }
    r.node = malloc((r.nloc ? r.nloc : 1) * sizeof *r.node);
    retro_huge(r.node, r.nloc * sizeof *r.node);
    if (u->keep_bytes && u->n < UINT32_MAX)
        r.kept = calloc(r.nloc / RETRO_CHUNK + 1, sizeof *r.kept);   /* NULL: nothing kept */
    if (retro_tiles_init(&r)) retro_tiles_free(&r);   /* (out of memory: checked in index order) */
    uint64_t *bstart = NULL;
    uint32_t *bnode = NULL, *cur = NULL;
    int rc = 0;
    if (!r.node && !cm) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: out of memory for a unit of %llu positions", (unsigned long long)u->n);
    }
    double dummy = 0, *t_init = u->stats ? &u->stats->init_ms : &dummy,
           *t_prop = u->stats ? &u->stats->propagate_ms : &dummy, *t_check = u->stats ? &u->stats->check_ms : &dummy;
    if (!r.node) {   /* (divided: the others must hear of it) */
        err_set(&r.err, GSW_EFAIL, "retro: out of memory for %llu positions", (unsigned long long)r.nloc);
        r.failed = 1;
        rc = -1;
    }
    if (!rc) rc = retro_phase(&r, 0, r.nloc, t_init);
    /* the decisive exits by distance (a counting sort), so each level
       visits only its own */
    uint64_t nb = 0;
    if (!rc) rc = retro_sort_exits(&r, &bstart, &bnode, &nb);
    r.maxex_all = r.maxex;
    if (cm) {   /* every part learns the longest exit, or that one failed */
        int64_t x[2] = { 0, r.maxex };
        if (rc) r.failed = 1;
        rc = retro_meet(&r, x, 2) ? -1 : 0;
        r.maxex_all = (int)x[1];
    }
    uint64_t ncur = 0, capcur = 0, solved = 0;
    for (r.d = 0; !rc; r.d++) {
        if (r.d > RETRO_MAX_DIST - 2) {
            err_set(&r.err, GSW_EFAIL, "retro: distances beyond %d plies", RETRO_MAX_DIST);
            rc = -1;
            break;
        }
        /* the frontier: what the last level resolved, then the exits due
           now (a winning exit of this distance, or a losing one once every
           move inside the unit is known to lose) */
        uint64_t want = ncur;
        for (int t = 0; t < 256; t++) want += r.tn[t];
        if (r.d <= r.maxex) want += bstart[r.d + 1] - bstart[r.d];
        if (want > capcur) {
            uint32_t *a = realloc(cur, (want ? want : 1) * sizeof *a);
            if (!a) {
                err_set(&r.err, GSW_EFAIL, "retro: out of memory for the frontier");
                if (!cm) { rc = -1; break; }
                r.failed = 1;   /* (told at the next meeting) */
                want = 0;
            } else {
                cur = a;
                capcur = want;
            }
        }
        ncur = 0;
        for (int t = 0; t < 256 && !r.failed; t++) {
            if (r.tn[t]) memcpy(cur + ncur, r.tnext[t], r.tn[t] * sizeof *cur);
            ncur += r.tn[t];
            r.tn[t] = 0;
        }
        if (r.d <= r.maxex && !r.failed)
            for (uint64_t k = bstart[r.d]; k < bstart[r.d + 1]; k++) {
                retro_node_t *x = &r.node[bnode[k]];
                if (x->val != RETRO_UNKNOWN) continue;
                if (retro_is_win((retro_val_t)x->ex) || x->cnt == 0) {
                    x->val = x->ex;
                    cur[ncur++] = bnode[k];
                }
            }
        if (cm) {   /* in rounds, every part as many, each ending in an exchange */
            uint64_t R = retro_round(u);
            int64_t x[2] = { 0, (int64_t)((ncur + R - 1) / R) };
            if (retro_meet(&r, x, 2)) { rc = -1; break; }
            if (!x[1] && r.d >= r.maxex_all) break;
            double t0 = retro_ms(), tp = 0;   /* (the rounds' time with their exchanges) */
            for (int64_t q = 0; q < x[1] && !rc; q++) {
                uint64_t a = (uint64_t)q * R, b = a + R < ncur ? a + R : ncur;
                r.items = cur && a < b ? cur + a : cur;
                if (!r.failed) retro_phase(&r, 2, a < b ? b - a : 0, &tp);   /* (a failure is told in the swap) */
                if (retro_round_swap(&r)) rc = -1;
            }
            *t_prop += retro_ms() - t0;
            if (rc) break;
        } else if (r.bw) {   /* in rounds: gathered into buckets, then settled bucket by bucket */
            if (!ncur && r.d >= r.maxex) break;
            uint64_t R = retro_round(u);
            for (uint64_t a = 0; a < ncur && !rc; a += R) {
                r.items = cur + a;
                r.gathered = 0;
                rc = retro_phase(&r, 2, a + R < ncur ? R : ncur - a, t_prop);
                if (!rc) rc = retro_phase(&r, 5, r.nbk, t_prop);
            }
            if (rc) break;
        } else {
            if (!ncur && r.d >= r.maxex) break;
            r.items = cur;
            if ((rc = retro_phase(&r, 2, ncur, t_prop))) break;
        }
        solved += ncur;
        if (u->stats) u->stats->levels = r.d + 1;
        if (u->progress) u->progress(u->ctx, "propagate", solved, r.nloc);
    }
    free(bstart);
    free(bnode);
    free(cur);
    if (u->stats) {
        u->stats->edges = r.edges;
        u->stats->kept_bytes = r.kept_bytes;
    }
    if (!rc && !cm) {   /* the values first: the check reads them there, two bytes a node, not six */
        double t0 = retro_ms();
        retro_job_t job = { &r, NULL, NULL, 0, val };
        gsw_pfor(u->threads, r.nloc, RETRO_SORT_CHUNK, retro_copy_vals, &job);
        *t_check += retro_ms() - t0;
        r.all = val;
        rc = r.span ? retro_phase(&r, 6, r.units, t_check) : retro_phase(&r, 4, r.nloc, t_check);
        r.all = NULL;
    } else if (!rc) {
        if (u->n * sizeof(retro_val_t) <= cm->replicate) {
            double t0 = retro_ms(), t = 0;
            rc = retro_check_replicated(&r, &t);
            *t_check += retro_ms() - t0;
        } else rc = retro_check_parts(&r, t_check);
    }
    if (rc) {
        *err = r.err;
        retro_run_free(&r);
        return err->code ? err->code : GSW_EFAIL;
    }
    if (cm) {
        retro_job_t job = { &r, NULL, NULL, 0, val };
        gsw_pfor(u->threads, r.nloc, RETRO_SORT_CHUNK, retro_copy_vals, &job);
    }
    retro_run_free(&r);
    return GSW_OK;
}

int retro_check(const retro_unit_t *u, const retro_val_t *val, err_t *err)
{
    retro_run_t r;
    if (retro_run_init(&r, u)) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: out of memory");
    }
    r.val = val;
    int rc = retro_phase(&r, 3, u->n, NULL);
    retro_run_free(&r);
    if (rc) {
        *err = r.err;
        return err->code ? err->code : GSW_EFAIL;
    }
    return GSW_OK;
}

void retro_stats_add(retro_stats_t *t, const retro_stats_t *s)
{
    t->init_ms += s->init_ms;
    t->propagate_ms += s->propagate_ms;
    t->check_ms += s->check_ms;
    if (s->levels > t->levels) t->levels = s->levels;
    t->edges += s->edges;
    if (s->kept_bytes > t->kept_bytes) t->kept_bytes = s->kept_bytes;
    if (s->threads > t->threads) t->threads = s->threads;
    for (int i = 0; i < RETRO_STATS_THREADS; i++) {
        t->items[i] += s->items[i];
        t->busy_ms[i] += s->busy_ms[i];
        t->wait_ms[i] += s->wait_ms[i];
    }
}

void retro_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t page = 4096, huge = (uintptr_t)2 << 20;
    if (!p || bytes < 2 * huge) return;
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), b = ((uintptr_t)p + bytes) & ~(page - 1);
    if (b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

int retro_unique(uint64_t *list, const uint8_t *image, int n)
{
    /* two entries that are no image are two positions: only an image can
       repeat another entry, so each is compared with the images kept, and
       an image with everything kept */
    uint64_t seen[RETRO_MAX_MOVES];
    int k = 0, ns = 0;
    for (int i = 0; i < n; i++) {
        uint64_t x = list[i];
        int dup = 0;
        if (image[i])
            for (int j = 0; j < k && !dup; j++) dup = list[j] == x;
        else
            for (int j = 0; j < ns && !dup; j++) dup = seen[j] == x;
        if (dup) continue;
        if (image[i] && ns < RETRO_MAX_MOVES) seen[ns++] = x;
        list[k++] = x;
    }
    return k;
}
