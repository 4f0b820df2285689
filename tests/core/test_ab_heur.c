/* The heuristic alpha-beta (ab_think) on a synthetic game defined here: a
 * take-away game on random trees. A position is the set of items taken so
 * far (and the side to move); which items may be taken, which takes are
 * "captures" (tactical), which positions are in check or mated, and the
 * evaluation are pseudo-random functions of the set and a per-tree seed.
 * Transpositions are everywhere but only at the same ply, so the table's
 * bounds from one iteration always come from the same remaining depth: the
 * search with its table, quiescence and check extensions must give exactly
 * the value a brute-force minimax with the same rules gives. With pruning
 * on, a mate it claims must be a real one (checked by the exact solver),
 * and heuristic entries must never change an exact search of the same
 * table. The game is not a registered plugin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/tt.h"

/* the variant's hooks */
/* T_CALM: no position is mated (only a full set ends the game) */
/* T_CLASS: ab_move_class (the item taken) */
/* T_EKEY: ab_eval_keys (which of the first four items are taken; the count taken) */
/* T_GAIN: ab_gain (a take's most, 0-59); T_GAIN_BIG: ab_gain, each 10,000 (never prunes) */
enum { T_TACT = 1, T_CHECK = 2, T_NULL = 4, T_QUIET = 8, T_NONULL = 16, T_CALM = 32, T_CLASS = 64, T_EKEY = 128,
       T_GAIN = 256, T_GAIN_BIG = 512 };
typedef struct tree { uint64_t seed; int items; int flags; } tree_t;
typedef struct tpos { uint32_t mask, turn; } tpos_t;

static const tree_t *T(const gv_t *v) { return v->data; }
static uint64_t mix(uint64_t x)
{
    x ^= x >> 31; x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27; x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}
static uint64_t hmask(const tree_t *t, uint32_t mask) { return mix(t->seed ^ (mask + 1) * 0x9E3779B97F4A7C15ull); }
static uint64_t hitem(const tree_t *t, uint32_t mask, int i, uint64_t k) { return mix(hmask(t, mask) ^ (uint64_t)(i + 1) * k); }
static int full(const tree_t *t, uint32_t mask) { return mask == (1u << t->items) - 1; }
static int mated(const tree_t *t, uint32_t mask) { return mask && !(t->flags & T_CALM) && (hmask(t, mask) >> 8) % 11 == 0; }
static int tactical(const tree_t *t, uint32_t mask, int i) { return hitem(t, mask, i, 0xC2B2AE3D27D4EB4Full) % 3 == 0; }
static int in_check(const tree_t *t, uint32_t mask) { return mated(t, mask) || (hmask(t, mask) >> 40) % 5 == 0; }
static int quiet(const tree_t *t, uint32_t mask) { return (hmask(t, mask) >> 33) % 3 != 0; }
static int32_t eval0(const tree_t *t, uint32_t mask) { return (int32_t)((hmask(t, mask) >> 20) % 201) - 100; }

static void t_start(const gv_t *v, void *p) { (void)v; memset(p, 0, sizeof(tpos_t)); }
static uint64_t t_hash(const gv_t *v, const void *p)
{
    const tpos_t *q = p;
    return mix(T(v)->seed * 3 + ((uint64_t)q->mask << 1 | q->turn));
}
static int t_turn(const gv_t *v, const void *p) { (void)v; return (int)((const tpos_t *)p)->turn; }
static int t_ply(const gv_t *v, const void *p) { (void)v; return __builtin_popcount(((const tpos_t *)p)->mask); }
static int t_moves(const gv_t *v, const void *p, move_t *out)
{
    const tree_t *t = T(v);
    uint32_t m = ((const tpos_t *)p)->mask;
    if (mated(t, m)) return 0;
    int n = 0;
    for (int i = 0; i < t->items; i++)
        if (!(m >> i & 1) && hitem(t, m, i, 0x165667B19E3779F9ull) % 4 != 0) out[n++] = (move_t)i;
    return n;
}
static void t_play(const gv_t *v, void *p, move_t m)
{
    (void)v;
    tpos_t *q = p;
    q->mask |= 1u << m;
    q->turn ^= 1;
}
/* t_terminal's calls (the search makes one per node it does not cut at
 * entry): by this thread, by every thread */
static _Thread_local uint64_t calls_here;
static uint64_t calls_all;
static int t_terminal(const gv_t *v, const void *p, val_t *value)
{
    move_t mv[GSW_MAX_MOVES];
    calls_here++;
    __atomic_fetch_add(&calls_all, 1, __ATOMIC_RELAXED);
    if (t_moves(v, p, mv)) return 0;
    *value = full(T(v), ((const tpos_t *)p)->mask) ? VAL_DRAW : val_loss(0);
    return 1;
}
static _Thread_local uint64_t evals;   /* t_eval's calls by this thread */
static int32_t t_eval(const gv_t *v, const void *p)
{
    const tpos_t *q = p;
    evals++;
    int32_t e = eval0(T(v), q->mask);
    return q->turn ? -e : e;
}
/* tactical moves first, by a score of their own, best first */
static int t_tactical(const gv_t *v, const void *p, move_t *mv, int n)
{
    const tree_t *t = T(v);
    uint32_t m = ((const tpos_t *)p)->mask;
    move_t tac[GSW_MAX_MOVES], rest[GSW_MAX_MOVES];
    uint64_t sc[GSW_MAX_MOVES];
    int nt = 0, nr = 0;
    for (int i = 0; i < n; i++) {
        if (!tactical(t, m, (int)mv[i])) { rest[nr++] = mv[i]; continue; }
        uint64_t x = hitem(t, m, (int)mv[i], 0x27D4EB2F165667C5ull);
        int j = nt++;
        for (; j > 0 && sc[j - 1] < x; j--) { sc[j] = sc[j - 1]; tac[j] = tac[j - 1]; }
        sc[j] = x;
        tac[j] = mv[i];
    }
    memcpy(mv, tac, (size_t)nt * sizeof *mv);
    memcpy(mv + nt, rest, (size_t)nr * sizeof *mv);
    return nt;
}
static int t_in_check(const gv_t *v, const void *p) { return in_check(T(v), ((const tpos_t *)p)->mask); }
static int t_quiet(const gv_t *v, const void *p) { return quiet(T(v), ((const tpos_t *)p)->mask); }
static int t_null(const gv_t *v, void *p)
{
    tpos_t *q = p;
    if (T(v)->flags & T_NONULL) return 0;
    q->turn ^= 1;
    return 1;
}

