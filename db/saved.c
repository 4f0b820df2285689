/* Saved games (see saved.h): rows of the cache's saved_game table, written
 * in their own short transactions so they never wait on a solver's batch. */
#include "db/saved.h"

#include "db/cache_private.h"
#include <stdio.h>
#include <string.h>


static void copy_col(sqlite3_stmt *st, int i, char *out, size_t n)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, n, "%s", t ? (const char *)t : "");
}

int saved_put(cache_t *c, const saved_game_t *g, err_t *err)
{
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT INTO saved_game (name, game, variant, start, moves) "
                                "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO UPDATE SET "
                                "game = excluded.game, variant = excluded.variant, start = excluded.start, "
                                "moves = excluded.moves, saved = strftime('%s','now')", -1, &st, NULL))
        return cache_fail(c, err, "save a game");
    const char *v[] = { g->name, g->game, g->variant, g->start, g->moves };
    for (int i = 0; i < 5; i++) sqlite3_bind_text(st, i + 1, v[i], -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? GSW_OK : cache_fail(c, err, "save a game");
}

static void saved_row(sqlite3_stmt *st, saved_game_t *g)
{
    memset(g, 0, sizeof *g);
    copy_col(st, 0, g->name, sizeof g->name);
    copy_col(st, 1, g->game, sizeof g->game);
    copy_col(st, 2, g->variant, sizeof g->variant);
    copy_col(st, 3, g->start, sizeof g->start);
    copy_col(st, 4, g->moves, sizeof g->moves);
    g->saved = sqlite3_column_int64(st, 5);
}

int saved_get(cache_t *c, const char *name, saved_game_t *g, err_t *err)
{
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name, game, variant, start, moves, saved FROM saved_game WHERE name = ?1",
                           -1, &st, NULL)) {
        cache_fail(c, err, "read saved games");
        return -1;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) { saved_row(st, g); found = 1; }
    else if (rc != SQLITE_DONE) { cache_fail(c, err, "read saved games"); found = -1; }
    sqlite3_finalize(st);
    return found;
}

int saved_list(cache_t *c, saved_game_t *out, int max, err_t *err)
{
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name, game, variant, start, moves, saved FROM saved_game "
                               "ORDER BY saved DESC, name", -1, &st, NULL)) {
        cache_fail(c, err, "read saved games");
        return -1;
    }
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) saved_row(st, &out[n++]);
    if (n < max && rc != SQLITE_DONE) { cache_fail(c, err, "read saved games"); n = -1; }
    sqlite3_finalize(st);
    return n;
}
