/* The cached solver (see solver.h) and the words for values. */
#include "solve/solver.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dfpn.h"
#include "core/manager.h"

static void solver_say(solver_t *s, const char *msg);
static source_query_t solver_query(const solver_t *s, const void *pos, int want_best, const uint8_t *key,
                                   size_t klen, int sym);

/* The sources' warnings and notices, through the solver's (s->warn and
 * s->note as they are when said). */
static void solver_warn_cb(void *ctx, const char *msg)
{
    solver_say(ctx, msg);
}

static void solver_note_cb(void *ctx, const char *msg)
{
    solver_t *s = ctx;
    if (s->note) s->note(s->warn_ctx, msg);
    else solver_say(s, msg);
}

static source_env_t solver_env(solver_t *s, const char *db)
{
    return (source_env_t){ .v = s->v, .db = db, .cache = s->cache, .warn = solver_warn_cb,
                           .note = solver_note_cb, .ctx = s };
}

static void solver_source_close(source_t *src)
{
    if (src->kind && src->kind->close) src->kind->close(src->ctx);
    src->kind = NULL;
    src->ctx = NULL;
}

/* Open the registry's kind at slot i for env (closing what was there). */
static int solver_source_open(solver_t *s, int i, const source_env_t *env, err_t *err)
{
    source_t *src = &s->chain.src[i];
    solver_source_close(src);
    void *ctx = NULL;
    int rc = source_registry[i]->open(env, &ctx, err);
    if (rc < 0) return err->code;
    if (rc > 0) {
        src->kind = source_registry[i];
        src->ctx = ctx;
    }
    return GSW_OK;
}

/* The oracle the heuristic engine keeps between solves (ab.oracle, unless
 * the caller put its own there): the sources' that have one, in chain
 * order (gsw's tablebases, then Syzygy's), as below a solve's root. */
static void solver_engine(solver_t *s)
{
    if (s->ab.oracle != s->engine) return;
    source_query_t q = { .v = s->v, .goal = -1, .no_book = s->no_book, .ab = &s->ab };
    memcpy(s->engine_chain.src, s->chain.src, sizeof s->chain.src);
    s->engine_chain.n = s->chain.n;
    const gsw_oracle_t *o = source_chain_oracle(&s->engine_chain, &q);
    s->ab.oracle = s->engine = game_count_oracle(&s->count_engine, o, &s->ab.count);
}

int solver_init(solver_t *s, gv_t *v, size_t hash_mb, cache_t *cache, err_t *err)
{
    memset(s, 0, sizeof *s);
    s->v = v;
    s->cache = cache;
    s->ab.threads = 1;
    s->ab.count = v->ops->count_rule && v->ops->pos_reversible;   /* the game's values: under its rule */
    s->goal = -1;
    while (source_registry[s->chain.n]) s->chain.n++;
    source_env_t env = solver_env(s, source_cache_file(cache));
    for (int i = 0; i < s->chain.n; i++)
        if (!source_registry[i]->with_dirs && solver_source_open(s, i, &env, err)) {
            solver_free(s);
            return err->code;
        }
    if (tt_init(&s->tt, hash_mb, err)) {
        solver_free(s);
        return err->code;
    }
    return GSW_OK;
}

void solver_free(solver_t *s)
{
    for (int i = 0; i < s->chain.n; i++) solver_source_close(&s->chain.src[i]);
    s->chain.n = 0;
    s->ab.oracle = s->engine = NULL;
    tt_free(&s->tt);
    dfpn_table_free(&s->pn);
    ab_memory_free(s->memory);
    s->memory = NULL;
}

void solver_ignore_line(solver_t *s)
{
    s->no_line = 1;
    s->ab.count = 0;
}

int solver_counts(const solver_t *s)
{
    return s->ab.count && s->v->ops->count_rule && s->v->ops->pos_reversible;
}

int solver_line_note(const solver_t *s, const answer_t *a, char *buf, size_t n)
{
    const game_ops_t *O = s->v->ops;
    buf[0] = 0;
    if (!O->count_rule && !O->repetition) return 0;
    if (!s->no_line && !(a && a->line_free)) return 0;
    if (!s->no_line && !O->count_rule) return 0;   /* (the manager sees the line's repetitions) */
    snprintf(buf, n, "the position's value alone: no %s%s", O->count_rule ? O->count_rule : "repetition",
             O->count_rule && O->repetition && s->no_line ? ", no repetition" : "");
    return 1;
}