static int t_class(const gv_t *v, const void *p, move_t m)
{
    (void)v;
    (void)p;
    return (int)m;
}

static int t_ekey(const gv_t *v, const void *p, uint64_t *key)
{
    (void)v;
    const tpos_t *q = p;
    key[0] = (q->mask & 15) << 1 | q->turn;
    key[1] = (uint64_t)__builtin_popcount(q->mask) << 1 | q->turn;
    return 2;
}

static int32_t t_gain(const gv_t *v, const void *p, move_t m)
{
    const tree_t *t = T(v);
    if (t->flags & T_GAIN_BIG) return 10000;
    return (int32_t)(hitem(t, ((const tpos_t *)p)->mask, (int)m, 0x94D049BB133111EBull) % 60);
}

static const game_t t_game = { .name = "takeaway", .title = "Take-away", .players = 2, .default_variant = "" };

typedef struct variant { tree_t tree; game_ops_t ops; gv_t gv; } variant_t;

static void variant_make(variant_t *w, uint64_t seed, int items, int flags)
{
    memset(w, 0, sizeof *w);
    w->tree = (tree_t){ .seed = seed, .items = items, .flags = flags };
    w->ops = (game_ops_t){ .pos_size = sizeof(tpos_t), .pos_start = t_start, .pos_hash = t_hash, .pos_turn = t_turn,
                           .pos_ply = t_ply, .moves = t_moves, .play = t_play, .terminal = t_terminal,
                           .evaluate = t_eval, .nsym = 1 };
    if (flags & T_TACT) w->ops.ab_tactical = t_tactical;
    if (flags & T_CHECK) w->ops.pos_in_check = t_in_check;
    if (flags & (T_NULL | T_NONULL)) w->ops.play_null = t_null;
    if (flags & T_QUIET) w->ops.pos_quiet = t_quiet;
    if (flags & T_CLASS) w->ops.ab_move_class = t_class;
    if (flags & T_EKEY) w->ops.ab_eval_keys = t_ekey;
    if (flags & (T_GAIN | T_GAIN_BIG)) w->ops.ab_gain = t_gain;
    w->gv = (gv_t){ .game = &t_game, .ops = &w->ops, .data = &w->tree };
    snprintf(w->gv.name, sizeof w->gv.name, "%d", items);
}

/* ---- the reference: brute-force minimax with the search's rules ---- */

#define QMAX 32   /* core/ab.c's AB_QUIESCE */
static uint64_t ref_nodes;

/* standpat = 0: quiescence without standing pat (to show that it matters) */
static int32_t ref(const gv_t *v, const tpos_t *p, int depth, int ply, int rootd, int standpat)
{
    const tree_t *t = T(v);
    ref_nodes++;
    val_t tv;
    if (t_terminal(v, p, &tv)) return tv;
    move_t mv[GSW_MAX_MOVES];
    int n = t_moves(v, p, mv);
    int32_t best = -VAL_INF;
    if (t->flags & T_TACT) {
        if (depth <= -QMAX) return t_eval(v, p);
        int chk = (t->flags & T_CHECK) && in_check(t, p->mask);
        if (chk && depth > 0 && ply < 2 * rootd) depth++;
        if (depth <= 0 && !chk) {
            if (standpat) best = t_eval(v, p);
            n = t_tactical(v, p, mv, n);
            if (!standpat && !n) return t_eval(v, p);
        }
    } else if (depth <= 0 && (depth <= -QMAX || !(t->flags & T_QUIET) || quiet(t, p->mask))) {
        return t_eval(v, p);
    }
    for (int i = 0; i < n; i++) {
        tpos_t c = *p;
        t_play(v, &c, mv[i]);
        int32_t sc = val_up(ref(v, &c, depth - 1, ply + 1, rootd, standpat));
        if (sc > best) best = sc;
    }
    return best;
}

/* as ab_think iterates: depths 1..maxd, stopping at a proven value */
static int32_t ref_think(const gv_t *v, const tpos_t *p, int maxd, int standpat)
{
    int32_t sc = 0;
    for (int d = 1; d <= maxd; d++) {
        sc = ref(v, p, d, 0, d, standpat);
        if (val_is_proven_decisive(sc)) break;
    }
    return sc;
}

static tt_t tt;

static ab_result_t think(const gv_t *v, const tpos_t *p, int depth, int no_prune, int no_tt_cuts)
{
    ab_options_t o = { .threads = 1, .depth_limit = depth, .no_prune = no_prune, .no_tt_cuts = no_tt_cuts };
    ab_result_t r;
    err_t err;
    tt_clear(&tt);
    assert_int_equal(ab_think(v, &tt, p, &o, &r, &err), GSW_OK);
    assert_false(r.aborted);
    return r;
}

/* A random non-terminal root: a few items taken. */
static int root_of(const gv_t *v, uint64_t seed, tpos_t *p)
{
    uint64_t x = seed;
    for (int tries = 0; tries < 50; tries++) {
        *p = (tpos_t){ 0, 0 };
        for (int k = 0; k < 2; k++) {
            move_t mv[GSW_MAX_MOVES];
            int n = t_moves(v, p, mv);
            if (!n) break;
            x = mix(x + 1);
            t_play(v, p, mv[x % (uint64_t)n]);
        }
        val_t tv;
        if (!t_terminal(v, p, &tv)) return 1;
    }
    return 0;
}

/* Plain alpha-beta (no pruning, no table cut-offs) equals brute-force
 * minimax, for every set of hooks: quiescence with stand-pat over the
 * tactical moves, with check extensions and evasions, the pos_quiet rule,
 * no quiescence at all. And stand-pat changes the value of some trees. */
