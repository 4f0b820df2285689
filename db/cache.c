/* The SQLite cache of solved positions (see cache.h): schema and migrations,
 * WAL mode for several processes, batched writes, bound-merging stores,
 * persistent hit/miss counters, integrity checks. Never deletes or rewrites
 * a file it cannot read as a gsw cache. */
#include "db/cache.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CACHE_BATCH 256
#define CACHE_FLUSH_MS 200
#define CACHE_BUSY_MS 15000

/* A store waiting for the next write transaction. */
typedef struct pending {
    char game[32], variant[48];
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    cache_entry_t e;
} pending_t;

struct cache {
    sqlite3 *db;
    char path[1024];
    sqlite3_stmt *get, *put;
    /* stores are buffered and written in one short transaction, so the
     * write lock is never held while this process solves */
    pending_t pend[CACHE_BATCH];
    int npend;
    double first_pend_ms;
    int64_t hits, misses, puts;   /* not yet added to the file's counters */
};

static double cache_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Ordered schema steps: migrations[i] takes user_version i to i + 1. */
static const char *const migrations[] = {
    "CREATE TABLE gsw_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "INSERT INTO gsw_meta VALUES ('hits', 0), ('misses', 0), ('puts', 0);"
    "CREATE TABLE solved ("
    "  game TEXT NOT NULL, variant TEXT NOT NULL, key BLOB NOT NULL,"
    "  lo INTEGER NOT NULL, hi INTEGER NOT NULL, best INTEGER,"
    "  solver TEXT, nodes INTEGER, time_ms REAL,"
    "  updated INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    "  PRIMARY KEY (game, variant, key)) WITHOUT ROWID;",
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

static int cache_fail(cache_t *c, err_t *err, const char *what)
{
    return err_set(err, GSW_EFAIL, "cache %s: %s%s%s", c->path, what, c->db ? ": " : "",
                   c->db ? sqlite3_errmsg(c->db) : "");
}

static int cache_exec(cache_t *c, const char *sql, err_t *err)
{
    char *msg = NULL;
    if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        err_set(err, GSW_EFAIL, "cache %s: %s", c->path, msg ? msg : sqlite3_errmsg(c->db));
        sqlite3_free(msg);
        return GSW_EFAIL;
    }
    return GSW_OK;
}

static int mkdir_p(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int r = mkdir(dir, 0755);
        *p = '/';
        if (r && errno != EEXIST) return -1;
    }
    return mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;
}

int cache_default_path(char *buf, size_t n, err_t *err)
{
    const char *env = getenv("GSW_DB");
    if (env && *env) {
        snprintf(buf, n, "%s", env);
        return GSW_OK;
    }
    char dir[1024];
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) snprintf(dir, sizeof dir, "%s/gsw", xdg);
    else if (home && *home) snprintf(dir, sizeof dir, "%s/.local/share/gsw", home);
    else return err_set(err, GSW_EFAIL, "no cache location: set GSW_DB, XDG_DATA_HOME or HOME");
    if (mkdir_p(dir)) return err_set(err, GSW_EFAIL, "cannot create %s: %s", dir, strerror(errno));
    snprintf(buf, n, "%s/cache.sqlite", dir);
    return GSW_OK;
}