static int solver_conversion_cb(void *ctx, const void *pos, int *plies) { return solver_conversion(ctx, pos, plies); }

/* The move-count rule over bounds [lo, hi] of pos's value alone (a
 * source's, a stored row's), at pos's clock: the game's bounds. */
static void solver_count_bounds(solver_t *s, const void *pos, val_t *lo, val_t *hi)
{
    gsw_oracle_t conv = { NULL, solver_conversion_cb, s };
    game_count_bounds(s->v, pos, solver_counts(s) ? game_count_left(s->v, pos) : -1, &conv, lo, hi);
}

/* What of [lo, hi], proven under the move-count rule at pos's clock, holds
 * for the position whatever its clock, to be stored: a win or a loss
 * within the plies left (the rule cannot reach it); a bound beyond them is
 * dropped. 0 when nothing is left to store. */
static int solver_count_keep(const solver_t *s, const void *pos, val_t *lo, val_t *hi)
{
    int left = solver_counts(s) ? game_count_left(s->v, pos) : -1;
    if (left < 0) return 1;
    if (!(val_is_proven_decisive(*lo) && val_plies(*lo) <= left)) *lo = -VAL_WIN + 1;
    if (!(val_is_proven_decisive(*hi) && val_plies(*hi) <= left)) *hi = VAL_WIN - 1;
    return *lo > -VAL_WIN + 1 || *hi < VAL_WIN - 1;
}

int solver_add_source(solver_t *s, const source_kind_t *kind, void *ctx, err_t *err)
{
    if (s->chain.n >= SOURCE_MAX) return err_set(err, GSW_EINPUT, "solver: more than %d knowledge sources", SOURCE_MAX);
    s->chain.src[s->chain.n++] = (source_t){ .kind = kind, .ctx = ctx };
    solver_engine(s);
    return GSW_OK;
}

/* Open again the sources that live in folders (the endgame databases, the
 * strong solutions): dir is the databases', the strong solution's is
 * strong_dir. */
static int solver_open_dirs(solver_t *s, const char *dir, const char *strong_dir, const char *db, int only_strong,
                            err_t *err)
{
    if (s->ab.oracle == s->engine) s->ab.oracle = NULL;   /* (it may be closed below) */
    s->engine = NULL;
    source_env_t env = solver_env(s, db);
    env.dir = dir;
    env.strong_dir = strong_dir;
    int rc = GSW_OK;
    for (int i = 0; i < s->chain.n && source_registry[i] && !rc; i++)
        if (source_registry[i]->with_dirs && (!only_strong || source_registry[i] == &source_strong))
            rc = solver_source_open(s, i, &env, err);
    if (s->ab.oracle == NULL) solver_engine(s);
    return rc;
}

int solver_open_egdb(solver_t *s, const char *dir, const char *db, err_t *err)
{
    s->ab.oracle = NULL;   /* (as the databases open, their oracle is the engine's) */
    return solver_open_dirs(s, dir, NULL, db, 0, err);
}

int solver_open_strong(solver_t *s, const char *dir, const char *db, err_t *err)
{
    return solver_open_dirs(s, NULL, dir, db, 1, err);
}

void solver_terms_enter(solver_t *s, const solver_terms_t *t, solver_saved_t *saved)
{
    *saved = (solver_saved_t){ .time_ms = s->ab.time_limit_ms, .history = s->ab.history, .history_len = s->ab.history_len,
                               .count = s->ab.count, .no_best = s->ab.no_best, .no_build = s->no_build };
    if (t->time_ms > 0) s->ab.time_limit_ms = t->time_ms;
    s->ab.history = t->nline > 0 ? t->line : NULL;
    s->ab.history_len = t->nline > 0 ? t->nline : 0;
    if (t->alone) s->ab.count = 0;
    if (t->want_best) s->ab.no_best = 0;
    if (t->no_build) s->no_build = 1;
}

void solver_terms_leave(solver_t *s, const solver_saved_t *saved)
{
    s->ab.time_limit_ms = saved->time_ms;
    s->ab.history = saved->history;
    s->ab.history_len = saved->history_len;
    s->ab.count = saved->count;
    s->ab.no_best = saved->no_best;
    s->no_build = saved->no_build;
}

