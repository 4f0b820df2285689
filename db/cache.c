/* The SQLite cache of solved positions (see cache.h): a versioned schema with
 * migrations, WAL mode so several gsw processes share one file, stores kept in
 * memory and written in short batched transactions (no lock held while a
 * solver works), bounds merged so they only tighten. Never writes to a file it
 * cannot read as a gsw cache. */
#include "db/cache.h"
#include "db/cache_private.h"

#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_BATCH 256          /* stores per write transaction, at most */
#define CACHE_FLUSH_MS 250       /* written sooner once the oldest is this old */
#define CACHE_BUSY_MS 10000      /* wait this long for another process's lock ($GSW_LOCK_MS) */
#define CACHE_SAY_MS 100         /* a wait this long is said (cache_set_notice) */
#define CACHE_APP_ID 0x67737731  /* PRAGMA application_id: "gsw1" */
#define CACHE_GAME 32            /* name lengths, as in cache_stats_t */
#define CACHE_VARIANT 48

/* Ordered schema steps: migrations[i] takes user_version i to i + 1, inside
 * one transaction with the version bump. Append; never edit a shipped step. */
static const char *const migrations[] = {
    /* 1: the initial schema */
    "CREATE TABLE gsw_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "INSERT INTO gsw_meta VALUES ('hits', 0), ('misses', 0), ('puts', 0);"
    "CREATE TABLE solved ("
    "  game TEXT NOT NULL, variant TEXT NOT NULL, key BLOB NOT NULL,"
    "  lo INTEGER NOT NULL, hi INTEGER NOT NULL, best INTEGER,"
    "  solver TEXT, nodes INTEGER, time_ms REAL,"
    "  updated INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    "  PRIMARY KEY (game, variant, key)) WITHOUT ROWID;"
    "PRAGMA application_id = 1735620401;",   /* CACHE_APP_ID */
    /* 2: games people saved from the TUI or the shell */
    "CREATE TABLE saved_game ("
    "  name TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,"
    "  start TEXT NOT NULL, moves TEXT NOT NULL,"
    "  saved INTEGER NOT NULL DEFAULT (strftime('%s','now')));",
    /* 3: proof trees: nodes in depth-first order, packed */
    "CREATE TABLE proof_tree ("
    "  game TEXT NOT NULL, variant TEXT NOT NULL, key BLOB NOT NULL, goal TEXT NOT NULL,"
    "  position TEXT NOT NULL, result TEXT NOT NULL, size INTEGER NOT NULL, depth INTEGER NOT NULL,"
    "  nodes BLOB NOT NULL, created INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    "  PRIMARY KEY (game, variant, key, goal)) WITHOUT ROWID;",
    /* 4: the proof-tree manager's trees, for resuming */
    "CREATE TABLE manager_tree ("
    "  game TEXT NOT NULL, variant TEXT NOT NULL, key BLOB NOT NULL, goal TEXT NOT NULL,"
    "  position TEXT NOT NULL, threshold INTEGER NOT NULL, state TEXT NOT NULL, nodes BLOB NOT NULL,"
    "  updated INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    "  PRIMARY KEY (game, variant, key, goal)) WITHOUT ROWID;",
    /* 5: opening books: which positions are book positions, at which ply
     * (their values are the solved rows of the same keys) */
    "CREATE TABLE book ("
    "  game TEXT NOT NULL, variant TEXT NOT NULL, key BLOB NOT NULL, ply INTEGER NOT NULL,"
    "  PRIMARY KEY (game, variant, key)) WITHOUT ROWID;",
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

/* Stores for one key merged together, waiting for the next write. */
typedef struct pending {
    char game[CACHE_GAME], variant[CACHE_VARIANT];
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    cache_entry_t e;
} pending_t;

struct cache {
    sqlite3 *db;
    char path[1024];
    sqlite3_stmt *get, *put, *meta, *begin, *commit, *rollback;
    pending_t pend[CACHE_BATCH];   /* distinct keys */
    int npend;
    double oldest_ms;              /* when pend[0] arrived */
    int64_t hits, misses, puts;    /* not yet added to the file's counters */
    int last_rc;                   /* the SQLite code of the last error */
    int readonly;                  /* opened read-only: nothing is stored */
    const char *nostore_why;       /* why nothing is stored (readonly, or found so later) */
    int said_nostore;              /* ... and that was said */
    double busy_ms;                /* how long to wait for a lock */
    double busy_t0;                /* when the present wait began */
    double said_busy;              /* when a wait was last said (0: never) */
    int gave_up;                   /* a write waited busy_ms in vain: the next ones do not wait */
    int64_t dropped;               /* stores dropped while locked out */
    void (*notice)(void *ctx, const char *msg);
    void *notice_ctx;
};

void cache_set_notice(cache_t *c, void (*fn)(void *ctx, const char *msg), void *ctx)
{
    c->notice = fn;
    c->notice_ctx = ctx;
}

/* A notice to the cache's callback, printf-style. */
#define cache_say(c, ...) err_say((c)->notice, (c)->notice_ctx, __VA_ARGS__)

int cache_readonly(const cache_t *c) { return c->readonly; }
const char *cache_filename(const cache_t *c) { return c->path; }
int cache_storing(const cache_t *c) { return !c->nostore_why && !c->gave_up; }

