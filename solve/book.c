/* Opening books (see book.h): the positions up to ply N enumerated level by
 * level (one per canonical key, finished games left out), the last level
 * solved by the cached solver on worker threads, the levels above valued
 * by negamax over their children; per-ply statistics; the book in memory
 * and its oracle probe. */
#include "solve/book.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/book.h"
#include "db/bookfile.h"
#include "db/manifest.h"
#include "solve/solver.h"

#define BOOK_KEY 16            /* key bytes the map holds (Connect Four's are 8 or 16) */
#define BOOK_CHUNK 4096        /* derived positions stored per transaction */

/* ---- a map from canonical keys to values (open addressing) ---- */

typedef struct book_slot {
    uint64_t k[2];
    val_t val;
    uint8_t used, known;       /* known: val is the position's exact value */
} book_slot_t;

typedef struct book_map {
    book_slot_t *slot;
    size_t mask, n;
} book_map_t;

static void map_pack(const uint8_t *key, size_t klen, uint64_t k[2])
{
    uint8_t b[BOOK_KEY] = { 0 };
    memcpy(b, key, klen < BOOK_KEY ? klen : BOOK_KEY);
    memcpy(k, b, sizeof b);
}

static size_t map_hash(const uint64_t k[2])
{
    uint64_t h = k[0] * 0x9e3779b97f4a7c15ull ^ (k[1] + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
    return (size_t)(h ^ h >> 29);
}

static book_slot_t *map_find(const book_map_t *m, const uint64_t k[2])
{
    if (!m->slot) return NULL;
    for (size_t i = map_hash(k) & m->mask;; i = (i + 1) & m->mask) {
        book_slot_t *s = &m->slot[i];
        if (!s->used) return NULL;
        if (s->k[0] == k[0] && s->k[1] == k[1]) return s;
    }
}

/* Room for n keys at most half full (the slots rehashed when they move);
 * 0, or -1 when out of memory. A file's loader reserves its count at once:
 * growing by doubling rehashed the 399 K positions of the shipped 7x6 book
 * nine times, most of its loading time. */
static int map_reserve(book_map_t *m, size_t n)
{
    size_t cap = 1024;
    while (cap < 2 * n) cap *= 2;
    if (m->slot && cap <= m->mask + 1) return 0;
    book_slot_t *ns = calloc(cap, sizeof *ns);
    if (!ns) return -1;
    for (size_t i = 0; m->slot && i <= m->mask; i++) {
        if (!m->slot[i].used) continue;
        size_t j = map_hash(m->slot[i].k) & (cap - 1);
        while (ns[j].used) j = (j + 1) & (cap - 1);
        ns[j] = m->slot[i];
    }
    free(m->slot);
    m->slot = ns;
    m->mask = cap - 1;
    return 0;
}

/* The slot of k, made (value unknown) when new, *added then 1; NULL when
 * out of memory. Slots move when the map grows: use it before the next add. */
static book_slot_t *map_add(book_map_t *m, const uint64_t k[2], int *added)
{
    book_slot_t *s = map_find(m, k);
    *added = 0;
    if (s) return s;
    if ((!m->slot || (m->n + 1) * 2 > m->mask + 1) && map_reserve(m, m->n + 1)) return NULL;
    size_t i = map_hash(k) & m->mask;
    while (m->slot[i].used) i = (i + 1) & m->mask;
    s = &m->slot[i];
    s->k[0] = k[0];
    s->k[1] = k[1];
    s->used = 1;
    m->n++;
    *added = 1;
    return s;
}

/* ---- what can have a book ---- */

int book_supported(const gv_t *v, err_t *err)
{
    const game_ops_t *O = v->ops;
    if (v->game->players != 2 || O->repetition || !O->draw_plies || !O->pos_from_key)
        return err_set(err, GSW_EINPUT, "%s has no opening book: books are for two-player games whose positions "
                       "never repeat and whose length is bounded (connect4)", v->game->name);
    GSW_POSBUF pos[GSW_MAX_POS];
    uint8_t key[GSW_MAX_KEY];
    O->pos_start(v, pos);
    if (O->pos_key(v, pos, key, NULL) > BOOK_KEY)
        return err_set(err, GSW_EINPUT, "%s: positions keys longer than %d bytes are not supported by the book",
                       v->game->name, BOOK_KEY);
    return GSW_OK;
}

/* ---- building ---- */

typedef struct level {
    unsigned char *pos;        /* n positions, stride bytes apart */
    int64_t n, cap;
} level_t;

typedef struct build {
    gv_t *v;
    const book_options_t *o;
    book_report_t *r;
    book_map_t map;
    level_t lv[BOOK_MAX_PLY + 1];
    size_t stride;
    char spec[96];
    const char *path;          /* the cache file, for the workers' connections */
    /* the ply-N solves: jobs[] index level N; next is the next to take */
    int64_t *jobs, njobs, next, done;
    int wthreads;              /* each worker's search threads */
    size_t wmb;                /* each worker's table */
    pthread_mutex_t lock;
    int failed;
    err_t fail;
    double t0, said;
} build_t;

#define LV_POS(b, k, i) ((void *)((b)->lv[k].pos + (size_t)(i) * (b)->stride))

static int build_stopped(const build_t *b) { return b->o->stop && *b->o->stop; }

/* A line of progress: at most every half second unless it ends a phase. */
__attribute__((format(printf, 3, 4)))
static void build_say(build_t *b, int final, const char *fmt, ...)
{
    if (!b->o->progress) return;
    double now = gsw_now_ms();
    if (!final && now - b->said < 500) return;
    b->said = now;
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    b->o->progress(b->o->ctx, line);
}

static int level_push(build_t *b, int k, const void *pos, err_t *err)
{
    level_t *l = &b->lv[k];
    if (l->n == l->cap) {
        int64_t cap = l->cap ? 2 * l->cap : 256;
        unsigned char *p = realloc(l->pos, (size_t)cap * b->stride);
        if (!p) return err_set(err, GSW_EFAIL, "out of memory enumerating the book's positions");
        l->pos = p;
        l->cap = cap;
    }
    memcpy(l->pos + (size_t)l->n++ * b->stride, pos, b->v->ops->pos_size);
    return GSW_OK;
}

/* Every position up to the book's ply, one per canonical key; positions
 * where the game is over are no book positions. */
static int build_enumerate(build_t *b, err_t *err)
{
    const game_ops_t *O = b->v->ops;
    const int N = b->o->ply;
    GSW_POSBUF pos[GSW_MAX_POS], child[GSW_MAX_POS];
    uint8_t key[GSW_MAX_KEY];
    uint64_t k[2];
    int added;
    O->pos_start(b->v, pos);
    val_t tv;
    if (O->terminal(b->v, pos, &tv)) return GSW_OK;
    map_pack(key, O->pos_key(b->v, pos, key, NULL), k);
    if (!map_add(&b->map, k, &added) || level_push(b, 0, pos, err))
        return err_set(err, GSW_EFAIL, "out of memory enumerating the book's positions");
    int64_t total = 1;
    for (int ply = 0; ply < N; ply++) {
        if (build_stopped(b)) return GSW_OK;
        for (int64_t i = 0; i < b->lv[ply].n; i++) {
            move_t mv[GSW_MAX_MOVES];
            const void *p = LV_POS(b, ply, i);
            int n = O->moves(b->v, p, mv);
            for (int j = 0; j < n; j++) {
                memcpy(child, p, O->pos_size);
                O->play(b->v, child, mv[j]);
                if (O->terminal(b->v, child, &tv)) continue;
                map_pack(key, O->pos_key(b->v, child, key, NULL), k);
                if (!map_add(&b->map, k, &added))
                    return err_set(err, GSW_EFAIL, "out of memory enumerating the book's positions");
                if (!added) continue;
                if (++total > BOOK_MAX_POSITIONS)
                    return err_set(err, GSW_EINPUT, "--ply %d: %s has more than %d positions up to ply %d: too many "
                                   "for a book", N, b->spec, BOOK_MAX_POSITIONS, ply + 1);
                if (level_push(b, ply + 1, child, err)) return err->code;
            }
        }
    }
    return GSW_OK;
}

/* The book's rows already stored with exact values: known in the map. */
static int build_known(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e)
{
    (void)ply;
    build_t *b = ctx;
    uint64_t k[2];
    if (!e || e->lo != e->hi || klen > BOOK_KEY) return 0;
    map_pack(key, klen, k);
    book_slot_t *s = map_find(&b->map, k);
    if (s) { s->val = e->lo; s->known = 1; }
    return 0;
}

static void build_failed(build_t *b, const err_t *err)
{
    pthread_mutex_lock(&b->lock);
    if (!b->failed) { b->failed = 1; b->fail = *err; }
    pthread_mutex_unlock(&b->lock);
}

/* A worker: its own connection and solver; takes ply-N positions in turn,
 * solves each (cache first; the result stored at once) and marks it as a
 * book position. */
static void *build_worker(void *arg)
{
    build_t *b = arg;
    const gv_t *v = b->v;
    const int N = b->o->ply;
    cache_t *c = NULL;
    solver_t s;
    err_t err;
    if (cache_open_notice(b->path, b->o->notice, b->o->ctx, &c, &err)) { build_failed(b, &err); return NULL; }
    if (solver_init(&s, b->v, b->wmb, c, &err)) {
        build_failed(b, &err);
        cache_close(c, &err);
        return NULL;
    }
    s.no_book = 1;   /* its positions are the book's deepest: nothing below them is in it */
    s.ab.threads = b->wthreads;
    s.ab.stop = b->o->stop;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        int64_t i = b->failed || build_stopped(b) || b->next >= b->njobs ? -1 : b->next++;
        pthread_mutex_unlock(&b->lock);
        if (i < 0) break;
        const void *pos = LV_POS(b, N, b->jobs[i]);
        answer_t a;
        if (solver_run(&s, pos, &a, &err)) { build_failed(b, &err); break; }
        if (a.r.aborted) break;   /* stopped: the bounds proven so far are stored */
        if (a.r.lo != a.r.hi) {
            err_set(&err, GSW_EFAIL, "book: a ply-%d position was not solved exactly", N);
            build_failed(b, &err);
            break;
        }
        book_row_t row;
        row.klen = v->ops->pos_key(v, pos, row.key, NULL);
        row.ply = N;
        if (book_put(c, v->game->name, v->name, &row, 1, &err)) { build_failed(b, &err); break; }
        uint64_t k[2];
        map_pack(row.key, row.klen, k);
        pthread_mutex_lock(&b->lock);
        book_slot_t *sl = map_find(&b->map, k);   /* (the map no longer grows) */
        sl->val = a.r.lo;
        sl->known = 1;
        if (answer_from(&a, "cache")) b->r->stored++;
        else b->r->searched++;
        b->r->nodes += a.r.nodes;
        b->done++;
        build_say(b, 0, "book %s: ply %d: %lld of %lld positions solved, %.1f s", b->spec, N, (long long)b->done,
                  (long long)b->njobs, (gsw_now_ms() - b->t0) / 1000);
        pthread_mutex_unlock(&b->lock);
    }
    solver_free(&s);
    if (cache_close(c, &err)) build_failed(b, &err);
    return NULL;
}