static void test_plain_equals_minimax(void **st)
{
    (void)st;
    static const int flags[] = { T_TACT, T_TACT | T_CHECK, T_QUIET, 0, T_TACT | T_CHECK | T_CLASS };
    int standpat_matters = 0, quiescence_matters = 0, checked = 0;
    for (int f = 0; f < 5; f++)
        for (int tree = 0; tree < 25; tree++) {
            variant_t w;
            variant_make(&w, 1000 + (uint64_t)tree, 10, flags[f]);
            tpos_t p;
            if (!root_of(&w.gv, (uint64_t)tree * 77, &p)) continue;
            for (int d = 1; d <= 4; d++) {
                int32_t want = ref_think(&w.gv, &p, d, 1);
                ab_result_t r = think(&w.gv, &p, d, 1, 1);
                if (r.score != want) fail_msg("flags %d tree %d depth %d: %d, minimax %d", flags[f], tree, d, r.score, want);
                assert_true(r.best != MOVE_NONE);
                checked++;
                if (flags[f] == T_TACT) {
                    standpat_matters += ref_think(&w.gv, &p, d, 0) != want;
                    variant_t plain;
                    variant_make(&plain, w.tree.seed, 10, 0);
                    quiescence_matters += ref_think(&plain.gv, &p, d, 1) != want;
                }
            }
        }
    assert_true(checked > 300);
    assert_true(standpat_matters > 5);
    assert_true(quiescence_matters > 5);
}

/* With the table's bounds the scores stay the minimax values (the tree's
 * transpositions meet at equal depth), and the cut-offs save nodes. */
static void test_tt_cutoffs(void **st)
{
    (void)st;
    static const int flags[] = { T_TACT, T_QUIET, 0 };
    uint64_t with = 0, without = 0;
    int hits = 0;
    for (int f = 0; f < 3; f++)
        for (int tree = 0; tree < 25; tree++) {
            variant_t w;
            variant_make(&w, 5000 + (uint64_t)tree, 11, flags[f]);
            tpos_t p;
            if (!root_of(&w.gv, (uint64_t)tree * 31, &p)) continue;
            for (int d = 2; d <= 5; d++) {
                int32_t want = ref_think(&w.gv, &p, d, 1);
                ab_result_t a = think(&w.gv, &p, d, 1, 0);
                ab_result_t b = think(&w.gv, &p, d, 1, 1);
                if (a.score != want) fail_msg("flags %d tree %d depth %d: %d, minimax %d", flags[f], tree, d, a.score, want);
                assert_int_equal(b.score, want);
                with += a.nodes;
                without += b.nodes;
                hits += a.nodes < b.nodes;
            }
        }
    printf("table cut-offs: %llu nodes, without %llu\n", (unsigned long long)with, (unsigned long long)without);
    assert_true(with < without * 9 / 10);
    assert_true(hits > 20);
}

/* Mates: forced wins and losses come out as proven values with their
 * distance (plain search: exactly minimax's); with null moves and
 * reductions on, a proven value is still a real one (the exact solver
 * agrees: a win at least that fast, a loss at least that fast). */
static void test_mate_scores(void **st)
{
    (void)st;
    int proven_plain = 0, proven_pruned = 0, wins = 0, losses = 0;
    for (int tree = 0; tree < 60; tree++) {
        variant_t w;
        variant_make(&w, 9000 + (uint64_t)tree, 10, T_TACT | T_CHECK | T_NULL);
        tpos_t p;
        if (!root_of(&w.gv, (uint64_t)tree * 13, &p)) continue;
        ab_options_t so = { .threads = 1, .no_best = 1 };
        ab_result_t ex;
        err_t err;
        tt_clear(&tt);
        assert_int_equal(ab_solve(&w.gv, &tt, &p, &so, &ex, &err), GSW_OK);
        assert_int_equal(ex.lo, ex.hi);
        ab_result_t a = think(&w.gv, &p, 6, 1, 1);
        int32_t want = ref_think(&w.gv, &p, 6, 1);
        assert_int_equal(a.score, want);
        assert_int_equal(a.proven, val_is_proven_decisive(want));
        if (a.proven) {
            proven_plain++;
            wins += val_is_win(a.score);
            losses += val_is_loss(a.score);
            if (val_is_win(a.score)) assert_true(ex.lo >= a.score);
            else assert_true(ex.lo <= a.score);
        }
        ab_result_t b = think(&w.gv, &p, 8, 0, 0);
        if (b.proven) {
            proven_pruned++;
            if (val_is_win(b.score)) assert_true(ex.lo >= b.score);
            else assert_true(ex.lo <= b.score);
            /* the move it plays keeps the win */
            if (val_is_win(b.score)) {
                tpos_t c = p;
                t_play(&w.gv, &c, b.best);
                ab_result_t cr;
                tt_clear(&tt);
                assert_int_equal(ab_solve(&w.gv, &tt, &c, &so, &cr, &err), GSW_OK);
                assert_true(val_is_loss(cr.lo) && cr.lo == cr.hi);
            }
        }
    }
    printf("mates: %d proven by the plain search (%d wins, %d losses), %d with pruning\n", proven_plain, wins, losses,
           proven_pruned);
    assert_true(wins > 2 && losses > 2);
    assert_true(proven_pruned > 4);
}

/* Heuristic entries never reach an exact search of the same table: a solve
 * after a heuristic search of the same tree gives the same value and the
 * same best move as on a clear table. */
static void test_exact_unaffected(void **st)
{
    (void)st;
    int found = 0;
    for (int tree = 0; tree < 30; tree++) {
        variant_t w;
        variant_make(&w, 700 + (uint64_t)tree, 11, T_TACT | T_CHECK | T_NULL);
        tpos_t p;
        if (!root_of(&w.gv, (uint64_t)tree * 5, &p)) continue;
        ab_options_t so = { .threads = 1 };
        ab_options_t ho = { .threads = 1, .depth_limit = 7 };
        ab_result_t clean, after, h, h2;
        err_t err;
        tt_clear(&tt);
        assert_int_equal(ab_solve(&w.gv, &tt, &p, &so, &clean, &err), GSW_OK);
        tt_clear(&tt);
        assert_int_equal(ab_think(&w.gv, &tt, &p, &ho, &h, &err), GSW_OK);
        tt_hit_t hit;
        found += tt_probe(&tt, tt_heur_key(t_hash(&w.gv, &p)), &hit);
        assert_int_equal(ab_solve(&w.gv, &tt, &p, &so, &after, &err), GSW_OK);
        assert_int_equal(after.lo, clean.lo);
        assert_int_equal(after.hi, clean.hi);
        assert_int_equal(after.best, clean.best);
        /* and the other way round: exact entries never reach a heuristic search */
        tt_clear(&tt);
        assert_int_equal(ab_solve(&w.gv, &tt, &p, &so, &after, &err), GSW_OK);
        assert_int_equal(ab_think(&w.gv, &tt, &p, &ho, &h2, &err), GSW_OK);
        assert_int_equal(h2.score, h.score);
        assert_int_equal(h2.nodes, h.nodes);
        assert_int_equal(h2.best, h.best);
    }
    assert_true(found > 20);   /* the heuristic entries were there */
}

