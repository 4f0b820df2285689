/* Alpha-beta drivers: exact solving by iterated null-window tests (several
 * threads over one table) and per-move analysis. The exact search itself
 * is in ab_exact.h, the heuristic search (ab_think) in ab_think.c. */
#include "core/ab.h"

#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AB_FN ab_exact_generic
#define AB_OPS (s->v->ops)
#define AB_NO_STATIC 1
#include "core/ab_exact.h"

double gsw_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void ab_init(ab_t *s, const gv_t *v, tt_t *tt, const ab_options_t *o)
{
    memset(s, 0, sizeof *s);
    s->v = v;
    s->tt = tt;
    tt_claim(tt, v);
    s->exact = v->ops->ab_exact_entry ? v->ops->ab_exact_entry : ab_exact_generic;
    s->rep_low = INT_MAX;
    /* Enhanced transposition cut-offs pay where a subtree is big: where the
     * game bounds what is left (draw_plies), wherever 12 or more plies
     * remain (and just below the root); otherwise within 12 plies of the
     * root. Measured (--hash 80 --threads 1 --clear-hash) against the old
     * rule "12 plies from the root": Test_L1_R1 3,277 -> 3,130 nodes per
     * position, every 20th line of Test_L1_R2 815 k -> 683 k. Since the
     * nodes got cheaper (vector ordering, the table's first 8 MB), 18
     * plies: the probes (and the threads' deferring, which rides on
     * them) cost more than their cut-offs save nearer the leaves. Two
     * threads, 1 GB: the ply-2 positions 44 43 42 41 34 (--wdl, summed)
     * 14.2 -> 12.4 s (200 M -> 237 M nodes, 16-20 alike); the empty 7x6
     * board exact 11.5 -> 10.4 s and --wdl 7.9 -> 7.7 s (farm-bench
     * medians of 3; the two-thread runs vary by 10%); the sets (one
     * thread, --hash 64) within 1%. */
    s->etc_left = v->ops->draw_plies ? 18 : 1 << 30;
    s->etc_plies = v->ops->draw_plies ? 4 : 12;
    /* ... and only once the search has grown: a small one (a few thousand
     * nodes) waits on memory for every child's entry where a cut-off by
     * the first child would have spared it. From 64 K nodes on (--hash 64
     * --no-cache --clear-hash, one thread, best of 3): Test_L1_R1 251 ->
     * 213 us per position (2,757 -> 3,242 nodes), every 5th line of
     * Test_L2_R2 1,389 -> 1,347 us, every 20th of Test_L1_R2 46.8 ->
     * 46.1 ms, every 100th of Test_L1_R3 2.74 -> 2.73 s. */
    s->etc_nodes = v->ops->draw_plies ? 64u << 10 : 0;
    /* The static look at every child (ab_exact.h) costs more than it saves
     * in a small search, whose table stays in the cache, and pays in a
     * big one: from 8 M nodes on. Measured with it at every node against
     * none: the empty 7x6 board --wdl (2 threads, 1 GB) 364 M -> 170 M
     * nodes and 21.4 -> 17.8 s (two runs each), but Test_L2_R2 (--hash
     * 64) 17% slower and every 20th line of Test_L1_R2 7% slower. */
    s->static_nodes = 8u << 20;
    if (o) {
        s->node_limit = o->node_limit;
        s->stop = o->stop;
        s->oracle = o->oracle;
        s->count = o->count && v->ops->count_rule && v->ops->pos_reversible;
        if (o->static_always) s->static_nodes = 0;
        if (o->time_limit_ms > 0) s->deadline_ms = gsw_now_ms() + o->time_limit_ms;
    }
}

/* ---- exact solving ---- */

/* The line for a game with repetitions: the history, room for AB_MAX_PLY
 * plies of search. */
static ab_line_t *ab_line_new(int base)
{
    ab_line_t *L = malloc(sizeof *L + (size_t)(base + AB_MAX_PLY) * sizeof L->h[0]);
    if (!L) return NULL;
    memset(L->filter, 0, sizeof L->filter);
    L->base = base;
    L->cap = base + AB_MAX_PLY;
    return L;
}