/* Solve the ply-N positions not yet in the book, on the workers. */
static int build_solve(build_t *b, err_t *err)
{
    const int N = b->o->ply;
    level_t *l = &b->lv[N];
    b->jobs = malloc((size_t)(l->n ? l->n : 1) * sizeof *b->jobs);
    if (!b->jobs) return err_set(err, GSW_EFAIL, "out of memory");
    for (int64_t i = 0; i < l->n; i++) {
        uint8_t key[GSW_MAX_KEY];
        uint64_t k[2];
        map_pack(key, b->v->ops->pos_key(b->v, LV_POS(b, N, i), key, NULL), k);
        if (map_find(&b->map, k)->known) b->r->stored++;
        else b->jobs[b->njobs++] = i;
    }
    if (!b->njobs) return GSW_OK;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = b->o->threads > 0 ? b->o->threads : nc > 0 ? (int)nc : 1;
    int workers = b->njobs < threads ? (int)b->njobs : threads;
    b->wthreads = threads / workers;   /* few positions: each gets several search threads */
    size_t mb = b->o->hash_mb ? b->o->hash_mb : 128;
    b->wmb = mb / (size_t)workers > 16 ? mb / (size_t)workers : 16;
    build_say(b, 1, "book %s: ply %d: %lld positions to solve (%lld stored), %d worker%s: done enumerating",
              b->spec, N, (long long)b->njobs, (long long)b->r->stored, workers, workers > 1 ? "s" : "");
    pthread_t *t = calloc((size_t)workers, sizeof *t);
    if (!t) return err_set(err, GSW_EFAIL, "out of memory");
    int started = 0;
    for (; started < workers; started++)
        if (pthread_create(&t[started], NULL, build_worker, b)) break;
    if (!started) { free(t); return err_set(err, GSW_EFAIL, "book: cannot start a worker thread"); }
    for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
    free(t);
    if (b->failed) { *err = b->fail; return err->code ? err->code : GSW_EFAIL; }
    if (!build_stopped(b))
        build_say(b, 1, "book %s: ply %d: %lld positions solved in %.1f s: done", b->spec, N, (long long)b->done,
                  (gsw_now_ms() - b->t0) / 1000);
    return GSW_OK;
}