int solver_run_terms(solver_t *s, const void *pos, val_t lo, val_t hi, const solver_terms_t *t, answer_t *a,
                     err_t *err)
{
    solver_saved_t saved;
    solver_terms_enter(s, t, &saved);
    int rc = solver_run_within(s, pos, lo, hi, a, err);
    solver_terms_leave(s, &saved);
    return rc;
}

int solver_cached_terms(solver_t *s, const void *pos, const solver_terms_t *t, answer_t *a, err_t *err)
{
    solver_saved_t saved;
    solver_terms_enter(s, t, &saved);
    int rc = solver_cached(s, pos, a, err);
    solver_terms_leave(s, &saved);
    return rc;
}

void solver_retarget(solver_t *s, gv_t *v, const char *dir, const char *db)
{
    s->v = v;
    s->ab.count = !s->no_line && v->ops->count_rule && v->ops->pos_reversible;
    err_t err;   /* the databases know the variant they were opened for */
    if (solver_open_egdb(s, dir, db, &err)) s->ab.oracle = NULL;
}

int answer_from(const answer_t *a, const char *source)
{
    return a->source && !strcmp(a->source, source);
}

void solver_clear(solver_t *s)
{
    tt_clear(&s->tt);
    dfpn_table_clear(&s->pn);
    ab_memory_clear(s->memory);
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
static void solver_keep(solver_t *s, const void *pos, const uint8_t *key, size_t klen, int sym, const cache_entry_t *e,
                        int now)
{
    if (!klen) return;   /* (no key: nothing to store under) */
    s->unflushed_ms += e ? e->time_ms : 0;
    now = now || !e || s->unflushed_ms >= SOLVER_FLUSH_MS;
    if (now) s->unflushed_ms = 0;
    source_query_t q = solver_query(s, pos, 0, key, klen, sym);
    for (int i = 0; i < s->chain.n; i++) {
        const source_t *src = &s->chain.src[i];
        err_t err;
        if (src->kind && src->kind->store && src->kind->store(src->ctx, &q, e, now, &err)) solver_say(s, err.msg);
    }
}

/* The manager's answer in df-pn's terms: win?, then at least a draw? */
static int solver_manager(solver_t *s, const void *pos, dfpn_result_t *d, err_t *err)
{
    memset(d, 0, sizeof *d);
    double t0 = gsw_now_ms();
    source_cache_probe_t probe;
    source_cache_probe_init(&probe, s->cache);
    manager_options_t o = { .workers = s->ab.threads, .hash_mb = (s->tt.bytes >> 20) / (s->ab.threads > 0 ? s->ab.threads : 1) + 1,
                            .stop = s->ab.stop, .time_limit_ms = s->ab.time_limit_ms, .node_limit = s->ab.node_limit,
                            .history = s->ab.history, .nhistory = s->ab.history_len,
                            .probe = s->cache ? source_cache_probe : NULL, .probe_ctx = &probe,
                            /* (it proves the position's value alone: the sources' own values) */
                            .oracle = s->ab.oracle == &s->count_below.o ? s->count_below.inner : s->ab.oracle };
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
        if (rc) { source_cache_probe_free(&probe); return rc; }
        if (!done) { d->outcome = OUTCOME_UNKNOWN; break; }
        d->status = st;
        if (g == DFPN_GOAL_WIN && st == DFPN_PROVEN) { d->outcome = OUTCOME_WIN; break; }
        if (g == DFPN_GOAL_DRAW) d->outcome = st == DFPN_PROVEN ? OUTCOME_DRAW : OUTCOME_LOSS;
    }
    source_cache_probe_free(&probe);
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

/* What the sources are asked about pos. */
static source_query_t solver_query(const solver_t *s, const void *pos, int want_best, const uint8_t *key,
                                   size_t klen, int sym)
{
    return (source_query_t){ .v = s->v, .pos = pos, .want_best = want_best, .wdl = s->wdl,
                             .proof_numbers = s->dfpn || s->manager, .goal = s->goal, .no_book = s->no_book,
                             .key = key, .klen = klen, .sym = sym, .ab = &s->ab, .no_build = s->no_build };
}

/* The chain's answer for pos: 1 when a source settles the question (a
 * filled), 0 when none does (a stored row's bounds, if any, become the
 * solve's seed; known, when not NULL, gets the bounds a source proved
 * without answering), -1 on error. The sources flagged first (the
 * shipped book) are asked before the rest, which go in chain order. */
static int solver_lookup(solver_t *s, const void *pos, answer_t *a, uint8_t *key, size_t *klen, int *sym,
                         int want_best, val_t known[2], err_t *err)
{
    memset(a, 0, sizeof *a);
    s->ab.seeded = 0;
    *klen = 0;
    *sym = 0;
    if (s->cache) *klen = s->v->ops->pos_key(s->v, pos, key, sym);   /* (a search on a line may store under it) */
    if (solver_on_line(s)) return 0;
    source_query_t q = solver_query(s, pos, want_best, key, *klen, *sym);
    for (int i = 0; i < s->chain.n && q.no_build != 1; i++)   /* a source that knows pos: nothing is built for it */
        if (s->chain.src[i].kind && s->chain.src[i].kind->covers && s->chain.src[i].kind->covers(s->chain.src[i].ctx, pos))
            q.no_build = 1;
    int rc = 0;
    for (int pass = 0; pass < 2 && !rc; pass++)
        for (int i = 0; i < s->chain.n && !rc; i++) {
            const source_t *src = &s->chain.src[i];
            if (!src->kind || !src->kind->probe || (src->kind->first ? pass != 0 : pass == 0)) continue;
            source_answer_t sa = { .best = MOVE_NONE, .use = SOURCE_ANSWER };
            int r = src->kind->probe(src->ctx, &q, &sa, err);
            if (r < 0) rc = -1;
            else if (!r) continue;
            else if (sa.use == SOURCE_KNOWN) {
                if (known) {
                    known[0] = sa.lo;
                    known[1] = sa.hi;
                }
            } else if (sa.use == SOURCE_SEED) {   /* a partial proof from before: resume from it */
                s->ab.seeded = 1;
                s->ab.seed_lo = sa.lo;
                s->ab.seed_hi = sa.hi;
            } else {
                source_description_t d = { NULL, NULL };
                src->kind->describe(src->ctx, &d);
                s->ab.seeded = 0;
                a->r.lo = sa.lo;
                a->r.hi = sa.hi;
                a->r.best = sa.best;
                a->r.time_ms = sa.time_ms;
                a->source = d.name;
                a->phrase = d.phrase;
                snprintf(a->note, sizeof a->note, "%s", sa.note);
                rc = 1;
            }
        }
    solver_engine(s);   /* (a source may have found new files: an ending built on demand) */
    if (rc == 1 && solver_counts(s) && !s->manager) {   /* the sources' values are the position's: the rule over
                                                           them (not for the manager's, which are those too) */
        val_t lo = a->r.lo, hi = a->r.hi;
        solver_count_bounds(s, pos, &lo, &hi);
        if (lo != a->r.lo || hi != a->r.hi) {
            /* still an answer: exact, or a result without its distance from a
               source that has none (win/draw/loss files); a distance the rule
               took away is the search's to find again */
            if (lo == hi || ((lo > VAL_DRAW || hi < VAL_DRAW) && a->r.lo != a->r.hi)) {
                a->r.lo = lo;
                a->r.hi = hi;
            } else {   /* the search's to settle (it finds the source's value first, at once) */
                memset(a, 0, sizeof *a);
                rc = 0;
            }
        }
    }
    return rc;
}

int solver_cached(solver_t *s, const void *pos, answer_t *a, err_t *err)
{
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    int sym;
    return solver_lookup(s, pos, a, key, &klen, &sym, 0, NULL, err);
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
    if (solver_counts(s) && game_count_over(s->v, pos)) {
        memset(a, 0, sizeof *a);   /* the clock has run out: the move-count rule's draw */
        a->r.best = MOVE_NONE;
        a->source = "rule";
        snprintf(s->rule_phrase, sizeof s->rule_phrase, "the %s", s->v->ops->count_rule);
        a->phrase = s->rule_phrase;
        return GSW_OK;
    }
    int found = solver_lookup(s, pos, a, key, &klen, &sym, !s->ab.no_best, book, err);
    if (found > 0 && s->manager && solver_counts(s)) a->line_free = 1;   /* (the position's value alone) */
    if (found) return found < 0 ? err->code : GSW_OK;
    /* the caller's bounds are the game's values; the book's, the position's:
       under the move-count rule they bound different searches (solver_search) */
    s->count_lo = lo;
    s->count_hi = hi;
    if (solver_counts(s)) lo = -VAL_WIN + 1, hi = VAL_WIN - 1;
    if (book[0] > lo) lo = book[0];
    if (book[1] < hi) hi = book[1];
    s->ab.known = lo > -VAL_WIN + 1 || hi < VAL_WIN - 1;
    s->ab.known_lo = lo;
    s->ab.known_hi = hi;
    /* the searches' oracle: the chain's below pos, unless the caller put its own in ab.oracle */
    const gsw_oracle_t *own = s->ab.oracle;
    if (own == s->engine) {
        source_query_t q = solver_query(s, pos, !s->ab.no_best, key, klen, sym);
        s->ab.oracle = game_count_oracle(&s->count_below, source_chain_oracle(&s->chain, &q), &s->ab.count);
    }
    int rc = solver_search(s, pos, a, key, klen, sym, err);
    s->ab.known = 0;
    s->ab.oracle = own;
    for (int i = 0; i < s->chain.n; i++)
        if (s->chain.src[i].kind && s->chain.src[i].kind->after_search)
            s->chain.src[i].kind->after_search(s->chain.src[i].ctx);
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

/* The search after a cache miss: the configured solver, its result stored
 * (under the move-count rule, s->ab.count: what holds whatever the clock). */
static int solver_search_one(solver_t *s, const void *pos, answer_t *a, const uint8_t *key, size_t klen, int sym,
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
                                 .oracle = s->ab.oracle, .count = s->ab.count };
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
        if (s->manager) a->line_free = 1;
        if (!s->cache || solver_on_line(s)) return GSW_OK;   /* (df-pn does not say whether the line mattered) */
        cache_entry_t e = { .lo = a->r.lo, .hi = a->r.hi, .best = MOVE_NONE, .nodes = d.nodes, .time_ms = d.time_ms };
        if (!s->manager && !solver_count_keep(s, pos, &e.lo, &e.hi)) return GSW_OK;   /* (true of this clock only) */
        snprintf(e.solver, sizeof e.solver, "%s", s->manager ? "manager" : "dfpn");
        if (d.best != MOVE_NONE) e.best = sym ? O->move_sym(s->v, d.best, sym, 0) : d.best;
        solver_keep(s, pos, key, klen, sym, &e, 0);
        return GSW_OK;
    }
    if (ab_solve(s->v, &s->tt, pos, &s->ab, &a->r, err)) return err->code;
    if (s->cache && a->r.contradiction) {   /* the stored row was false: it goes */
        char spec[96], msg[400];
        game_spec(s->v, spec, sizeof spec);
        snprintf(msg, sizeof msg, "cache: the stored bounds [%d, %d] of a %s position contradict a fresh "
                 "search; dropped that row and stored the proven value", (int)s->ab.seed_lo, (int)s->ab.seed_hi, spec);
        solver_say(s, msg);
        solver_keep(s, pos, key, klen, sym, NULL, 1);
    }
    cache_entry_t e = { .lo = a->r.lo, .hi = a->r.hi, .best = MOVE_NONE, .nodes = a->r.nodes, .time_ms = a->r.time_ms };
    if (s->cache && !(solver_on_line(s) && a->r.history_dependent)   /* exact, or the bounds proven before a stop */
        && solver_count_keep(s, pos, &e.lo, &e.hi)) {                /* (what holds whatever the clock) */
        snprintf(e.solver, sizeof e.solver, "ab");
        if (!a->r.aborted && a->r.best != MOVE_NONE && e.lo == a->r.lo && e.hi == a->r.hi)   /* (what it proves) */
            e.best = sym ? O->move_sym(s->v, a->r.best, sym, 0) : a->r.best;
        solver_keep(s, pos, key, klen, sym, &e, 0);
    }
    return GSW_OK;
}

