/* The cached solver (see solver.h) and the words for values. */
#include "solve/solver.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dfpn.h"
#include "core/manager.h"
#include "solve/book.h"
#include "solve/strong.h"

int solver_init(solver_t *s, gv_t *v, size_t hash_mb, cache_t *cache, err_t *err)
{
    memset(s, 0, sizeof *s);
    s->v = v;
    s->cache = cache;
    s->ab.threads = 1;
    s->goal = -1;
    return tt_init(&s->tt, hash_mb, err);
}

void solver_free(solver_t *s)
{
    if (s->egdb.set) egdb_oracle_close(&s->egdb);
    strong_close(s->strong);
    s->strong = NULL;
    book_free(s->book);
    s->book = NULL;
    book_free(s->shipped);
    s->shipped = NULL;
    tt_free(&s->tt);
    dfpn_table_free(&s->pn);
}

static void solver_say(solver_t *s, const char *msg);
static int solver_settled(const solver_t *s, val_t lo, val_t hi);

int solver_open_egdb(solver_t *s, const char *dir, const char *db, err_t *err)
{
    char d[sizeof s->egdb_dir];   /* (dir may be s->egdb_dir itself) */
    if (dir) snprintf(d, sizeof d, "%s", dir);
    if (s->egdb.set) egdb_oracle_close(&s->egdb);
    s->ab.oracle = NULL;
    s->egdb_dir[0] = 0;
    if (!s->v->ops->retro) return solver_open_strong(s, NULL, db, err);
    if (!dir && egdb_default_dir(db, d, sizeof d, err)) return err->code;
    memcpy(s->egdb_dir, d, sizeof d);
    int rc = egdb_oracle_open(&s->egdb, s->v, s->egdb_dir, err);
    if (rc < 0) return err->code;
    if (rc > 0) s->ab.oracle = &s->egdb.oracle;
    return GSW_OK;
}

/* The databases' answer for pos: 1 (a filled, with the best move found by
 * probing every move) when they hold it and it settles the question. */
/* Endings built on demand: build the one pos belongs to when its distance
 * file is missing, then open the databases again. */
static void solver_egdb_build(solver_t *s, const void *pos)
{
    const retro_game_t *rg = s->v->ops->retro;
    uint64_t slice, index;
    int flipped;
    if (!rg || !rg->mate_metric || !s->egdb_dir[0] || !rg->locate(s->v, pos, &slice, &index, &flipped)) return;
    egdb_set_t *set;
    err_t err;
    if (egdb_set_open(s->v, s->egdb_dir, &set, &err)) return;
    if (egdb_slice_present(set, RETRO_DTW, slice)) {   /* built already */
        egdb_set_close(set);
        return;
    }
    char name[64], msg[400];
    rg->slice_name(s->v, slice, name, sizeof name);
    if (s->ab.time_limit_ms > 0 || s->ab.node_limit) {
        /* a solve with a budget: a build may take minutes and cannot count
           against it, so the search answers alone, and the person is told */
        snprintf(msg, sizeof msg, "the %s tablebase is not built (a solve with a budget does not build it): "
                 "gsw egdb build %s %s; answering from search", name, s->v->game->name, name);
        solver_say(s, msg);
    } else {
        snprintf(msg, sizeof msg, "building the %s tablebase in %.300s", name, s->egdb_dir);
        if (s->note) s->note(s->warn_ctx, msg);
        else solver_say(s, msg);
        egdb_build_options_t bo = { .for_slice = &slice, .metric = RETRO_DTW, .threads = s->ab.threads,
                                    .stop = s->ab.stop };
        egdb_build_report_t rep;
        if (egdb_build(set, &bo, &rep, &err)) {
            if (!(s->ab.stop && *s->ab.stop)) solver_say(s, err.msg);
        } else if (solver_open_egdb(s, s->egdb_dir, NULL, &err))
            solver_say(s, err.msg);
    }
    egdb_set_close(set);
}