/* Nothing is stored from here on (the file turned out read-only): said once. */
static void cache_nostore(cache_t *c, const char *why)
{
    if (!c->nostore_why) c->nostore_why = why;
    c->npend = 0;
    c->hits = c->misses = c->puts = 0;
    if (c->said_nostore) return;
    c->said_nostore = 1;
    cache_say(c, "cache %s is read-only (%s): results won't be stored", c->path, c->nostore_why);
}

static double cache_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A path as a shell word: as it is when that is safe, else in single quotes. */
static void shell_word(const char *path, const char *suffix, char *buf, size_t n)
{
    int plain = *path != '\0';
    for (const char *p = path; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=", *p)) plain = 0;
    if (plain) { snprintf(buf, n, "%s%s", path, suffix); return; }
    size_t k = 0;
    if (k + 1 < n) buf[k++] = '\'';
    for (const char *p = path; *p && k + 8 < n; p++) {
        if (*p == '\'') { memcpy(buf + k, "'\\''", 4); k += 4; }
        else buf[k++] = *p;
    }
    for (const char *p = suffix; *p && k + 2 < n; p++) buf[k++] = *p;
    if (k + 1 < n) buf[k++] = '\'';
    buf[k < n ? k : n - 1] = '\0';
}

/* The way out of a damaged file, for its message. */
#define CACHE_HINT 1200
static void cache_damage_hint(const cache_t *c, char hint[CACHE_HINT])
{
    char from[512], to[512];
    shell_word(c->path, "", from, sizeof from);
    shell_word(c->path, ".bad", to, sizeof to);
    snprintf(hint, CACHE_HINT, "; run with --no-cache, or move it aside (mv %s %s) and gsw starts a new cache there",
             from, to);
}

/* Turn an SQLite result code into a one-line message naming the file. */
static int cache_sqlerr(cache_t *c, err_t *err, int rc, const char *doing)
{
    const char *m = c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc), *what;
    char buf[64], hint[CACHE_HINT] = "";
    c->last_rc = rc;
    int sys = c->db ? sqlite3_system_errno(c->db) : 0;
    switch (rc & 0xff) {
    case SQLITE_BUSY: case SQLITE_LOCKED: what = "database is locked"; m = ""; break;
    case SQLITE_NOTADB: what = "file is not a database"; cache_damage_hint(c, hint); break;
    case SQLITE_CORRUPT: what = "database is corrupt"; cache_damage_hint(c, hint); break;
    case SQLITE_CANTOPEN: what = "cannot open"; m = sys ? strerror(sys) : m; break;
    case SQLITE_READONLY: case SQLITE_PERM: what = "cannot write"; break;
    case SQLITE_FULL: what = "disk is full"; break;
    default: snprintf(buf, sizeof buf, "cannot %s", doing); what = buf;
    }
    if (!*m || !strcmp(m, what)) err_set(err, GSW_EFAIL, "cache %s: %s%s", c->path, what, hint);
    else err_set(err, GSW_EFAIL, "cache %s: %s (%s)%s", c->path, what, m, hint);
    if (err)
        for (char *p = err->msg; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
    return GSW_EFAIL;
}

static int cache_exec(cache_t *c, const char *sql, const char *doing, err_t *err)
{
    int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? GSW_OK : cache_sqlerr(c, err, rc, doing);
}

/* Run a one-shot query for one integer (0 when it has no row); an SQLite code. */
static int cache_int(cache_t *c, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    *out = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc;
}

/* Step a statement with no result rows; an SQLite code. */
static int cache_step(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static int mkdir_p(const char *path, err_t *err)
{
    return cache_mkdir_p(path, "cache directory", err);
}

/* Whether the file is new, ours, or someone else's: reads only, one snapshot. */
static int cache_inspect(cache_t *c, err_t *err)
{
    int64_t tables, ours, app, version, dummy;
    int rc;
    if ((rc = cache_int(c, "SELECT count(*) FROM sqlite_master", &tables))
        || (rc = cache_int(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                           "AND name IN ('solved', 'gsw_meta')", &ours))
        || (rc = cache_int(c, "PRAGMA application_id", &app))
        || (rc = cache_int(c, "PRAGMA user_version", &version)))
        return cache_sqlerr(c, err, rc, "read");
    if (app != 0 && app != CACHE_APP_ID)
        return err_set(err, GSW_EFAIL, "cache %s: not a gsw cache (an SQLite database of another "
                       "application, id %#llx)", c->path, (unsigned long long)app);
    if (tables == 0 && version == 0) return GSW_OK;   /* new: initialise */
    if (version > SCHEMA_VERSION && (app == CACHE_APP_ID || ours == 2))
        return err_set(err, GSW_EFAIL, "cache %s: schema version %lld is newer than this gsw knows "
                       "(%d); upgrade gsw", c->path, (long long)version, SCHEMA_VERSION);
    if (ours < 2 || version < 1)
        return err_set(err, GSW_EFAIL, "cache %s: not a gsw cache (an SQLite database with other "
                       "tables)", c->path);
    /* touch both tables' root pages so a damaged file fails here, not later */
    if ((rc = cache_int(c, "SELECT count(*) FROM gsw_meta", &dummy))
        || (rc = cache_int(c, "SELECT 1 FROM solved LIMIT 1", &dummy)))
        return cache_sqlerr(c, err, rc, "read");
    return GSW_OK;
}

/* Look before writing anything. SQLite itself refuses a file shorter than
 * its header's page count ("corrupt"); say when it looks cut short. */
static int cache_adopt(cache_t *c, err_t *err)
{
    int rc = sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL);
    if (rc) return cache_sqlerr(c, err, rc, "read");
    rc = cache_inspect(c, err);
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    struct stat sb;
    if (rc && err && strstr(err->msg, ": database is corrupt") && !stat(c->path, &sb) && sb.st_size % 512) {
        char hint[CACHE_HINT];
        cache_damage_hint(c, hint);
        err_set(err, GSW_EFAIL, "cache %s: database is truncated or corrupt (%lld bytes, not a whole "
                "number of pages)%s", c->path, (long long)sb.st_size, hint);
    }
    return rc;
}

/* Bring the schema to SCHEMA_VERSION, one step per transaction. */
static int cache_migrate(cache_t *c, err_t *err)
{
    for (;;) {
        int64_t version, tables = 0;
        int rc = cache_int(c, "PRAGMA user_version", &version);
        if (rc) return cache_sqlerr(c, err, rc, "read");
        if (version >= SCHEMA_VERSION) return GSW_OK;
        if (cache_exec(c, "BEGIN IMMEDIATE", "lock", err)) return GSW_EFAIL;
        /* another process may have got here first: look again under the lock */
        rc = cache_int(c, "PRAGMA user_version", &version);
        if (!rc && version == 0) rc = cache_int(c, "SELECT count(*) FROM sqlite_master", &tables);
        if (rc) {
            cache_sqlerr(c, err, rc, "read");
        } else if (version >= SCHEMA_VERSION) {
            sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
            return GSW_OK;
        } else if (tables) {
            err_set(err, GSW_EFAIL, "cache %s: not a gsw cache (an SQLite database with other tables)", c->path);
        } else {
            char bump[64];
            snprintf(bump, sizeof bump, "PRAGMA user_version = %d", (int)version + 1);
            if (!cache_exec(c, migrations[version], "migrate the schema", err)
                && !cache_exec(c, bump, "migrate the schema", err)
                && !cache_exec(c, "COMMIT", "commit", err))
                continue;
        }
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        return GSW_EFAIL;
    }
}

static int cache_prepare(cache_t *c, err_t *err)
{
    static const char *const sql[] = {
        "SELECT lo, hi, best, solver, nodes, time_ms FROM solved "
        "WHERE game = ?1 AND variant = ?2 AND key = ?3",
        "INSERT INTO solved (game, variant, key, lo, hi, best, solver, nodes, time_ms, updated) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, strftime('%s','now')) "
        "ON CONFLICT (game, variant, key) DO UPDATE SET lo = excluded.lo, hi = excluded.hi, "
        "best = excluded.best, solver = excluded.solver, nodes = excluded.nodes, "
        "time_ms = excluded.time_ms, updated = excluded.updated",
        "INSERT INTO gsw_meta (name, value) VALUES (?1, ?2) "
        "ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
        "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK",
    };
    sqlite3_stmt **st[] = { &c->get, &c->put, &c->meta, &c->begin, &c->commit, &c->rollback };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        int rc = sqlite3_prepare_v3(c->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, st[i], NULL);
        if (rc != SQLITE_OK) return cache_sqlerr(c, err, rc, "prepare statements");
    }
    return GSW_OK;
}

