/* Differential test of the cached solver (solve/solver.h): seeded random Connect
 * Four and checkers positions solved in every mode (algorithm, batch or one by one, threads,
 * table size, cache none/cold/warm, a strong solution or none) must agree with a fresh exact alpha-beta
 * solve. GSW_SLOW=1: a few thousand positions; GSW_DIFF_SEED=N: another seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/game.h"
#include "core/value.h"
#include "db/cache.h"
#include "solve/solver.h"
#include "solve/strong.h"
#include "tests/test_rng.h"
#include "tests/ui/checkers_positions.h"

/* ---- the positions ---- */

/* A board joins by a new row here. Positions come from random playouts: every
 * position not yet seen from min_ply on (skipping finished games), or, where
 * the board has a draw function, from it (a position's text; finished ones
 * skipped); each kept only when the reference proves it within ref_nodes (0:
 * no limit). The manager, slower, sees only the first manager_quick
 * (manager_slow with GSW_SLOW=1) positions of a board. A board with
 * mode_nodes gives every mode that node budget: an answer that runs out of
 * it is counted as unfinished, not judged (checkers: df-pn and the manager
 * can take far longer than alpha-beta to prove a draw by repetition). */
typedef struct board {
    const char *spec;
    int quick, slow;           /* positions */
    int min_ply;
    uint64_t ref_nodes;
    int manager_quick, manager_slow;
    void (*draw)(char *buf, size_t n);
    uint64_t mode_nodes;
} board_t;

static uint64_t rng_next(void);

/* Checkers: random placements of up to 4 pieces (positions repeat: every
 * solver carries the line and keeps path-dependent results out of tables
 * and the cache) */
static void draw_checkers(char *buf, size_t n) { checkers_random_fen(rng_next, 4, buf, n); }

static const board_t boards[] = {
    { "connect4:4x4", 40, 500, 0, 0, 10, 80, NULL, 0 },
    { "connect4:5x4", 40, 700, 0, 0, 10, 80, NULL, 0 },
    { "connect4:6x4", 40, 700, 0, 0, 6, 60, NULL, 0 },
    { "connect4:7x6", 30, 600, 14, 200000, 0, 0, NULL, 0 },
    { "checkers", 24, 400, 0, 100000, 8, 80, draw_checkers, 2000000 },
};
#define NBOARDS ((int)(sizeof boards / sizeof boards[0]))

typedef struct item {
    int board;
    char moves[128];           /* the position's text, as game_pos_parse reads it (Connect Four: 1-based columns) */
    uint64_t hash;
    val_t value;               /* the reference's exact value */
} item_t;

static uint64_t rng_state;

static uint64_t rng_next(void) { return test_splitmix(&rng_state); }

/* The reference: a brand new solver with its own 16 MB table, no cache,
 * exact alpha-beta on one thread. Returns 1 with *value, 0 when it needed
 * more than node_limit nodes. */
static int reference(gv_t *v, const void *pos, uint64_t node_limit, val_t *value, uint64_t *nodes)
{
    solver_t s;
    err_t err;
    answer_t a;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    s.ab.node_limit = node_limit;
    assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
    solver_free(&s);
    *nodes = a.r.nodes;
    if (a.r.aborted) return 0;
    assert_int_equal(a.r.lo, a.r.hi);
    *value = a.r.lo;
    return 1;
}