int solver_open_strong(solver_t *s, const char *dir, const char *db, err_t *err)
{
    strong_close(s->strong);
    s->strong = NULL;
    if (!strong_supported(s->v)) return GSW_OK;
    char d[1024];
    if (dir) snprintf(d, sizeof d, "%s", dir);
    else if (strong_default_dir(db, d, sizeof d, err)) return err->code;
    err_t e2;
    if (strong_open(&s->strong, s->v, d, &e2) < 0) solver_say(s, e2.msg);   /* the search goes on without it */
    return GSW_OK;
}

static int solver_oracle_answer(solver_t *s, const gsw_oracle_t *o, const void *pos, answer_t *a);

static int solver_egdb(solver_t *s, const void *pos, answer_t *a)
{
    solver_egdb_build(s, pos);
    if (!s->egdb.set) {   /* a strong solution: win/draw/loss at once where that is enough */
        if (!s->strong || !(s->wdl || s->dfpn || s->manager)) return 0;
        int r = solver_oracle_answer(s, &s->strong->oracle, pos, a);
        if (s->strong->damage[0]) solver_say(s, s->strong->damage);
        a->from_strong = r;
        return r;
    }
    int r = solver_oracle_answer(s, &s->egdb.oracle, pos, a);
    if (!r && s->egdb.damaged) solver_say(s, s->egdb.damage);
    return r;
}

/* The root's value from an oracle, where it is enough of an answer, with
 * the best move by its moves' values: 1 answered, 0 not. */
static int solver_oracle_answer(solver_t *s, const gsw_oracle_t *o, const void *pos, answer_t *a)
{
    const game_ops_t *O = s->v->ops;
    double t0 = gsw_now_ms();
    val_t lo, hi;
    if (!o->probe(o->ctx, s->v, pos, &lo, &hi)) return 0;
    if (!solver_settled(s, lo, hi) && !(lo > VAL_DRAW || hi < VAL_DRAW)) return 0;
    /* the best move: the one whose position is worth most to the mover
     * (exact with distance files: fastest win, slowest loss) */
    move_t mv[GSW_MAX_MOVES], best = MOVE_NONE;
    int n = O->moves(s->v, pos, mv);
    val_t bestv = -VAL_INF;
    GSW_POSBUF c[GSW_MAX_POS];
    for (int i = 0; i < n; i++) {
        memcpy(c, pos, O->pos_size);
        O->play(s->v, c, mv[i]);
        val_t cl, ch, tv;
        if (O->terminal(s->v, c, &tv)) cl = ch = tv;
        else if (!o->probe(o->ctx, s->v, c, &cl, &ch)) continue;
        if (val_up(cl) > bestv) { bestv = val_up(cl); best = mv[i]; }
    }
    memset(a, 0, sizeof *a);
    a->r.lo = lo;
    a->r.hi = hi;
    a->r.best = best;
    a->r.time_ms = gsw_now_ms() - t0;
    a->from_egdb = 1;
    return 1;
}

void solver_clear(solver_t *s)
{
    tt_clear(&s->tt);
    dfpn_table_clear(&s->pn);
}

/* A warning through s->warn (else stderr), not twice in a row. */
static void solver_say(solver_t *s, const char *msg)
{
    if (!strcmp(s->warned, msg)) return;
    snprintf(s->warned, sizeof s->warned, "%s", msg);
    if (s->warn) s->warn(s->warn_ctx, msg);
    else fprintf(stderr, "gsw: %s\n", msg);
}

/* Store e for the key. It is written at once when the stores not yet
 * written took SOLVER_FLUSH_MS of solving or more (a kill must not lose a
 * proof that cost anything), or when now is set; cheaper ones wait for the
 * next write or for the cache's closing. A commit costs about 40 us, more
 * than most end-game solves: a 1000-line batch of them (Test_L3_R1) spent
 * 40 of its 70 ms committing. A store that fails is said, not returned:
 * the answer it keeps stands. */
