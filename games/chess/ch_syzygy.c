/* Syzygy tablebases through Fathom (ch_syzygy.h): gsw's positions handed to
 * Fathom as its bitboards (a1 = bit 0 in both), its results read back. */
#include "games/chess/ch_syzygy.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbprobe.h>

#include "db/cache_path.h"
#include "games/chess/ch_sz_sum.h"

static char sz_paths[4096];
static int sz_limit;   /* 0: no limit below the tables' own */
static pthread_mutex_t sz_root_lock = PTHREAD_MUTEX_INITIALIZER;

/* The tables whose checksums were checked already (a 6-piece set holds
 * 150 GB: hashed once, not at every start): a line each in a file beside
 * the cache, "SUM SIZE MTIME DEV INODE PATH", SUM the checksum the table
 * carries (its last 16 bytes, which are read again each time). A table
 * changed since (its size, time or inode, or those 16 bytes) is checked
 * again. Without a cache folder every table is checked each time. */
typedef struct sz_memo {
    char path[1100];
    char *text;                 /* the file's lines, read at open */
} sz_memo_t;

static void sz_memo_load(sz_memo_t *m, const char *db)
{
    err_t err;
    m->text = NULL;
    if (cache_sibling_dir(db, "syzygy-checked.txt", m->path, sizeof m->path, &err)) {
        m->path[0] = 0;
        return;
    }
    FILE *f = fopen(m->path, "rb");
    if (!f) return;
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    for (size_t got; t && (got = fread(t + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *g = realloc(t, cap *= 2);
            if (!g) free(t);
            t = g;
        }
    }
    fclose(f);
    if (t) t[n] = 0;
    m->text = t;
}

/* The memo's line for the table at path: its stat and stored checksum. */
static void sz_memo_line(const char *path, const struct stat *st, const unsigned char sum[16], char *line, size_t n)
{
    char hex[33];
    for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", sum[i]);
    snprintf(line, n, "%s %lld %lld.%09ld %llu %llu %s\n", hex, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
             st->st_mtim.tv_nsec, (unsigned long long)st->st_dev, (unsigned long long)st->st_ino, path);
}

static int sz_memo_has(const sz_memo_t *m, const char *line)
{
    if (!m->text) return 0;
    for (const char *p = m->text; (p = strstr(p, line)); p++)
        if (p == m->text || p[-1] == '\n') return 1;   /* (a whole line: dev and inode name the file) */
    return 0;
}

static void sz_memo_add(const sz_memo_t *m, const char *line)
{
    if (!m->path[0]) return;
    int fd = open(m->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);   /* (a line at once: two gsw may add) */
    if (fd < 0) return;
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
    close(fd);
}

/* A table file's frame as Fathom expects it: its kind's magic first, and a
 * size of 16 more than a multiple of 64 (the checksum after the data).
 * Checked before Fathom sees the folder: Fathom tells a truncated file on
 * stdout, which a --json answer shares. Then its checksum (unless the
 * memo has it): Fathom trusts a table's insides, and a damaged one would
 * crash it. */
static int sz_file_sound(const char *dir, const char *name, const sz_memo_t *memo, err_t *err)
{
    size_t len = strlen(name);
    int wdl = len > 5 && !strcmp(name + len - 5, ".rtbw"), dtz = len > 5 && !strcmp(name + len - 5, ".rtbz");
    if (!wdl && !dtz) return GSW_OK;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read %s", path);
    /* one open: the magic, the size, and the stored checksum the memo keys on */
    unsigned char m[4] = { 0 }, sum[16];
    struct stat st;
    size_t got = fread(m, 1, 4, f);
    long size = fstat(fileno(f), &st) ? -1 : (long)st.st_size;
    int known = size >= 16 && !fseek(f, size - 16, SEEK_SET) && fread(sum, 1, 16, f) == 16;
    fclose(f);
    uint32_t magic = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    if (got != 4 || magic != (wdl ? 0x5d23e871u : 0xa50c66d7u))
        return err_set(err, GSW_EINPUT, "Syzygy tables: %s is not a Syzygy %s table (its first bytes)", path,
                       wdl ? "WDL" : "DTZ");
    if (size < 0 || (size & 63) != 16)
        return err_set(err, GSW_EINPUT, "Syzygy tables: %s is damaged (%ld bytes: truncated or padded); fetch it again",
                       path, size);
    char line[4600];
    if (known) sz_memo_line(path, &st, sum, line, sizeof line);
    if (known && sz_memo_has(memo, line)) return GSW_OK;
    if (ch_sz_check_file(path, err)) return err->code;
    if (known) sz_memo_add(memo, line);
    return GSW_OK;
}

int ch_syzygy_open(const char *paths, const char *db, err_t *err)
{
    if (!paths || !*paths) {
        if (sz_paths[0]) tb_init("");   /* (not tb_free: it leaves freed tables for the next tb_init to reuse) */
        sz_paths[0] = 0;
        return GSW_OK;
    }
    if (strlen(paths) >= sizeof sz_paths) return err_set(err, GSW_EINPUT, "--syzygy: the folders' names are too long");
    char copy[sizeof sz_paths];
    snprintf(copy, sizeof copy, "%s", paths);
    sz_memo_t memo;
    sz_memo_load(&memo, db);
    for (char *dir = copy, *next; dir; dir = next) {   /* each folder there */
        next = strchr(dir, ':');
        if (next) *next++ = 0;
        struct stat st;
        if (!*dir) continue;
        if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
            free(memo.text);
            return err_set(err, GSW_EINPUT, "Syzygy tables: %s is not a folder", dir);
        }
        DIR *d = opendir(dir);
        if (!d) {
            free(memo.text);
            return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read the folder %s", dir);
        }
        int rc = GSW_OK;
        for (struct dirent *e; !rc && (e = readdir(d));) rc = sz_file_sound(dir, e->d_name, &memo, err);
        closedir(d);
        if (rc) {
            free(memo.text);
            return rc;
        }
    }
    free(memo.text);
    if (!tb_init(paths)) return err_set(err, GSW_EFAIL, "Syzygy tables: Fathom could not open %s", paths);
    if (TB_LARGEST == 0) {
        tb_init("");   /* (not tb_free: it leaves freed tables for the next tb_init to reuse) */
        sz_paths[0] = 0;
        return err_set(err, GSW_EINPUT, "Syzygy tables: no table (.rtbw) in %s", paths);
    }
    snprintf(sz_paths, sizeof sz_paths, "%s", paths);
    return GSW_OK;
}

