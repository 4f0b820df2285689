/* df-pn where positions repeat (graph-history interaction): small random
 * games on graphs with cycles, where a position met again on the same line
 * is a draw. The same position can then be won on one line and drawn on
 * another; df-pn must agree with a brute-force search that carries the
 * line, on every position of every graph, for both goals — which fails if
 * a path-dependent result were stored as if it held for every path. The
 * game lives in this file only (it is not a registered plugin). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/manager.h"
#include "core/tt.h"

#define NODES 9
typedef struct graph {
    int nout[NODES];
    int out[NODES][3];
    val_t end[NODES];           /* for the side to move at a node without moves */
} graph_t;

typedef struct gpos { uint32_t node, turn, ply, pad; } gpos_t;

static const graph_t *G(const gv_t *v) { return v->data; }
static void g_start(const gv_t *v, void *p) { (void)v; memset(p, 0, sizeof(gpos_t)); }
static uint64_t g_hash(const gv_t *v, const void *p)
{
    (void)v;
    const gpos_t *q = p;
    return (uint64_t)q->node * 2 + q->turn + 1;   /* the line's length is not part of a position */
}
static int g_turn(const gv_t *v, const void *p) { (void)v; return (int)((const gpos_t *)p)->turn; }
static int g_ply(const gv_t *v, const void *p) { (void)v; return (int)((const gpos_t *)p)->ply; }
static int g_moves(const gv_t *v, const void *p, move_t *out)
{
    const gpos_t *q = p;
    for (int i = 0; i < G(v)->nout[q->node]; i++) out[i] = (move_t)G(v)->out[q->node][i];
    return G(v)->nout[q->node];
}
static void g_play(const gv_t *v, void *p, move_t m)
{
    (void)v;
    gpos_t *q = p;
    q->node = m;
    q->turn ^= 1;
    q->ply++;
}
static int g_terminal(const gv_t *v, const void *p, val_t *value)
{
    const gpos_t *q = p;
    if (G(v)->nout[q->node]) return 0;
    *value = G(v)->end[q->node];
    return 1;
}
static int g_repetition(const gv_t *v, const void *p, val_t *value)
{
    (void)v; (void)p;
    *value = VAL_DRAW;
    return 1;
}
static size_t g_key(const gv_t *v, const void *p, uint8_t *key, int *sym)
{
    uint64_t h = g_hash(v, p);
    memcpy(key, &h, 8);
    if (sym) *sym = 0;
    return 8;
}

static const game_ops_t g_ops = {
    .pos_size = sizeof(gpos_t), .pos_start = g_start, .pos_hash = g_hash, .pos_key = g_key,
    .pos_turn = g_turn, .pos_ply = g_ply, .moves = g_moves, .play = g_play, .terminal = g_terminal,
    .repetition = g_repetition, .nsym = 1,
};
static const game_t g_game = { .name = "graph", .title = "Graph", .players = 2, .default_variant = "" };

/* The value by brute force, carrying the line: a sign (1 win, 0 draw, -1 loss). */
static int brute(const graph_t *g, int node, int turn, uint64_t *line, int len)
{
    uint64_t h = (uint64_t)node * 2 + turn + 1;
    for (int i = 0; i < len; i++) if (line[i] == h) return 0;   /* a repetition: a draw */
    if (!g->nout[node]) return g->end[node] > 0 ? 1 : g->end[node] < 0 ? -1 : 0;
    line[len] = h;
    int best = -2;
    for (int i = 0; i < g->nout[node]; i++) {
        int c = -brute(g, g->out[node][i], turn ^ 1, line, len + 1);
        if (c > best) best = c;
    }
    return best;
}

static uint64_t rs = 88172645463325252ull;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }

/* A random graph: a quarter of the nodes end the game (won, drawn or lost
 * for the side to move there), the others have one to three moves. */
static void random_graph(graph_t *g)
{
    memset(g, 0, sizeof *g);
    for (int n = 0; n < NODES; n++) {
        g->nout[n] = rnd() % 4 == 0 ? 0 : 1 + (int)(rnd() % 3);
        for (int k = 0; k < g->nout[n]; k++) g->out[n][k] = (int)(rnd() % NODES);
        int e = (int)(rnd() % 3);
        g->end[n] = e == 0 ? val_loss(0) : e == 1 ? VAL_DRAW : val_win(0);
    }
}

static void test_random_cyclic_graphs(void **st)
{
    (void)st;
    int checked = 0, path_dependent = 0;
    for (int trial = 0; trial < 1000; trial++) {
        graph_t g;
        random_graph(&g);
        gv_t v = { .game = &g_game, .ops = &g_ops, .data = &g };
        snprintf(v.name, sizeof v.name, "g%d", trial);   /* the table is cleared for every graph... */
        dfpn_table_t table;   /* ... and shared by its roots: results reached by one line meet another */
        err_t terr;
        assert_int_equal(dfpn_table_init(&table, 1, &terr), GSW_OK);
        for (int root = 0; root < NODES; root++) {
            uint64_t line[64];
            int want = brute(&g, root, 0, line, 0);
            gpos_t p = { .node = (uint32_t)root };
            dfpn_options_t o = { .table = &table };
            dfpn_result_t r;
            err_t err;
            assert_int_equal(dfpn_solve(&v, &p, &o, &r, &err), GSW_OK);
            int got = r.outcome == OUTCOME_WIN ? 1 : r.outcome == OUTCOME_DRAW ? 0 : r.outcome == OUTCOME_LOSS ? -1 : 9;
            if (got != want) fail_msg("graph %d, root %d: df-pn %d (pn %u dn %u runs %d), brute force %d", trial, root, got, r.pn, r.dn, r.runs, want);
            checked++;
            /* is this a graph where a position's value depends on the line? */
            for (int n = 0; n < NODES && want != 9; n++) {
                uint64_t l2[64];
                l2[0] = (uint64_t)root * 2 + 1;
                if (n != root && g.nout[root] && brute(&g, n, 1, l2, 1) != brute(&g, n, 1, l2, 0)) { path_dependent++; break; }
            }
        }
        dfpn_table_free(&table);
    }
    assert_int_equal(checked, 1000 * NODES);
    assert_true(path_dependent > 50);   /* the test does meet graph-history interaction */
}

