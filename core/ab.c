/* Alpha-beta drivers: exact solving by iterated null-window tests (several
 * threads over one table), per-move analysis, and heuristic iterative
 * deepening. The exact search itself is in ab_exact.h. */
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
    volatile int *done;         /* first finisher stops the others */
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
    volatile int done;
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
         * -> 36 M nodes; after 34 (a draw) 42 M -> 25 M. From the third ply
         * on the halving is better: Test_L1_R3's wins by 2 or 3 stones (plies
         * 3-5) took 10-20% more nodes sign first, Test_L1_R1 four times as
         * many. */
        const int sign_first = !(o && o->halving_only) && O->pos_ply && O->pos_ply(s->v, pos) <= 2;
        int sign_tested = 0;
        while (ulo < uhi) {
            const int sign_known = ulo > 0 || uhi < 0 || (ulo == 0 && uhi == 0);
            if (wdl_only && sign_known) break;
            int med = ulo + (uhi - ulo) / 2;
            if (med <= 0 && ulo / 2 < med) med = ulo / 2;
            else if (med >= 0 && uhi / 2 > med) med = uhi / 2;
            if (wdl_only || (sign_first && !sign_known)) {
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
    if (v->ops->terminal(v, pos, &tv)) {
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

/* ---- heuristic search ---- */

/* Past the depth limit the search goes on from unquiet positions (games
 * with pos_quiet: every move; with ab_tactical: the tactical moves after
 * standing pat, every move in check), at most this many plies more. */
#define AB_QUIESCE 32
/* The history heuristic's table: moves that cut off before, by a hash of
 * the move, tried first among the quiet moves. Counts are halved when one
 * passes AB_HIST_MAX, so they stay below the killers' sort keys. */
#define AB_HIST_SIZE 4096
#define AB_HIST_MAX (1u << 28)
static inline uint32_t ab_hist_slot(move_t m) { return (m ^ m >> 12 ^ m >> 24) & (AB_HIST_SIZE - 1); }

/* Did the position at the search's current ply, of hash h, occur before on
 * the line (the search path, then the game's history), with the same side
 * to move? A null move cuts the line: positions before it do not count. */
static int ab_heur_repeated(const ab_t *s, uint64_t h)
{
    for (int p = s->ply - 2; p >= s->heur_floor; p -= 2)
        if (s->heur_line[p] == h) return 1;
    if (s->heur_floor || !s->heur_hist_len || !(s->heur_filter[h >> 6 & 15] >> (h & 63) & 1)) return 0;
    /* history[j] lies len - j plies before the root: the same side moves
     * there when that distance and the ply have the same parity */
    int len = s->heur_hist_len;
    for (int j = len - 2 + (s->ply & 1); j >= 0; j -= 2)
        if (s->heur_hist[j] == h) return 1;
    return 0;
}

/* Sort mv[0..n-1] by the killers at this ply, then the history table, best
 * first (insertion sort, stable: few moves); returns how many killers
 * there were (they lead). */
static int ab_heur_sort_quiet(const ab_t *s, move_t *mv, int n)
{
    uint32_t sc[GSW_MAX_MOVES];
    const move_t *k = s->heur_killer[s->ply];
    int nk = 0;
    for (int i = 0; i < n; i++) {
        move_t m = mv[i];
        uint32_t x;
        if (m == k[0]) { x = 1u << 31; nk++; }
        else if (m == k[1]) { x = 1u << 30; nk++; }
        else x = s->heur_order[ab_hist_slot(m)];
        int j = i;
        for (; j > 0 && sc[j - 1] < x; j--) { sc[j] = sc[j - 1]; mv[j] = mv[j - 1]; }
        sc[j] = x;
        mv[j] = m;
    }
    return nk;
}

/* A quiet move m cut off at this ply, depth plies from the horizon. */
static void ab_heur_reward(ab_t *s, move_t m, int depth)
{
    move_t *k = s->heur_killer[s->ply];
    uint32_t *c = &s->heur_order[ab_hist_slot(m)];
    *c += (uint32_t)(depth * depth);
    if (*c >= AB_HIST_MAX)
        for (int i = 0; i < AB_HIST_SIZE; i++) s->heur_order[i] >>= 1;
    if (k[0] != m) { k[1] = k[0]; k[0] = m; }
}

/* Late-move reduction of the i-th move (0-based) at depth plies. */
static inline int ab_lmr(int depth, int i, int pvnode)
{
    int r = 1 + (depth >= 6 && i >= 8) + (depth >= 10 && i >= 16) - (pvnode && depth < 10);
    return r < 1 ? 1 : r > depth - 2 ? depth - 2 : r;
}

/* Fail-soft principal-variation search of pos to depth plies (quiescence
 * at depth <= 0) in the window (alpha, beta); the line it finds into pv.
 * can_null: the move into pos was no null move. */
static int32_t ab_heur(ab_t *s, const void *pos, int depth, int32_t alpha, int32_t beta,
                       move_t *pv, int *pvlen, int can_null)
{
    const game_ops_t *O = s->v->ops;
    const gv_t *v = s->v;
    s->nodes++;
    *pvlen = 0;
    if ((s->nodes & 0x3ff) == 0 && !s->aborted) {
        /* several threads under a node budget: their nodes together */
        uint64_t spent = s->pool_nodes ? __atomic_add_fetch(s->pool_nodes, 0x400, __ATOMIC_RELAXED) : s->nodes;
        if ((s->stop && *s->stop) || (s->halt && *s->halt) || (s->node_limit && spent >= s->node_limit)
            || (s->deadline_ms > 0 && gsw_now_ms() >= s->deadline_ms))
            s->aborted = 1;
    }
    if (s->aborted) return alpha;
    val_t tv;
    const int root = s->ply == 0;
    const int pvnode = beta - alpha > 1;
    const int tactical = O->ab_tactical != NULL;
    int quiesce = depth <= 0;
    /* the table: every node above the frontier; quiescence nodes are many,
     * short-lived and rarely met again, and a probe each costs a cache
     * miss (with them, chess lost 179 Elo at 40 ms a move) */
    const int use_tt = !quiesce;
    /* the table's bucket is loaded while the game's hooks run */
    uint64_t key = s->heur_line || use_tt ? O->pos_hash(v, pos) : 0;
    const uint64_t tkey = tt_heur_key(key);
    if (use_tt) tt_prefetch(s->tt, tkey);
    if (s->heur_line) {   /* the game has repetitions: a position met again on the line */
        if (s->ply > 0 && ab_heur_repeated(s, key) && O->repetition(v, pos, &tv)) return tv;
        s->heur_line[s->ply] = key;
    }
    if (O->terminal(v, pos, &tv)) return tv;
    if (s->oracle && s->ply > 0) {   /* a database position: its value, or its class as a proven bound */
        val_t olo, ohi;
        if (s->oracle->probe(s->oracle->ctx, v, pos, &olo, &ohi)) {
            if (olo == ohi || olo > VAL_DRAW) return olo;
            if (ohi < VAL_DRAW) return ohi;
        }
    }
    if (!tactical) {   /* unquiet positions go on with every move (checkers: a capture pending) */
        if (quiesce && (depth <= -AB_QUIESCE || !O->pos_quiet || O->pos_quiet(v, pos)))
            return O->evaluate(v, pos);
    } else if (depth <= -AB_QUIESCE) {
        return O->evaluate(v, pos);
    }
    if (s->ply >= AB_MAX_PLY - 1) return O->evaluate(v, pos);

    /* in check: one ply more (within twice the iteration's depth, so that
     * a line of checks cannot run away); never stand pat, never pass */
    const int in_check = O->pos_in_check && (tactical || !quiesce) ? O->pos_in_check(v, pos) : 0;
    if (in_check && !quiesce && s->ply < 2 * s->heur_depth) depth++;

    tt_hit_t h;
    move_t hmove = MOVE_NONE;
    if (use_tt && tt_probe(s->tt, tkey, &h)) {
        hmove = h.move;
        if (!pvnode && !root && !s->heur_no_tt && h.work >= (depth > 0 ? depth : 0)) {
            if (h.lo >= beta) return h.lo;
            if (h.hi <= alpha) return h.hi;
            if (h.lo == h.hi) return h.lo;
        }
    }
    if (root && s->heur_root_move != MOVE_NONE) hmove = s->heur_root_move;

    const int32_t alpha0 = alpha;
    int32_t best = -VAL_INF;
    move_t bestm = MOVE_NONE;
    GSW_POSBUF child[GSW_MAX_POS];
    move_t cpv[64];
    int cpvlen;

    /* the frontier (games with ab_futility): a static evaluation far above
     * beta stands (reverse futility); far below alpha, quiet moves that
     * give no check are skipped below */
    const int32_t fm = tactical && !s->heur_no_prune ? O->ab_futility : 0;
    int32_t stat = -VAL_INF;
    if (fm && !quiesce && !pvnode && !root && !in_check && depth <= 3 && beta > -VAL_PROVEN && beta < VAL_PROVEN
        && alpha > -VAL_PROVEN) {
        stat = O->evaluate(v, pos);
        if (stat - fm * depth >= beta) return stat - fm * depth;
    }
    if (quiesce && tactical && !in_check) {   /* stand pat */
        best = O->evaluate(v, pos);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    } else if (!pvnode && !root && !in_check && can_null && O->play_null && !s->heur_no_prune && depth >= 2
               && beta > -VAL_PROVEN && beta < VAL_PROVEN) {
        /* null move: if passing still holds beta, a move will too */
        if ((stat > -VAL_INF ? stat : O->evaluate(v, pos)) >= beta) {
            memcpy(child, pos, O->pos_size);
            if (O->play_null(v, child)) {
                int R = depth >= 7 ? 3 : 2;
                int floor = s->heur_floor;
                s->ply++;
                s->heur_floor = s->ply;
                int32_t sc = val_up(ab_heur(s, child, depth - 1 - R, val_down(beta), val_down(beta - 1), cpv,
                                            &cpvlen, 0));
                s->heur_floor = floor;
                s->ply--;
                if (s->aborted) return alpha;
                if (sc >= beta) {
                    if (sc >= VAL_PROVEN) sc = beta;   /* a pass proves nothing */
                    if (!s->heur_no_tt) tt_store_heur(s->tt, tkey, sc, VAL_WIN, MOVE_NONE, depth, s->heur_gen);
                    return sc;
                }
            }
        }
    }

    move_t mv[GSW_MAX_MOVES];
    val_t lo = -VAL_WIN + 1, hi = VAL_WIN - 1;
    int n;
    if (O->ab_expand && s->ply > 0) {   /* the root needs its moves for the PV */
        n = O->ab_expand(v, pos, mv, &lo, &hi);
        if (lo >= hi) return lo;
    } else {
        n = O->moves(v, pos, mv);
    }
    if (root && s->heur_nexcl) {   /* multi-PV: the lines before took these */
        int k = 0;
        for (int i = 0; i < n; i++) {
            int x = 0;
            for (int j = 0; j < s->heur_nexcl && !x; j++) x = mv[i] == s->heur_excl[j];
            if (!x) mv[k++] = mv[i];
        }
        n = k;
    }
    /* order: the table's move, then (ab_tactical) the tactical moves in the
     * game's order, the killers, the other quiet moves by history; games
     * without ab_tactical: ab_order, else killers and history for all */
    int qstart = 0, nkill = 0, hash_quiet = 0;
    if (tactical) {
        int nt = O->ab_tactical(v, pos, mv, n);
        if (quiesce && !in_check) n = nt;   /* quiescence: tactical moves only */
        else if (nt < n) nkill = ab_heur_sort_quiet(s, mv + nt, n - nt);
        qstart = nt;
    } else if (!quiesce) {
        if (O->ab_order) O->ab_order(v, pos, mv, n);
        else if (s->heur_order) nkill = ab_heur_sort_quiet(s, mv, n);
    }
    if (hmove != MOVE_NONE && (!quiesce || tactical)) {
        for (int i = 0; i < n; i++)
            if (mv[i] == hmove) {   /* to the front, the others keeping their order */
                memmove(mv + 1, mv, (size_t)i * sizeof *mv);
                mv[0] = hmove;
                if (tactical && i >= qstart) {
                    hash_quiet = 1;
                    if (i < qstart + nkill) nkill--;
                    qstart++;
                }
                break;
            }
    }
    const int lmr = tactical && !s->heur_no_prune && !in_check && depth >= 3;
    const int futile = stat > -VAL_INF && depth <= 2 && stat + fm * depth <= alpha;

    s->ply++;
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv[i]);
        const int quiet = tactical ? (i == 0 ? hash_quiet || qstart == 0 : i >= qstart) : 1;
        int32_t sc;
        if (futile && quiet && i > 0 && !(O->pos_in_check && O->pos_in_check(v, child))) {
            /* it cannot reach alpha: counted as worth what the frontier allows */
            if (stat + fm * depth > best) best = stat + fm * depth;
            continue;
        }
        if (i == 0) {
            sc = val_up(ab_heur(s, child, depth - 1, val_down(beta), val_down(alpha), cpv, &cpvlen, 1));
        } else {   /* null window first (principal variation search) */
            int r = 0;
            if (lmr && quiet && i >= 3 && i >= qstart + nkill && !(O->pos_in_check && O->pos_in_check(v, child)))
                r = ab_lmr(depth, i, pvnode);
            sc = val_up(ab_heur(s, child, depth - 1 - r, val_down(alpha + 1), val_down(alpha), cpv, &cpvlen, 1));
            if (r && sc > alpha && !s->aborted)   /* the reduced search failed high: the full depth */
                sc = val_up(ab_heur(s, child, depth - 1, val_down(alpha + 1), val_down(alpha), cpv, &cpvlen, 1));
            if (sc > alpha && sc < beta && !s->aborted)
                sc = val_up(ab_heur(s, child, depth - 1, val_down(beta), val_down(alpha), cpv, &cpvlen, 1));
        }
        if (s->aborted) break;
        if (sc > best) {
            best = sc;
            bestm = mv[i];
            if (sc > alpha) {
                alpha = sc;
                pv[0] = mv[i];
                int k = cpvlen < 63 ? cpvlen : 62;
                memcpy(pv + 1, cpv, (size_t)k * sizeof *pv);
                *pvlen = k + 1;
                if (alpha >= beta) {
                    if (s->heur_order && !quiesce && quiet) {
                        s->ply--;
                        ab_heur_reward(s, mv[i], depth);
                        s->ply++;
                    }
                    break;
                }
            }
        }
    }
    s->ply--;
    if (s->aborted) return best > -VAL_INF ? best : alpha0;   /* the caller discards it */
    if (use_tt && !(root && s->heur_nexcl)) {   /* (a root without some moves is not the root) */
        if (best >= beta) tt_store_heur(s->tt, tkey, best, VAL_WIN, bestm, depth, s->heur_gen);
        else if (best > alpha0) tt_store_heur(s->tt, tkey, best, best, bestm, depth, s->heur_gen);
        else tt_store_heur(s->tt, tkey, -VAL_WIN, best, MOVE_NONE, depth, s->heur_gen);
    }
    return best;
}

/* The first legal move of pos (MOVE_NONE when the game is over). */
static move_t ab_any_move(const gv_t *v, const void *pos)
{
    val_t tv;
    move_t mv[GSW_MAX_MOVES];
    if (v->ops->terminal(v, pos, &tv)) return MOVE_NONE;
    return v->ops->moves(v, pos, mv) > 0 ? mv[0] : MOVE_NONE;
}

/* Lazy SMP: a helper thread deepens the root on its own (its own history,
 * killers and line) over the caller's table, until the caller's search
 * ends (halt). What it stores orders and cuts the caller's search; its
 * own results are never read. */
typedef struct ab_helper {
    ab_t s;
    const void *pos;
    int d0, maxd;
    pthread_t th;
    uint32_t order[AB_HIST_SIZE];
    move_t killer[AB_MAX_PLY][2];
    uint64_t line[AB_MAX_PLY];
} ab_helper_t;

static void *ab_helper_run(void *arg)
{
    ab_helper_t *h = arg;
    ab_t *s = &h->s;
    move_t pv[64];
    int pvlen = 0;
    for (int d = h->d0; d <= h->maxd && !*s->halt; d++) {
        s->heur_depth = d;
        int32_t sc = ab_heur(s, h->pos, d, -VAL_INF, VAL_INF, pv, &pvlen, 0);
        if (s->aborted || val_is_proven_decisive(sc)) break;
        s->heur_root_move = pvlen ? pv[0] : MOVE_NONE;
    }
    return NULL;
}

/* The nodes of the caller's thread and its helpers (while they run: their
 * counters as last seen; after the join: exact). */
static uint64_t ab_think_nodes(const ab_t *s, ab_helper_t *const *help, int nh)
{
    uint64_t n = s->nodes;
    for (int i = 0; i < nh; i++) n += __atomic_load_n(&help[i]->s.nodes, __ATOMIC_RELAXED);
    return n;
}

/* Multi-PV: one root move's line at a depth. */
typedef struct ab_pvline {
    int32_t score;
    int pvlen;
    move_t pv[64];
} ab_pvline_t;

static int ab_excluded(const move_t *excl, int n, move_t m)
{
    for (int i = 0; i < n; i++)
        if (excl[i] == m) return 1;
    return 0;
}

int ab_think(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
             ab_result_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    r->best = MOVE_NONE;
    r->multipv = 1;
    if (!v->ops->evaluate)
        return err_set(err, GSW_EINPUT, "%s has no heuristic evaluation", v->game->name);
    double t0 = gsw_now_ms();
    ab_t s;
    ab_init(&s, v, tt, o);
    uint64_t line[AB_MAX_PLY];
    if (v->ops->repetition) {   /* the line: the game's history, then the search path */
        s.heur_line = line;
        if (o && o->history && o->history_len > 0) {
            s.heur_hist = o->history;
            s.heur_hist_len = o->history_len;
            for (int j = 0; j < o->history_len; j++)
                s.heur_filter[o->history[j] >> 6 & 15] |= 1ull << (o->history[j] & 63);
        }
    }
    uint32_t order[AB_HIST_SIZE];
    move_t killer[AB_MAX_PLY][2];
    if (!v->ops->ab_order || v->ops->ab_tactical) {
        memset(order, 0, sizeof order);
        memset(killer, 0xff, sizeof killer);   /* MOVE_NONE */
        s.heur_order = order;
        s.heur_killer = killer;
    }
    s.heur_no_prune = o && o->no_prune;
    s.heur_no_tt = o && o->no_tt_cuts;
    s.heur_root_move = MOVE_NONE;
    /* the generation: a search of another root marks its entries apart
     * (the table keeps no state: the root's hash picks it) */
    uint64_t rh = v->ops->pos_hash(v, pos);
    s.heur_gen = (unsigned)((rh ^ rh >> 29 ^ rh >> 47) * 0x9E3779B97F4A7C15ull >> 61);
    int maxd = o && o->depth_limit > 0 ? o->depth_limit : 64;

    /* multi-PV: at most a line per root move; cur holds this depth's lines,
     * prev the last depth's (best first: they order the next) */
    int lines = o && o->multipv > 1 ? o->multipv : 1;
    ab_pvline_t *lbuf = NULL, *cur = NULL, *prev = NULL;
    int nprev = 0;
    move_t excl[GSW_MAX_MOVES];
    if (lines > 1) {
        val_t tv;
        move_t mv[GSW_MAX_MOVES];
        int n = v->ops->terminal(v, pos, &tv) ? 0 : v->ops->moves(v, pos, mv);
        if (lines > n) lines = n > 1 ? n : 1;
        if (lines > 1 && !(lbuf = malloc(2 * (size_t)lines * sizeof *lbuf))) lines = 1;   /* (short of memory: one) */
        cur = lbuf;
        prev = lbuf ? lbuf + lines : NULL;
    }
    s.heur_excl = excl;

    /* lazy SMP: the helpers start now and stop when this thread's search
     * ends; a node budget is theirs and this thread's together (each adds
     * its nodes to spent every 1,024). Short of memory or threads, fewer. */
    volatile int halt = 0;
    uint64_t spent = 0;
    int want = o && o->threads > 1 ? o->threads - 1 : 0, nh = 0;
    ab_helper_t **help = want ? calloc((size_t)want, sizeof *help) : NULL;
    if (help && s.node_limit) s.pool_nodes = &spent;
    for (int i = 0; help && i < want; i++) {
        ab_helper_t *h = malloc(sizeof *h);
        if (!h) break;
        h->s = s;
        h->s.nodes = 0;
        h->s.thread_id = i + 1;
        h->s.halt = &halt;
        h->s.heur_excl = NULL;
        h->s.heur_line = s.heur_line ? h->line : NULL;
        if (s.heur_order) {
            memset(h->order, 0, sizeof h->order);
            memset(h->killer, 0xff, sizeof h->killer);
            h->s.heur_order = h->order;
            h->s.heur_killer = h->killer;
        }
        h->pos = pos;
        /* every other one a ply ahead: the threads' iterations interleave
         * rather than repeat each other's */
        h->d0 = 1 + ((i + 1) & 1);
        h->maxd = maxd;
        if (pthread_create(&h->th, NULL, ab_helper_run, h)) {
            free(h);
            break;
        }
        help[nh++] = h;
    }

    for (int d = 1; d <= maxd; d++) {
        move_t pv[64];
        int pvlen = 0;
        s.heur_depth = d;
        int32_t sc = ab_heur(&s, pos, d, -VAL_INF, VAL_INF, pv, &pvlen, 0);
        if (s.aborted && d > 1) break;
        if (s.aborted && !pvlen) break;
        const int first_done = !s.aborted;
        int nl = 1;   /* multi-PV: the depth's lines finished */
        if (lines > 1 && first_done) {
            cur[0].score = sc;
            cur[0].pvlen = pvlen;
            memcpy(cur[0].pv, pv, sizeof pv);
            for (; nl < lines; nl++) {   /* line nl + 1: without the moves of the lines before */
                excl[nl - 1] = cur[nl - 1].pv[0];
                s.heur_nexcl = nl;
                s.heur_root_move = MOVE_NONE;   /* first: the best of the last depth's lines left */
                for (int i = 0; i < nprev && s.heur_root_move == MOVE_NONE; i++)
                    if (!ab_excluded(excl, nl, prev[i].pv[0])) s.heur_root_move = prev[i].pv[0];
                ab_pvline_t *L = &cur[nl];
                L->pvlen = 0;
                L->score = ab_heur(&s, pos, d, -VAL_INF, VAL_INF, L->pv, &L->pvlen, 0);
                if (s.aborted || !L->pvlen) break;
            }
            s.heur_nexcl = 0;
            /* best first (a later line may beat an earlier one: pruning,
             * the table); stable, so ties keep the order searched */
            for (int i = 1; i < nl; i++) {
                ab_pvline_t t = cur[i];
                int j = i;
                for (; j > 0 && cur[j - 1].score < t.score; j--) cur[j] = cur[j - 1];
                cur[j] = t;
            }
            sc = cur[0].score;
            pvlen = cur[0].pvlen;
            memcpy(pv, cur[0].pv, sizeof pv);
            ab_pvline_t *t = prev;
            prev = cur;
            cur = t;
            nprev = nl;
        }
        r->score = sc;
        r->depth = d;
        memcpy(r->pv, pv, sizeof pv);
        r->pvlen = pvlen;
        r->best = pvlen ? pv[0] : MOVE_NONE;
        s.heur_root_move = r->best;
        r->proven = val_is_proven_decisive(sc);
        if (!first_done) break;
        if (o && o->on_iter) {
            r->nodes = ab_think_nodes(&s, help, nh);
            r->time_ms = gsw_now_ms() - t0;
            if (lines <= 1) {
                o->on_iter(o->on_iter_ctx, r);
            } else {
                for (int i = 0; i < nl; i++) {   /* the lines finished, best first */
                    ab_result_t x = *r;
                    x.multipv = i + 1;
                    x.score = prev[i].score;
                    x.pvlen = prev[i].pvlen;
                    memcpy(x.pv, prev[i].pv, sizeof x.pv);
                    x.best = x.pvlen ? x.pv[0] : MOVE_NONE;
                    x.proven = val_is_proven_decisive(x.score);
                    o->on_iter(o->on_iter_ctx, &x);
                }
            }
        }
        if (s.aborted || r->proven) break;
    }
    halt = 1;
    for (int i = 0; i < nh; i++) pthread_join(help[i]->th, NULL);
    uint64_t nodes = ab_think_nodes(&s, help, nh);
    for (int i = 0; i < nh; i++) free(help[i]);
    free(help);
    free(lbuf);
    if (r->best == MOVE_NONE) r->best = ab_any_move(v, pos);   /* stopped at once: still a move */
    r->nodes = nodes;
    r->time_ms = gsw_now_ms() - t0;
    r->aborted = s.aborted;
    return GSW_OK;
}