/* Store a level's derived rows: the solved rows first, then the marks. */
static int build_store(build_t *b, cache_t *cache, const book_row_t *rows, int n, err_t *err)
{
    if (cache_flush(cache, err)) return err->code;
    return book_put(cache, b->v->game->name, b->v->name, rows, n, err);
}

/* Value plies N-1 .. 0 from their children: the best of val_up(child)
 * (fastest win, slowest loss), the first move that reaches it the best. */
static int build_derive(build_t *b, cache_t *cache, err_t *err)
{
    const gv_t *v = b->v;
    const game_ops_t *O = v->ops;
    book_row_t *rows = malloc(BOOK_CHUNK * sizeof *rows);
    if (!rows) return err_set(err, GSW_EFAIL, "out of memory");
    int rc = GSW_OK, nr = 0;
    for (int ply = b->o->ply - 1; ply >= 0 && !rc; ply--) {
        if (build_stopped(b)) break;
        for (int64_t i = 0; i < b->lv[ply].n && !rc; i++) {
            const void *p = LV_POS(b, ply, i);
            move_t mv[GSW_MAX_MOVES], best = MOVE_NONE;
            val_t bv = -VAL_INF;
            int n = O->moves(v, p, mv);
            for (int j = 0; j < n; j++) {
                GSW_POSBUF child[GSW_MAX_POS];
                memcpy(child, p, O->pos_size);
                O->play(v, child, mv[j]);
                val_t cv;
                if (!O->terminal(v, child, &cv)) {
                    uint8_t key[GSW_MAX_KEY];
                    uint64_t k[2];
                    map_pack(key, O->pos_key(v, child, key, NULL), k);
                    const book_slot_t *s = map_find(&b->map, k);
                    if (!s || !s->known) { rc = err_set(err, GSW_EFAIL, "book: a ply-%d position has no value", ply + 1); break; }
                    cv = s->val;
                }
                if (val_up(cv) > bv) { bv = val_up(cv); best = mv[j]; }
            }
            if (rc) break;
            book_row_t *row = &rows[nr];
            int sym = 0;
            row->klen = O->pos_key(v, p, row->key, &sym);
            row->ply = ply;
            uint64_t k[2];
            map_pack(row->key, row->klen, k);
            book_slot_t *s = map_find(&b->map, k);
            if (s->known && s->val == bv) continue;   /* in the book already */
            s->val = bv;
            s->known = 1;
            cache_entry_t e = { .lo = bv, .hi = bv, .best = sym ? O->move_sym(v, best, sym, 0) : best };
            snprintf(e.solver, sizeof e.solver, "book");
            if (cache_put(cache, v->game->name, v->name, row->key, row->klen, &e, err)) { rc = err->code; break; }
            b->r->derived++;
            if (++nr == BOOK_CHUNK) {
                rc = build_store(b, cache, rows, nr, err);
                nr = 0;
            }
        }
        build_say(b, 0, "book %s: ply %d valued, %.1f s", b->spec, ply, (gsw_now_ms() - b->t0) / 1000);
    }
    if (!rc && nr) rc = build_store(b, cache, rows, nr, err);
    free(rows);
    return rc;
}