/* A clock this close to the rule's limit bounds a search with it (every
 * line ends in that many plies but for a conversion): it runs at once,
 * without the search of the position alone, which may be far longer (a
 * king ending's repetitions). */
#define SOLVER_COUNT_NEAR 20

/* The search with the clock (s->ab.count), inside [lo, hi] (the game's
 * values, known); a stored row, the position's value alone, is no seed. */
static int solver_search_clock(solver_t *s, const void *pos, answer_t *a, const uint8_t *key, size_t klen, int sym,
                               val_t lo, val_t hi, err_t *err)
{
    int known = s->ab.known, seeded = s->ab.seeded;
    val_t klo = s->ab.known_lo, khi = s->ab.known_hi;
    s->ab.known = lo > -VAL_WIN + 1 || hi < VAL_WIN - 1;
    s->ab.known_lo = lo;
    s->ab.known_hi = hi;
    s->ab.seeded = 0;
    int rc = solver_search_one(s, pos, a, key, klen, sym, err);
    s->ab.known = known;
    s->ab.known_lo = klo;
    s->ab.known_hi = khi;
    s->ab.seeded = seeded;
    return rc;
}

/* The search after a cache miss. Under the move-count rule, with a clock
 * near its limit, the search with it at once; else first the
 * position's value alone (the cheap search: its table entries serve every
 * clock, and it is stored), then the rule over it as over any source's
 * value: a win or a loss within the plies the clock leaves, or a draw,
 * stands as it is; only a longer win or loss is searched again with the
 * clock (entries keyed by the plies left), inside the bounds the rule
 * leaves it and the caller's (the game's values). */