static int cache_int(cache_t *c, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

/* Refuse foreign or newer files before anything is written to them. */
static int cache_owned(cache_t *c, err_t *err)
{
    int64_t version = 0, tables = 0, ours = 0;
    if (cache_int(c, "PRAGMA user_version", &version)) return cache_fail(c, err, "cannot read");
    if (cache_int(c, "SELECT count(*) FROM sqlite_master", &tables)) return cache_fail(c, err, "cannot read");
    cache_int(c, "SELECT count(*) FROM sqlite_master WHERE name IN ('solved','gsw_meta')", &ours);
    if (version > SCHEMA_VERSION)
        return err_set(err, GSW_EFAIL, "cache %s: schema version %lld is newer than this gsw knows (%d)",
                       c->path, (long long)version, SCHEMA_VERSION);
    if (version == 0 && tables > 0)
        return err_set(err, GSW_EFAIL, "cache %s: an SQLite database but not a gsw cache", c->path);
    if (version > 0 && ours < 2)
        return err_set(err, GSW_EFAIL, "cache %s: not a gsw cache (tables missing)", c->path);
    return GSW_OK;
}

/* Bring the schema to SCHEMA_VERSION. */
static int cache_migrate(cache_t *c, err_t *err)
{
    int64_t version = 0;
    if (cache_int(c, "PRAGMA user_version", &version)) return cache_fail(c, err, "cannot read");
    while (version < SCHEMA_VERSION) {
        char sql[64];
        if (cache_exec(c, "BEGIN IMMEDIATE", err)) return GSW_EFAIL;
        /* another process may have migrated meanwhile */
        if (cache_int(c, "PRAGMA user_version", &version)) { cache_exec(c, "ROLLBACK", NULL); return cache_fail(c, err, "cannot read"); }
        if (version >= SCHEMA_VERSION) { cache_exec(c, "COMMIT", NULL); break; }
        snprintf(sql, sizeof sql, "PRAGMA user_version = %lld", (long long)version + 1);
        if (cache_exec(c, migrations[version], err) || cache_exec(c, sql, err)) {
            cache_exec(c, "ROLLBACK", NULL);
            return GSW_EFAIL;
        }
        if (cache_exec(c, "COMMIT", err)) return GSW_EFAIL;
        version++;
    }
    return GSW_OK;
}

int cache_open(const char *path, cache_t **out, err_t *err)
{
    cache_t *c = calloc(1, sizeof *c);
    if (!c) return err_set(err, GSW_EFAIL, "out of memory");
    snprintf(c->path, sizeof c->path, "%s", path);
    struct stat sb;
    if (!stat(path, &sb) && S_ISDIR(sb.st_mode)) {
        err_set(err, GSW_EFAIL, "cache %s: is a directory", path);
        free(c);
        return GSW_EFAIL;
    }
    int rc = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        cache_fail(c, err, "cannot open");
        sqlite3_close(c->db);
        free(c);
        return GSW_EFAIL;
    }
    sqlite3_busy_timeout(c->db, CACHE_BUSY_MS);
    sqlite3_extended_result_codes(c->db, 1);
    /* reading the header first tells garbage from a database */
    int64_t dummy;
    if (cache_int(c, "SELECT count(*) FROM sqlite_master", &dummy)) {
        cache_fail(c, err, "cannot read");
        goto fail;
    }
    if (cache_owned(c, err)) goto fail;
    if (cache_exec(c, "PRAGMA journal_mode=WAL", err) || cache_exec(c, "PRAGMA synchronous=NORMAL", err))
        goto fail;
    if (cache_migrate(c, err)) goto fail;
    if (sqlite3_prepare_v2(c->db, "SELECT lo, hi, best, solver, nodes, time_ms FROM solved "
                           "WHERE game = ?1 AND variant = ?2 AND key = ?3", -1, &c->get, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(c->db,
            "INSERT INTO solved (game, variant, key, lo, hi, best, solver, nodes, time_ms) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
            "ON CONFLICT (game, variant, key) DO UPDATE SET "
            "  best = CASE WHEN excluded.best IS NOT NULL AND (excluded.hi - excluded.lo) <= (hi - lo) "
            "              THEN excluded.best ELSE best END,"
            "  solver = CASE WHEN (excluded.hi - excluded.lo) <= (hi - lo) THEN excluded.solver ELSE solver END,"
            "  nodes = coalesce(nodes, 0) + coalesce(excluded.nodes, 0),"
            "  time_ms = coalesce(time_ms, 0) + coalesce(excluded.time_ms, 0),"
            "  lo = max(lo, excluded.lo), hi = min(hi, excluded.hi),"
            "  updated = strftime('%s','now') "
            "WHERE max(lo, excluded.lo) <= min(hi, excluded.hi)", -1, &c->put, NULL) != SQLITE_OK) {
        cache_fail(c, err, "cannot prepare");
        goto fail;
    }
    *out = c;
    return GSW_OK;
fail:
    sqlite3_finalize(c->get);
    sqlite3_finalize(c->put);
    sqlite3_close(c->db);
    free(c);
    return GSW_EFAIL;
}

static int cache_counters(cache_t *c, err_t *err)
{
    if (!c->hits && !c->misses && !c->puts) return GSW_OK;
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE gsw_meta SET value = value + CASE name WHEN 'hits' THEN %lld WHEN 'misses' THEN %lld "
             "WHEN 'puts' THEN %lld ELSE 0 END",
             (long long)c->hits, (long long)c->misses, (long long)c->puts);
    if (cache_exec(c, sql, err)) return GSW_EFAIL;
    c->hits = c->misses = c->puts = 0;
    return GSW_OK;
}