#define SOLVER_FLUSH_MS 100.0
static void solver_keep(solver_t *s, const uint8_t *key, size_t klen, const cache_entry_t *e, int now)
{
    err_t err;
    if (!klen) return;   /* (no key: nothing to store under) */
    s->unflushed_ms += e->time_ms;
    if (cache_put(s->cache, s->v->game->name, s->v->name, key, klen, e, &err)) { solver_say(s, err.msg); return; }
    if (!now && s->unflushed_ms < SOLVER_FLUSH_MS) return;
    s->unflushed_ms = 0;
    if (cache_flush(s->cache, &err)) solver_say(s, err.msg);
}

/* Is [lo, hi] enough of an answer? */
static int solver_settled(const solver_t *s, val_t lo, val_t hi)
{
    if (lo == hi) return 1;
    if (s->goal >= 0 && (s->dfpn || s->manager)) {   /* one goal: does the interval decide it? */
        val_t T = s->goal == DFPN_GOAL_WIN ? 1 : 0;
        return lo >= T || hi < T;
    }
    return s->wdl && (lo > VAL_DRAW || hi < VAL_DRAW || (lo >= VAL_DRAW && hi <= VAL_DRAW));
}

void cache_probe_init(cache_probe_t *p, cache_t *cache)
{
    p->cache = cache;
    p->lock = malloc(sizeof(pthread_mutex_t));
    if (p->lock) pthread_mutex_init(p->lock, NULL);
}

void cache_probe_free(cache_probe_t *p)
{
    if (p->lock) { pthread_mutex_destroy(p->lock); free(p->lock); }
    p->lock = NULL;
}

int cache_probe(void *ctx, const gv_t *v, const void *pos, dfpn_goal_t goal, int attacker, int *proven)
{
    cache_probe_t *p = ctx;
    if (!p || !p->cache || !p->lock) return 0;
    uint8_t key[GSW_MAX_KEY];
    size_t klen = v->ops->pos_key(v, pos, key, NULL);
    cache_entry_t e;
    err_t err;
    pthread_mutex_lock(p->lock);
    int found = cache_get(p->cache, v->game->name, v->name, key, klen, &e, &err);
    pthread_mutex_unlock(p->lock);
    if (found <= 0) return 0;
    val_t T = goal == DFPN_GOAL_WIN ? 1 : 0;   /* the bounds are the side to move's */
    if (attacker ? e.lo >= T : e.hi <= -T) { *proven = 1; return 1; }
    if (attacker ? e.hi < T : e.lo > -T) { *proven = 0; return 1; }
    return 0;
}

/* The manager's answer in df-pn's terms: win?, then at least a draw? */
static int solver_manager(solver_t *s, const void *pos, dfpn_result_t *d, err_t *err)
{
    memset(d, 0, sizeof *d);
    double t0 = gsw_now_ms();
    cache_probe_t probe;
    cache_probe_init(&probe, s->cache);
    manager_options_t o = { .workers = s->ab.threads, .hash_mb = (s->tt.bytes >> 20) / (s->ab.threads > 0 ? s->ab.threads : 1) + 1,
                            .stop = s->ab.stop, .time_limit_ms = s->ab.time_limit_ms, .node_limit = s->ab.node_limit,
                            .history = s->ab.history, .nhistory = s->ab.history_len,
                            .probe = s->cache ? cache_probe : NULL, .probe_ctx = &probe, .oracle = s->ab.oracle };
    d->best = MOVE_NONE;
    int g0 = s->goal >= 0 ? s->goal : DFPN_GOAL_WIN, g1 = s->goal >= 0 ? s->goal : DFPN_GOAL_DRAW;
    for (int g = g0; g <= g1; g++) {
        manager_t m;
        int done;
        dfpn_status_t st;
        if (manager_init(&m, (dfpn_goal_t)g, err)) return err->code;
        int rc = manager_run(&m, s->v, pos, &o, &done, &st, err);
        d->nodes += m.solver_nodes;
        d->runs++;
        if (!rc && done && st == DFPN_PROVEN && m.n > 0 && m.node[0].first_child >= 0)   /* a proving child is a best move */
            for (int c = m.node[0].first_child; c < m.node[0].first_child + m.node[0].nchildren; c++)
                if (m.node[c].pn == 0 && !manager_assumes(&m, c)) { d->best = m.node[c].move; break; }
        manager_free(&m);
        if (rc) { cache_probe_free(&probe); return rc; }
        if (!done) { d->outcome = OUTCOME_UNKNOWN; break; }
        d->status = st;
        if (g == DFPN_GOAL_WIN && st == DFPN_PROVEN) { d->outcome = OUTCOME_WIN; break; }
        if (g == DFPN_GOAL_DRAW) d->outcome = st == DFPN_PROVEN ? OUTCOME_DRAW : OUTCOME_LOSS;
    }
    cache_probe_free(&probe);
    d->time_ms = gsw_now_ms() - t0;
    return GSW_OK;
}