/* Playouts on board b until it has want positions (appended to *items). */
static void gather(int b, int want, item_t **items, int *n, int *cap)
{
    const board_t *bd = &boards[b];
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(bd->spec, &v, &err), GSW_OK);
    const game_ops_t *O = v->ops;
    int first = *n, got = 0, dropped = 0, playouts = 0;
    uint64_t max_nodes = 0;
    double t0 = gsw_now_ms();
    while (got < want && bd->draw) {   /* drawn positions */
        assert_true(++playouts < 100000);
        GSW_POSBUF pos[GSW_MAX_POS];
        char text[128];
        bd->draw(text, sizeof text);
        assert_int_equal(game_pos_parse(v, text, pos, &err), GSW_OK);
        val_t tv, val;
        uint64_t h = O->pos_hash(v, pos), nodes;
        int seen = 0;
        for (int i = first; i < *n && !seen; i++) seen = (*items)[i].hash == h;
        if (seen || O->terminal(v, pos, &tv)) continue;
        if (!reference(v, pos, bd->ref_nodes, &val, &nodes)) { dropped++; continue; }
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            *items = realloc(*items, (size_t)*cap * sizeof **items);
            assert_non_null(*items);
        }
        item_t *it = &(*items)[(*n)++];
        it->board = b;
        snprintf(it->moves, sizeof it->moves, "%s", text);
        it->hash = h;
        it->value = val;
        if (nodes > max_nodes) max_nodes = nodes;
        got++;
    }
    while (got < want) {
        assert_true(++playouts < 100000);   /* the board cannot give that many */
        GSW_POSBUF pos[GSW_MAX_POS];
        char line[128] = "";
        size_t len = 0;
        O->pos_start(v, pos);
        for (;;) {
            val_t tv;
            if (O->terminal(v, pos, &tv)) break;
            uint64_t h = O->pos_hash(v, pos);
            int seen = 0;
            for (int i = first; i < *n && !seen; i++) seen = (*items)[i].hash == h;
            if (O->pos_ply(v, pos) >= bd->min_ply && !seen) {
                val_t val;
                uint64_t nodes;
                if (reference(v, pos, bd->ref_nodes, &val, &nodes)) {
                    if (*n == *cap) {
                        *cap = *cap ? 2 * *cap : 256;
                        *items = realloc(*items, (size_t)*cap * sizeof **items);
                        assert_non_null(*items);
                    }
                    item_t *it = &(*items)[(*n)++];
                    it->board = b;
                    snprintf(it->moves, sizeof it->moves, "%s", line);
                    it->hash = h;
                    it->value = val;
                    if (nodes > max_nodes) max_nodes = nodes;
                    if (++got == want) break;
                } else dropped++;
            }
            move_t mv[GSW_MAX_MOVES];
            int k = O->moves(v, pos, mv);
            assert_true(k > 0);
            move_t m = mv[rng_next() % (uint64_t)k];
            char t[16];
            O->move_format(v, pos, m, t, sizeof t);
            len += (size_t)snprintf(line + len, sizeof line - len, "%s", t);
            assert_true(len < sizeof line);
            O->play(v, pos, m);
        }
    }
    char limit[80] = "";
    if (bd->ref_nodes)
        snprintf(limit, sizeof limit, ", %d dropped over %llu nodes", dropped, (unsigned long long)bd->ref_nodes);
    printf("[ positions ] %-13s %4d from %d %s (plies >= %d)%s, reference at most %llu nodes, %.0f ms\n",
           bd->spec, got, playouts, bd->draw ? "draws" : "playouts", bd->min_ply, limit, (unsigned long long)max_nodes,
           gsw_now_ms() - t0);
    game_close(v);
}

/* ---- the modes ---- */

enum { ALGO_AB, ALGO_DFPN, ALGO_MANAGER };
enum { CACHE_NONE, CACHE_COLD, CACHE_WARM };
static const char *const cache_name[] = { "none", "cold", "warm" };

typedef struct diff_mode {
    const char *name;
    int algo;
    int wdl;                   /* alpha-beta: --wdl */
    int goal;                  /* df-pn, manager: -1 the value, else DFPN_GOAL_WIN / DFPN_GOAL_DRAW */
    int batch;                 /* one solver over all the positions of a board, in order */
    int no_best;               /* the value only (`gsw solve --batch` sets it) */
    int threads;               /* alpha-beta threads, manager workers (df-pn has one) */
    size_t hash_mb;
    int cache;                 /* CACHE_WARM: the file the mode before filled (CACHE_COLD) */
    int strong;                /* with the board's strong solution (BDDs; built for the boards of
                                  strong_boards at the start) */
} diff_mode_t;

/* A solver or an option joins by new rows here (configure it in setup_solver
 * as solver_open in ui/solve_cmd.c does). Every value of every dimension is
 * covered by alpha-beta and by df-pn; a WARM row reuses the file of the COLD
 * row just before it, with the same settings. */