int book_build(gv_t *v, cache_t *cache, const book_options_t *o, book_report_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    r->ply = o->ply;
    if (book_supported(v, err)) return err->code;
    build_t *b = calloc(1, sizeof *b);
    if (!b) return err_set(err, GSW_EFAIL, "out of memory");
    b->v = v;
    b->o = o;
    b->r = r;
    b->t0 = gsw_now_ms();
    b->stride = (v->ops->pos_size + 15) & ~(size_t)15;
    b->path = cache_filename(cache);
    game_spec(v, b->spec, sizeof b->spec);
    pthread_mutex_init(&b->lock, NULL);
    GSW_POSBUF start[GSW_MAX_POS];
    v->ops->pos_start(v, start);
    int rc = GSW_OK;
    if (o->ply < 0 || o->ply > BOOK_MAX_PLY || o->ply > v->ops->draw_plies(v, start))
        rc = err_set(err, GSW_EINPUT, "--ply %d: %s lasts at most %d plies (and a book goes to ply %d at most)", o->ply,
                     b->spec, v->ops->draw_plies(v, start), BOOK_MAX_PLY);
    if (!rc) rc = build_enumerate(b, err);
    for (int k = 0; !rc && k <= o->ply; k++) {
        r->at_ply[k] = b->lv[k].n;
        r->positions += b->lv[k].n;
    }
    if (!rc && !build_stopped(b)) {
        char by[200] = "";
        for (int k = 0, n = 0; k <= o->ply && n < (int)sizeof by - 24; k++)
            n += snprintf(by + n, sizeof by - (size_t)n, "%s%lld", k ? " " : "", (long long)r->at_ply[k]);
        build_say(b, 1, "book %s to ply %d: %lld positions (by ply: %s): done", b->spec, o->ply,
                  (long long)r->positions, by);
        rc = book_each(cache, v->game->name, v->name, o->ply, build_known, b, err);
    }
    if (!rc && !build_stopped(b)) rc = build_solve(b, err);
    if (!rc && !build_stopped(b)) rc = build_derive(b, cache, err);
    if (!rc && cache_flush(cache, err)) rc = err->code;
    r->complete = !rc && !build_stopped(b);
    r->ms = gsw_now_ms() - b->t0;
    pthread_mutex_destroy(&b->lock);
    for (int k = 0; k <= BOOK_MAX_PLY; k++) free(b->lv[k].pos);
    free(b->map.slot);
    free(b->jobs);
    free(b);
    return rc;
}