/* A game whose positions repeat, solved with the line before it (ab.history):
 * the answer is about this line, and the cache holds values of positions
 * (no history), so it is neither read nor, unless the search says its
 * answer holds whatever the line, written. */
static int solver_on_line(const solver_t *s)
{
    return s->v->ops->repetition && s->ab.history && s->ab.history_len > 0;
}

/* A book kept for one variant (*b, and the variant it was looked for in
 * spec): 1 when s's variant is another (the book goes, spec is s's), 0
 * when it is the same. */
static int solver_new_variant(solver_t *s, char *spec, size_t n, book_t **b)
{
    char now[96];
    game_spec(s->v, now, sizeof now);
    if (!strcmp(now, spec)) return 0;
    book_free(*b);
    *b = NULL;
    snprintf(spec, n, "%s", now);
    return 1;
}

/* The shipped opening book of s's variant (solve/book.h), for a position
 * at ply ply: NULL when there is none, or when it stops above that ply (its
 * file's header says so before it is opened) (a process that asks only past the book never loads
 * it: about 35 ms and 30 MB for the 7x6 book). Opened whole on the first
 * position it may hold; a missing or damaged file is said once and left
 * alone (a header that cannot be read leaves that to the whole read). */
static book_t *solver_shipped(solver_t *s, int ply)
{
    if (s->no_book) return NULL;
    char path[1100];
    if (solver_new_variant(s, s->shipped_for, sizeof s->shipped_for, &s->shipped)) {
        s->shipped_ply = -1;
        if (book_shipped_path(s->v, path, sizeof path)) {
            int d = book_file_depth(path);
            s->shipped_ply = d < 0 ? INT_MAX : d;
        }
    }
    if (ply > s->shipped_ply) return NULL;
    if (s->shipped) return s->shipped;
    /* the one try: opened, its own deepest ply stands; refused, no other */
    err_t err;
    book_file_report_t r;
    s->shipped_ply = -1;
    if (!book_shipped_path(s->v, path, sizeof path)) return NULL;
    if (book_open_file(&s->shipped, s->v, path, &r, &err)) {
        char msg[sizeof s->warned];
        snprintf(msg, sizeof msg, "opening book: %.440s; going on without it", err.msg);
        solver_say(s, msg);
        return NULL;
    }
    s->shipped_ply = book_max_ply(s->shipped);
    return ply > s->shipped_ply ? NULL : s->shipped;
}

/* The shipped book's answer for pos: 1 when it holds pos (a filled), with
 * the best move where its moves' values name it; when they do not (pos is
 * on the book's last ply) and want_best is set, 0: the cache or a search
 * finds the move, and known (when not NULL) gets the book's bounds. */