static void cache_free(cache_t *c)
{
    sqlite3_stmt *st[] = { c->get, c->put, c->meta, c->begin, c->commit, c->rollback };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) sqlite3_finalize(st[i]);
    sqlite3_close(c->db);
    free(c);
}

/* A wait for another process's lock that has lasted CACHE_SAY_MS is said
 * (at most every 10 s): gsw never waits silently. */
static void cache_waiting(cache_t *c, double waited, double now)
{
    if (waited < CACHE_SAY_MS || (c->said_busy > 0 && now - c->said_busy < 10000)) return;
    c->said_busy = now;
    cache_say(c, "waiting for the cache lock (another gsw is writing to %s)", c->path);
}

/* SQLite's busy handler: wait up to busy_ms for the lock, saying so; once a
 * write has waited that long in vain, the next ones try once and go on. */
static int cache_busy(void *ctx, int n)
{
    cache_t *c = ctx;
    double now = cache_now_ms();
    if (n == 0) c->busy_t0 = now;
    double waited = now - c->busy_t0;
    if (c->gave_up || waited >= c->busy_ms) return 0;
    cache_waiting(c, waited, now);
    sqlite3_sleep(waited < 50 ? 2 : 20);
    return 1;
}

/* Switch to WAL mode. SQLite answers BUSY at once, without its busy handler,
 * while another process makes the same switch on a new file: wait here. */
static int cache_wal(cache_t *c, err_t *err)
{
    for (double t0 = cache_now_ms();;) {
        sqlite3_stmt *st;
        int rc = sqlite3_prepare_v2(c->db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
        const char *mode = NULL;
        if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            mode = (const char *)sqlite3_column_text(st, 0);
            rc = mode && !strcmp(mode, "wal") ? SQLITE_OK : SQLITE_ROW;
            if (rc) err_set(err, GSW_EFAIL, "cache %s: cannot use WAL mode (journal mode stays %s)",
                            c->path, mode ? mode : "unknown");
        }
        sqlite3_finalize(st);
        double now = cache_now_ms();
        if ((rc & 0xff) != SQLITE_BUSY || now - t0 > c->busy_ms) {
            if (rc == SQLITE_ROW) return GSW_EFAIL;
            return rc ? cache_sqlerr(c, err, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "set WAL mode") : GSW_OK;
        }
        cache_waiting(c, now - t0, now);
        sqlite3_sleep(10);
    }
}