/* ---- statistics ---- */

typedef struct stats_ctx {
    const gv_t *v;
    book_stats_t *st;
} stats_ctx_t;

static int stats_row(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e)
{
    stats_ctx_t *c = ctx;
    const game_ops_t *O = c->v->ops;
    GSW_POSBUF pos[GSW_MAX_POS];
    if (!O->pos_from_key(c->v, key, klen, pos)) return 0;   /* no position of this game: not counted */
    ply = O->pos_ply(c->v, pos);
    if (ply < 0 || ply > BOOK_MAX_PLY) return 0;
    book_ply_t *p = &c->st->ply[ply];
    p->positions++;
    if (ply > c->st->max_ply) c->st->max_ply = ply;
    if (!e || e->lo != e->hi) { p->unsolved++; return 0; }
    val_t first = O->pos_turn(c->v, pos) == 0 ? e->lo : -e->lo;   /* the first player's view */
    if (first > VAL_DRAW) p->wins++;
    else if (first < VAL_DRAW) p->losses++;
    else p->draws++;
    return 0;
}

int book_stats(const gv_t *v, cache_t *cache, book_stats_t *st, err_t *err)
{
    memset(st, 0, sizeof *st);
    st->max_ply = -1;
    if (book_supported(v, err)) return err->code;
    stats_ctx_t c = { v, st };
    if (book_each(cache, v->game->name, v->name, -1, stats_row, &c, err)) return err->code;
    for (int k = 0; k <= st->max_ply; k++) {
        st->total.positions += st->ply[k].positions;
        st->total.wins += st->ply[k].wins;
        st->total.draws += st->ply[k].draws;
        st->total.losses += st->ply[k].losses;
        st->total.unsolved += st->ply[k].unsolved;
    }
    return GSW_OK;
}