static int solver_book_answer(solver_t *s, const void *pos, answer_t *a, int want_best, val_t known[2])
{
    const game_ops_t *O = s->v->ops;
    book_t *b = solver_shipped(s, O->pos_ply(s->v, pos));
    if (!b) return 0;
    const gsw_oracle_t *o = book_oracle(b);
    answer_t t;
    if (!solver_oracle_answer(s, o, pos, &t)) return 0;
    if (t.r.best != MOVE_NONE) {   /* named among the moves the book knows: is it worth the value? */
        GSW_POSBUF c[GSW_MAX_POS];
        val_t cl = -VAL_INF, ch, tv;
        memcpy(c, pos, O->pos_size);
        O->play(s->v, c, t.r.best);
        if (O->terminal(s->v, c, &tv)) cl = tv;
        else o->probe(o->ctx, s->v, c, &cl, &ch);
        if (val_up(cl) != t.r.lo) t.r.best = MOVE_NONE;
    }
    if (want_best && t.r.best == MOVE_NONE) {
        if (known) {
            known[0] = t.r.lo;
            known[1] = t.r.hi;
        }
        return 0;
    }
    *a = t;
    a->from_book = 1;
    return 1;
}

/* Does a stored row whose bounds settle the question hold the rest of
 * what a solve promises? A best move (unless the solve wants none, or the
 * game is over at pos): a search stopped after proving the value but
 * before finding its move stores the value alone, and the next solve must
 * finish the job (it starts from the stored bounds), not answer without
 * the move. */
static int solver_row_whole(const solver_t *s, const void *pos, const cache_entry_t *e, int want_best)
{
    val_t tv;
    return !want_best || e->best != MOVE_NONE || s->v->ops->terminal(s->v, pos, &tv);
}

/* The cache's answer for pos: 1 when it settles the question (a filled),
 * 0 when not (the row's bounds, if any, become the solve's seed), -1 on
 * error. The shipped book comes first; known (when not NULL) gets its
 * bounds for a position it holds without a best move. */
static int solver_lookup(solver_t *s, const void *pos, answer_t *a, uint8_t *key, size_t *klen, int *sym,
                         int want_best, val_t known[2], err_t *err)
{
    const game_ops_t *O = s->v->ops;
    memset(a, 0, sizeof *a);
    s->ab.seeded = 0;
    *klen = 0;
    *sym = 0;
    if (!solver_on_line(s) && solver_book_answer(s, pos, a, want_best, known)) return 1;
    if (s->cache) *klen = O->pos_key(s->v, pos, key, sym);   /* (a search on a line may store under it) */
    if (!s->cache || solver_on_line(s)) return solver_on_line(s) ? 0 : solver_egdb(s, pos, a);
    double t0 = gsw_now_ms();
    cache_entry_t e;
    int found = cache_get(s->cache, s->v->game->name, s->v->name, key, *klen, &e, err);
    if (found < 0) return -1;
    s->ab.seeded = found;   /* a partial proof from before: resume from it */
    s->ab.seed_lo = e.lo;
    s->ab.seed_hi = e.hi;
    if (!found || !solver_settled(s, e.lo, e.hi) || !solver_row_whole(s, pos, &e, want_best)) {
        if (!solver_egdb(s, pos, a)) return 0;
        s->ab.seeded = 0;
        return 1;
    }
    a->r.lo = e.lo;
    a->r.hi = e.hi;
    a->r.best = e.best == MOVE_NONE || !*sym ? e.best : O->move_sym(s->v, e.best, *sym, 1);
    a->r.time_ms = gsw_now_ms() - t0;
    a->from_cache = 1;
    return 1;
}

int solver_cached(solver_t *s, const void *pos, answer_t *a, err_t *err)
{
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    int sym;
    return solver_lookup(s, pos, a, key, &klen, &sym, 0, NULL, err);
}

/* The opening book as the search's oracle for a root above its deepest
 * ply (deeper roots never meet its positions: no probes): the shipped
 * book, else the cache's, loaded on the first search of each variant;
 * NULL: none. */
static const gsw_oracle_t *solver_book(solver_t *s, const void *pos)
{
    int ply = s->v->ops->pos_ply(s->v, pos);
    book_t *shipped = solver_shipped(s, ply + 1);   /* (one that goes deeper than the root) */
    if (shipped) return book_oracle(shipped);
    if (!s->cache || s->no_book) return NULL;
    if (solver_new_variant(s, s->book_for, sizeof s->book_for, &s->book)) {
        err_t err;
        if (book_load(&s->book, s->v, s->cache, &err) < 0) solver_say(s, err.msg);
    }
    if (!s->book || s->v->ops->pos_ply(s->v, pos) >= book_max_ply(s->book)) return NULL;
    return book_oracle(s->book);
}