typedef struct iters { int n, depth[80]; int32_t score[80]; move_t best[80]; uint64_t nodes[80]; } iters_t;
static void on_iter(void *ctx, const ab_result_t *r)
{
    iters_t *it = ctx;
    if (it->n >= 80) return;
    it->depth[it->n] = r->depth;
    it->score[it->n] = r->score;
    it->best[it->n] = r->best;
    it->nodes[it->n] = r->nodes;
    assert_true(r->pvlen >= 1 && r->pv[0] == r->best);
    it->n++;
}

static int legal(const gv_t *v, const tpos_t *p, move_t m)
{
    move_t mv[GSW_MAX_MOVES];
    int n = t_moves(v, p, mv);
    for (int i = 0; i < n; i++) if (mv[i] == m) return 1;
    return 0;
}

/* The iteration callback reports every completed depth; a node limit stops
 * the search close to it with the move last reported; a stop before the
 * first iteration still gives a legal move. */
static void test_iterations_and_limits(void **st)
{
    (void)st;
    variant_t w;
    variant_make(&w, 4242, 24, T_TACT | T_NULL | T_CALM);
    tpos_t p;
    assert_true(root_of(&w.gv, 9, &p));
    iters_t it = { 0 };
    ab_options_t o = { .threads = 1, .depth_limit = 6, .on_iter = on_iter, .on_iter_ctx = &it };
    ab_result_t r;
    err_t err;
    tt_clear(&tt);
    assert_int_equal(ab_think(&w.gv, &tt, &p, &o, &r, &err), GSW_OK);
    assert_int_equal(it.n, r.depth);
    for (int i = 0; i < it.n; i++) {
        assert_int_equal(it.depth[i], i + 1);
        if (i) assert_true(it.nodes[i] >= it.nodes[i - 1]);
    }
    assert_int_equal(it.score[it.n - 1], r.score);
    assert_int_equal(it.best[it.n - 1], r.best);

    for (uint64_t limit = 30000; limit <= 3000000; limit *= 10) {
        iters_t li = { 0 };
        ab_options_t lo = { .threads = 1, .node_limit = limit, .on_iter = on_iter, .on_iter_ctx = &li };
        tt_clear(&tt);
        assert_int_equal(ab_think(&w.gv, &tt, &p, &lo, &r, &err), GSW_OK);
        assert_true(r.aborted);
        assert_true(r.nodes >= limit && r.nodes <= limit + 1024);
        assert_true(li.n >= 1);
        assert_int_equal(r.depth, li.depth[li.n - 1]);
        assert_int_equal(r.best, li.best[li.n - 1]);
        assert_int_equal(r.score, li.score[li.n - 1]);
        assert_true(legal(&w.gv, &p, r.best));
    }

    gsw_flag_t stop = 1;
    ab_options_t so = { .threads = 1, .stop = &stop };
    tt_clear(&tt);
    assert_int_equal(ab_think(&w.gv, &tt, &p, &so, &r, &err), GSW_OK);
    assert_true(legal(&w.gv, &p, r.best));
}

/* A depth the node limit cut short still counts where it settled a root
 * move: the engine reports it at the last depth finished (a second report
 * of that depth) and plays it. In plain alpha-beta (no pruning, no table
 * cut-offs, a full window) that move's score is its exact minimax value one
 * ply deeper, and it is at least the value there of the last depth's move
 * (searched first, so finished before any other). */
static void test_unfinished_depth(void **st)
{
    (void)st;
    int partial = 0, changed = 0;
    for (int tree = 0; tree < 40; tree++) {
        variant_t w;
        variant_make(&w, 5000 + (uint64_t)tree, 14, T_TACT);
        tpos_t p;
        if (!root_of(&w.gv, (uint64_t)tree * 31, &p)) continue;
        for (uint64_t limit = 3000; limit <= 200000; limit = limit * 5 / 2) {
            iters_t li = { 0 };
            ab_options_t o = { .threads = 1, .node_limit = limit, .no_prune = 1, .no_tt_cuts = 1, .on_iter = on_iter,
                               .on_iter_ctx = &li };
            ab_result_t r;
            err_t err;
            tt_clear(&tt);
            assert_int_equal(ab_think(&w.gv, &tt, &p, &o, &r, &err), GSW_OK);
            if (!r.aborted) break;
            assert_true(li.n >= 1);
            assert_int_equal(r.best, li.best[li.n - 1]);
            assert_int_equal(r.score, li.score[li.n - 1]);
            assert_int_equal(r.depth, li.depth[li.n - 1]);
            if (li.n < 2 || li.depth[li.n - 2] != li.depth[li.n - 1]) continue;
            partial++;
            const int d = r.depth + 1;   /* the depth cut short */
            move_t mv[GSW_MAX_MOVES];
            int n = t_moves(&w.gv, &p, mv);
            int32_t vbest = -VAL_INF, vprev = -VAL_INF;
            for (int i = 0; i < n; i++) {
                tpos_t c = p;
                t_play(&w.gv, &c, mv[i]);
                int32_t x = val_up(ref(&w.gv, &c, d - 1, 1, d, 1));
                if (mv[i] == r.best) vbest = x;
                if (mv[i] == li.best[li.n - 2]) vprev = x;
            }
            if (r.score != vbest) fail_msg("tree %d limit %llu: depth %d's move scores %d, minimax %d", tree,
                                           (unsigned long long)limit, d, r.score, vbest);
            assert_true(vbest >= vprev);
            changed += r.best != li.best[li.n - 2];
        }
    }
    print_message("unfinished depths: %d, a move changed in %d\n", partial, changed);
    assert_true(partial > 20);
    assert_true(changed > 3);
}

