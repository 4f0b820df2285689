/* Database files checked by retrograde consistency (gsw-check --deep),
 * written apart from gsw's builder and its verify: the game's rules give
 * each position's moves, its indexing (retro_game_t's locate, position,
 * slice names; never its children or the engine) finds each child in its
 * slice's file, and the position's stored value must be the best of its
 * moves' values:
 *   wld  the classes (win, draw, loss) agree;
 *   dtw  (dtm) the exact distance: the shortest win, the longest loss;
 *   dtc  the exact distance to conversion, a conversion (a capture, a
 *        man's or pawn's move) counting as the end: its value is the
 *        class of the position it reaches (from that slice's dtc file, or
 *        a sibling wld, dtw or dtm folder's), won or lost in one ply.
 * A position where the game is over must hold its rules' value (lost
 * without moves or in mate; stalemate and dead positions drawn); an index
 * of chess's that is no legal position must hold a draw. A file's slice
 * files are found in its own folder, by their names. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/cert.h"
#include "check/deep.h"
#include "check/files.h"
#include "check/rules.h"
#include "core/retro.h"
#include "db/egdb.h"

typedef struct slice_vals {
    char path[1200];
    int32_t *v;                /* cert.h's scale */
    uint64_t n;
} slice_vals_t;

typedef struct deep {
    rules_t r;
    slice_vals_t **s;          /* the files read so far */
    int ns;
    uint64_t held;             /* their positions */
} deep_t;

static const char *const metric_name[3] = { "wld", "dtc", "dtw" };

/* Read a whole file's values (cached by path); want (may be NULL): the
 * game and slice it must hold, and its metric unless want->bits is 0. */
static int load(deep_t *d, const char *path, slice_vals_t **out, const egdb_info_t *want, err_t *err)
{
    for (int i = 0; i < d->ns; i++)
        if (!strcmp(d->s[i]->path, path)) return *out = d->s[i], GSW_OK;
    egdb_file_t *f;
    if (egdb_open(path, &f, err)) return GSW_EINPUT;
    const egdb_info_t *in = egdb_file_info(f);
    int rc = GSW_OK;
    if (want && (strcmp(in->game, want->game) || strcmp(in->slice, want->slice)))
        rc = err_set(err, GSW_EFAIL, "%s holds %s %s, not %s %s", path, in->game, in->slice, want->game, want->slice);
    else if (want && want->bits && in->metric != want->metric)
        rc = err_set(err, GSW_EFAIL, "%s is of metric %s, not %s", path, in->metric > RETRO_DTW ? "?" : metric_name[in->metric],
                     metric_name[want->metric]);
    else if (in->metric > RETRO_DTW) rc = err_set(err, GSW_EINPUT, "%s: unknown metric %d", path, in->metric);
    slice_vals_t **ns = rc ? NULL : realloc(d->s, (size_t)(d->ns + 1) * sizeof *ns);
    if (ns) d->s = ns;
    slice_vals_t *s = ns ? calloc(1, sizeof *s) : NULL;
    int32_t *v = s ? malloc((in->n ? in->n : 1) * sizeof *v) : NULL;
    uint8_t *codes = v ? malloc(EGDB_BLOCK) : NULL;
    if (!rc && !codes) rc = err_set(err, GSW_EFAIL, "out of memory");
    for (uint64_t b = 0; !rc && b * EGDB_BLOCK < in->n; b++) {
        if (egdb_read_block(f, b, codes, err)) rc = GSW_EFAIL;
        for (uint64_t i = b * EGDB_BLOCK; !rc && i < in->n && i < (b + 1) * EGDB_BLOCK; i++)
            rc = files_decode(f, in->metric, i, codes[i - b * EGDB_BLOCK], &v[i], err);
    }
    uint64_t n = in->n;
    free(codes);
    egdb_close(f);
    if (rc) return free(v), free(s), rc;
    d->s[d->ns++] = s;
    snprintf(s->path, sizeof s->path, "%s", path);
    s->v = v;
    s->n = n;
    d->held += n;
    *out = s;
    return GSW_OK;
}