static const diff_mode_t modes[] = {
    /* name               algo          wdl goal          batch no_best threads MB  cache   strong */
    { "ab exact",         ALGO_AB,      0, -1,             0, 0, 1, 1,  CACHE_NONE, 0 },
    { "ab exact",         ALGO_AB,      0, -1,             1, 0, 2, 64, CACHE_NONE, 0 },
    { "ab exact",         ALGO_AB,      0, -1,             1, 1, 1, 64, CACHE_COLD, 0 },
    { "ab exact",         ALGO_AB,      0, -1,             1, 1, 1, 64, CACHE_WARM, 0 },
    { "ab --wdl",         ALGO_AB,      1, -1,             1, 1, 1, 1,  CACHE_NONE, 0 },
    { "ab --wdl",         ALGO_AB,      1, -1,             0, 0, 2, 1,  CACHE_COLD, 0 },
    { "ab --wdl",         ALGO_AB,      1, -1,             0, 0, 2, 1,  CACHE_WARM, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             0, 0, 1, 1,  CACHE_NONE, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             1, 0, 1, 64, CACHE_NONE, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             1, 1, 2, 1,  CACHE_NONE, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             0, 0, 2, 1,  CACHE_COLD, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             0, 0, 2, 1,  CACHE_WARM, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             1, 1, 1, 64, CACHE_COLD, 0 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             1, 1, 1, 64, CACHE_WARM, 0 },
    { "dfpn goal win",    ALGO_DFPN,    0, DFPN_GOAL_WIN,  0, 0, 1, 1,  CACHE_NONE, 0 },
    { "dfpn goal win",    ALGO_DFPN,    0, DFPN_GOAL_WIN,  1, 1, 2, 64, CACHE_NONE, 0 },
    { "dfpn goal draw",   ALGO_DFPN,    0, DFPN_GOAL_DRAW, 0, 0, 2, 64, CACHE_NONE, 0 },
    { "dfpn goal draw",   ALGO_DFPN,    0, DFPN_GOAL_DRAW, 1, 1, 1, 1,  CACHE_COLD, 0 },
    { "dfpn goal draw",   ALGO_DFPN,    0, DFPN_GOAL_DRAW, 1, 1, 1, 1,  CACHE_WARM, 0 },
    { "manager value",    ALGO_MANAGER, 0, -1,             0, 0, 1, 1,  CACHE_NONE, 0 },
    { "manager value",    ALGO_MANAGER, 0, -1,             1, 1, 2, 64, CACHE_COLD, 0 },
    { "manager value",    ALGO_MANAGER, 0, -1,             1, 1, 2, 64, CACHE_WARM, 0 },
    { "manager goal win", ALGO_MANAGER, 0, DFPN_GOAL_WIN,  1, 1, 1, 1,  CACHE_NONE, 0 },
    { "ab exact",         ALGO_AB,      0, -1,             1, 0, 1, 16, CACHE_NONE, 1 },
    { "ab --wdl",         ALGO_AB,      1, -1,             0, 0, 2, 1,  CACHE_COLD, 1 },
    { "ab --wdl",         ALGO_AB,      1, -1,             0, 0, 2, 1,  CACHE_WARM, 1 },
    { "dfpn value",       ALGO_DFPN,    0, -1,             1, 1, 1, 16, CACHE_NONE, 1 },
};
/* the boards whose strong solution is built (seconds) for the strong rows */
static const char *const strong_boards[] = { "connect4:4x4", "connect4:5x4", NULL };
static char strong_dir[64];
#define NMODES ((int)(sizeof modes / sizeof modes[0]))

/* The options of `gsw solve` the mode stands for (see solver_open). */
static void setup_solver(solver_t *s, const diff_mode_t *m)
{
    s->ab.threads = m->threads;
    s->ab.no_best = m->no_best;
    s->ab.wdl_only = m->wdl;
    s->wdl = m->wdl;
    if (m->algo == ALGO_DFPN) s->dfpn = s->wdl = 1;
    if (m->algo == ALGO_MANAGER) s->manager = s->wdl = 1;
    if (m->goal >= 0) s->goal = m->goal;
}