/* Late-move reductions cut the tree and null moves take part; a game whose
 * play_null refuses every pass searches exactly as one without the hook. */
static void test_pruning(void **st)
{
    (void)st;
    uint64_t pruned = 0, plain = 0, refused = 0, nohook = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t w, nn, nh;
        variant_make(&w, 300 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_NULL);
        variant_make(&nn, 300 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_NONULL);
        variant_make(&nh, 300 + (uint64_t)tree, 16, T_TACT | T_CHECK);
        tpos_t p;
        if (!root_of(&w.gv, (uint64_t)tree, &p)) continue;
        ab_result_t a = think(&w.gv, &p, 6, 0, 0), b = think(&w.gv, &p, 6, 1, 0);
        ab_result_t c = think(&nn.gv, &p, 6, 0, 0), d = think(&nh.gv, &p, 6, 0, 0);
        assert_true(legal(&w.gv, &p, a.best) && legal(&w.gv, &p, b.best));
        pruned += a.nodes;
        plain += b.nodes;
        refused += c.nodes;
        nohook += d.nodes;
        assert_int_equal(c.nodes, d.nodes);
        assert_int_equal(c.score, d.score);
    }
    printf("pruning: %llu nodes, without %llu; reductions only %llu\n", (unsigned long long)pruned,
           (unsigned long long)plain, (unsigned long long)nohook);
    assert_true(nohook < plain);       /* reductions */
    /* null moves change the search (whether they save nodes depends on the
     * evaluation: on these random trees it is noise, and they need not) */
    assert_true(pruned != nohook);
    assert_int_equal(refused, nohook);
}

/* The frontier's pruning (ab_futility) cuts the tree further: with a
 * margin beyond any evaluation's reach, futility itself cuts nothing but
 * late-move pruning and the improving rule still do (so the search is
 * not the one without the hook), and a margin the evaluations reach
 * changes the search again; no_prune turns all of it off. */
static void test_futility(void **st)
{
    (void)st;
    uint64_t with = 0, without = 0, huge = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t w, h, o;
        variant_make(&w, 500 + (uint64_t)tree, 16, T_TACT | T_CHECK);
        variant_make(&h, 500 + (uint64_t)tree, 16, T_TACT | T_CHECK);
        variant_make(&o, 500 + (uint64_t)tree, 16, T_TACT | T_CHECK);
        w.ops.ab_futility = 20;   /* evaluations span -100..100 */
        h.ops.ab_futility = 100000;
        tpos_t p;
        if (!root_of(&w.gv, (uint64_t)tree, &p)) continue;
        ab_result_t a = think(&w.gv, &p, 6, 0, 0), b = think(&o.gv, &p, 6, 0, 0), c = think(&h.gv, &p, 6, 0, 0);
        ab_result_t d = think(&w.gv, &p, 6, 1, 0), e = think(&o.gv, &p, 6, 1, 0);
        assert_true(legal(&w.gv, &p, a.best) && legal(&w.gv, &p, c.best));
        assert_int_equal(d.nodes, e.nodes);   /* no_prune: no futility either */
        assert_int_equal(d.score, e.score);
        with += a.nodes;
        without += b.nodes;
        huge += c.nodes;
    }
    printf("futility: %llu nodes, with a margin out of reach %llu, without %llu\n", (unsigned long long)with,
           (unsigned long long)huge, (unsigned long long)without);
    assert_true(with != huge);   /* the margin cuts (more or less: the histories then learn otherwise) */
    assert_true(with < without && huge < without);
}

/* The continuation history (ab_move_class) orders the quiet moves: the
 * search changes, its scores do not where nothing is pruned. */
static void test_move_class(void **st)
{
    (void)st;
    uint64_t base = 0, cls = 0;
    int differ = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t o, c;
        variant_make(&o, 700 + (uint64_t)tree, 16, T_TACT | T_CHECK);
        variant_make(&c, 700 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS);
        o.ops.ab_futility = c.ops.ab_futility = 20;
        tpos_t p;
        if (!root_of(&o.gv, (uint64_t)tree, &p)) continue;
        ab_result_t a = think(&o.gv, &p, 6, 0, 0), b = think(&c.gv, &p, 6, 0, 0);
        assert_true(legal(&o.gv, &p, b.best));
        base += a.nodes;
        cls += b.nodes;
        differ += a.nodes != b.nodes;
        ab_result_t pa = think(&o.gv, &p, 5, 1, 1), pb = think(&c.gv, &p, 5, 1, 1);
        assert_int_equal(pa.score, pb.score);   /* plain alpha-beta: the order changes no score */
    }
    printf("classes: %llu nodes, without %llu (%d trees differ)\n", (unsigned long long)cls, (unsigned long long)base,
           differ);
    assert_true(differ >= 2 && cls != base);
}

/* ab_options_t.memory: an empty one searches as none does; kept, what one
 * search learnt orders the next (another tree's search changes); cleared,
 * it is empty again. Nothing pruned, the scores stay. */
static void test_memory(void **st)
{
    (void)st;
    ab_memory_t *m = ab_memory_new();
    assert_non_null(m);
    int differ = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t c;
        variant_make(&c, 900 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS);
        c.ops.ab_futility = 20;
        tpos_t p, q;
        if (!root_of(&c.gv, (uint64_t)tree, &p) || !root_of(&c.gv, 50 + (uint64_t)tree, &q)) continue;
        err_t err;
        ab_result_t a = think(&c.gv, &p, 6, 0, 0), b, d;
        ab_options_t o = { .threads = 1, .depth_limit = 6, .memory = m };
        ab_memory_clear(m);
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &p, &o, &b, &err), GSW_OK);
        assert_int_equal(a.nodes, b.nodes);   /* empty: as without */
        assert_int_equal(a.score, b.score);
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &q, &o, &d, &err), GSW_OK);   /* learns from q */
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &p, &o, &b, &err), GSW_OK);
        assert_true(legal(&c.gv, &p, b.best));
        differ += a.nodes != b.nodes;
        ab_memory_clear(m);
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &p, &o, &b, &err), GSW_OK);
        assert_int_equal(a.nodes, b.nodes);   /* cleared: as new */
        o.no_prune = o.no_tt_cuts = 1;
        ab_result_t pa = think(&c.gv, &p, 5, 1, 1);
        o.depth_limit = 5;
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &p, &o, &b, &err), GSW_OK);   /* (the memory full of q and p) */
        assert_int_equal(pa.score, b.score);
    }
    printf("memory: %d of 12 searches changed by the one before\n", differ);
    assert_true(differ >= 2);
    ab_memory_free(m);
}