/* The folder of path, and the path of slice's file in folder dir (or in
 * its sibling folder sib). */
static void slice_path(const deep_t *d, const char *dir, const char *sib, uint64_t slice, char *buf, size_t n)
{
    char name[48];
    d->r.retro->slice_name(NULL, slice, name, sizeof name);
    if (sib) snprintf(buf, n, "%s/../%s/%s.egdb", dir, sib, name);
    else snprintf(buf, n, "%s/%s.egdb", dir, name);
}

/* The file of slice in dir, read; with classes, any metric's file will
 * do (dtc's conversions): its own folder's, or a sibling wld, dtw or dtm. */
static int child_file(deep_t *d, const char *dir, uint64_t slice, int metric, int classes, slice_vals_t **out,
                      err_t *err)
{
    static const char *const sibs[4] = { NULL, "wld", "dtw", "dtm" };
    char path[1200], name[48];
    d->r.retro->slice_name(NULL, slice, name, sizeof name);
    egdb_info_t want;
    memset(&want, 0, sizeof want);
    snprintf(want.game, sizeof want.game, "%s", d->r.game);
    snprintf(want.slice, sizeof want.slice, "%s", name);
    want.metric = (uint8_t)metric;
    want.bits = !classes;
    int tries = classes ? 4 : 1;
    for (int k = 0; k < tries; k++) {
        slice_path(d, dir, sibs[k], slice, path, sizeof path);
        struct stat st;
        if (k + 1 < tries && stat(path, &st)) continue;
        return load(d, path, out, &want, err) ? GSW_EFAIL : GSW_OK;
    }
    return GSW_EFAIL;
}

static int check_file(deep_t *d, const char *path, uint64_t *positions, err_t *err)
{
    egdb_file_t *f;
    if (egdb_open(path, &f, err)) return GSW_EINPUT;
    egdb_info_t info = *egdb_file_info(f);
    egdb_close(f);
    if (!d->r.game || strcmp(d->r.game, info.game)) {
        if (rules_open(info.game, &d->r, err)) return GSW_EINPUT;
        if (!d->r.retro) return err_set(err, GSW_EINPUT, "%s: %s has no databases", path, info.game);
    }
    const struct retro_game *rg = d->r.retro;
    uint64_t slice;
    if (rg->slice_parse(NULL, info.slice, &slice, err) || rg->slice_size(NULL, slice) != info.n)
        return err_set(err, GSW_EINPUT, "%s: slice %s is not one of %s's with %llu positions", path, info.slice,
                       info.game, (unsigned long long)info.n);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    slice_vals_t *own;
    if (load(d, path, &own, NULL, err)) return err->code;
    int metric = info.metric;
    GSW_POSBUF pos[GSW_MAX_POS], q[GSW_MAX_POS];
    move_t mv[GSW_MAX_MOVES];
    struct { uint64_t slice; int classes; slice_vals_t *s; } memo[64];   /* the files moves lead to */
    int nmemo = 0;
    for (uint64_t i = 0; i < info.n; i++) {
        int32_t have = own->v[i], best = -CV_WIN - 1, v = 0;
        if (rg->legal && !rg->legal(NULL, slice, i)) {
            if (have) return err_set(err, GSW_EFAIL, "%s position %llu is no legal position but holds a value",
                                     path, (unsigned long long)i);
            continue;
        }
        rg->position(NULL, slice, i, pos);
        if (!d->r.over(&d->r, pos, &best)) {
            int n = d->r.moves(&d->r, pos, mv);
            for (int k = 0; k < n; k++) {
                memcpy(q, pos, sizeof q);
                d->r.play(&d->r, q, mv[k]);
                uint64_t cs, ci;
                if (!rg->locate(NULL, q, &cs, &ci, NULL))
                    return err_set(err, GSW_EFAIL, "%s position %llu: a move leads out of every slice", path,
                                   (unsigned long long)i);
                int conv = metric == RETRO_DTC && d->r.conversion(pos, mv[k]);
                slice_vals_t *cf = cs == slice && !conv ? own : NULL;
                for (int m = 0; m < nmemo && !cf; m++)
                    if (memo[m].slice == cs && memo[m].classes == conv) cf = memo[m].s;
                if (!cf) {
                    if (child_file(d, dir, cs, metric, conv, &cf, err)) return err->code;
                    if (nmemo < 64) memo[nmemo++] = (typeof(memo[0])){ cs, conv, cf };
                }
                if (ci >= cf->n) return err_set(err, GSW_EFAIL, "%s has no position %llu", cf->path, (unsigned long long)ci);
                v = cf->v[ci];
                if (conv && v) v = v > 0 ? 1 : -1;
                v = conv ? (v > 0 ? -CV_WIN + 1 : v < 0 ? CV_WIN - 1 : 0) : cv_up(v);
                if (v > best) best = v;
            }
        }
        int ok = metric == RETRO_WLD ? (have > 0) == (best > 0) && (have < 0) == (best < 0) : have == best;
        if (!ok) {
            char text[256], h[32], b[32];
            d->r.format(&d->r, pos, text, sizeof text);
            cv_text(have, h, sizeof h);
            cv_text(metric == RETRO_WLD && best ? (best > 0 ? 1 : -1) : best, b, sizeof b);
            return err_set(err, GSW_EFAIL, "%s (%s) position %llu, %s: holds %s, its moves give %s", path,
                           metric == RETRO_DTW && rg->mate_metric ? "dtm" : metric_name[metric], (unsigned long long)i, text, h, b);
        }
    }
    *positions += info.n;
    return GSW_OK;
}