/* Open c->path with flags (a URI when uri is set); the connection's settings. */
static int cache_connect(cache_t *c, const char *uri, int flags, err_t *err)
{
    int rc = sqlite3_open_v2(uri ? uri : c->path, &c->db, flags | (uri ? SQLITE_OPEN_URI : 0), NULL);
    if (rc != SQLITE_OK) return cache_sqlerr(c, err, rc, "open");
    sqlite3_extended_result_codes(c->db, 1);
    sqlite3_busy_handler(c->db, cache_busy, c);
    return GSW_OK;
}

static void cache_disconnect(cache_t *c)
{
    sqlite3_stmt **st[] = { &c->get, &c->put, &c->meta, &c->begin, &c->commit, &c->rollback };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        sqlite3_finalize(*st[i]);
        *st[i] = NULL;
    }
    sqlite3_close(c->db);
    c->db = NULL;
}

/* Errors that mean "this file cannot be written here", not "this file is bad". */
static int cache_code_readonly(int rc)
{
    int code = rc & 0xff;
    return code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN || code == SQLITE_AUTH;
}

/* A file gsw may not write (or whose folder it may not write): read it as it
 * is. With no write-ahead log beside it, as an immutable file (no side files
 * made, no locks: nobody who can write it is around); else read-only through
 * the log. Only a file of the current schema is read. */
static int cache_open_readonly(cache_t *c, err_t *err)
{
    char wal[1100], uri[3400];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", c->path);
    int with_log = !stat(wal, &sb) && sb.st_size > 0;
    size_t k = (size_t)snprintf(uri, sizeof uri, "file:");
    for (const unsigned char *p = (const unsigned char *)c->path; *p && k + 4 < sizeof uri; p++) {
        if (strchr("?#%", *p) || *p < 0x20 || *p >= 0x7f) k += (size_t)snprintf(uri + k, sizeof uri - k, "%%%02X", *p);
        else uri[k++] = (char)*p;
    }
    snprintf(uri + k, sizeof uri - k, "%s", with_log ? "?mode=ro" : "?immutable=1");
    c->readonly = 1;
    if (cache_connect(c, uri, SQLITE_OPEN_READONLY, err) || cache_adopt(c, err)) return GSW_EFAIL;
    int64_t version = 0, tables = 0;
    int rc = cache_int(c, "PRAGMA user_version", &version);
    if (!rc) rc = cache_int(c, "SELECT count(*) FROM sqlite_master", &tables);
    if (rc) return cache_sqlerr(c, err, rc, "read");
    if (version == 0 && tables == 0)
        return err_set(err, GSW_EFAIL, "cache %s: read-only and empty: nothing to read, nowhere to store", c->path);
    if (version < SCHEMA_VERSION)
        return err_set(err, GSW_EFAIL, "cache %s: read-only, with an older schema (version %lld; this gsw needs %d) "
                       "that cannot be upgraded here; run with --no-cache, or make it writable once",
                       c->path, (long long)version, SCHEMA_VERSION);
    return cache_prepare(c, err);
}

/* Whether this process may write path and create files beside it. */
static const char *cache_why_readonly(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir) dir[1] = '\0';
    else if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    if (access(path, W_OK)) return "the file is read-only";
    if (access(dir, W_OK | X_OK)) return "its folder is read-only";
    return NULL;
}

int cache_open(const char *path, cache_t **out, err_t *err)
{
    return cache_open_notice(path, NULL, NULL, out, err);
}

