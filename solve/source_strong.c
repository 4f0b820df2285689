/* Strong solutions as a knowledge source (solve/source.h): Connect Four's
 * every position by ply (solve/strong.h) answers win/draw/loss at the root
 * where that is enough, and gives the searches below any root its values as
 * proven bounds (before the books, which it makes useless). */
#include "solve/source.h"

#include <stdio.h>
#include <stdlib.h>

#include "solve/strong.h"

typedef struct strong_src {
    strong_t *st;
    void (*warn)(void *ctx, const char *msg);
    void *ctx;
} strong_src_t;

static void strong_src_say(strong_src_t *s, const char *msg)
{
    if (s->warn) s->warn(s->ctx, msg);
    else fprintf(stderr, "gsw: %s\n", msg);
}

/* None there: nothing; a damaged manifest is said and left alone. */
static int strong_src_open(const source_env_t *env, void **ctx, err_t *err)
{
    if (!strong_supported(env->v)) return 0;
    char d[1024];
    if (env->strong_dir) snprintf(d, sizeof d, "%s", env->strong_dir);
    else if (strong_default_dir(env->db, d, sizeof d, err)) return -1;
    strong_src_t *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory"), -1;
    s->warn = env->warn;
    s->ctx = env->ctx;
    err_t e2;
    if (strong_open(&s->st, env->v, d, &e2) < 0) strong_src_say(s, e2.msg);   /* the search goes on without it */
    if (!s->st) { free(s); return 0; }
    s->st->guard = 1;   /* its sets: only those the folder's MANIFEST vouches for */
    *ctx = s;
    return 1;
}

static void strong_src_close(void *ctx)
{
    strong_src_t *s = ctx;
    if (!s) return;
    strong_close(s->st);
    free(s);
}

/* win/draw/loss at once where that is enough */
static int strong_src_probe(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err)
{
    (void)err;
    strong_src_t *s = ctx;
    if (!(q->wdl || q->proof_numbers)) return 0;
    int r = source_oracle_answer(q, &s->st->oracle, a);
    if (s->st->damage[0]) strong_src_say(s, s->st->damage);
    return r;
}

static const gsw_oracle_t *strong_src_oracle(void *ctx, const source_query_t *q)
{
    strong_src_t *s = ctx;
    return q->pos ? &s->st->oracle : NULL;   /* (not the heuristic engine's between solves) */
}

static void strong_src_after_search(void *ctx)
{
    strong_src_t *s = ctx;
    if (s->st->damage[0]) strong_src_say(s, s->st->damage);
}

static void strong_src_describe(void *ctx, source_description_t *d)
{
    (void)ctx;
    d->name = "strong";
    d->phrase = "the strong solution";
}

const source_kind_t source_strong = {
    .open = strong_src_open,
    .probe = strong_src_probe,
    .oracle = strong_src_oracle,
    .describe = strong_src_describe,
    .close = strong_src_close,
    .after_search = strong_src_after_search,
    .shadows = 1,
    .with_dirs = 1,
};