static void mode_label(const diff_mode_t *m, char *buf, size_t n)
{
    snprintf(buf, n, "%s, %s, %d thread%s, %zu MB, cache %s%s", m->name,
             m->batch ? m->no_best ? "batch" : "batch with best moves" : "one by one",
             m->threads, m->threads > 1 ? "s" : "", m->hash_mb, cache_name[m->cache], m->strong ? ", strong" : "");
}

/* Does the answer contain the value and settle what the mode promises?
 * NULL if so, else what is wrong. */
static const char *judge(const diff_mode_t *m, val_t value, const answer_t *a)
{
    val_t lo = a->r.lo, hi = a->r.hi;
    if (a->r.aborted) return "aborted";
    if (lo > hi) return "empty interval";
    if (value < lo || value > hi) return "wrong";
    if (m->goal >= 0) {   /* the goal decided */
        val_t T = m->goal == DFPN_GOAL_WIN ? 1 : 0;
        return lo >= T || hi < T ? NULL : "goal not decided";
    }
    if (m->algo == ALGO_AB && !m->wdl) return lo == hi ? NULL : "not exact";
    return lo > VAL_DRAW || hi < VAL_DRAW || (lo >= VAL_DRAW && hi <= VAL_DRAW) ? NULL : "win/draw/loss not decided";
}

/* ---- the cache file ---- */

static char cache_path[64];

static void cache_remove(void)
{
    if (!cache_path[0]) return;
    char p[80];
    unlink(cache_path);
    snprintf(p, sizeof p, "%s-wal", cache_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", cache_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-journal", cache_path);
    unlink(p);
    cache_path[0] = 0;
}

static void cache_fresh(void)
{
    cache_remove();
    snprintf(cache_path, sizeof cache_path, "/tmp/gsw-diff-XXXXXX");
    int fd = mkstemp(cache_path);
    assert_true(fd >= 0);
    close(fd);
}

/* ---- the test ---- */

static item_t *positions;   /* every board's, in order */

static int cleanup(void **st)   /* also after a failed assertion */
{
    (void)st;
    cache_remove();
    if (strong_dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", strong_dir);
        int rc = system(cmd);
        (void)rc;
        strong_dir[0] = 0;
    }
    free(positions);
    positions = NULL;
    return 0;
}

typedef struct tally {
    int checked, bad, from_cache, from_strong, unfinished;
    double ms;
} tally_t;

/* Solve the positions of board b (items[lo..hi)) in mode m. */
static void run_board(const diff_mode_t *m, const item_t *items, int lo, int hi, tally_t *t)
{
    if (lo >= hi) return;
    const board_t *bd = &boards[items[lo].board];
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(bd->spec, &v, &err), GSW_OK);
    cache_t *cache = NULL;
    if (m->cache != CACHE_NONE) {
        assert_true(cache_path[0]);
        if (cache_open(cache_path, &cache, &err)) fail_msg("cache_open %s: %s", cache_path, err.msg);
    }
    solver_t s;
    int open = 0;
    double t0 = gsw_now_ms();
    for (int i = lo; i < hi; i++) {
        if (!open) {
            assert_int_equal(solver_init(&s, v, m->hash_mb, cache, &err), GSW_OK);
            setup_solver(&s, m);
            if (m->strong) assert_int_equal(solver_open_strong(&s, strong_dir, NULL, &err), GSW_OK);
            s.ab.node_limit = bd->mode_nodes;
            open = 1;
        }
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, items[i].moves, pos, &err), GSW_OK);
        answer_t a;
        if (solver_run(&s, pos, &a, &err)) fail_msg("solver_run %s \"%s\": %s", bd->spec, items[i].moves, err.msg);
        t->checked++;
        t->from_cache += a.from_cache;
        t->from_strong += a.from_strong;
        const char *why = judge(m, items[i].value, &a);
        if (a.r.aborted && bd->mode_nodes) {   /* its budget ran out: not judged, unless what it proved is wrong */
            t->unfinished++;
            if (items[i].value >= a.r.lo && items[i].value <= a.r.hi) why = NULL;
        }
        if (why) {
            char label[128], want[64], got[96], board[160];
            mode_label(m, label, sizeof label);
            value_text(items[i].value, items[i].value, want, sizeof want);
            value_text(a.r.lo, a.r.hi, got, sizeof got);
            v->ops->pos_format(v, pos, board, sizeof board);
            printf("DISAGREE %s \"%s\" (%s) [%s, position %d of %d]: expected %s, got %s%s%s: %s\n", bd->spec,
                   items[i].moves, board, label, i - lo + 1, hi - lo, want, got, a.r.aborted ? " (aborted)" : "",
                   a.from_cache ? " (from the cache)" : "", why);
            t->bad++;
        }
        if (!m->batch) { solver_free(&s); open = 0; }
    }
    if (open) solver_free(&s);
    t->ms += gsw_now_ms() - t0;
    if (cache && cache_close(cache, &err)) fail_msg("cache_close: %s", err.msg);
    game_close(v);
}

