/* Opening books as knowledge sources (solve/source.h), two kinds: the book
 * shipped with gsw (data/books, read-only), asked at the root before the
 * cache, and the cache's own book (book build). Below a root shallower
 * than its deepest ply a book gives the searches its exact values: the
 * shipped one where it goes deeper than the root, else the cache's. */
#include "solve/source.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solve/book.h"
#include "solve/trust.h"

typedef struct book_src {
    cache_t *cache;            /* the cache's book: where it is */
    book_t *b;                 /* NULL: none (yet) */
    char spec[96];             /* the variant it was looked for ("": not yet) */
    int ply;                   /* the shipped book: the deepest ply it holds, its file header's
                                  until it is opened (INT_MAX: the header unread), the
                                  book's after; -1: none, or it was refused. Deeper
                                  positions never open it */
    void (*warn)(void *ctx, const char *msg);
    void *ctx;
} book_src_t;

static void book_src_say(book_src_t *s, const char *msg)
{
    if (s->warn) s->warn(s->ctx, msg);
    else fprintf(stderr, "gsw: %s\n", msg);
}

static int book_src_new(const source_env_t *env, cache_t *cache, void **ctx, err_t *err)
{
    book_src_t *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory"), -1;
    s->cache = cache;
    s->warn = env->warn;
    s->ctx = env->ctx;
    *ctx = s;
    return 1;
}

/* Opened at once; its book is looked for on first use, per variant. */
static int shipped_open(const source_env_t *env, void **ctx, err_t *err)
{
    return book_src_new(env, NULL, ctx, err);
}

static int cached_open(const source_env_t *env, void **ctx, err_t *err)
{
    return env->cache ? book_src_new(env, env->cache, ctx, err) : 0;
}

static void book_src_close(void *ctx)
{
    book_src_t *s = ctx;
    if (!s) return;
    book_free(s->b);
    free(s);
}

/* 1 when v is another variant than the one the book was looked for (the
 * book goes, spec is v's), 0 when it is the same. */
static int book_src_new_variant(book_src_t *s, const gv_t *v)
{
    char now[96];
    game_spec(v, now, sizeof now);
    if (!strcmp(now, s->spec)) return 0;
    book_free(s->b);
    s->b = NULL;
    snprintf(s->spec, sizeof s->spec, "%s", now);
    return 1;
}

/* May the book file at path be read? Its folder's MANIFEST must list it
 * with its size (solve/trust.h). */
static int book_vouched(const char *path, err_t *err)
{
    char dir[1100], fix[1300];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || access(path, F_OK)) return GSW_OK;   /* (a missing file: the open says so) */
    *slash = 0;
    snprintf(fix, sizeof fix, "gsw book check GAME %.1000s; adopt it: the same with --record", path);
    trust_dir_t t = { 0 };
    int rc = trust_file(&t, dir, slash + 1, fix, 0, err);
    trust_dir_free(&t);
    return rc;
}

/* The shipped opening book of q's variant, for a position at ply ply: NULL
 * when there is none, or when it stops above that ply (its file's header
 * says so before it is opened) (a process that asks only past the book
 * never loads it: about 35 ms and 30 MB for the 7x6 book). Opened whole on
 * the first position it may hold; a missing or damaged file is said once
 * and left alone (a header that cannot be read leaves that to the whole
 * read). */
static book_t *shipped_book(book_src_t *s, const source_query_t *q, int ply)
{
    if (q->no_book) return NULL;
    char path[1100];
    if (book_src_new_variant(s, q->v)) {
        s->ply = -1;
        if (book_shipped_path(q->v, path, sizeof path)) {
            int d = book_file_depth(path);
            s->ply = d < 0 ? INT_MAX : d;
        }
    }
    if (ply > s->ply) return NULL;
    if (s->b) return s->b;
    /* the one try: opened, its own deepest ply stands; refused, no other */
    err_t err;
    book_file_report_t r;
    s->ply = -1;
    if (!book_shipped_path(q->v, path, sizeof path)) return NULL;
    if (book_vouched(path, &err) || book_open_file(&s->b, q->v, path, &r, &err)) {
        char msg[512];
        snprintf(msg, sizeof msg, "opening book: %.440s; going on without it", err.msg);
        book_src_say(s, msg);
        return NULL;
    }
    s->ply = book_max_ply(s->b);
    return ply > s->ply ? NULL : s->b;
}

/* The shipped book's answer for pos: when it holds pos, with the best
 * move where its moves' values name it; when they do not (pos is on the
 * book's last ply) and the solve wants one, its value as known bounds: the
 * cache or a search finds the move. */
static int shipped_probe(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err)
{
    (void)err;
    const gv_t *v = q->v;
    const game_ops_t *O = v->ops;
    book_t *b = shipped_book(ctx, q, O->pos_ply(v, q->pos));
    if (!b) return 0;
    const gsw_oracle_t *o = book_oracle(b);
    if (!source_oracle_answer(q, o, a)) return 0;
    if (a->best != MOVE_NONE) {   /* named among the moves the book knows: is it worth the value? */
        GSW_POSBUF c[GSW_MAX_POS];
        val_t cl = -VAL_INF, ch, tv;
        memcpy(c, q->pos, O->pos_size);
        O->play(v, c, a->best);
        if (O->terminal(v, c, &tv)) cl = tv;
        else o->probe(o->ctx, v, c, &cl, &ch);
        if (val_up(cl) != a->lo) a->best = MOVE_NONE;
    }
    if (q->want_best && a->best == MOVE_NONE) a->use = SOURCE_KNOWN;
    return 1;
}

static const gsw_oracle_t *shipped_oracle(void *ctx, const source_query_t *q)
{
    if (!q->pos) return NULL;
    book_t *b = shipped_book(ctx, q, q->v->ops->pos_ply(q->v, q->pos) + 1);   /* (one that goes deeper than the root) */
    return b ? book_oracle(b) : NULL;
}

/* The cache's book, loaded on the first search of each variant. */
static const gsw_oracle_t *cached_oracle(void *ctx, const source_query_t *q)
{
    book_src_t *s = ctx;
    if (!q->pos || q->no_book) return NULL;
    if (book_src_new_variant(s, q->v)) {
        err_t err;
        if (book_load(&s->b, q->v, s->cache, &err) < 0) book_src_say(s, err.msg);
    }
    if (!s->b || q->v->ops->pos_ply(q->v, q->pos) >= book_max_ply(s->b)) return NULL;
    return book_oracle(s->b);
}

static void book_src_describe(void *ctx, source_description_t *d)
{
    (void)ctx;
    d->name = "book";
    d->phrase = "the opening book";
}

const source_kind_t source_book_shipped = {
    .open = shipped_open,
    .probe = shipped_probe,
    .oracle = shipped_oracle,
    .describe = book_src_describe,
    .close = book_src_close,
    .first = 1,
    .shadows = 1,
};

/* (its positions are rows in the cache, which answers them at the root) */
const source_kind_t source_book_cache = {
    .open = cached_open,
    .oracle = cached_oracle,
    .describe = book_src_describe,
    .close = book_src_close,
};