static int cache_write_one(cache_t *c, const pending_t *p, err_t *err)
{
    sqlite3_stmt *st = c->put;
    const cache_entry_t *e = &p->e;
    sqlite3_bind_text(st, 1, p->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, p->variant, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 3, p->key, (int)p->klen, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, e->lo);
    sqlite3_bind_int(st, 5, e->hi);
    if (e->best == MOVE_NONE) sqlite3_bind_null(st, 6);
    else sqlite3_bind_int64(st, 6, e->best);
    sqlite3_bind_text(st, 7, e->solver, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)e->nodes);
    sqlite3_bind_double(st, 9, e->time_ms);
    int rc = sqlite3_step(st);
    int changed = sqlite3_changes(c->db);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) return cache_fail(c, err, "cannot write");
    if (changed == 0)   /* the WHERE clause refused: the bounds would cross */
        return err_set(err, GSW_EFAIL, "cache %s: a %s:%s entry contradicts the stored bounds; kept the stored one",
                       c->path, p->game, p->variant);
    return GSW_OK;
}

int cache_flush(cache_t *c, err_t *err)
{
    if (!c->npend && !c->hits && !c->misses && !c->puts) return GSW_OK;
    if (cache_exec(c, "BEGIN IMMEDIATE", err)) return GSW_EFAIL;
    int rc = GSW_OK;
    err_t first;
    err_clear(&first);
    for (int i = 0; i < c->npend; i++) {
        err_t e1;
        int r = cache_write_one(c, &c->pend[i], &e1);
        if (r && !rc) { rc = r; first = e1; }
        if (r && !strstr(e1.msg, "contradicts")) break;   /* a real write failure */
    }
    if (rc && !strstr(first.msg, "contradicts")) {
        cache_exec(c, "ROLLBACK", NULL);
        if (err) *err = first;
        return rc;
    }
    if (cache_counters(c, err) || cache_exec(c, "COMMIT", err)) {
        cache_exec(c, "ROLLBACK", NULL);
        return GSW_EFAIL;
    }
    c->npend = 0;
    if (rc && err) *err = first;
    return rc;
}

int cache_close(cache_t *c, err_t *err)
{
    if (!c) return GSW_OK;
    int rc = cache_flush(c, err);
    sqlite3_finalize(c->get);
    sqlite3_finalize(c->put);
    sqlite3_close(c->db);
    free(c);
    return rc;
}

int cache_get(cache_t *c, const char *game, const char *variant,
              const uint8_t *key, size_t klen, cache_entry_t *out, err_t *err)
{
    for (int i = c->npend - 1; i >= 0; i--) {   /* this process's unwritten stores */
        const pending_t *p = &c->pend[i];
        if (p->klen == klen && !memcmp(p->key, key, klen) && !strcmp(p->game, game) && !strcmp(p->variant, variant)) {
            *out = p->e;
            c->hits++;
            return 1;
        }
    }
    sqlite3_stmt *st = c->get;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 3, key, (int)klen, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    int found = 0;
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        out->lo = (val_t)sqlite3_column_int(st, 0);
        out->hi = (val_t)sqlite3_column_int(st, 1);
        out->best = sqlite3_column_type(st, 2) == SQLITE_NULL ? MOVE_NONE : (move_t)sqlite3_column_int64(st, 2);
        const unsigned char *s = sqlite3_column_text(st, 3);
        snprintf(out->solver, sizeof out->solver, "%s", s ? (const char *)s : "");
        out->nodes = (uint64_t)sqlite3_column_int64(st, 4);
        out->time_ms = sqlite3_column_double(st, 5);
        found = 1;
    } else if (rc != SQLITE_DONE) {
        cache_fail(c, err, "cannot read");
        found = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (found > 0) c->hits++;
    else if (found == 0) c->misses++;
    return found;
}