/* The first n positions of src's line into dst (of the same size). */
static void ab_line_copy(ab_line_t *dst, const ab_line_t *src, int n)
{
    memcpy(dst, src, offsetof(ab_line_t, h));
    memset(dst->filter, 0, sizeof dst->filter);
    for (int i = 0; i < n; i++) {
        dst->h[i] = src->h[i];
        dst->filter[ab_line_slot(src->h[i])]++;
    }
}

static void ab_line_push(ab_line_t *L, int i, uint64_t h)
{
    L->h[i] = h;
    L->filter[ab_line_slot(h)]++;
}

/* A search of a game with repetitions carries the line: the history of
 * o, then its own path. GSW_OK (nothing to do for other games). */
static int ab_line_setup(ab_t *s, const ab_options_t *o, err_t *err)
{
    if (!s->v->ops->repetition) return GSW_OK;
    int base = o && o->history && o->history_len > 0 ? o->history_len : 0;
    if (!(s->line = ab_line_new(base))) return err_set(err, GSW_EFAIL, "out of memory");
    for (int i = 0; i < base; i++) ab_line_push(s->line, i, o->history[i]);
    return GSW_OK;
}

typedef struct ab_job {
    ab_t s;
    const void *pos;
    val_t alpha, beta, result;
    gsw_flag_t *done;         /* first finisher stops the others */
    pthread_t th;
} ab_job_t;

static void *ab_job_run(void *arg)
{
    ab_job_t *j = arg;
    j->result = j->s.exact(&j->s, j->pos, j->alpha, j->beta);
    if (!j->s.aborted) *j->done = 1;
    return NULL;
}

/* Combined stop: the user's flag or another thread's finish. */
typedef struct ab_pool {
    int n;
    ab_job_t *jobs;
    ab_line_t **lines;          /* each thread's line (games with repetitions) */
    uint64_t *busy;             /* the positions being searched (ab_exact.h) */
    gsw_flag_t done;
} ab_pool_t;

/* One null-window test "value > x?" with every thread; returns the fail-soft
 * result of a thread that finished (aborted if none did). */
static val_t ab_test(ab_pool_t *p, ab_t *main, const void *pos, val_t x, int *aborted)
{
    main->rep_low = INT_MAX;
    if (p->n <= 1) {
        val_t r = main->exact(main, pos, x, x + 1);
        *aborted = main->aborted;
        if (main->line && !*aborted && main->rep_low < main->line->base) main->history_dep = 1;
        return r;
    }
    /* A node budget is the whole solve's: the threads count their nodes
     * together (every 4,096 of each thread's) against what is left of it
     * (each thread had the whole budget in every test: --nodes 10M used
     * 59 M on 2 threads). */
    uint64_t left = 0, spent = 0;
    if (main->node_limit) {
        if (main->nodes >= main->node_limit) {
            *aborted = 1;
            return x;
        }
        left = main->node_limit - main->nodes;
    }
    p->done = 0;
    for (int i = 0; i < p->n; i++) {
        ab_job_t *j = &p->jobs[i];
        j->s = *main;
        j->s.nodes = 0;
        if (left) {
            j->s.node_limit = left;
            j->s.pool_nodes = &spent;
        }
        j->s.thread_id = i;
        j->s.halt = &p->done;
        j->s.busy = p->busy;
        j->pos = pos;
        j->alpha = x;
        j->beta = x + 1;
        j->done = &p->done;
        if (main->line) {   /* its own copy of the line up to pos */
            j->s.line = p->lines[i];
            ab_line_copy(j->s.line, main->line, main->line->base + main->ply);
        }
    }
    /* every thread polls the user's flag (stop) and the pool's (halt) */
    for (int i = 1; i < p->n; i++) pthread_create(&p->jobs[i].th, NULL, ab_job_run, &p->jobs[i]);
    ab_job_run(&p->jobs[0]);
    p->done = 1;
    for (int i = 1; i < p->n; i++) pthread_join(p->jobs[i].th, NULL);
    val_t r = x;
    int ok = 0;
    for (int i = 0; i < p->n; i++) {
        main->nodes += p->jobs[i].s.nodes;
        main->line_full |= p->jobs[i].s.line_full;
        if (!p->jobs[i].s.aborted && !ok) {
            r = p->jobs[i].result;
            ok = 1;
            if (main->line && p->jobs[i].s.rep_low < main->line->base) main->history_dep = 1;
        }
    }
    *aborted = !ok;
    if (main->stop && *main->stop) *aborted = 1;
    return r;
}