/* ---- the book in memory ---- */

struct book {
    gsw_oracle_t oracle;
    book_map_t map;
    size_t klen;
    int max_ply;
    int failed;                /* out of memory while loading */
};

static int book_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    const book_t *b = ctx;
    if (v->ops->pos_ply(v, pos) > b->max_ply) return 0;   /* most nodes of a search: one call */
    uint8_t key[GSW_MAX_KEY];
    uint64_t k[2];
    size_t klen = v->ops->pos_key(v, pos, key, NULL);
    if (klen != b->klen) return 0;
    map_pack(key, klen, k);
    const book_slot_t *s = map_find(&b->map, k);
    if (!s || !s->known) return 0;
    *lo = *hi = s->val;
    return 1;
}

static int load_row(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e)
{
    book_t *b = ctx;
    if (!e || e->lo != e->hi || klen != b->klen) return 0;   /* no value, or no key of this variant */
    uint64_t k[2];
    int added;
    map_pack(key, klen, k);
    book_slot_t *s = map_add(&b->map, k, &added);
    if (!s) { b->failed = 1; return 1; }
    s->val = e->lo;
    s->known = 1;
    if (ply > b->max_ply) b->max_ply = ply;
    return 0;
}

int book_load(book_t **out, const gv_t *v, cache_t *cache, err_t *err)
{
    *out = NULL;
    err_t e2;
    if (book_supported(v, &e2)) return 0;
    int64_t rows;
    int max_ply;
    if (book_size(cache, v->game->name, v->name, &rows, &max_ply, err)) return -1;
    if (!rows) return 0;
    book_t *b = calloc(1, sizeof *b);
    if (!b) { err_set(err, GSW_EFAIL, "out of memory loading the opening book"); return -1; }
    GSW_POSBUF pos[GSW_MAX_POS];
    uint8_t key[GSW_MAX_KEY];
    v->ops->pos_start(v, pos);
    b->klen = v->ops->pos_key(v, pos, key, NULL);
    b->max_ply = -1;
    if (book_each(cache, v->game->name, v->name, -1, load_row, b, err) || b->failed) {
        if (b->failed) err_set(err, GSW_EFAIL, "out of memory loading the opening book");
        book_free(b);
        return -1;
    }
    if (!b->map.n) { book_free(b); return 0; }
    b->oracle.probe = book_probe;
    b->oracle.ctx = b;
    *out = b;
    return 1;
}

void book_free(book_t *b)
{
    if (!b) return;
    free(b->map.slot);
    free(b);
}

int book_max_ply(const book_t *b) { return b->max_ply; }

const gsw_oracle_t *book_oracle(const book_t *b) { return &b->oracle; }

/* ---- book files: export and the shipped book ---- */

typedef struct export_ctx {
    const gv_t *v;
    bookf_t *f;
    int64_t cap, missing;
    int failed;
} export_ctx_t;