static int solver_search(solver_t *s, const void *pos, answer_t *a, const uint8_t *key, size_t klen, int sym,
                         err_t *err);

int solver_run(solver_t *s, const void *pos, answer_t *a, err_t *err)
{
    return solver_run_within(s, pos, -VAL_WIN + 1, VAL_WIN - 1, a, err);
}

int solver_run_within(solver_t *s, const void *pos, val_t lo, val_t hi, answer_t *a, err_t *err)
{
    uint8_t key[GSW_MAX_KEY];
    size_t klen = 0;
    int sym = 0;
    val_t book[2] = { -VAL_INF, VAL_INF };   /* a position on the book's last ply: its value, the best move to find */
    int found = solver_lookup(s, pos, a, key, &klen, &sym, !s->ab.no_best, book, err);
    if (found) return found < 0 ? err->code : GSW_OK;
    if (book[0] > lo) lo = book[0];
    if (book[1] < hi) hi = book[1];
    s->ab.known = lo > -VAL_WIN + 1 || hi < VAL_WIN - 1;
    s->ab.known_lo = lo;
    s->ab.known_hi = hi;
    const gsw_oracle_t *own = s->ab.oracle;   /* the endgame databases' oracle, if any, comes first */
    if (!own) s->ab.oracle = s->strong ? &s->strong->oracle : solver_book(s, pos);
    int rc = solver_search(s, pos, a, key, klen, sym, err);
    s->ab.known = 0;
    s->ab.oracle = own;
    if (s->strong && s->strong->damage[0]) solver_say(s, s->strong->damage);
    return rc;
}

/* The tables hold what searches stored over the line they were given: a
 * result that rests on a repetition of the line is never stored, but one
 * stored over another line (or none) may pass a position of this one
 * unseen. A search over a line other than the last one's starts cold. */
static void solver_line_tables(solver_t *s)
{
    uint64_t sig = 0;
    if (solver_on_line(s)) {
        sig = 0x9e3779b97f4a7c15ull * (uint64_t)s->ab.history_len;
        for (int i = 0; i < s->ab.history_len; i++) sig += (s->ab.history[i] ^ (s->ab.history[i] >> 29)) * 0xbf58476d1ce4e5b9ull;
        if (!sig) sig = 1;
    }
    if (sig && sig != s->line_sig) solver_clear(s);
    s->line_sig = sig;
}