static int solver_search(solver_t *s, const void *pos, answer_t *a, const uint8_t *key, size_t klen, int sym,
                         err_t *err)
{
    if (!solver_counts(s) || s->manager) {   /* (the manager proves the position's value alone) */
        if (s->ab.count && s->manager) a->line_free = 1;
        return solver_search_one(s, pos, a, key, klen, sym, err);
    }
    if (game_count_left(s->v, pos) <= SOLVER_COUNT_NEAR)   /* the clock bounds the search: with it at once */
        return solver_search_clock(s, pos, a, key, klen, sym, s->count_lo, s->count_hi, err);
    double t0 = gsw_now_ms(), tl = s->ab.time_limit_ms;
    uint64_t nl = s->ab.node_limit;
    s->ab.count = 0;
    int rc = solver_search_one(s, pos, a, key, klen, sym, err);
    s->ab.count = 1;
    if (rc) return rc;
    val_t lo = a->r.lo, hi = a->r.hi;
    solver_count_bounds(s, pos, &lo, &hi);
    if (lo == a->r.lo && hi == a->r.hi) return GSW_OK;   /* the rule changes nothing */
    if (lo == hi || a->r.aborted) {   /* drawn by the rule; or a spent budget's bounds, under it */
        a->r.lo = lo;
        a->r.hi = hi;
        if (lo == hi && s->ab.oracle && !s->ab.no_best) {   /* (only the databases' distances to conversion
                                                                  draw it: their best move under the rule) */
            move_t b = source_oracle_best(s->v, s->ab.oracle, pos);
            if (b != MOVE_NONE) a->r.best = b;
        }
        return GSW_OK;
    }
    /* a win or a loss too long for the clock: the search with it */
    uint64_t spent = a->r.nodes;
    double ms = a->r.time_ms;
    if (tl > 0) s->ab.time_limit_ms = tl - (gsw_now_ms() - t0) > 1 ? tl - (gsw_now_ms() - t0) : 1;
    if (nl) s->ab.node_limit = nl > spent ? nl - spent : 1;
    if (s->count_lo > lo) lo = s->count_lo;
    if (s->count_hi < hi) hi = s->count_hi;
    rc = solver_search_clock(s, pos, a, key, klen, sym, lo, hi, err);
    s->ab.time_limit_ms = tl;
    s->ab.node_limit = nl;
    a->r.nodes += spent;
    a->r.time_ms += ms;
    return rc;
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
    if (!solver_count_keep(s, pos, &e.lo, &e.hi)) return GSW_OK;   /* (true of this clock only) */
    snprintf(e.solver, sizeof e.solver, "moves");   /* from its moves' values */
    if (best != MOVE_NONE && e.lo == lo && e.hi == hi) e.best = sym ? O->move_sym(s->v, best, sym, 0) : best;
    solver_keep(s, pos, key, klen, sym, &e, 1);   /* refused (a stored row contradicts it: cache verify says which is wrong): said */
    return GSW_OK;
}