/* Known bounds, as an analysis passes them (solver_run_within): every move
 * of a position searched below the position's value (no move is worth
 * more), on one table as in an analysis, agrees with a fresh search; and
 * the best of them is the position's value. Returns the disagreements. */
static int within_board(const item_t *items, int lo, int hi, int *checked)
{
    if (lo >= hi) return 0;
    const board_t *bd = &boards[items[lo].board];
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(bd->spec, &v, &err), GSW_OK);
    const game_ops_t *O = v->ops;
    solver_t s;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    int bad = 0;
    for (int i = lo; i < hi; i++) {
        GSW_POSBUF pos[GSW_MAX_POS], child[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, items[i].moves, pos, &err), GSW_OK);
        move_t mv[GSW_MAX_MOVES];
        int n = O->moves(v, pos, mv);
        val_t best = -VAL_INF, known = val_down(items[i].value);
        for (int j = 0; j < n; j++) {
            memcpy(child, pos, O->pos_size);
            O->play(v, child, mv[j]);
            val_t tv, want;
            uint64_t nodes;
            if (O->terminal(v, child, &tv)) want = tv;
            else {
                if (!reference(v, child, bd->ref_nodes, &want, &nodes)) continue;
                answer_t a;
                if (solver_run_within(&s, child, known, VAL_WIN - 1, &a, &err))
                    fail_msg("solver_run_within %s \"%s\" move %d: %s", bd->spec, items[i].moves, j, err.msg);
                (*checked)++;
                if (a.r.aborted || a.r.lo != want || a.r.hi != want) {
                    char w[64], g[96];
                    value_text(want, want, w, sizeof w);
                    value_text(a.r.lo, a.r.hi, g, sizeof g);
                    printf("DISAGREE %s \"%s\" move %d searched within the position's value: expected %s, got %s\n",
                           bd->spec, items[i].moves, j, w, g);
                    bad++;
                }
            }
            if (val_up(want) > best) best = val_up(want);
        }
        if (best > items[i].value) {   /* (a move the reference could not settle may be the best) */
            printf("DISAGREE %s \"%s\": a move is worth more than the position\n", bd->spec, items[i].moves);
            bad++;
        }
    }
    solver_free(&s);
    game_close(v);
    return bad;
}

