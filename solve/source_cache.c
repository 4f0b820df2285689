/* The cache as a knowledge source (solve/source.h): a stored row that
 * settles the question answers it; one that does not seeds the search.
 * It keeps what the solver proves (its store); inside searches the cache
 * is no oracle (the manager and the prover have their own probe:
 * source_cache_probe). */
#include "solve/source.h"

#include <pthread.h>
#include <stdlib.h>

#include "db/cache.h"

const char *source_cache_file(const cache_t *cache)
{
    return cache ? cache_filename(cache) : NULL;
}

static int cache_src_open(const source_env_t *env, void **ctx, err_t *err)
{
    (void)err;
    *ctx = env->cache;
    return env->cache != NULL;
}

/* Does a stored row whose bounds settle the question hold the rest of
 * what a solve promises? A best move (unless the solve wants none, or the
 * game is over at pos): a search stopped after proving the value but
 * before finding its move stores the value alone, and the next solve must
 * finish the job (it starts from the stored bounds), not answer without
 * the move. */
static int cache_src_whole(const source_query_t *q, const cache_entry_t *e)
{
    val_t tv;
    return !q->want_best || e->best != MOVE_NONE || q->v->ops->terminal(q->v, q->pos, &tv);
}

static int cache_src_probe(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err)
{
    cache_t *cache = ctx;
    const gv_t *v = q->v;
    if (!q->klen) return 0;
    double t0 = gsw_now_ms();
    cache_entry_t e;
    int found = cache_get(cache, v->game->name, v->name, q->key, q->klen, &e, err);
    if (found <= 0) return found;
    a->lo = e.lo;
    a->hi = e.hi;
    if (!source_settles(q, e.lo, e.hi) || !cache_src_whole(q, &e)) {
        a->use = SOURCE_SEED;   /* a partial proof from before: resume from it */
        return 1;
    }
    a->best = e.best == MOVE_NONE || !q->sym ? e.best : v->ops->move_sym(v, e.best, q->sym, 1);
    a->time_ms = gsw_now_ms() - t0;
    return 1;
}

static int cache_src_store(void *ctx, const source_query_t *q, const cache_entry_t *e, int now, err_t *err)
{
    cache_t *cache = ctx;
    const gv_t *v = q->v;
    if (!q->klen) return GSW_OK;
    if (!e) return cache_delete(cache, v->game->name, v->name, q->key, q->klen, err);
    if (cache_put(cache, v->game->name, v->name, q->key, q->klen, e, err)) return err->code;
    return now ? cache_flush(cache, err) : GSW_OK;
}

static void cache_src_describe(void *ctx, source_description_t *d)
{
    (void)ctx;
    d->name = "cache";
    d->phrase = "the cache";
}

static void cache_src_close(void *ctx)
{
    (void)ctx;   /* the solver's caller's */
}

const source_kind_t source_cache = {
    .open = cache_src_open,
    .probe = cache_src_probe,
    .describe = cache_src_describe,
    .close = cache_src_close,
    .store = cache_src_store,
};

void source_cache_probe_init(source_cache_probe_t *p, cache_t *cache)
{
    p->cache = cache;
    p->lock = malloc(sizeof(pthread_mutex_t));
    if (p->lock) pthread_mutex_init(p->lock, NULL);
}

void source_cache_probe_free(source_cache_probe_t *p)
{
    if (p->lock) { pthread_mutex_destroy(p->lock); free(p->lock); }
    p->lock = NULL;
}

int source_cache_probe(void *ctx, const gv_t *v, const void *pos, dfpn_goal_t goal, int attacker, int *proven)
{
    source_cache_probe_t *p = ctx;
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