/* The search after a cache miss: the configured solver, its result stored. */
static int solver_search(solver_t *s, const void *pos, answer_t *a, const uint8_t *key, size_t klen, int sym,
                         err_t *err)
{
    const game_ops_t *O = s->v->ops;
    solver_line_tables(s);
    if (s->dfpn || s->manager) {   /* win/draw/loss by proof numbers: bounds without a distance */
        dfpn_result_t d;
        if (s->manager) {
            if (solver_manager(s, pos, &d, err)) return err->code;
        } else {
            if (!s->pn.e && dfpn_table_init(&s->pn, s->tt.bytes >> 20, err)) return err->code;
            dfpn_options_t o = { .table = &s->pn, .node_limit = s->ab.node_limit, .no_best = s->ab.no_best,
                                 .time_limit_ms = s->ab.time_limit_ms, .stop = s->ab.stop,
                                 .history = s->ab.history, .nhistory = s->ab.history_len,
                                 .oracle = s->ab.oracle };
            if (s->goal >= 0) {
                if (dfpn_prove(s->v, pos, (dfpn_goal_t)s->goal, &o, &d, err)) return err->code;
            } else if (dfpn_solve(s->v, pos, &o, &d, err)) return err->code;
        }
        a->r.nodes = d.nodes;
        a->r.time_ms = d.time_ms;
        a->r.best = d.best;
        a->r.lo = -VAL_WIN + 1;
        a->r.hi = VAL_WIN - 1;
        switch (d.outcome) {
        case OUTCOME_WIN: a->r.lo = val_win(VAL_MAX_PLIES); break;
        case OUTCOME_DRAW: a->r.lo = a->r.hi = VAL_DRAW; break;
        case OUTCOME_LOSS: a->r.hi = val_loss(VAL_MAX_PLIES); break;
        default: a->r.aborted = 1;   /* a run that was stopped proves nothing here */
        }
        if (d.outcome == OUTCOME_UNKNOWN && d.runs == 2) a->r.hi = VAL_DRAW;   /* the win was disproven */
        if (s->goal >= 0) {   /* one goal: its answer as a bound */
            a->r.aborted = d.status == DFPN_UNKNOWN;
            a->r.lo = -VAL_WIN + 1;
            a->r.hi = VAL_WIN - 1;
            if (s->goal == DFPN_GOAL_WIN) {
                if (d.status == DFPN_PROVEN) a->r.lo = val_win(VAL_MAX_PLIES);
                if (d.status == DFPN_DISPROVEN) a->r.hi = VAL_DRAW;
            } else {
                if (d.status == DFPN_PROVEN) a->r.lo = VAL_DRAW;
                if (d.status == DFPN_DISPROVEN) a->r.hi = val_loss(VAL_MAX_PLIES);
            }
            if (d.status == DFPN_UNKNOWN) return GSW_OK;
        } else if (d.outcome == OUTCOME_UNKNOWN) return GSW_OK;
        if (!s->cache || solver_on_line(s)) return GSW_OK;   /* (df-pn does not say whether the line mattered) */
        cache_entry_t e = { .lo = a->r.lo, .hi = a->r.hi, .best = MOVE_NONE, .nodes = d.nodes, .time_ms = d.time_ms };
        snprintf(e.solver, sizeof e.solver, "%s", s->manager ? "manager" : "dfpn");
        if (d.best != MOVE_NONE) e.best = sym ? O->move_sym(s->v, d.best, sym, 0) : d.best;
        solver_keep(s, key, klen, &e, 0);
        return GSW_OK;
    }
    if (ab_solve(s->v, &s->tt, pos, &s->ab, &a->r, err)) return err->code;
    if (s->cache && a->r.contradiction) {   /* the stored row was false: it goes */
        char spec[96], msg[400];
        game_spec(s->v, spec, sizeof spec);
        snprintf(msg, sizeof msg, "cache: the stored bounds [%d, %d] of a %s position contradict a fresh "
                 "search; dropped that row and stored the proven value", (int)s->ab.seed_lo, (int)s->ab.seed_hi, spec);
        solver_say(s, msg);
        err_t derr;
        if (cache_delete(s->cache, s->v->game->name, s->v->name, key, klen, &derr)) solver_say(s, derr.msg);
    }
    if (s->cache && !(solver_on_line(s) && a->r.history_dependent)) {   /* exact, or the bounds proven before a stop */
        cache_entry_t e = { .lo = a->r.lo, .hi = a->r.hi, .best = MOVE_NONE, .nodes = a->r.nodes,
                            .time_ms = a->r.time_ms };
        snprintf(e.solver, sizeof e.solver, "ab");
        if (!a->r.aborted && a->r.best != MOVE_NONE)
            e.best = sym ? O->move_sym(s->v, a->r.best, sym, 0) : a->r.best;
        solver_keep(s, key, klen, &e, 0);
    }
    return GSW_OK;
}

int solver_store(solver_t *s, const void *pos, val_t lo, val_t hi, move_t best, err_t *err)
{
    (void)err;
    if (!s->cache) return GSW_OK;
    const game_ops_t *O = s->v->ops;
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = O->pos_key(s->v, pos, key, &sym);
    cache_entry_t e = { .lo = lo, .hi = hi, .best = MOVE_NONE };
    snprintf(e.solver, sizeof e.solver, "moves");   /* from its moves' values */
    if (best != MOVE_NONE) e.best = sym ? O->move_sym(s->v, best, sym, 0) : best;
    solver_keep(s, key, klen, &e, 1);   /* refused (a stored row contradicts it: cache verify says which is wrong): said */
    return GSW_OK;
}