/* Exact alpha-beta carries the line too (core/ab_exact.h): over one table
 * per graph, shared by its roots and by exact and win/draw/loss solves, the
 * sign of every value must be the brute force's. With a line before the
 * root (a position of the other side's), an answer that does not rest on
 * that line must be the position's own value; one that does is the line's
 * value or, where the table's facts about positions answered first, the
 * position's (a known limit: see docs/ARCHITECTURE.md). */
static void test_alphabeta_on_cyclic_graphs(void **st)
{
    (void)st;
    int checked = 0, on_line = 0;
    for (int trial = 0; trial < 1000; trial++) {
        graph_t g;
        random_graph(&g);
        gv_t v = { .game = &g_game, .ops = &g_ops, .data = &g };
        snprintf(v.name, sizeof v.name, "g%d", trial);
        tt_t tt;
        err_t err;
        assert_int_equal(tt_init(&tt, 1, &err), GSW_OK);
        for (int root = 0; root < NODES; root++)
            for (int wdl = 0; wdl < 2; wdl++) {
                uint64_t line[64];
                int want = brute(&g, root, 0, line, 0);
                gpos_t p = { .node = (uint32_t)root };
                ab_options_t o = { .threads = 1 + wdl, .wdl_only = wdl };
                ab_result_t r;
                assert_int_equal(ab_solve(&v, &tt, &p, &o, &r, &err), GSW_OK);
                assert_false(r.aborted);
                assert_false(r.history_dependent);
                int got = r.lo > VAL_DRAW ? 1 : r.hi < VAL_DRAW ? -1 : r.lo >= VAL_DRAW && r.hi <= VAL_DRAW ? 0 : 9;
                if (!wdl) assert_int_equal(r.lo, r.hi);
                if (got != want) fail_msg("graph %d, root %d: alpha-beta %d [%d, %d], brute force %d", trial, root, got, r.lo, r.hi, want);
                checked++;
                /* the same position (the other side to move) after a line through node h */
                int h = (int)(rnd() % NODES);
                uint64_t hist[1] = { (uint64_t)h * 2 + 1 };
                gpos_t q = { .node = (uint32_t)root, .turn = 1 };
                uint64_t l2[64];
                l2[0] = hist[0];
                int want_line = brute(&g, root, 1, l2, 1), want_pos = brute(&g, root, 1, l2, 0);
                ab_options_t oh = o;
                oh.history = hist;
                oh.history_len = 1;
                assert_int_equal(ab_solve(&v, &tt, &q, &oh, &r, &err), GSW_OK);
                got = r.lo > VAL_DRAW ? 1 : r.hi < VAL_DRAW ? -1 : r.lo >= VAL_DRAW && r.hi <= VAL_DRAW ? 0 : 9;
                on_line += r.history_dependent;
                if ((!r.history_dependent && got != want_pos) || (got != want_line && got != want_pos))
                    fail_msg("graph %d, root %d after %d: alpha-beta %d%s, brute force %d on the line, %d alone", trial,
                             root, h, got, r.history_dependent ? " (on the line)" : "", want_line, want_pos);
            }
        tt_free(&tt);
    }
    printf("[ ab        ] %d solves; %d with a line before the root rested on it\n", checked, on_line);
    assert_int_equal(checked, 1000 * NODES * 2);
    assert_true(on_line > 50);
}

/* The proof-tree manager carries the line to its leaves' solvers: small
 * budgets force it to grow a tree through the cycles. */
static void test_manager_on_cyclic_graphs(void **st)
{
    (void)st;
    for (int trial = 0; trial < 150; trial++) {
        graph_t g;
        random_graph(&g);
        gv_t v = { .game = &g_game, .ops = &g_ops, .data = &g };
        snprintf(v.name, sizeof v.name, "m%d", trial);
        for (int root = 0; root < NODES; root += 2) {
            uint64_t line[64];
            int want = brute(&g, root, 0, line, 0), got = 9;
            gpos_t p = { .node = (uint32_t)root };
            err_t err;
            manager_options_t o = { .workers = 2, .hash_mb = 1, .dfpn_budget = 1 };
            for (int goal = DFPN_GOAL_WIN; goal <= DFPN_GOAL_DRAW && got == 9; goal++) {
                manager_t m;
                int done;
                dfpn_status_t s;
                assert_int_equal(manager_init(&m, (dfpn_goal_t)goal, &err), GSW_OK);
                assert_int_equal(manager_run(&m, &v, &p, &o, &done, &s, &err), GSW_OK);
                assert_true(done);
                if (goal == DFPN_GOAL_WIN && s == DFPN_PROVEN) got = 1;
                if (goal == DFPN_GOAL_DRAW) got = s == DFPN_PROVEN ? 0 : -1;
                manager_free(&m);
            }
            if (got != want) fail_msg("graph %d, root %d: manager %d, brute force %d", trial, root, got, want);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_cyclic_graphs),
        cmocka_unit_test(test_manager_on_cyclic_graphs),
        cmocka_unit_test(test_alphabeta_on_cyclic_graphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