/* The correction history (ab_eval_keys) moves the evaluations the search
 * prunes by: the search changes, and what it learns is kept in the
 * memory (a second search of the same root, the memory kept, differs from
 * the first); plain alpha-beta (no pruning) does not use it. */
static void test_eval_key(void **st)
{
    (void)st;
    ab_memory_t *m = ab_memory_new();
    assert_non_null(m);
    int differ = 0, learnt = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t o, c;
        variant_make(&o, 1100 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS);
        variant_make(&c, 1100 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS | T_EKEY);
        o.ops.ab_futility = c.ops.ab_futility = 20;
        tpos_t p;
        if (!root_of(&o.gv, (uint64_t)tree, &p)) continue;
        ab_result_t a = think(&o.gv, &p, 6, 0, 0), b = think(&c.gv, &p, 6, 0, 0);
        assert_true(legal(&c.gv, &p, b.best));
        differ += a.nodes != b.nodes;
        ab_result_t pa = think(&o.gv, &p, 5, 1, 1), pb = think(&c.gv, &p, 5, 1, 1);
        assert_int_equal(pa.score, pb.score);   /* plain alpha-beta: no correction */
        assert_int_equal(pa.nodes, pb.nodes);
        /* kept in the memory: the same search again, with the histories
           cleared but the corrections of the first search kept, differs */
        err_t err;
        ab_options_t mo = { .threads = 1, .depth_limit = 6, .memory = m };
        ab_result_t r1, r2;
        ab_memory_clear(m);
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &p, &mo, &r1, &err), GSW_OK);
        assert_int_equal(r1.nodes, b.nodes);   /* an empty memory: as none */
        tt_clear(&tt);
        assert_int_equal(ab_think(&c.gv, &tt, &p, &mo, &r2, &err), GSW_OK);
        learnt += r1.nodes != r2.nodes;
    }
    printf("correction: %d of 12 searches changed by it, %d by what the one before learnt\n", differ, learnt);
    assert_true(differ >= 2 && learnt >= 2);
    ab_memory_free(m);
}

/* Delta pruning (ab_gain): it changes searches; a gain too large to ever
 * prune changes none; plain alpha-beta ignores it. */
static void test_delta(void **st)
{
    (void)st;
    int differ = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t o, g, big;
        variant_make(&o, 1300 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS);
        variant_make(&g, 1300 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS | T_GAIN);
        variant_make(&big, 1300 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS | T_GAIN_BIG);
        o.ops.ab_futility = g.ops.ab_futility = big.ops.ab_futility = 20;
        tpos_t p;
        if (!root_of(&o.gv, (uint64_t)tree, &p)) continue;
        ab_result_t a = think(&o.gv, &p, 6, 0, 0), b = think(&g.gv, &p, 6, 0, 0), c = think(&big.gv, &p, 6, 0, 0);
        assert_true(legal(&g.gv, &p, b.best));
        differ += a.nodes != b.nodes;
        assert_int_equal(a.nodes, c.nodes);
        assert_int_equal(a.score, c.score);
        ab_result_t pa = think(&o.gv, &p, 5, 1, 1), pb = think(&g.gv, &p, 5, 1, 1);
        assert_int_equal(pa.score, pb.score);
        assert_int_equal(pa.nodes, pb.nodes);
    }
    printf("delta pruning: %d of 12 searches changed by it\n", differ);
    assert_true(differ >= 2);
}

/* The evaluation cache (games with ab_futility): the same searches as
 * without it, node for node, with fewer calls of the evaluation. */
static void test_eval_cache(void **st)
{
    (void)st;
    uint64_t with = 0, without = 0;
    for (int tree = 0; tree < 12; tree++) {
        variant_t w;
        variant_make(&w, 1700 + (uint64_t)tree, 16, T_TACT | T_CHECK | T_CLASS | T_NULL);
        w.ops.ab_futility = 20;
        tpos_t p;
        if (!root_of(&w.gv, (uint64_t)tree, &p)) continue;
        ab_result_t r[2];
        uint64_t e[2];
        for (int k = 0; k < 2; k++) {
            ab_options_t o = { .threads = 1, .depth_limit = 7, .no_ecache = k };
            err_t err;
            tt_clear(&tt);
            evals = 0;
            assert_int_equal(ab_think(&w.gv, &tt, &p, &o, &r[k], &err), GSW_OK);
            e[k] = evals;
        }
        assert_int_equal(r[0].nodes, r[1].nodes);
        assert_int_equal(r[0].score, r[1].score);
        assert_int_equal(r[0].best, r[1].best);
        assert_true(e[0] <= e[1]);
        with += e[0];
        without += e[1];
    }
    printf("evaluation cache: %llu evaluations, %llu without it\n", (unsigned long long)with,
           (unsigned long long)without);
    assert_true(with < without);
}

/* ---- threads (lazy SMP) and multi-PV ---- */

typedef struct lines_seen {
    int n;
    int depth[400], multipv[400], pvlen[400];
    int32_t score[400];
    move_t best[400];
    uint64_t nodes[400];
} lines_seen_t;
static void on_line(void *ctx, const ab_result_t *r)
{
    lines_seen_t *ls = ctx;
    assert_true(ls->n < 400);
    ls->depth[ls->n] = r->depth;
    ls->multipv[ls->n] = r->multipv;
    ls->score[ls->n] = r->score;
    ls->best[ls->n] = r->best;
    ls->pvlen[ls->n] = r->pvlen;
    ls->nodes[ls->n] = r->nodes;
    assert_true(r->pvlen >= 1 && r->pv[0] == r->best);
    ls->n++;
}

/* ab_think with threads on a clear table; the nodes add up: every thread's
 * node calls t_terminal once, except the one where a helper sees the halt,
 * so r.nodes is all threads' calls (plus at most a node per helper), not
 * the calling thread's alone. Returns whether helpers searched at all. */