int solver_conversion(solver_t *s, const void *pos, int *plies)
{
    return s->egdb.set && egdb_oracle_conversion(&s->egdb, pos, plies);
}

int solver_think(solver_t *s, const void *pos, const ab_options_t *o, ab_result_t *r, err_t *err)
{
    ab_options_t ho = *o;
    ho.history = s->ab.history;
    ho.history_len = s->ab.history_len;
    if (!ho.oracle) ho.oracle = s->ab.oracle;   /* the engine plays database positions from the files */
    return ab_think(s->v, &s->tt, pos, &ho, r, err);
}

void value_bound_text(val_t v, char *buf, size_t n)
{
    gvalue_t g = gvalue_from_val(v, BOUND_EXACT);
    if (g.outcome == OUTCOME_WIN || g.outcome == OUTCOME_LOSS)
        snprintf(buf, n, "%s in %d", outcome_name(g.outcome), g.plies);
    else snprintf(buf, n, "draw");
}

void value_text(val_t lo, val_t hi, char *buf, size_t n)
{
    if (lo == hi) {
        gvalue_t g = gvalue_from_val(lo, BOUND_EXACT);
        if (g.outcome == OUTCOME_DRAW) snprintf(buf, n, "draw");
        else snprintf(buf, n, "%s in %d plies", outcome_name(g.outcome), g.plies);
    } else if (lo > VAL_DRAW) snprintf(buf, n, "win");
    else if (hi < VAL_DRAW) snprintf(buf, n, "loss");
    else if (lo >= VAL_DRAW && hi <= VAL_DRAW) snprintf(buf, n, "draw");
    else if (lo >= VAL_DRAW) snprintf(buf, n, "at least a draw");
    else if (hi <= VAL_DRAW) snprintf(buf, n, "at most a draw");
    else {   /* a partial proof: say what is proven */
        char l[24], h[24];
        value_bound_text(lo, l, sizeof l);
        value_bound_text(hi, h, sizeof h);
        snprintf(buf, n, "unknown (between %s and %s)", l, h);
    }
}

gvalue_t value_report(const gv_t *v, const void *pos, val_t lo, val_t hi)
{
    gvalue_t g;
    if (lo == hi) {
        g = gvalue_from_val(lo, BOUND_EXACT);
        if (g.outcome == OUTCOME_DRAW && v->ops->draw_plies) g.plies = v->ops->draw_plies(v, pos);
        return g;
    }
    g.plies = -1;
    g.bound = BOUND_EXACT;
    if (lo > VAL_DRAW) g.outcome = OUTCOME_WIN;
    else if (hi < VAL_DRAW) g.outcome = OUTCOME_LOSS;
    else if (lo >= VAL_DRAW && hi <= VAL_DRAW) {
        g.outcome = OUTCOME_DRAW;
        if (v->ops->draw_plies) g.plies = v->ops->draw_plies(v, pos);
    } else if (lo >= VAL_DRAW) { g.outcome = OUTCOME_DRAW; g.bound = BOUND_LOWER; }
    else if (hi <= VAL_DRAW) { g.outcome = OUTCOME_DRAW; g.bound = BOUND_UPPER; }
    else g.outcome = OUTCOME_UNKNOWN;
    return g;
}

int value_score(const gv_t *v, const void *pos, val_t lo, val_t hi, int wdl, int *score)
{
    const game_ops_t *O = v->ops;
    if (!O->value_score) return 0;
    if (lo == hi) return O->value_score(v, pos, lo, score);
    if (wdl && (lo > VAL_DRAW || hi < VAL_DRAW || (lo >= VAL_DRAW && hi <= VAL_DRAW))) {
        *score = lo > VAL_DRAW ? 1 : hi < VAL_DRAW ? -1 : 0;   /* the sign only */
        return 1;
    }
    return 0;
}