static void test_differential(void **st)
{
    (void)st;
    int slow = getenv("GSW_SLOW") && atoi(getenv("GSW_SLOW")) > 0;
    uint64_t seed = 20240611;
    if (getenv("GSW_DIFF_SEED")) seed = strtoull(getenv("GSW_DIFF_SEED"), NULL, 0);
    rng_state = seed;
    printf("[ seed      ] %llu (GSW_DIFF_SEED=N replaces it), %s run (GSW_SLOW=1: a few thousand positions)\n",
           (unsigned long long)seed, slow ? "slow" : "quick");

    int n = 0, cap = 0, start[NBOARDS + 1];
    for (int b = 0; b < NBOARDS; b++) {
        start[b] = n;
        gather(b, slow ? boards[b].slow : boards[b].quick, &positions, &n, &cap);
    }
    start[NBOARDS] = n;

    snprintf(strong_dir, sizeof strong_dir, "/tmp/gsw-diff-strong-XXXXXX");
    assert_non_null(mkdtemp(strong_dir));
    for (int i = 0; strong_boards[i]; i++) {
        gv_t *v;
        err_t err;
        assert_int_equal(game_open(strong_boards[i], &v, &err), GSW_OK);
        strong_build_options_t bo = { .dir = strong_dir, .memory_gb = 0.25 };
        strong_report_t *rep = calloc(1, sizeof *rep);
        assert_non_null(rep);
        if (strong_build(v, &bo, rep, &err)) fail_msg("strong build %s: %s", strong_boards[i], err.msg);
        free(rep);
        game_close(v);
    }

    int failures = 0;
    for (int k = 0; k < NMODES; k++) {
        const diff_mode_t *m = &modes[k];
        if (m->cache == CACHE_COLD) cache_fresh();
        if (m->cache == CACHE_WARM) assert_true(k > 0 && modes[k - 1].cache == CACHE_COLD);
        tally_t t = { 0 };
        for (int b = 0; b < NBOARDS; b++) {
            int hi = start[b + 1];
            if (m->algo == ALGO_MANAGER) {
                int lim = slow ? boards[b].manager_slow : boards[b].manager_quick;
                if (hi > start[b] + lim) hi = start[b] + lim;
            }
            run_board(m, positions, start[b], hi, &t);
        }
        if (m->cache == CACHE_WARM) cache_remove();
        char label[128];
        mode_label(m, label, sizeof label);
        int cold_warm = m->cache == CACHE_WARM && t.from_cache == 0;   /* a warm pass must use the cache */
        int unused = m->strong && m->wdl && m->cache != CACHE_WARM && t.from_strong == 0;   /* nor the sets */
        printf("[ mode %2d   ] %-72s %5d positions, %3d disagreements, %4d from the cache, %3d unfinished, %7.0f ms%s\n",
               k + 1, label, t.checked, t.bad, t.from_cache, t.unfinished, t.ms, cold_warm ? "  NO ANSWER FROM THE CACHE"
               : unused ? "  NO ANSWER FROM THE STRONG SOLUTION" : "");
        failures += t.bad + cold_warm + unused;
    }
    int within = 0, wbad = 0;
    double w0 = gsw_now_ms();
    for (int b = 0; b < NBOARDS; b++)
        if (!strncmp(boards[b].spec, "connect4", 8)) wbad += within_board(positions, start[b], start[b + 1], &within);
    printf("[ within    ] %-72s %5d moves,     %3d disagreements, %7.0f ms\n", "ab exact below the position's value",
           within, wbad, gsw_now_ms() - w0);
    failures += wbad;
    fflush(stdout);
    if (failures) fail_msg("%d disagreements with the reference (see DISAGREE lines above)", failures);
}

/* The df-pn batch defect, as found: one solver, df-pn table carried from one
 * position to the next, no cache; the last position is a loss. */
static void test_dfpn_batch_defect(void **st)
{
    (void)st;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("connect4:5x4", &v, &err), GSW_OK);
    solver_t s;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    s.dfpn = s.wdl = 1;
    s.ab.no_best = 1;   /* as `gsw solve --batch`: with a best move sought it does not show */
    static const char *const line[] = { "5131", "", "1422315541552" };
    answer_t a;
    for (int i = 0; i < 3; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, line[i], pos, &err), GSW_OK);
        assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
        assert_false(a.r.aborted);
        char got[96];
        value_text(a.r.lo, a.r.hi, got, sizeof got);
        printf("[ dfpn batch] \"%s\": %s\n", line[i], got);
    }
    solver_free(&s);
    game_close(v);
    assert_true(a.r.hi < VAL_DRAW);   /* "1422315541552" is a loss for the side to move */
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dfpn_batch_defect),
        cmocka_unit_test_teardown(test_differential, cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