int cache_open_notice(const char *path, void (*notice)(void *ctx, const char *msg), void *ctx, cache_t **out,
                      err_t *err)
{
    *out = NULL;
    if (!path || !*path) return err_set(err, GSW_EFAIL, "cache: no path given");
    cache_t *c = calloc(1, sizeof *c);
    if (!c) return err_set(err, GSW_EFAIL, "cache %s: out of memory", path);
    c->notice = notice;
    c->notice_ctx = ctx;
    if (snprintf(c->path, sizeof c->path, "%s", path) >= (int)sizeof c->path) {
        free(c);
        return err_set(err, GSW_EFAIL, "cache %.100s...: path too long", path);
    }
    c->busy_ms = CACHE_BUSY_MS;
    const char *lock_ms = getenv("GSW_LOCK_MS");   /* tests wait less */
    if (lock_ms && atof(lock_ms) >= 0) c->busy_ms = atof(lock_ms);
    struct stat sb;
    int exists = !stat(path, &sb);
    if (exists && !S_ISREG(sb.st_mode)) {
        err_set(err, GSW_EFAIL, "cache %s: %s", path, S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file");
        free(c);
        return GSW_EFAIL;
    }
    if (!exists && strrchr(path, '/') && strrchr(path, '/') != path) {
        char dir[1024];   /* a new file in a new folder: made, as the default one is */
        snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
        if (stat(dir, &sb) && mkdir_p(dir, err)) { free(c); return GSW_EFAIL; }
    }
    const char *why = exists ? cache_why_readonly(path) : NULL;
    int rc = GSW_EFAIL;
    if (!why) {   /* read and write */
        rc = cache_connect(c, NULL, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err);
        if (!rc && sqlite3_db_readonly(c->db, "main") == 1) {
            why = "SQLite opened it read-only";
            rc = GSW_EFAIL;
        } else if (!rc) {
            rc = cache_adopt(c, err);
            if (!rc) rc = cache_wal(c, err) || cache_exec(c, "PRAGMA synchronous=NORMAL", "set synchronous mode", err)
                          || cache_migrate(c, err) || cache_prepare(c, err);
            if (rc && exists && cache_code_readonly(c->last_rc)) why = "it cannot be written here";
        }
        if (rc && why) cache_disconnect(c);
    }
    if (rc && why) {   /* read-only: read it as it is */
        err_t rerr;
        if (cache_open_readonly(c, &rerr)) {
            if (err) *err = rerr;
            goto fail;
        }
        c->nostore_why = why;
        rc = GSW_OK;
    }
    if (rc) goto fail;
    *out = c;
    return GSW_OK;
fail:
    cache_free(c);
    return GSW_EFAIL;
}

/* The stored row: 1 found, 0 absent, -1 error (err set). */
static int cache_read(cache_t *c, const char *game, const char *variant,
                      const uint8_t *key, size_t klen, cache_entry_t *out, err_t *err)
{
    sqlite3_stmt *st = c->get;
    cache_bind_key(st, game, variant, key, klen);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        out->lo = (val_t)sqlite3_column_int64(st, 0);
        out->hi = (val_t)sqlite3_column_int64(st, 1);
        out->best = sqlite3_column_type(st, 2) == SQLITE_NULL ? MOVE_NONE : (move_t)sqlite3_column_int64(st, 2);
        const unsigned char *s = sqlite3_column_text(st, 3);
        snprintf(out->solver, sizeof out->solver, "%s", s ? (const char *)s : "");
        out->nodes = (uint64_t)sqlite3_column_int64(st, 4);
        out->time_ms = sqlite3_column_double(st, 5);
        found = 1;
    } else if (rc != SQLITE_DONE) {
        found = -1;
        cache_sqlerr(c, err, rc, "read");
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return found;
}

/* Merge b (the newer) into a: the bounds intersect; the move and solver come
 * from the tighter entry (the newer on a tie, if it has a move); effort adds
 * up. -1, a untouched, when the bounds cross. */
static int entry_merge(cache_entry_t *a, const cache_entry_t *b)
{
    val_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
    if (lo > hi) return -1;
    int64_t wa = (int64_t)a->hi - a->lo, wb = (int64_t)b->hi - b->lo;
    if (wb < wa || (wb == wa && (b->best != MOVE_NONE || a->best == MOVE_NONE))) {
        a->best = b->best;
        memcpy(a->solver, b->solver, sizeof a->solver);
        a->solver[sizeof a->solver - 1] = '\0';
    }
    a->lo = lo;
    a->hi = hi;
    a->nodes += b->nodes;
    a->time_ms += b->time_ms;
    return 0;
}

static pending_t *cache_pending(cache_t *c, const char *game, const char *variant,
                                const uint8_t *key, size_t klen)
{
    for (int i = 0; i < c->npend; i++) {
        pending_t *p = &c->pend[i];
        if (p->klen == klen && (!klen || !memcmp(p->key, key, klen)) && !strcmp(p->game, game)
            && !strcmp(p->variant, variant))
            return p;
    }
    return NULL;
}

static int cache_write(cache_t *c, const pending_t *p, const cache_entry_t *e, err_t *err)
{
    sqlite3_stmt *st = c->put;
    cache_bind_key(st, p->game, p->variant, p->key, p->klen);
    sqlite3_bind_int64(st, 4, e->lo);
    sqlite3_bind_int64(st, 5, e->hi);
    if (e->best == MOVE_NONE) sqlite3_bind_null(st, 6);
    else sqlite3_bind_int64(st, 6, e->best);
    sqlite3_bind_text(st, 7, e->solver, (int)strnlen(e->solver, sizeof e->solver), SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)e->nodes);
    sqlite3_bind_double(st, 9, e->time_ms);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) cache_sqlerr(c, err, rc, "write");
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? GSW_OK : GSW_EFAIL;
}

static int cache_count(cache_t *c, const char *name, int64_t add, err_t *err)
{
    if (!add) return GSW_OK;
    sqlite3_bind_text(c->meta, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(c->meta, 2, add);
    int rc = cache_step(c->meta);
    return rc ? cache_sqlerr(c, err, rc, "count") : GSW_OK;
}

/* A write that failed for want of the lock (held past the wait) or of write
 * access is no error for the caller: its answer stands, and the cache is only
 * a cache. It is said; stores wait for the lock, or are dropped for good on a
 * file that cannot be written. 1 when rc is such a failure. */
static int cache_soft(cache_t *c, int rc)
{
    int code = rc & 0xff;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
        if (!c->gave_up)
            cache_say(c, "cache %s is still locked after %.1f s (another gsw is writing): results are kept "
                      "and stored once it is free", c->path, c->busy_ms / 1000);
        c->gave_up = 1;
        return 1;
    }
    if (code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN) {
        cache_nostore(c, "it cannot be written");
        return 1;
    }
    return 0;
}

int cache_may_store(cache_t *c)
{
    if (c->nostore_why) cache_nostore(c, c->nostore_why);
    return !c->nostore_why;
}