static int think_threads(const gv_t *v, const tpos_t *p, ab_options_t *o, ab_result_t *r)
{
    err_t err;
    lines_seen_t ls = { 0 };
    o->on_iter = on_line;
    o->on_iter_ctx = &ls;
    tt_clear(&tt);
    calls_here = 0;
    calls_all = 0;
    assert_int_equal(ab_think(v, &tt, p, o, r, &err), GSW_OK);
    assert_false(r->aborted);
    assert_true(legal(v, p, r->best));
    uint64_t all = __atomic_load_n(&calls_all, __ATOMIC_RELAXED);
    assert_true(r->nodes >= all);
    assert_true(r->nodes <= all + (uint64_t)(o->threads - 1));
    assert_true(r->nodes >= calls_here);
    assert_true(ls.n >= 1);
    for (int i = 1; i < ls.n; i++) assert_true(ls.nodes[i] >= ls.nodes[i - 1]);
    assert_true(ls.nodes[ls.n - 1] <= r->nodes);
    assert_int_equal(ls.depth[ls.n - 1], r->depth);
    assert_int_equal(ls.score[ls.n - 1], r->score);
    assert_int_equal(ls.best[ls.n - 1], r->best);
    return all > calls_here;
}

enum { PLAIN_D = 3, FULL_D = 4 };   /* test_threads' depths: searches of some 100 K nodes */

/* Lazy SMP: helpers share the table, the calling thread's search stays
 * plain alpha-beta where asked (the same score as one thread's), nodes
 * count every thread's; with pruning and cut-offs the move is legal. */
static void test_threads(void **st)
{
    (void)st;
    int helped[4] = { 0 }, runs = 0;
    uint64_t one = 0, many[4] = { 0 };
    double t_one = 0, t_many[4] = { 0 };
    for (int tree = 0; tree < 4; tree++) {
        variant_t w;
        variant_make(&w, 4242 + (uint64_t)tree, 24, T_TACT | T_NULL | T_CALM);
        tpos_t p;
        if (!root_of(&w.gv, 9 + (uint64_t)tree, &p)) continue;
        ab_options_t o1 = { .threads = 1, .depth_limit = PLAIN_D, .no_prune = 1, .no_tt_cuts = 1 };
        ab_result_t r1;
        think_threads(&w.gv, &p, &o1, &r1);
        assert_int_equal(calls_all, calls_here);
        one += r1.nodes;
        t_one += r1.time_ms;
        runs++;
        for (int th = 2; th <= 3; th++) {
            ab_options_t o = { .threads = th, .depth_limit = PLAIN_D, .no_prune = 1, .no_tt_cuts = 1 };
            ab_result_t r;
            helped[th] += think_threads(&w.gv, &p, &o, &r);
            if (r.score != r1.score) fail_msg("tree %d, %d threads: %d, one thread %d", tree, th, r.score, r1.score);
            assert_int_equal(r.depth, r1.depth);
            many[th] += r.nodes;
            t_many[th] += r.time_ms;
            /* the whole search: pruning, the table's cut-offs */
            ab_options_t f = { .threads = th, .depth_limit = FULL_D };
            helped[th] += think_threads(&w.gv, &p, &f, &r);
        }
    }
    printf("threads, plain depth %d: 1: %llu nodes %.0f ms; 2: %llu nodes %.0f ms; 3: %llu nodes %.0f ms\n", PLAIN_D,
           (unsigned long long)one, t_one, (unsigned long long)many[2], t_many[2], (unsigned long long)many[3],
           t_many[3]);
    assert_true(runs >= 3);
    assert_true(helped[2] > 0 && helped[3] > 0);   /* the helpers took part */
}

static int cmp_desc(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x < y) - (x > y);
}

/* The value of each root move at depth d (the child searched to d - 1, or
 * d with the root in check, negated): the multi-PV lines' scores. */
static int root_values(const gv_t *v, const tpos_t *p, int d, move_t *mv, int32_t *val)
{
    const tree_t *t = T(v);
    int n = t_moves(v, p, mv);
    int cd = d - 1 + ((t->flags & T_TACT) && (t->flags & T_CHECK) && in_check(t, p->mask));
    for (int i = 0; i < n; i++) {
        tpos_t c = *p;
        t_play(v, &c, mv[i]);
        val[i] = val_up(ref(v, &c, cd, 1, d, 1));
    }
    return n;
}

/* Multi-PV, plain search: every depth reports lines 1..k in order, their
 * first moves distinct, their scores the k best root moves' minimax values
 * (line 2: the best without line 1's move), line 1 the one-line search's;
 * the result is line 1 of the last depth. */
static void test_multipv(void **st)
{
    (void)st;
    static const int flags[] = { T_TACT | T_CHECK, T_QUIET, 0 };
    int checked = 0, ties = 0;
    for (int f = 0; f < 3; f++)
        for (int tree = 0; tree < 20; tree++) {
            variant_t w;
            variant_make(&w, 2000 + (uint64_t)tree, 10, flags[f]);
            tpos_t p;
            if (!root_of(&w.gv, (uint64_t)tree * 7, &p)) continue;
            move_t mv[GSW_MAX_MOVES];
            int32_t val[GSW_MAX_MOVES];
            int n = t_moves(&w.gv, &p, mv);
            if (n < 3) continue;
            lines_seen_t ls = { 0 };
            ab_options_t o = { .threads = 1, .depth_limit = 4, .no_prune = 1, .no_tt_cuts = 1, .multipv = 3,
                               .on_iter = on_line, .on_iter_ctx = &ls };
            ab_result_t r;
            err_t err;
            tt_clear(&tt);
            assert_int_equal(ab_think(&w.gv, &tt, &p, &o, &r, &err), GSW_OK);
            assert_false(r.aborted);
            assert_int_equal(r.multipv, 1);
            assert_int_equal(ls.n, 3 * r.depth);
            for (int d = 1; d <= r.depth; d++) {
                const int k = 3 * (d - 1);
                root_values(&w.gv, &p, d, mv, val);
                int32_t sorted[GSW_MAX_MOVES];
                memcpy(sorted, val, (size_t)n * sizeof *val);
                qsort(sorted, (size_t)n, sizeof *sorted, cmp_desc);
                ab_result_t one = think(&w.gv, &p, d, 1, 1);
                assert_int_equal(ls.score[k], one.score);
                for (int j = 0; j < 3; j++) {
                    assert_int_equal(ls.depth[k + j], d);
                    assert_int_equal(ls.multipv[k + j], j + 1);
                    if (ls.score[k + j] != sorted[j])
                        fail_msg("flags %d tree %d depth %d line %d: %d, minimax %d", flags[f], tree, d, j + 1,
                                 ls.score[k + j], sorted[j]);
                    if (j) assert_true(ls.score[k + j] <= ls.score[k + j - 1]);
                    for (int i = 0; i < j; i++) assert_true(ls.best[k + j] != ls.best[k + i]);
                    int found = 0;   /* the line's move is worth its score */
                    for (int i = 0; i < n; i++)
                        if (mv[i] == ls.best[k + j]) { found = 1; assert_int_equal(val[i], ls.score[k + j]); }
                    assert_true(found);
                }
                ties += sorted[0] == sorted[1];
                checked++;
            }
            assert_int_equal(r.depth, ls.depth[ls.n - 3]);
            assert_int_equal(r.score, ls.score[ls.n - 3]);
            assert_int_equal(r.best, ls.best[ls.n - 3]);
        }
    printf("multi-PV: %d depths checked (%d with the best two tied)\n", checked, ties);
    assert_true(checked > 100);
}