static int ab_root_bounds(ab_t *s, const void *pos, val_t *lo, val_t *hi)
{
    const game_ops_t *O = s->v->ops;
    move_t mv[GSW_MAX_MOVES];
    *lo = -VAL_WIN + 1;
    *hi = VAL_WIN - 1;
    if (O->ab_expand) O->ab_expand(s->v, pos, mv, lo, hi);
    if (*lo >= *hi) return 0;   /* settled by the game (an immediate win, say): no table miss */
    int sym = s->fold;
    uint64_t key = O->tt_key ? O->tt_key(s->v, pos, &sym) : O->pos_hash(s->v, pos);
    if (s->count) key ^= game_count_key(game_count_left(s->v, pos));   /* (as ab_exact.h keys it) */
    tt_hit_t h;
    if (tt_probe(s->tt, key, &h)) {
        if (h.lo > *lo) *lo = h.lo;
        if (h.hi < *hi) *hi = h.hi;
    }
    return 0;
}

/* Where the game bounds its length (draw_plies: at most R plies remain), a
 * value maps onto a linear scale u: a win in d plies is R + 1 - d, a loss in
 * d is -(R + 1 - d), a draw 0 (Connect Four's score is about u / 2). Tests
 * are chosen on that scale, halving toward the extremes first: "a quick win?"
 * and "a quick loss?" are cheap questions, far cheaper than "a win at all?",
 * and their answers bound the rest. */
static int ab_u_lo(val_t v, int R)
{
    if (v >= VAL_PROVEN) { int u = R + 1 - (VAL_WIN - v); return u < 1 ? 1 : u; }
    if (v <= -VAL_PROVEN) { int u = -(R + 1 - (VAL_WIN + v)); return u > -1 ? -1 : u < -R ? -R : u; }
    return v > 0 ? 1 : 0;
}

static int ab_u_hi(val_t v, int R)
{
    if (v >= VAL_PROVEN) { int u = R + 1 - (VAL_WIN - v); return u < 1 ? 1 : u > R ? R : u; }
    if (v <= -VAL_PROVEN) { int u = -(R + 1 - (VAL_WIN + v)); return u > -1 ? -1 : u; }
    return v < 0 ? -1 : 0;
}

static val_t ab_u_val(int u, int R)
{
    if (u > 0) return val_win(R + 1 - u);
    if (u < 0) return val_loss(R + 1 + u);
    return VAL_DRAW;
}

static void ab_report(const ab_options_t *o, ab_t *s, val_t lo, val_t hi, double t0)
{
    if (o && o->progress) o->progress(o->progress_ctx, lo, hi, s->nodes, gsw_now_ms() - t0);
}

/* ab_narrow's tests from the ends (below): from this ply on, until the
 * interval left lies within this span around the draw. */
#define AB_EDGE_PLY 6
#define AB_EDGE_SPAN 28

/* Narrow [lo, hi] to the exact value (or to its sign with wdl_only). Each
 * test strictly narrows the interval, so this ends; stopped early, [lo, hi]
 * still holds everything proven so far. A test whose answer falls outside
 * [lo, hi] proves that the interval it started from was false: *crossed.
 * *tested: bit 0 when a test raised lo, bit 1 when one lowered hi. */