int cache_store_failed(cache_t *c, err_t *err, const char *doing)
{
    int rc = sqlite3_extended_errcode(c->db), code = rc & 0xff;
    cache_sqlerr(c, err, rc, doing);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {   /* nothing is kept pending here: say what was lost */
        cache_say(c, "cache %s is still locked after %.1f s (another gsw is writing): could not %s", c->path,
                  c->gave_up ? 0.0 : c->busy_ms / 1000, doing);
        c->gave_up = 1;
        return GSW_OK;
    }
    return cache_soft(c, rc) ? GSW_OK : GSW_EFAIL;
}

int cache_flush(cache_t *c, err_t *err)
{
    if (c->nostore_why) {   /* read-only: the counters go too */
        c->npend = 0;
        c->hits = c->misses = c->puts = 0;
        return GSW_OK;
    }
    if (!c->npend && !c->hits && !c->misses && !c->puts) return GSW_OK;
    int rc = cache_step(c->begin);
    if (rc) {
        cache_sqlerr(c, err, rc, "begin a write");
        return cache_soft(c, rc) ? GSW_OK : GSW_EFAIL;
    }
    err_t clash;   /* a store that another process's row contradicts */
    err_clear(&clash);
    for (int i = 0; i < c->npend; i++) {
        const pending_t *p = &c->pend[i];
        cache_entry_t m;
        int found = cache_read(c, p->game, p->variant, p->key, p->klen, &m, err);
        if (found < 0) goto rollback;
        if (!found) m = p->e;
        else if (entry_merge(&m, &p->e)) {
            if (!clash.code)
                err_set(&clash, GSW_EFAIL, "cache %s: a %s:%s entry [%d, %d] contradicts the stored "
                        "bounds [%d, %d]; kept the stored row", c->path, p->game, p->variant,
                        (int)p->e.lo, (int)p->e.hi, (int)m.lo, (int)m.hi);
            continue;
        }
        if (cache_write(c, p, &m, err)) goto rollback;
    }
    if (cache_count(c, "hits", c->hits, err) || cache_count(c, "misses", c->misses, err)
        || cache_count(c, "puts", c->puts, err))
        goto rollback;
    if ((rc = cache_step(c->commit))) {
        cache_sqlerr(c, err, rc, "commit");
        goto rollback;
    }
    c->npend = 0;
    c->hits = c->misses = c->puts = 0;
    c->gave_up = 0;   /* the lock is free again: later writes wait for it as usual */
    if (clash.code && err) *err = clash;
    return clash.code ? GSW_EFAIL : GSW_OK;
rollback:   /* nothing written: the stores stay pending for the next try */
    if (!sqlite3_get_autocommit(c->db)) cache_step(c->rollback);
    return cache_soft(c, c->last_rc) ? GSW_OK : GSW_EFAIL;
}

int cache_close(cache_t *c, err_t *err)
{
    if (!c) return GSW_OK;
    int rc = cache_flush(c, err);
    if (!rc && !c->nostore_why && (c->npend || c->dropped))
        cache_say(c, "cache %s is still locked: %lld result%s not stored", c->path,
                  (long long)(c->npend + c->dropped), c->npend + c->dropped == 1 ? " was" : "s were");
    cache_free(c);
    return rc;
}

sqlite3 *cache_sqlite(cache_t *c, char *path, size_t n)
{
    if (path) snprintf(path, n, "%s", c->path);
    return c->db;
}

int cache_fail(cache_t *c, err_t *err, const char *doing)
{
    return cache_sqlerr(c, err, sqlite3_errcode(c->db), doing);
}

int cache_get(cache_t *c, const char *game, const char *variant,
              const uint8_t *key, size_t klen, cache_entry_t *out, err_t *err)
{
    cache_entry_t e = { .lo = -VAL_INF, .hi = VAL_INF, .best = MOVE_NONE };
    int found = cache_read(c, game, variant, key, klen, &e, err);
    if (found < 0) return -1;
    const pending_t *p = cache_pending(c, game, variant, key, klen);
    if (p && !found) e = p->e;
    else if (p) {   /* this process's unwritten stores, merged in */
        cache_entry_t m = e;
        if (!entry_merge(&m, &p->e)) e = m;
    }
    found |= p != NULL;
    if (found) c->hits++;
    else c->misses++;
    *out = e;
    return found;
}