const char *ch_syzygy_paths(void)
{
    return sz_paths;
}

int ch_syzygy_largest(void)
{
    return sz_paths[0] ? (int)TB_LARGEST : 0;
}

void ch_syzygy_limit(int n)
{
    sz_limit = n > 0 ? n : 0;
}

int ch_syzygy_covers(const ch_pos_t *p)
{
    int n = __builtin_popcountll(p->type[0]), top = ch_syzygy_largest();
    if (sz_limit && sz_limit < top) top = sz_limit;
    for (int i = 0; i < 4; i++)
        if (p->rook[i] != CH_NOSQ) return 0;
    return n <= top;
}

/* Fathom's result (TB_LOSS..TB_WIN) as CH_SZ_*. */
static int sz_result(unsigned wdl)
{
    return (int)wdl - 2;
}

int ch_syzygy_wdl(const ch_pos_t *p, int *wdl)
{
    if (!ch_syzygy_covers(p)) return 0;
    unsigned r = tb_probe_wdl(p->color[CH_WHITE], p->color[CH_BLACK], p->type[CH_KING], p->type[CH_QUEEN],
                              p->type[CH_ROOK], p->type[CH_BISHOP], p->type[CH_KNIGHT], p->type[CH_PAWN], 0, 0,
                              p->ep == CH_NOSQ ? 0 : p->ep, p->side == CH_WHITE);
    if (r == TB_RESULT_FAILED) return 0;
    *wdl = sz_result(r);
    return 1;
}

int ch_syzygy_root(const ch_pos_t *p, int rule50, ch_syzygy_root_t *out)
{
    if (!ch_syzygy_covers(p)) return 0;
    pthread_mutex_lock(&sz_root_lock);
    unsigned r = tb_probe_root(p->color[CH_WHITE], p->color[CH_BLACK], p->type[CH_KING], p->type[CH_QUEEN],
                               p->type[CH_ROOK], p->type[CH_BISHOP], p->type[CH_KNIGHT], p->type[CH_PAWN],
                               (unsigned)(rule50 > 0 ? rule50 : 0), 0, p->ep == CH_NOSQ ? 0 : p->ep,
                               p->side == CH_WHITE, NULL);
    pthread_mutex_unlock(&sz_root_lock);
    if (r == TB_RESULT_FAILED) return 0;
    out->wdl = sz_result(TB_GET_WDL(r));
    out->dtz = (int)TB_GET_DTZ(r);
    out->best = MOVE_NONE;
    if (r == TB_RESULT_CHECKMATE || r == TB_RESULT_STALEMATE) {
        out->wdl = r == TB_RESULT_CHECKMATE ? CH_SZ_LOSS : CH_SZ_DRAW;   /* (Fathom's "checkmate" is the mover's) */
        out->dtz = 0;
        return 1;
    }
    /* Fathom's move as one of gsw's legal moves: from, to, the promotion */
    int from = (int)TB_GET_FROM(r), to = (int)TB_GET_TO(r), promo = (int)TB_GET_PROMOTES(r);
    static const int piece[5] = { 0, CH_QUEEN, CH_ROOK, CH_BISHOP, CH_KNIGHT };
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(p, mv);
    for (int i = 0; i < n; i++)
        if (ch_from(mv[i]) == from && ch_to(mv[i]) == to && ch_kind(mv[i]) != CH_CASTLE
            && (ch_kind(mv[i]) == CH_PROMO ? promo && ch_promo(mv[i]) == piece[promo] : !promo)) {
            out->best = mv[i];
            break;
        }
    return out->best != MOVE_NONE;
}