static void ab_narrow(ab_pool_t *p, ab_t *s, const void *pos, val_t *lo, val_t *hi,
                      const ab_options_t *o, int *aborted, int *crossed, int *tested)
{
    const game_ops_t *O = s->v->ops;
    const int wdl_only = o && o->wdl_only;
    const double t0 = o && o->progress ? gsw_now_ms() : 0;   /* a clock read costs on tiny solves */
    *aborted = 0;
    *crossed = 0;
    *tested = 0;
    if (O->draw_plies) {
        int R = O->draw_plies(s->v, pos);
        int ulo = ab_u_lo(*lo, R), uhi = ab_u_hi(*hi, R);
        if (uhi < ulo) { *crossed = 1; return; }
        *lo = ab_u_val(ulo, R);   /* the values the game can have inside [lo, hi] */
        *hi = ab_u_val(uhi, R);
        /* In the first plies nobody has erred yet and values lie next to
         * the draw (Connect Four's boards: slow wins, draws, slow losses),
         * where every test toward an extreme is one more expensive test.
         * There the sign comes first ("a win?", then "not a loss?"), then
         * the test next to the bound it left ("faster than the slowest
         * win?", "slower than the fastest loss?"), then the halving. The
         * empty 7x6 board (--hash 1024 --threads 2): 6 tests, 391 M nodes,
         * 29.8 s -> 2 tests, 241 M nodes, 19.2 s; after 44 (one thread): 54 M
         * -> 36 M nodes; after 34 (a draw) 42 M -> 25 M. On plies 3-5 the
         * halving is better: Test_L1_R3's wins by 2 or 3 stones took 10-20%
         * more nodes sign first.
         *
         * From the sixth ply on, the tests start at the two ends instead,
         * one step at a time in turn: "the fastest win?", "not the fastest
         * loss?", then one value further in on each side. A test next to an
         * end is cheap: it only has to look as deep as that end, and it
         * fails at once where the position is not that quick. The halving's
         * first tests ask loose questions ("a win within 30 plies?"), whose
         * proofs follow many slow lines; a position that is won quickly pays
         * for them in full (Test_L1_R1, one line: 17,825 nodes halving,
         * 3,832 from the ends). Once the two ends have come within
         * AB_EDGE_SPAN of the draw, the rest is the near-draw case above:
         * the sign, the test next to its bound, then the halving. Mean nodes
         * a position (--hash 64 --no-cache --clear-hash), halving -> ends:
         * Test_L1_R1 3,274 -> 862; Test_L2_R1 335 -> 348; every 5th line of
         * Test_L2_R2 22,298 -> 20,759; every 5th of Test_L1_R2 770k -> 809k;
         * every 100th of Test_L1_R3 (plies 2-8) 36.3 M -> 36.1 M. Without
         * the change to the sign near the draw, Test_L2_R2 took 28,650. */
        const int ply = O->pos_ply ? O->pos_ply(s->v, pos) : 0;
        const int sign_first = !(o && o->halving_only) && O->pos_ply && ply <= 2;
        int from_ends = !(o && o->halving_only) && !wdl_only && O->pos_ply && ply >= AB_EDGE_PLY;
        int end_side = 0;   /* the side of the last test from the ends: 1 the win's */
        int near_draw = 0;  /* the ends came near the draw: the sign next */
        int sign_tested = 0;
        while (ulo < uhi) {
            const int sign_known = ulo > 0 || uhi < 0 || (ulo == 0 && uhi == 0);
            if (wdl_only && sign_known) break;
            int med = ulo + (uhi - ulo) / 2;
            if (med <= 0 && ulo / 2 < med) med = ulo / 2;
            else if (med >= 0 && uhi / 2 > med) med = uhi / 2;
            if (from_ends && ulo < 0 && uhi > 0 && uhi - ulo <= AB_EDGE_SPAN) from_ends = 0, near_draw = 1;
            if (from_ends) {
                end_side = uhi <= 0 ? 0 : ulo >= 0 ? 1 : !end_side;
                med = end_side ? uhi - 1 : ulo;   /* "the fastest win left?" : "not the fastest loss left?" */
            } else if (wdl_only || ((sign_first || near_draw) && !sign_known)) {
                med = ulo < 0 && uhi > 0 ? 0 : ulo < 0 ? -1 : 0;
                sign_tested = 1;
            } else if (sign_tested == 1) {
                med = ulo > 0 ? ulo : uhi - 1;
                sign_tested = 2;
            }
            val_t x = ab_u_val(med, R);
            val_t r = ab_test(p, s, pos, x, aborted);
            if (*aborted) break;
            if (r <= x) { int u = ab_u_hi(r, R); if (u > med) u = med; if (u < uhi) uhi = u; *tested |= 2; }
            else { int u = ab_u_lo(r, R); if (u < med + 1) u = med + 1; if (u > ulo) ulo = u; *tested |= 1; }
            if (uhi < ulo) { *crossed = 1; return; }   /* a bound we started from is false */
            *lo = ab_u_val(ulo, R);
            *hi = ab_u_val(uhi, R);
            ab_report(o, s, *lo, *hi, t0);
        }
        return;
    }
    /* Games with repetitions: "a win within d plies?" and "a loss within d
     * plies?" first, d = 16 .. 128. The window bounds such a test's depth
     * (no line runs past d), where the open questions below follow lines
     * until a position repeats; once the sign is known every test left is
     * bounded too. (Every win of up to 4 pieces is shorter than 128.) */
    for (int d = 16; O->repetition && d <= 128 && *lo < *hi && *lo < VAL_PROVEN && *hi > -VAL_PROVEN; d *= 2) {
        for (int side = 0; side < 2 && *lo < *hi; side++) {
            val_t x = side == 0 ? val_win(d + 1) : val_loss(d);   /* value > x: a win within d; not a loss within d */
            if (*lo > x || *hi <= x) continue;
            val_t r = ab_test(p, s, pos, x, aborted);
            if (*aborted) return;
            if (r <= x ? r < *lo : r > *hi) { *crossed = 1; return; }
            if (r <= x) *hi = r < *hi ? r : *hi;
            else *lo = r > *lo ? r : *lo;
            *tested |= r <= x ? 2 : 1;
            ab_report(o, s, *lo, *hi, t0);
        }
    }
    while (*lo < *hi) {
        if (wdl_only && (*lo > VAL_DRAW || *hi < VAL_DRAW || (*lo >= VAL_DRAW && *hi <= VAL_DRAW)))
            break;
        val_t x;
        if (*lo < VAL_DRAW && *hi > VAL_DRAW) x = VAL_DRAW;          /* a win? */
        else if (*lo < VAL_DRAW && *hi == VAL_DRAW) x = VAL_DRAW - 1; /* a draw? */
        else if (*lo == VAL_DRAW) x = VAL_DRAW;
        else x = *lo + (*hi - *lo) / 2;                              /* how far? */
        val_t r = ab_test(p, s, pos, x, aborted);
        if (*aborted) return;
        if (r <= x ? r < *lo : r > *hi) { *crossed = 1; return; }   /* a bound we started from is false */
        if (r <= x) *hi = r < *hi ? r : *hi;
        else *lo = r > *lo ? r : *lo;
        *tested |= r <= x ? 2 : 1;
        ab_report(o, s, *lo, *hi, t0);
    }
}