int cache_put(cache_t *c, const char *game, const char *variant,
              const uint8_t *key, size_t klen, const cache_entry_t *e, err_t *err)
{
    if (e->lo > e->hi)
        return err_set(err, GSW_EFAIL, "cache %s: refusing a %s:%s entry whose lower bound %d is above "
                       "its upper bound %d", c->path, game, variant, (int)e->lo, (int)e->hi);
    if (klen > GSW_MAX_KEY || (klen && !key))
        return err_set(err, GSW_EFAIL, "cache %s: a %s:%s key of %zu bytes (at most %d)", c->path,
                       game, variant, klen, GSW_MAX_KEY);
    if (strlen(game) >= CACHE_GAME || strlen(variant) >= CACHE_VARIANT)
        return err_set(err, GSW_EFAIL, "cache %s: game or variant name too long (%.40s:%.60s)",
                       c->path, game, variant);
    if (!cache_may_store(c)) return GSW_OK;   /* read-only: said once */
    cache_entry_t view;
    int found = cache_read(c, game, variant, key, klen, &view, err);
    if (found < 0) return GSW_EFAIL;
    pending_t *p = cache_pending(c, game, variant, key, klen);
    int frc = GSW_OK;
    if (p && !found) view = p->e;
    if ((p && found && entry_merge(&view, &p->e)) || ((found || p) && entry_merge(&view, e)))
        return err_set(err, GSW_EFAIL, "cache %s: a %s:%s entry [%d, %d] contradicts the stored bounds "
                       "[%d, %d]; kept the stored row", c->path, game, variant, (int)e->lo, (int)e->hi,
                       (int)view.lo, (int)view.hi);
    if (p) {
        entry_merge(&p->e, e);   /* cannot cross: all three intersect */
    } else {
        if (c->npend == CACHE_BATCH) {   /* the last flush failed: try again */
            frc = cache_flush(c, err);
            if (c->nostore_why) return GSW_OK;
            if (c->npend == CACHE_BATCH) {
                if (frc) return GSW_EFAIL;
                c->dropped++;   /* still locked: this one is not kept (said at close) */
                return GSW_OK;
            }
        }
        if (!c->npend) c->oldest_ms = cache_now_ms();
        p = &c->pend[c->npend++];
        memcpy(p->game, game, strlen(game) + 1);
        memcpy(p->variant, variant, strlen(variant) + 1);
        if (klen) memcpy(p->key, key, klen);
        p->klen = klen;
        p->e = *e;
        p->e.solver[sizeof p->e.solver - 1] = '\0';
    }
    c->puts++;
    if (!frc && (c->npend >= CACHE_BATCH || cache_now_ms() - c->oldest_ms >= CACHE_FLUSH_MS))
        return cache_flush(c, err);
    return frc;
}

static const char *col_text(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? (const char *)t : "NULL";
}

int cache_delete(cache_t *c, const char *game, const char *variant,
                 const uint8_t *key, size_t klen, err_t *err)
{
    pending_t *p = cache_pending(c, game, variant, key, klen);
    if (p) {   /* the pending store goes too: it was merged with the wrong row */
        *p = c->pend[--c->npend];
    }
    if (!cache_may_store(c)) return GSW_OK;   /* read-only: the row stays, said once */
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->db, "DELETE FROM solved WHERE game = ?1 AND variant = ?2 AND key = ?3", -1, &st, NULL);
    if (rc != SQLITE_OK) return cache_sqlerr(c, err, rc, "delete a row");
    cache_bind_key(st, game, variant, key, klen);
    rc = cache_step(st);
    sqlite3_finalize(st);
    return rc ? cache_sqlerr(c, err, rc, "delete a row") : GSW_OK;
}

int cache_each(cache_t *c, const char *game, const char *variant, int64_t sample, cache_row_fn fn,
               void *ctx, err_t *err)
{
    if (cache_flush(c, err)) return GSW_EFAIL;
    static const char *const where = "WHERE (?1 IS NULL OR game = ?1) AND (?2 IS NULL OR variant = ?2)";
    char sql[400];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM solved %s", where);
    sqlite3_stmt *q;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &q, NULL);
    if (rc != SQLITE_OK) return cache_sqlerr(c, err, rc, "read");
    if (game) sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    if (variant) sqlite3_bind_text(q, 2, variant, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    int64_t rows = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW) return cache_sqlerr(c, err, rc, "read");
    /* a sample: each row with probability sample / rows (random() is SQLite's) */
    snprintf(sql, sizeof sql, "SELECT game, variant, key, lo, hi, best, solver, nodes, time_ms FROM solved "
             "%s%s ORDER BY game, variant, key", where, sample > 0 && sample < rows ? " AND abs(random() % ?3) < ?4" : "");
    rc = sqlite3_prepare_v2(c->db, sql, -1, &q, NULL);
    if (rc != SQLITE_OK) return cache_sqlerr(c, err, rc, "read");
    if (game) sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    if (variant) sqlite3_bind_text(q, 2, variant, -1, SQLITE_STATIC);
    if (sample > 0 && sample < rows) {
        sqlite3_bind_int64(q, 3, rows);
        sqlite3_bind_int64(q, 4, sample);
    }
    int stop = 0;
    while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        cache_entry_t e;
        memset(&e, 0, sizeof e);
        char g[CACHE_GAME], v[CACHE_VARIANT];
        snprintf(g, sizeof g, "%s", col_text(q, 0));
        snprintf(v, sizeof v, "%s", col_text(q, 1));
        int klen = sqlite3_column_bytes(q, 2);
        uint8_t key[GSW_MAX_KEY];
        if (klen > GSW_MAX_KEY) klen = GSW_MAX_KEY;   /* not a key gsw wrote: the game will refuse it */
        if (klen) memcpy(key, sqlite3_column_blob(q, 2), (size_t)klen);
        e.lo = (val_t)sqlite3_column_int64(q, 3);
        e.hi = (val_t)sqlite3_column_int64(q, 4);
        e.best = sqlite3_column_type(q, 5) == SQLITE_NULL ? MOVE_NONE : (move_t)sqlite3_column_int64(q, 5);
        snprintf(e.solver, sizeof e.solver, "%s", sqlite3_column_type(q, 6) == SQLITE_NULL ? "" : col_text(q, 6));
        e.nodes = (uint64_t)sqlite3_column_int64(q, 7);
        e.time_ms = sqlite3_column_double(q, 8);
        stop = fn(ctx, g, v, key, (size_t)klen, &e);
    }
    int ok = stop || rc == SQLITE_DONE;
    if (!ok) cache_sqlerr(c, err, rc, "read");
    sqlite3_finalize(q);
    return ok ? GSW_OK : GSW_EFAIL;
}