static int export_row(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e)
{
    export_ctx_t *c = ctx;
    GSW_POSBUF pos[GSW_MAX_POS];
    if (klen != c->f->klen || !c->v->ops->pos_from_key(c->v, key, klen, pos)) return 0;   /* not this variant's */
    ply = c->v->ops->pos_ply(c->v, pos);
    if (!e || e->lo != e->hi) { c->missing++; return 0; }
    if ((int64_t)c->f->n == c->cap) {
        int64_t cap = c->cap ? 2 * c->cap : 4096;
        uint8_t *k = realloc(c->f->keys, (size_t)cap * klen);
        if (k) c->f->keys = k;
        int16_t *vv = realloc(c->f->val, (size_t)cap * sizeof *vv);
        if (vv) c->f->val = vv;
        uint8_t *p = realloc(c->f->ply, (size_t)cap);
        if (p) c->f->ply = p;
        if (!k || !vv || !p) { c->failed = 1; return 1; }
        c->cap = cap;
    }
    size_t i = (size_t)c->f->n++;
    memcpy(c->f->keys + i * klen, key, klen);
    c->f->val[i] = (int16_t)e->lo;
    c->f->ply[i] = (uint8_t)ply;
    if ((uint32_t)ply > c->f->max_ply) c->f->max_ply = (uint32_t)ply;
    return 0;
}

static size_t sort_klen;
static int key_cmp(const void *a, const void *b) { return memcmp(a, b, sort_klen); }

int book_export(const gv_t *v, cache_t *cache, const char *path, book_file_report_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    if (book_supported(v, err)) return err->code;
    bookf_t f;
    memset(&f, 0, sizeof f);
    game_spec(v, f.spec, sizeof f.spec);
    GSW_POSBUF pos[GSW_MAX_POS];
    uint8_t key[GSW_MAX_KEY];
    v->ops->pos_start(v, pos);
    f.klen = (uint32_t)v->ops->pos_key(v, pos, key, NULL);
    export_ctx_t c = { v, &f, 0, 0, 0 };
    int rc = book_each(cache, v->game->name, v->name, -1, export_row, &c, err);
    if (!rc && c.failed) rc = err_set(err, GSW_EFAIL, "out of memory exporting the opening book");
    if (!rc && !f.n) rc = err_set(err, GSW_EINPUT, "%s has no opening book in %s (gsw book build %s --ply N)",
                                  f.spec, cache_filename(cache), f.spec);
    if (!rc && c.missing)
        rc = err_set(err, GSW_EINPUT, "the %s book in %s is not finished: %lld positions have no value "
                     "(gsw book build %s --ply %u finishes it)", f.spec, cache_filename(cache),
                     (long long)c.missing, f.spec, f.max_ply);
    if (!rc) {
        /* sort the rows by key: an index permutation, then the columns */
        size_t n = (size_t)f.n, rec = f.klen + 3;
        uint8_t *tmp = malloc(n * rec);
        if (!tmp) rc = err_set(err, GSW_EFAIL, "out of memory exporting the opening book");
        else {
            for (size_t i = 0; i < n; i++) {
                memcpy(tmp + i * rec, f.keys + i * f.klen, f.klen);
                memcpy(tmp + i * rec + f.klen, &f.val[i], 2);
                tmp[i * rec + f.klen + 2] = f.ply[i];
            }
            sort_klen = f.klen;   /* keys are distinct: the order is total */
            qsort(tmp, n, rec, key_cmp);
            for (size_t i = 0; i < n; i++) {
                memcpy(f.keys + i * f.klen, tmp + i * rec, f.klen);
                memcpy(&f.val[i], tmp + i * rec + f.klen, 2);
                f.ply[i] = tmp[i * rec + f.klen + 2];
            }
            free(tmp);
            rc = bookf_write(path, &f, &r->checksum, err);
        }
    }
    r->positions = (int64_t)f.n;
    r->max_ply = (int)f.max_ply;
    bookf_free(&f);
    return rc;
}

