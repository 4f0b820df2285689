/* Syzygy tablebases through Fathom (ch_syzygy.h): gsw's positions handed to
 * Fathom as its bitboards (a1 = bit 0 in both), its results read back. */
#include "games/chess/ch_syzygy.h"

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <tbprobe.h>

static char sz_paths[4096];
static int sz_limit;   /* 0: no limit below the tables' own */
static pthread_mutex_t sz_root_lock = PTHREAD_MUTEX_INITIALIZER;

/* A table file's frame as Fathom expects it: its kind's magic first, and a
 * size of 16 more than a multiple of 64 (the checksum after the data).
 * Checked before Fathom sees the folder: Fathom tells a truncated file on
 * stdout, which a --json answer shares. */
static int sz_file_sound(const char *dir, const char *name, err_t *err)
{
    size_t len = strlen(name);
    int wdl = len > 5 && !strcmp(name + len - 5, ".rtbw"), dtz = len > 5 && !strcmp(name + len - 5, ".rtbz");
    if (!wdl && !dtz) return GSW_OK;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read %s", path);
    unsigned char m[4] = { 0 };
    size_t got = fread(m, 1, 4, f);
    long size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    fclose(f);
    uint32_t magic = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    if (got != 4 || magic != (wdl ? 0x5d23e871u : 0xa50c66d7u))
        return err_set(err, GSW_EINPUT, "Syzygy tables: %s is not a Syzygy %s table (its first bytes)", path,
                       wdl ? "WDL" : "DTZ");
    if (size < 0 || (size & 63) != 16)
        return err_set(err, GSW_EINPUT, "Syzygy tables: %s is damaged (%ld bytes: truncated or padded); fetch it again",
                       path, size);
    return GSW_OK;
}

int ch_syzygy_open(const char *paths, err_t *err)
{
    if (!paths || !*paths) {
        if (sz_paths[0]) tb_init("");   /* (not tb_free: it leaves freed tables for the next tb_init to reuse) */
        sz_paths[0] = 0;
        return GSW_OK;
    }
    if (strlen(paths) >= sizeof sz_paths) return err_set(err, GSW_EINPUT, "--syzygy: the folders' names are too long");
    char copy[sizeof sz_paths];
    snprintf(copy, sizeof copy, "%s", paths);
    for (char *dir = copy, *next; dir; dir = next) {   /* each folder there */
        next = strchr(dir, ':');
        if (next) *next++ = 0;
        struct stat st;
        if (!*dir) continue;
        if (stat(dir, &st) || !S_ISDIR(st.st_mode))
            return err_set(err, GSW_EINPUT, "Syzygy tables: %s is not a folder", dir);
        DIR *d = opendir(dir);
        if (!d) return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read the folder %s", dir);
        int rc = GSW_OK;
        for (struct dirent *e; !rc && (e = readdir(d));) rc = sz_file_sound(dir, e->d_name, err);
        closedir(d);
        if (rc) return rc;
    }
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