int cache_stats(cache_t *c, cache_stats_t *st, err_t *err)
{
    if (cache_flush(c, err)) return GSW_EFAIL;
    memset(st, 0, sizeof *st);
    snprintf(st->path, sizeof st->path, "%s", c->path);
    char wal[1100];
    struct stat sb;
    if (!stat(c->path, &sb)) st->file_bytes = sb.st_size;
    snprintf(wal, sizeof wal, "%s-wal", c->path);
    if (!stat(wal, &sb)) st->file_bytes += sb.st_size;
    int64_t version;
    int rc;
    if ((rc = cache_int(c, "PRAGMA user_version", &version))
        || (rc = cache_int(c, "SELECT count(*) FROM solved", &st->rows))
        || (rc = cache_int(c, "SELECT count(*) FROM solved WHERE lo = hi", &st->exact_rows))
        || (rc = cache_int(c, "SELECT value FROM gsw_meta WHERE name = 'hits'", &st->hits))
        || (rc = cache_int(c, "SELECT value FROM gsw_meta WHERE name = 'misses'", &st->misses))
        || (rc = cache_int(c, "SELECT value FROM gsw_meta WHERE name = 'puts'", &st->puts)))
        return cache_sqlerr(c, err, rc, "read");
    st->schema_version = (int)version;
    sqlite3_stmt *q;
    rc = sqlite3_prepare_v2(c->db, "SELECT game, variant, count(*) FROM solved GROUP BY game, variant "
                            "ORDER BY game, variant", -1, &q, NULL);
    if (rc != SQLITE_OK) return cache_sqlerr(c, err, rc, "read");
    int ng = (int)(sizeof st->groups / sizeof st->groups[0]);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && st->ngroups < ng) {
        int i = st->ngroups++;
        const unsigned char *g = sqlite3_column_text(q, 0), *v = sqlite3_column_text(q, 1);
        snprintf(st->groups[i].game, sizeof st->groups[i].game, "%s", g ? (const char *)g : "");
        snprintf(st->groups[i].variant, sizeof st->groups[i].variant, "%s", v ? (const char *)v : "");
        st->groups[i].rows = sqlite3_column_int64(q, 2);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) cache_sqlerr(c, err, rc, "read");
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? GSW_OK : GSW_EFAIL;
}

/* Append a line to the report (dropped once it is full). */
__attribute__((format(printf, 4, 5)))
static void report_add(char *report, size_t n, size_t *used, const char *fmt, ...)
{
    if (!report || *used + 1 >= n) return;
    if (*used) report[(*used)++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(report + *used, n - *used, fmt, ap);
    va_end(ap);
    *used = k < 0 ? *used : *used + (size_t)k < n ? *used + (size_t)k : n - 1;
    report[*used] = '\0';
}

int cache_check(cache_t *c, int *ok, char *report, size_t n, err_t *err)
{
    size_t used = 0;
    if (report && n) report[0] = '\0';
    *ok = 1;
    if (cache_flush(c, err)) return GSW_EFAIL;
    /* SQLite's check, then gsw's rule: bounds are ordered integers in range */
    char rule[400];
    snprintf(rule, sizeof rule, "SELECT game, variant, hex(key), lo, hi FROM solved WHERE NOT "
             "(typeof(lo) = 'integer' AND typeof(hi) = 'integer' AND lo <= hi AND lo >= %d AND hi <= %d)",
             -VAL_INF, VAL_INF);
    const char *sql[2] = { "PRAGMA integrity_check(100)", rule };
    int64_t bad = 0;
    for (int pass = 0; pass < 2; pass++) {
        sqlite3_stmt *q;
        int rc = sqlite3_prepare_v2(c->db, sql[pass], -1, &q, NULL);
        while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
            rc = SQLITE_OK;
            if (pass == 0 && !strcmp(col_text(q, 0), "ok")) continue;
            *ok = 0;
            if (pass == 0) {   /* one problem a line, without "*** in database main ***" */
                for (const char *l = col_text(q, 0), *e; *l; l = *e ? e + 1 : e) {
                    e = l + strcspn(l, "\n");
                    if (strncmp(l, "*** ", 4) && e > l) report_add(report, n, &used, "%.*s", (int)(e - l), l);
                }
            } else if (bad++ < 20)
                report_add(report, n, &used, "%s:%s key %.40s: bounds [%s, %s] out of order or range",
                           col_text(q, 0), col_text(q, 1), col_text(q, 2), col_text(q, 3), col_text(q, 4));
        }
        if (rc != SQLITE_DONE) {
            int code = rc & 0xff;
            if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_NOMEM || code == SQLITE_IOERR) {
                cache_sqlerr(c, err, rc, "check");
                sqlite3_finalize(q);
                return GSW_EFAIL;
            }
            *ok = 0;   /* the check ran into the damage itself */
            report_add(report, n, &used, "check stopped: %s", sqlite3_errmsg(c->db));
            sqlite3_finalize(q);
            return GSW_OK;
        }
        sqlite3_finalize(q);
    }
    if (bad > 20) report_add(report, n, &used, "%lld rows with bad bounds in all", (long long)bad);
    return GSW_OK;
}