int book_open_file(book_t **out, const gv_t *v, const char *path, book_file_report_t *r, err_t *err)
{
    *out = NULL;
    memset(r, 0, sizeof *r);
    if (book_supported(v, err)) return err->code;
    bookf_t f;
    if (bookf_read(path, &f, &r->checksum, err)) return err->code;
    char spec[96];
    game_spec(v, spec, sizeof spec);
    GSW_POSBUF pos[GSW_MAX_POS];
    uint8_t key[GSW_MAX_KEY];
    v->ops->pos_start(v, pos);
    size_t klen = v->ops->pos_key(v, pos, key, NULL);
    if (strcmp(f.spec, spec) || f.klen != klen) {
        err_set(err, GSW_EINPUT, "%s is a book of %s, not of %s", path, f.spec, spec);
        bookf_free(&f);
        return err->code;
    }
    book_t *b = calloc(1, sizeof *b);
    if (!b) {
        bookf_free(&f);
        return err_set(err, GSW_EFAIL, "out of memory loading the opening book");
    }
    b->klen = klen;
    b->max_ply = -1;
    int rc = f.n <= SIZE_MAX / 4 / sizeof(book_slot_t) && map_reserve(&b->map, (size_t)f.n)
             ? err_set(err, GSW_EFAIL, "out of memory loading the opening book") : GSW_OK;
    for (uint64_t i = 0; i < f.n && !rc; i++) {
        const uint8_t *k = f.keys + i * klen;
        /* every key a position of this game at its stated ply, once */
        if (!v->ops->pos_from_key(v, k, klen, pos) || v->ops->pos_ply(v, pos) != f.ply[i]
            || v->ops->pos_key(v, pos, key, NULL) != klen || memcmp(key, k, klen)) {
            rc = err_set(err, GSW_EFAIL, "%s is damaged (entry %llu is no position of %s)", path,
                         (unsigned long long)i + 1, spec);
            break;
        }
        uint64_t kk[2];
        int added;
        if (b->map.slot && i + 16 < f.n) {   /* the slots are random accesses across megabytes: ask for one early */
            map_pack(k + 16 * klen, klen, kk);
            __builtin_prefetch(&b->map.slot[map_hash(kk) & b->map.mask], 1);
        }
        map_pack(k, klen, kk);
        book_slot_t *s = map_add(&b->map, kk, &added);
        if (!s) { rc = err_set(err, GSW_EFAIL, "out of memory loading the opening book"); break; }
        s->val = f.val[i];
        s->known = 1;
        if (f.ply[i] > b->max_ply) b->max_ply = f.ply[i];
    }
    r->positions = (int64_t)f.n;
    r->max_ply = b->max_ply;
    bookf_free(&f);
    if (rc || !b->map.n) {
        if (!rc) rc = err_set(err, GSW_EFAIL, "%s holds no positions", path);
        book_free(b);
        return rc;
    }
    b->oracle.probe = book_probe;
    b->oracle.ctx = b;
    *out = b;
    return GSW_OK;
}

int book_file_record(const char *path, int argc, char *const *argv, int64_t positions, err_t *err)
{
    return manifest_record_path(path, argc, argv, positions > 0 ? (uint64_t)positions : 0, err);
}

int book_file_depth(const char *path)
{
    bookf_t f;
    err_t err;
    return bookf_peek(path, &f, &err) ? -1 : (int)f.max_ply;
}

/* The variants gsw ships a book for (in data/books/, as GAME-VARIANT.book):
 * theirs is expected, and said missing when it is not there. */
static const char *const shipped_books[] = { "connect4:7x6", NULL };

int book_shipped_path(const gv_t *v, char *path, size_t n)
{
    char spec[96];
    game_spec(v, spec, sizeof spec);
    int listed = 0;
    for (int i = 0; shipped_books[i]; i++) listed |= !strcmp(shipped_books[i], spec);
    const char *dir = getenv("GSW_BOOKS");
#ifdef GSW_BOOK_DIR
    if (!dir) dir = GSW_BOOK_DIR;
#endif
    if (!dir || !*dir) return 0;
    snprintf(path, n, "%s/%s-%s.book", dir, v->game->name, v->name);
    return listed || access(path, F_OK) == 0;   /* (another variant's book, put there by hand) */
}
