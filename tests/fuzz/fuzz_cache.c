/* A cache file whose bytes the fuzzer controls (db/): the input is written
 * to a scratch file and opened with cache_open; if it opens, it is read
 * every way gsw reads it — rows by key (connect4:4x4's first positions and
 * every key cache_each finds), cache_each, cache_stats, cache_check, the
 * proof trees (proofs_get, proofs_manager_get), the saved games and the
 * opening book (its rows, its statistics and the book loaded as the
 * searches' oracle, probed at the first positions) — and closed. Must never
 * crash or leak. */
#include "tests/fuzz/fuzz_util.h"

#include "core/dfpn.h"
#include "core/manager.h"
#include "db/book.h"
#include "db/cache.h"
#include "db/proofs.h"
#include "db/saved.h"
#include "solve/book.h"

#define NKEYS 8
static gv_t *v;
static uint8_t keys[NKEYS][GSW_MAX_KEY];
static size_t klens[NKEYS];

static void setup(void)
{
    err_t err;
    setenv("GSW_LOCK_MS", "10", 1);
    if (game_open("connect4:4x4", &v, &err)) abort();
    /* the start, and the positions after "1", "2", "12", "21", "22", "123", "1234" */
    static const char *const lines[NKEYS] = { "", "1", "2", "12", "21", "22", "123", "1234" };
    for (int i = 0; i < NKEYS; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        if (game_pos_parse(v, lines[i], pos, &err)) abort();
        klens[i] = v->ops->pos_key(v, pos, keys[i], NULL);
    }
}

static void read_key(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen)
{
    err_t err;
    cache_entry_t e;
    cache_get(c, game, variant, key, klen, &e, &err);
    for (int g = DFPN_GOAL_WIN; g <= DFPN_GOAL_DRAW; g++) {
        proof_tree_t t;
        memset(&t, 0, sizeof t);
        if (proofs_get(c, game, variant, key, klen, (dfpn_goal_t)g, &t, &err) == 1) proof_tree_free(&t);
        manager_t m;
        memset(&m, 0, sizeof m);
        char state[32];
        if (proofs_manager_get(c, game, variant, key, klen, (dfpn_goal_t)g, &m, state, sizeof state, &err) == 1)
            manager_free(&m);
    }
}

typedef struct seen { int n; } seen_t;

static int each_row(void *ctx, const char *game, const char *variant, const uint8_t *key, size_t klen,
                    const cache_entry_t *e)
{
    (void)game, (void)variant, (void)key, (void)klen, (void)e;
    seen_t *s = ctx;
    return s->n++ >= 16;
}

/* the rows cache_each found: read each again by its own key */
typedef struct found {
    int n;
    char game[32][32], variant[32][48];
    uint8_t key[32][GSW_MAX_KEY];
    size_t klen[32];
} found_t;

static int collect(void *ctx, const char *game, const char *variant, const uint8_t *key, size_t klen,
                   const cache_entry_t *e)
{
    (void)e;
    found_t *f = ctx;
    if (f->n == 32) return 1;
    snprintf(f->game[f->n], sizeof f->game[0], "%s", game ? game : "");
    snprintf(f->variant[f->n], sizeof f->variant[0], "%s", variant ? variant : "");
    size_t k = klen < GSW_MAX_KEY ? klen : GSW_MAX_KEY;
    if (k) memcpy(f->key[f->n], key, k);
    f->klen[f->n] = k;
    f->n++;
    return 0;
}

static int book_row(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e)
{
    (void)key, (void)klen, (void)ply, (void)e;
    return ++*(int *)ctx >= 64;
}

/* connect4:4x4's book: its rows, statistics, and the book as an oracle */
static void read_book(cache_t *c)
{
    err_t err;
    int64_t rows;
    int max_ply, n = 0;
    book_size(c, "connect4", "4x4", &rows, &max_ply, &err);
    book_each(c, "connect4", "4x4", -1, book_row, &n, &err);
    static book_stats_t st;
    book_stats(v, c, &st, &err);
    book_t *b;
    if (book_load(&b, v, c, &err) != 1) return;
    const gsw_oracle_t *o = book_oracle(b);
    static const char *const lines[] = { "", "1", "12", "123" };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        val_t lo, hi;
        if (game_pos_parse(v, lines[i], pos, &err)) abort();
        if (o->probe(o->ctx, v, pos, &lo, &hi) && lo != hi) abort();   /* the book holds exact values */
    }
    book_free(b);
}

static void remove_files(const char *path)
{
    char side[600];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-journal", path);
    unlink(side);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) setup();
    char path[512];
    fuzz_path(path, sizeof path, "cache", ".sqlite");
    remove_files(path);
    if (fuzz_write(path, data, size)) abort();
    cache_t *c = NULL;
    err_t err;
    if (cache_open(path, &c, &err) == GSW_OK) {
        for (int i = 0; i < NKEYS; i++) read_key(c, "connect4", "4x4", keys[i], klens[i]);
        seen_t seen = { 0 };
        cache_each(c, NULL, NULL, 0, each_row, &seen, &err);
        cache_each(c, "connect4", "4x4", 3, each_row, &seen, &err);
        static found_t found;
        found.n = 0;
        cache_each(c, NULL, NULL, 0, collect, &found, &err);
        for (int i = 0; i < found.n; i++) read_key(c, found.game[i], found.variant[i], found.key[i], found.klen[i]);
        static cache_stats_t st;
        cache_stats(c, &st, &err);
        int ok = 0;
        char report[1024];
        cache_check(c, &ok, report, sizeof report, &err);
        static saved_game_t games[8];
        int n = saved_list(c, games, 8, &err);
        for (int i = 0; i < n; i++) {
            static saved_game_t g;
            saved_get(c, games[i].name, &g, &err);
        }
        static saved_game_t g;
        saved_get(c, "fuzz", &g, &err);
        read_book(c);
        cache_close(c, &err);
    }
    remove_files(path);
    return 0;
}