int cache_put(cache_t *c, const char *game, const char *variant,
              const uint8_t *key, size_t klen, const cache_entry_t *e, err_t *err)
{
    if (e->lo > e->hi)
        return err_set(err, GSW_EFAIL, "cache %s: refusing a %s:%s entry whose lower bound is above its upper bound",
                       c->path, game, variant);
    if (klen > GSW_MAX_KEY || strlen(game) >= sizeof c->pend[0].game || strlen(variant) >= sizeof c->pend[0].variant)
        return err_set(err, GSW_EFAIL, "cache %s: key or name too long", c->path);
    pending_t *p = &c->pend[c->npend++];
    snprintf(p->game, sizeof p->game, "%s", game);
    snprintf(p->variant, sizeof p->variant, "%s", variant);
    memcpy(p->key, key, klen);
    p->klen = klen;
    p->e = *e;
    c->puts++;
    if (c->npend == 1) c->first_pend_ms = cache_now_ms();
    if (c->npend >= CACHE_BATCH || cache_now_ms() - c->first_pend_ms > CACHE_FLUSH_MS)
        return cache_flush(c, err);
    return GSW_OK;
}

int cache_stats(cache_t *c, cache_stats_t *st, err_t *err)
{
    if (cache_flush(c, err)) return GSW_EFAIL;
    memset(st, 0, sizeof *st);
    snprintf(st->path, sizeof st->path, "%s", c->path);
    int64_t v = 0;
    cache_int(c, "PRAGMA user_version", &v);
    st->schema_version = (int)v;
    struct stat sb;
    if (!stat(c->path, &sb)) st->file_bytes = sb.st_size;
    if (cache_int(c, "SELECT count(*) FROM solved", &st->rows)
        || cache_int(c, "SELECT count(*) FROM solved WHERE lo = hi", &st->exact_rows)
        || cache_int(c, "SELECT value FROM gsw_meta WHERE name = 'hits'", &st->hits)
        || cache_int(c, "SELECT value FROM gsw_meta WHERE name = 'misses'", &st->misses)
        || cache_int(c, "SELECT value FROM gsw_meta WHERE name = 'puts'", &st->puts))
        return cache_fail(c, err, "cannot read");
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(c->db, "SELECT game, variant, count(*) FROM solved GROUP BY game, variant "
                           "ORDER BY game, variant", -1, &q, NULL) != SQLITE_OK)
        return cache_fail(c, err, "cannot read");
    while (sqlite3_step(q) == SQLITE_ROW && st->ngroups < 64) {
        int i = st->ngroups++;
        snprintf(st->groups[i].game, sizeof st->groups[i].game, "%s", (const char *)sqlite3_column_text(q, 0));
        snprintf(st->groups[i].variant, sizeof st->groups[i].variant, "%s", (const char *)sqlite3_column_text(q, 1));
        st->groups[i].rows = sqlite3_column_int64(q, 2);
    }
    sqlite3_finalize(q);
    return GSW_OK;
}

int cache_check(cache_t *c, int *ok, char *report, size_t n, err_t *err)
{
    if (cache_flush(c, err)) return GSW_EFAIL;
    *ok = 1;
    size_t used = 0;
    report[0] = '\0';
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(c->db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK)
        return cache_fail(c, err, "cannot check");
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(q, 0);
        if (line && strcmp(line, "ok")) {
            *ok = 0;
            if (used + 2 < n) used += (size_t)snprintf(report + used, n - used, "%s\n", line);
        }
    }
    sqlite3_finalize(q);
    int64_t crossed = 0;
    if (cache_int(c, "SELECT count(*) FROM solved WHERE lo > hi", &crossed))
        return cache_fail(c, err, "cannot check");
    if (crossed) {
        *ok = 0;
        if (used + 2 < n) used += (size_t)snprintf(report + used, n - used, "%lld rows with lower bound above upper bound\n", (long long)crossed);
    }
    if (used && report[used - 1] == '\n') report[used - 1] = '\0';
    return GSW_OK;
}