static void deep_free(deep_t *d)
{
    for (int i = 0; i < d->ns; i++) free(d->s[i]->v), free(d->s[i]);
    free(d->s);
    d->s = NULL;
    d->ns = 0;
    d->held = 0;
}

int deep_file(const char *path, uint64_t *positions, err_t *err)
{
    deep_t d;
    memset(&d, 0, sizeof d);
    int rc = check_file(&d, path, positions, err);
    deep_free(&d);
    return rc;
}

/* Every *.egdb under path, into *list. */
static int collect(const char *path, char ***list, int *n, err_t *err)
{
    struct stat st;
    if (stat(path, &st)) return err_set(err, GSW_EINPUT, "cannot read %s", path);
    if (!S_ISDIR(st.st_mode)) {
        char **l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
        if (!l || !(l[*n] = strdup(path))) return err_set(err, GSW_EFAIL, "out of memory");
        *list = l;
        (*n)++;
        return GSW_OK;
    }
    DIR *dir = opendir(path);
    if (!dir) return err_set(err, GSW_EINPUT, "cannot read the folder %s", path);
    int rc = GSW_OK;
    for (struct dirent *e; !rc && (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        char sub[1100];
        if (e->d_name[0] == '.' || snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub) continue;
        if (stat(sub, &st)) continue;
        if (S_ISDIR(st.st_mode) || (len > 5 && !strcmp(e->d_name + len - 5, ".egdb"))) rc = collect(sub, list, n, err);
    }
    closedir(dir);
    return rc;
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int check_deep(const char *path)
{
    char **list = NULL;
    int n = 0, rc;
    err_t err;
    uint64_t positions = 0;
    deep_t d;
    memset(&d, 0, sizeof d);
    rc = collect(path, &list, &n, &err);
    if (!rc && !n) rc = err_set(&err, GSW_EINPUT, "%s holds no database file (*.egdb)", path);
    qsort(list, (size_t)n, sizeof *list, by_text);
    for (int i = 0; !rc && i < n; i++) {
        if (d.held > ((uint64_t)1 << 28)) deep_free(&d);   /* files read again past 1 GB of values */
        rc = check_file(&d, list[i], &positions, &err);
    }
    if (rc == GSW_EINPUT) printf("UNREADABLE: %s\n", err.msg);
    else if (rc) printf("BAD: %s\n", err.msg);
    else printf("OK: %d database files consistent (%llu positions) under %s\n", n, (unsigned long long)positions, path);
    for (int i = 0; i < n; i++) free(list[i]);
    free(list);
    deep_free(&d);
    return rc == GSW_EINPUT ? 2 : rc ? 1 : 0;
}