static void ab_pool_free(ab_pool_t *p)
{
    for (int i = 0; p->lines && i < p->n; i++) free(p->lines[i]);
    free(p->lines);
    free(p->jobs);
    free(p->busy);
    p->lines = NULL;
    p->jobs = NULL;
    p->busy = NULL;
}

/* Threads for s (one when memory is short). */
static void ab_pool_init(ab_pool_t *p, int threads, const ab_t *s)
{
    p->n = threads < 1 ? 1 : threads;
    p->lines = NULL;
    p->jobs = p->n > 1 ? calloc((size_t)p->n, sizeof *p->jobs) : NULL;
    p->busy = p->jobs ? calloc(AB_BUSY_SLOTS, sizeof *p->busy) : NULL;   /* (none: no deferring) */
    if (p->jobs && s->line) {
        p->lines = calloc((size_t)p->n, sizeof *p->lines);
        for (int i = 0; p->lines && i < p->n; i++)
            if (!(p->lines[i] = ab_line_new(s->line->base))) { ab_pool_free(p); break; }
    }
    if (!p->jobs) p->n = 1;
}

static int ab_find_best(ab_pool_t *p, ab_t *s, const void *pos, val_t value, move_t *best, int *aborted);

int ab_solve(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
             ab_result_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    r->best = MOVE_NONE;
    double t0 = gsw_now_ms();
    ab_t s;
    ab_init(&s, v, tt, o);
    tt_new_search(tt);
    val_t tv;
    int over = v->ops->terminal(v, pos, &tv);
    if (!over && s.count && game_count_left(v, pos) == 0) { over = 1; tv = VAL_DRAW; }   /* the move-count rule's draw */
    if (over) {
        r->lo = r->hi = tv;
        r->time_ms = gsw_now_ms() - t0;
        return GSW_OK;
    }
    s.fold = v->ops->pos_symmetric && v->ops->pos_symmetric(v, pos);
    if (ab_line_setup(&s, o, err)) return err->code;
    ab_pool_t p;
    ab_pool_init(&p, o ? o->threads : 1, &s);
    val_t lo, hi, root_lo, root_hi;
    ab_root_bounds(&s, pos, &root_lo, &root_hi);
    if (o && o->known) {   /* proven elsewhere: the search starts inside them */
        if (o->known_lo > root_lo) root_lo = o->known_lo;
        if (o->known_hi < root_hi) root_hi = o->known_hi;
        if (root_lo > root_hi) {
            ab_pool_free(&p);
            free(s.line);
            return err_set(err, GSW_EFAIL, "alpha-beta: the known bounds [%d, %d] contradict the game's or the "
                           "table's", (int)o->known_lo, (int)o->known_hi);
        }
    }
    lo = root_lo;
    hi = root_hi;
    int aborted = 0, crossed = 0, tested = 0;
    if (o && o->seeded) {   /* resume from bounds proven before */
        if (o->seed_lo > root_hi || o->seed_hi < root_lo || o->seed_lo > o->seed_hi) crossed = 1;
        else {
            int from_seed = (o->seed_lo > lo) | (o->seed_hi < hi) << 1;
            if (o->seed_lo > lo) lo = o->seed_lo;
            if (o->seed_hi < hi) hi = o->seed_hi;
            ab_narrow(&p, &s, pos, &lo, &hi, o, &aborted, &crossed, &tested);
            /* The answer must not rest on a stored bound alone (a fail-soft
             * test may stop exactly on a false one without crossing it):
             * each end the answer needs that no test here moved is proved
             * once more. */
            int need = !(o->wdl_only) ? 3 : lo > VAL_DRAW ? 1 : hi < VAL_DRAW ? 2 : 3;
            int check = from_seed & ~tested & need;
            if (!aborted && !crossed && (check & 1)) {   /* value >= lo? */
                val_t r = ab_test(&p, &s, pos, lo - 1, &aborted);
                if (!aborted && r <= lo - 1) crossed = 1;
            }
            if (!aborted && !crossed && (check & 2)) {   /* value <= hi? */
                val_t r = ab_test(&p, &s, pos, hi, &aborted);
                if (!aborted && r > hi) crossed = 1;
            }
            /* an end the answer does not need, and nothing here proved, is not reported */
            int unproved = from_seed & ~tested & ~need;
            if (unproved & 1) lo = root_lo;
            if (unproved & 2) hi = root_hi;
        }
        if (crossed) {   /* the seed was false: prove the value without it */
            r->contradiction = 1;
            lo = root_lo;
            hi = root_hi;
            aborted = 0;
        }
    }
    if (!(o && o->seeded) || crossed) ab_narrow(&p, &s, pos, &lo, &hi, o, &aborted, &crossed, &tested);
    if (crossed) {   /* the game's bounds or the table disagree with the search: a bug, not a value */
        ab_pool_free(&p);
        free(s.line);
        return err_set(err, GSW_EFAIL, "alpha-beta: the search contradicts the game's bounds or its own table "
                       "(a bug in the search or the game's hooks)");
    }
    if (!aborted && !(o && o->no_best))   /* lo is a lower bound on the best child: some move reaches it */
        ab_find_best(&p, &s, pos, lo, &r->best, &aborted);
    ab_pool_free(&p);
    free(s.line);
    r->lo = lo;
    r->hi = hi;
    r->aborted = aborted;
    r->history_dependent = s.history_dep;
    r->line_full = s.line_full;
    r->nodes = s.nodes;
    r->time_ms = gsw_now_ms() - t0;
    return GSW_OK;
}