int solver_rule_draw(solver_t *s, const void *child)
{
    const gsw_oracle_t *o = s->count_engine.inner;   /* (the sources' oracle, without the rule) */
    val_t lo, hi;
    if (!solver_counts(s) || !o || !o->probe(o->ctx, s->v, child, &lo, &hi)) return 0;
    return hi < VAL_DRAW ? 1 : lo > VAL_DRAW ? 2 : 0;   /* (the child's loss is the mover's win) */
}

void rule_draw_words(const gv_t *v, int rule_draw, char *buf, size_t n)
{
    snprintf(buf, n, "a %s without the %s", rule_draw == 1 ? "win" : "loss",
             v->ops->count_rule ? v->ops->count_rule : "move-count rule");
}

int solver_conversion(solver_t *s, const void *pos, int *plies)
{
    for (int i = 0; i < s->chain.n; i++) {
        const source_t *src = &s->chain.src[i];
        if (src->kind && src->kind->conversion && src->kind->conversion(src->ctx, pos, plies)) return 1;
    }
    return 0;
}

int solver_think(solver_t *s, const void *pos, const ab_options_t *o, ab_result_t *r, err_t *err)
{
    ab_options_t ho = *o;
    ho.history = s->ab.history;
    ho.history_len = s->ab.history_len;
    ho.count = s->ab.count;
    if (!ho.oracle) ho.oracle = s->ab.oracle;   /* the engine plays database positions from the files */
    if (!ho.memory) {   /* (short of memory: each search starts empty) */
        if (!s->memory) s->memory = ab_memory_new();
        ho.memory = s->memory;
    }
    return ab_think(s->v, &s->tt, pos, &ho, r, err);
}