/* More lines than root moves: one per move, every move once; with
 * pruning and the table's cut-offs too (the lines still sorted). */
static void test_multipv_all_moves(void **st)
{
    (void)st;
    int checked = 0;
    for (int tree = 0; tree < 20; tree++)
        for (int plain = 0; plain < 2; plain++) {
            variant_t w;
            variant_make(&w, 3000 + (uint64_t)tree, 12, T_TACT | T_CHECK | T_NULL);
            tpos_t p;
            if (!root_of(&w.gv, (uint64_t)tree * 3, &p)) continue;
            move_t mv[GSW_MAX_MOVES];
            int n = t_moves(&w.gv, &p, mv);
            lines_seen_t ls = { 0 };
            ab_options_t o = { .threads = 1, .depth_limit = 5, .no_prune = plain, .no_tt_cuts = plain,
                               .multipv = n + 3, .on_iter = on_line, .on_iter_ctx = &ls };
            ab_result_t r;
            err_t err;
            tt_clear(&tt);
            assert_int_equal(ab_think(&w.gv, &tt, &p, &o, &r, &err), GSW_OK);
            assert_false(r.aborted);
            assert_int_equal(ls.n, n * r.depth);
            for (int d = 1; d <= r.depth; d++) {
                const int k = n * (d - 1);
                for (int j = 0; j < n; j++) {
                    assert_int_equal(ls.depth[k + j], d);
                    assert_int_equal(ls.multipv[k + j], j + 1);
                    if (j) assert_true(ls.score[k + j] <= ls.score[k + j - 1]);
                    int hits = 0;
                    for (int i = 0; i < n; i++) hits += ls.best[k + i] == mv[j];
                    assert_int_equal(hits, 1);
                }
                checked++;
            }
            assert_int_equal(r.multipv, 1);
            assert_int_equal(r.best, ls.best[n * (r.depth - 1)]);
            assert_int_equal(r.score, ls.score[n * (r.depth - 1)]);
        }
    assert_true(checked > 100);
}

/* Multi-PV under a node budget (and with threads): each depth reports its
 * finished lines, 1.. in order, the last one stopped maybe fewer; the
 * result is the last reported depth's line 1. */
static void test_multipv_limits(void **st)
{
    (void)st;
    variant_t w;
    variant_make(&w, 4242, 24, T_TACT | T_NULL | T_CALM);
    tpos_t p;
    assert_true(root_of(&w.gv, 9, &p));
    for (int th = 1; th <= 2; th++)
        for (uint64_t limit = 30000; limit <= 300000; limit *= 10) {
            lines_seen_t ls = { 0 };
            ab_options_t o = { .threads = th, .node_limit = limit, .multipv = 3, .on_iter = on_line,
                               .on_iter_ctx = &ls };
            ab_result_t r;
            err_t err;
            tt_clear(&tt);
            assert_int_equal(ab_think(&w.gv, &tt, &p, &o, &r, &err), GSW_OK);
            assert_true(r.aborted);
            /* the budget is every thread's nodes together */
            assert_true(r.nodes >= limit && r.nodes <= limit + 1024 * (uint64_t)th);
            assert_true(ls.n >= 1);
            int last1 = -1;
            for (int i = 0; i < ls.n; i++) {
                int j = ls.multipv[i];
                if (j == 1) {
                    if (i) assert_int_equal(ls.depth[i], ls.depth[i - 1] + 1);
                    last1 = i;
                } else {
                    assert_int_equal(ls.depth[i], ls.depth[i - 1]);
                    assert_int_equal(j, ls.multipv[i - 1] + 1);
                    assert_true(ls.score[i] <= ls.score[i - 1]);
                }
                assert_true(j <= 3);
                if (i + 1 < ls.n && ls.multipv[i + 1] == 1) assert_int_equal(j, 3);   /* a full depth */
            }
            assert_int_equal(r.depth, ls.depth[last1]);
            assert_int_equal(r.best, ls.best[last1]);
            assert_int_equal(r.score, ls.score[last1]);
            assert_int_equal(r.multipv, 1);
            assert_true(legal(&w.gv, &p, r.best));
        }
}

static int setup(void **st)
{
    (void)st;
    err_t err;
    return tt_init(&tt, 8, &err);
}

static int teardown(void **st)
{
    (void)st;
    tt_free(&tt);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_equals_minimax),
        cmocka_unit_test(test_tt_cutoffs),
        cmocka_unit_test(test_mate_scores),
        cmocka_unit_test(test_exact_unaffected),
        cmocka_unit_test(test_iterations_and_limits),
        cmocka_unit_test(test_unfinished_depth),
        cmocka_unit_test(test_pruning), cmocka_unit_test(test_futility), cmocka_unit_test(test_move_class),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_eval_key), cmocka_unit_test(test_delta), cmocka_unit_test(test_eval_cache),
        cmocka_unit_test(test_threads), cmocka_unit_test(test_multipv),
        cmocka_unit_test(test_multipv_all_moves), cmocka_unit_test(test_multipv_limits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