/* The first move (in the game's order) whose value reaches `value`. For a
 * win/draw/loss-only result `value` is a class bound: a win bound (>0), a
 * draw (0) or a loss (<0) — the move must keep that class. */
static int ab_find_best(ab_pool_t *p, ab_t *s, const void *pos, val_t value, move_t *best, int *aborted)
{
    const game_ops_t *O = s->v->ops;
    move_t mv[GSW_MAX_MOVES];
    val_t lo, hi;
    int n = O->ab_expand ? O->ab_expand(s->v, pos, mv, &lo, &hi) : 0;
    if (n <= 0) n = O->moves(s->v, pos, mv);
    GSW_POSBUF child[GSW_MAX_POS];
    *best = mv[0];
    uint64_t rh = 0;
    if (s->line) {   /* the children's line holds the root */
        rh = O->pos_hash(s->v, pos);
        ab_line_push(s->line, s->line->base, rh);
    }
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        O->play(s->v, child, mv[i]);
        val_t tv;
        if (O->terminal(s->v, child, &tv)) {
            if (val_up(tv) >= value) { *best = mv[i]; break; }
            continue;
        }
        /* need val_up(c) >= value, i.e. c <= val_down(value) */
        val_t d = val_down(value);
        s->ply = 1;
        val_t c = ab_test(p, s, child, d, aborted);
        s->ply = 0;
        if (*aborted) break;
        if (c <= d) { *best = mv[i]; break; }
    }
    if (s->line) s->line->filter[ab_line_slot(rh)]--;
    if (*aborted) *best = MOVE_NONE;   /* (stopped before a move was proven to reach the value) */
    return 0;
}