int solver_mate(const gv_t *v, const void *pos, int max_moves, const dfpn_options_t *o, proof_tree_t *t, int *mate,
                dfpn_result_t *r, err_t *err)
{
    dfpn_options_t d = *o;
    dfpn_result_t r2;
    memset(&r2, 0, sizeof r2);
    double deadline = o->time_limit_ms > 0 ? gsw_now_ms() + o->time_limit_ms : 0;
    int plies = -1;
    *mate = 0;
    d.defend = 0;
    int rc = dfpn_shortest_win(v, pos, 1, 2 * max_moves - 1, 2, &d, t, &plies, r, err);
    if (!rc && plies > 0) {
        *mate = (plies + 1) / 2;
        return GSW_OK;
    }
    if (rc) return rc;
    /* no mate for the side to move: is it mated? (what is left of the budget) */
    d.defend = 1;
    if (deadline > 0) {
        d.time_limit_ms = deadline - gsw_now_ms();
        if (d.time_limit_ms < 1) d.time_limit_ms = 1;
    }
    if (o->node_limit) d.node_limit = o->node_limit > r->nodes ? o->node_limit - r->nodes : 1;
    rc = dfpn_shortest_win(v, pos, 2, 2 * max_moves, 2, &d, t, &plies, &r2, err);
    r->nodes += r2.nodes;
    r->time_ms += r2.time_ms;
    r->runs += r2.runs;
    if (!rc && plies > 0) *mate = -(plies / 2);
    return rc;
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
        char w[96];
        value_open_text(lo, hi, w, sizeof w);
        snprintf(buf, n, "unknown (%s)", w);
    }
}

void value_open_text(val_t lo, val_t hi, char *buf, size_t n)
{
    /* lo = loss in a: a loss takes at least a plies; hi = win in b: a win takes at least b */
    int a = val_is_loss(lo) ? val_plies(lo) : -1, b = val_is_win(hi) ? val_plies(hi) : -1;
    if (a <= 1) a = -1;   /* "in fewer than 1 ply" says nothing */
    if (b <= 1) b = -1;
    char part[2][48];
    int k = 0;
    if (lo > VAL_DRAW) snprintf(part[k++], sizeof part[0], "a win");
    else if (lo == VAL_DRAW) snprintf(part[k++], sizeof part[0], "at least a draw");
    if (hi < VAL_DRAW) snprintf(part[k++], sizeof part[0], "a loss");
    else if (hi == VAL_DRAW) snprintf(part[k++], sizeof part[0], "at most a draw");
    if (a >= 0 && a == b) {
        snprintf(buf, n, "no win or loss in fewer than %d plies", a);
        return;
    }
    if (b >= 0 && k < 2) snprintf(part[k++], sizeof part[0], "no win in fewer than %d plies", b);
    if (a >= 0 && k < 2) snprintf(part[k++], sizeof part[0], "no loss in fewer than %d plies", a);
    if (k == 0) snprintf(buf, n, "nothing proven yet");
    else if (k == 1) snprintf(buf, n, "%s", part[0]);
    else snprintf(buf, n, "%s, %s", part[0], part[1]);
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