int ab_analyze(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
               move_t *moves, ab_result_t *vals, err_t *err)
{
    const game_ops_t *O = v->ops;
    int n = O->moves(v, pos, moves);
    GSW_POSBUF child[GSW_MAX_POS];
    /* games with repetitions: each child's line is o's history and pos */
    ab_options_t co = o ? *o : (ab_options_t){ .threads = 1 };
    uint64_t *line = NULL;
    if (O->repetition) {
        int nh = o && o->history ? o->history_len : 0;
        if (!(line = malloc((size_t)(nh + 1) * sizeof *line))) { err_set(err, GSW_EFAIL, "out of memory"); return -1; }
        if (nh > 0) memcpy(line, o->history, (size_t)nh * sizeof *line);
        line[nh] = O->pos_hash(v, pos);
        co.history = line;
        co.history_len = nh + 1;
    }
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        O->play(v, child, moves[i]);
        int rc = ab_solve(v, tt, child, &co, &vals[i], err);
        if (rc) { free(line); return -1; }
        /* from the mover's side */
        val_t lo = vals[i].lo, hi = vals[i].hi;
        vals[i].lo = val_up(hi);
        vals[i].hi = val_up(lo);
        vals[i].best = moves[i];
        if (vals[i].aborted) { free(line); return i + 1; }
    }
    free(line);
    return n;
}
