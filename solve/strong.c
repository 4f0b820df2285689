/* Strong solutions on disk: see strong.h. */
#include "solve/strong.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ab.h"
#include "db/cache.h"
#include "games/connect4/c4.h"
#include "solve/strong_prov.h"

static const char *const value_names[STRONG_SETS] = { "won", "drawn", "lost", "go", "ended" };

const char *strong_value_name(int value) { return value >= 0 && value < STRONG_SETS ? value_names[value] : "?"; }

int strong_supported(const gv_t *v) { return v && !strcmp(v->game->name, "connect4"); }

int strong_default_dir(const char *db, char *buf, size_t n, err_t *err)
{
    return cache_sibling_dir(db, "strong", buf, n, err);
}

static const c4v_t *board_of(const gv_t *v) { return v->data; }

void strong_board_dir(const gv_t *v, const char *dir, char *buf, size_t n)
{
    snprintf(buf, n, "%s/connect4-%dx%d", dir, board_of(v)->w, board_of(v)->h);
}

/* ply k's set v is in parts */
static int in_parts(const strong_manifest_t *m, int k, int v) { return v < 3 && m->ply[k].split > 0; }

int strong_files(const strong_manifest_t *m, int k, int v) { return in_parts(m, k, v) ? 1 << m->ply[k].split : 1; }

/* the name of file i of ply k's set v kept in 2^split parts (0: whole) */
static void name_of(int k, int v, int split, int i, char *buf, size_t n)
{
    if (split) snprintf(buf, n, "ply%02d-%s-part%02dof%02d.bdd", k, strong_value_name(v), i, 1 << split);
    else snprintf(buf, n, "ply%02d-%s.bdd", k, strong_value_name(v));
}

void strong_file_name(const strong_manifest_t *m, int k, int v, int i, char *buf, size_t n)
{
    name_of(k, v, in_parts(m, k, v) ? m->ply[k].split : 0, i, buf, n);
}

/* the same in the board's folder bdir */
static void file_path(const char *bdir, const strong_manifest_t *m, int k, int v, int i, char *buf, size_t n)
{
    char name[64];
    strong_file_name(m, k, v, i, name, sizeof name);
    snprintf(buf, n, "%s/%s", bdir, name);
}

int strong_file_listed(const strong_manifest_t *m, int k, int v, int i)
{
    return in_parts(m, k, v) ? m->ply[k].part[v][i].have : m->ply[k].have[v];
}

struct strong_part strong_file_rec(const strong_manifest_t *m, int k, int v, int i)
{
    const struct strong_ply *p = &m->ply[k];
    if (in_parts(m, k, v)) return p->part[v][i];
    return (struct strong_part){ p->have[v], p->count[v], p->nodes[v], p->checksum[v] };
}

/* A ply in parts: its value sets' have, count and nodes from the parts'.
 * 1: a sum past the counts' 256 bits or the nodes' long (a damaged list). */
static int parts_sum(strong_manifest_t *m, int k)
{
    struct strong_ply *p = &m->ply[k];
    int over = 0;
    if (!p->split) return 0;
    for (int v = 0; v < 3; v++) {
        p->have[v] = 1;
        p->count[v] = u256_of(0);
        p->nodes[v] = 0;
        p->checksum[v] = 0;
        for (int i = 0; i < 1 << p->split; i++) {
            const struct strong_part *q = &p->part[v][i];
            p->have[v] &= q->have;
            if (!q->have) continue;
            over |= u256_add(&p->count[v], &q->count);
            if (q->nodes > LONG_MAX - p->nodes[v]) over = 1;
            else p->nodes[v] += q->nodes;
        }
    }
    return over;
}

/* Ply k's value sets forgotten, and kept in 2^split parts from now on. */
static void ply_reset(strong_manifest_t *m, int k, int split)
{
    struct strong_ply *p = &m->ply[k];
    memset(p->part, 0, sizeof p->part);
    for (int v = 0; v < 3; v++) p->have[v] = 0, p->count[v] = u256_of(0), p->nodes[v] = 0, p->checksum[v] = 0;
    p->split = split;
}

/* --- the manifest --- */

int strong_manifest_parse(const char *text, size_t n, const char *name, strong_manifest_t *m, err_t *err)
{
    memset(m, 0, sizeof *m);
    int line = 0, head = 0, board = 0, enc = 0;
    size_t i = 0;
    while (i < n) {
        char buf[512];
        size_t k = 0;
        while (i < n && text[i] != '\n') {
            if (k + 1 < sizeof buf) buf[k++] = text[i];
            i++;
        }
        if (i < n) i++;
        buf[k] = 0;
        line++;
        if (!k) continue;
        char w1[32], w2[32], w3[64], w4[64], w5[32], tail;
        int a, b;
        long nodes;
        double ms;
        unsigned long long sum;
        if (!head) {
            if (sscanf(buf, "gsw-strong %d%c", &a, &tail) != 1 || a != 1)
                return err_set(err, GSW_EFAIL, "%s is not a gsw strong-solution manifest", name);
            head = 1;
            continue;
        }
        int bad = 0;
        if (sscanf(buf, "board connect4 %dx%d%c", &a, &b, &tail) == 2) {
            if (a < 1 || b < 1 || a > 128 || b > 127 || a * (b + 1) > 128) bad = 1;
            else m->w = a, m->h = b, board = 1;
        } else if (sscanf(buf, "encoding %31s %31s%c", w1, w2, &tail) == 2) {
            if (c4b_encoding_parse(w1, &m->enc) || c4b_order_parse(w2, &m->order)) bad = 1;
            enc = 1;
        } else if (!strcmp(buf, "complete")) {
            m->complete = 1;
        } else if (sscanf(buf, "ply %d positions %63s terminal %63s nodes %ld ms %lf%c", &a, w3, w4, &nodes, &ms,
                          &tail) == 5 ||
                   (nodes = 0, ms = 0, sscanf(buf, "ply %d positions %63s terminal %63s%c", &a, w3, w4, &tail) == 3)) {
            if (a < 0 || a >= STRONG_MAX_PLIES || u256_parse(w3, &m->ply[a].positions) ||
                u256_parse(w4, &m->ply[a].terminal) || nodes < 0 || !(ms >= 0 && ms < 1e12))
                bad = 1;
            /* kept to the tenth the file is written with (and never -0), so
             * that a manifest read and written again says the same */
            else m->ply[a].counted = 1, m->ply[a].fnodes = nodes, m->ply[a].fms = round(ms * 10) / 10 + 0.0;
        } else if (sscanf(buf, "set %d %31s %63s %ld %31s%c", &a, w1, w3, &nodes, w5, &tail) == 5) {
            int v = -1;
            for (int x = 0; x < STRONG_SETS; x++)
                if (!strcmp(w1, value_names[x])) v = x;
            char *end;
            errno = 0;
            sum = strtoull(w5, &end, 16);
            if (a < 0 || a >= STRONG_MAX_PLIES || v < 0 || nodes < 0 || *end || errno || strlen(w5) != 16 ||
                (v < 3 && m->ply[a].split) || u256_parse(w3, &m->ply[a].count[v]))
                bad = 1;
            else m->ply[a].have[v] = 1, m->ply[a].nodes[v] = nodes, m->ply[a].checksum[v] = sum;
        } else if (sscanf(buf, "split %d %d%c", &a, &b, &tail) == 2) {
            /* (before its parts, and after no whole value set of its ply) */
            if (a < 0 || a >= STRONG_MAX_PLIES || b < 1 || b > C4B_MAX_SPLIT || m->ply[a].split || m->ply[a].have[0] ||
                m->ply[a].have[1] || m->ply[a].have[2])
                bad = 1;
            else m->ply[a].split = b;
        } else if (sscanf(buf, "part %d %31s %d %63s %ld %31s%c", &a, w1, &b, w3, &nodes, w5, &tail) == 6) {
            int v = -1;
            for (int x = 0; x < 3; x++)
                if (!strcmp(w1, value_names[x])) v = x;
            char *end;
            errno = 0;
            sum = strtoull(w5, &end, 16);
            struct strong_part *q = a >= 0 && a < STRONG_MAX_PLIES && v >= 0 && b >= 0 && m->ply[a].split &&
                                            b < 1 << m->ply[a].split ? &m->ply[a].part[v][b] : NULL;
            if (!q || q->have || nodes < 0 || *end || errno || strlen(w5) != 16 || u256_parse(w3, &q->count))
                bad = 1;
            else q->have = 1, q->nodes = nodes, q->checksum = sum;
        } else {
            bad = 1;
        }
        if (bad) return err_set(err, GSW_EFAIL, "%s is damaged (line %d)", name, line);
    }
    if (!head || !board || !enc) return err_set(err, GSW_EFAIL, "%s is damaged (no %s line)", name,
                                               !head ? "header" : !board ? "board" : "encoding");
    int plies = m->w * m->h + 1;
    c4b_spec_t spec = { m->w, m->h, m->enc, m->order, 0, 0 };
    for (int k = 0; k < plies; k++) {
        if (m->ply[k].split > c4b_split_max(&spec))
            return err_set(err, GSW_EFAIL, "%s is damaged (ply %d in %d parts on a %dx%d board)", name, k,
                           1 << m->ply[k].split, m->w, m->h);
        if (parts_sum(m, k)) return err_set(err, GSW_EFAIL, "%s is damaged (ply %d's parts add up past any board)", name, k);
    }
    for (int k = plies; k < STRONG_MAX_PLIES; k++)
        if (m->ply[k].counted || m->ply[k].have[0] || m->ply[k].have[1] || m->ply[k].have[2] || m->ply[k].have[3] ||
            m->ply[k].have[4] || m->ply[k].split)
            return err_set(err, GSW_EFAIL, "%s is damaged (ply %d on a %dx%d board)", name, k, m->w, m->h);
    if (m->complete)
        for (int k = 0; k < plies; k++)
            if (!m->ply[k].have[0] || !m->ply[k].have[1] || !m->ply[k].have[2])
                return err_set(err, GSW_EFAIL, "%s is damaged (complete, but ply %d's sets are missing)", name, k);
    return GSW_OK;
}

int strong_manifest_write(const char *path, const strong_manifest_t *m, err_t *err)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return err_set(err, GSW_EFAIL, "cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "gsw-strong 1\nboard connect4 %dx%d\nencoding %s %s\n", m->w, m->h, c4b_encoding_name(m->enc),
            c4b_order_name(m->order));
    for (int k = 0; k <= m->w * m->h; k++) {
        const struct strong_ply *p = &m->ply[k];
        char a[96], b[96];
        if (p->counted) {
            u256_text(&p->positions, a, sizeof a);
            u256_text(&p->terminal, b, sizeof b);
            if (p->fnodes || p->fms) fprintf(f, "ply %d positions %s terminal %s nodes %ld ms %.1f\n", k, a, b, p->fnodes, p->fms);
            else fprintf(f, "ply %d positions %s terminal %s\n", k, a, b);
        }
        if (p->split) fprintf(f, "split %d %d\n", k, p->split);
        for (int v = 0; v < STRONG_SETS; v++)
            if (p->have[v] && !in_parts(m, k, v)) {
                u256_text(&p->count[v], a, sizeof a);
                fprintf(f, "set %d %s %s %ld %016llx\n", k, value_names[v], a, p->nodes[v],
                        (unsigned long long)p->checksum[v]);
            }
        for (int v = 0; v < 3 && p->split; v++)
            for (int i = 0; i < 1 << p->split; i++)
                if (p->part[v][i].have) {
                    u256_text(&p->part[v][i].count, a, sizeof a);
                    fprintf(f, "part %d %s %d %s %ld %016llx\n", k, value_names[v], i, a, p->part[v][i].nodes,
                            (unsigned long long)p->part[v][i].checksum);
                }
    }
    if (m->complete) fputs("complete\n", f);
    int ok = fflush(f) == 0;
    ok = (fsync(fileno(f)) == 0) & ok;
    ok = (fclose(f) == 0) & ok;
    if (!ok || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        return err_set(err, GSW_EFAIL, "cannot write %s: %s", path, strerror(e));
    }
    return GSW_OK;
}


int strong_forward_done(const strong_manifest_t *m)
{
    int k = -1;
    while (k < m->w * m->h && m->ply[k + 1].counted && m->ply[k + 1].have[STRONG_GO] && m->ply[k + 1].have[STRONG_ENDED])
        k++;
    return k;
}

int strong_lowest_solved(const strong_manifest_t *m)
{
    int k = m->w * m->h + 1;
    while (k > 0 && m->ply[k - 1].have[0] && m->ply[k - 1].have[1] && m->ply[k - 1].have[2]) k--;
    return k;
}

/* The manifest of bdir: 1 read, 0 none, -1 an error. */
int strong_manifest_load(const char *bdir, strong_manifest_t *m, err_t *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/manifest", bdir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 0;
        return err_set(err, GSW_EFAIL, "cannot read %s: %s", path, strerror(errno)), -1;
    }
    enum { MANIFEST_MAX = 1 << 20 };   /* 129 plies of four lines fit many times over */
    char *text = malloc(MANIFEST_MAX + 1);
    size_t n = text ? fread(text, 1, MANIFEST_MAX + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!text || bad || n > MANIFEST_MAX) {
        free(text);
        return err_set(err, GSW_EFAIL, "cannot read %s: %s", path,
                       !text ? "out of memory" : bad ? "read error" : "too long for a manifest"), -1;
    }
    int rc = strong_manifest_parse(text, n, path, m, err);
    free(text);
    return rc ? -1 : 1;
}


static void tag_of(const strong_manifest_t *m, int k, int v, int i, char *buf, size_t n)
{
    int w = snprintf(buf, n, "gsw strong connect4 %dx%d %s %s ply %d %s", m->w, m->h, c4b_encoding_name(m->enc),
                     c4b_order_name(m->order), k, value_names[v]);
    if (in_parts(m, k, v) && w > 0 && (size_t)w < n) snprintf(buf + w, n - (size_t)w, " part %d of %d", i, 1 << m->ply[k].split);
}

/* Read file i of ply k's set v of the solution in bdir and check it
 * against the manifest: its checksum, its count and its tag. */
/* A set's file, checked against the manifest: its checksum, tag and count;
 * full: the count made again from the nodes (verify), else the file's
 * own, which its checksum vouches for (bddf_read_known: a query's read of
 * a set of millions of nodes several times as fast) */
static int set_read(const char *bdir, const strong_manifest_t *m, int k, int v, int i, int full, bddf_t *f,
                    err_t *err)
{
    char path[1200], tag[160];
    file_path(bdir, m, k, v, i, path, sizeof path);
    struct strong_part rec = strong_file_rec(m, k, v, i);
    uint64_t sum = rec.checksum;
    if (full ? bddf_read(path, f, &sum, err) : bddf_read_known(path, rec.checksum, f, err)) return err->code;
    tag_of(m, k, v, i, tag, sizeof tag);
    const char *why = NULL;
    if (strcmp(f->tag, tag)) why = f->tag;
    else if (sum != rec.checksum) why = "its checksum differs from the manifest's";
    else if (u256_cmp(&f->count, &rec.count)) why = "its count differs from the manifest's";
    if (why) {
        bddf_free(f);
        if (why == f->tag)
            return err_set(err, GSW_EFAIL, "%s was made for another board or set (\"%.100s\")", path, why);
        return err_set(err, GSW_EFAIL, "%s is damaged (%s)", path, why);
    }
    return GSW_OK;
}

static int set_load(const char *bdir, const strong_manifest_t *m, int k, int v, int i, bddf_t *f, err_t *err)
{
    return set_read(bdir, m, k, v, i, 0, f, err);
}

int strong_set_check(const char *bdir, const strong_manifest_t *m, int k, int v, int i, err_t *err)
{
    bddf_t f;
    if (set_read(bdir, m, k, v, i, 1, &f, err)) return err->code;
    bddf_free(&f);
    return GSW_OK;
}

/* A ply's won and drawn sets read at once, a thread each (reading and
 * checking a set are independent; the lost set is what is in neither, and
 * is not read: the biggest of the three): 0, or the first failure's code
 * with its error in err (neither set is then kept). */
typedef struct set_job {
    const char *bdir;
    const strong_manifest_t *m;
    int k, v, i;
    bddf_t *f;
    int rc;
    err_t err;
} set_job_t;

static void *set_load_job(void *arg)
{
    set_job_t *j = arg;
    j->rc = set_load(j->bdir, j->m, j->k, j->v, j->i, j->f, &j->err);
    return NULL;
}

static int ply_load(const char *bdir, const strong_manifest_t *m, int k, int part, bddf_t f[2], err_t *err)
{
    _Static_assert(C4B_WON == 0 && C4B_DRAWN == 1, "the sets read are the first two");
    set_job_t j[2];
    pthread_t th;
    int started = 0;
    for (int x = 0; x < 2; x++) {
        j[x] = (set_job_t){ .bdir = bdir, .m = m, .k = k, .v = x, .i = part, .f = &f[x] };
        if (x == 0) started = !pthread_create(&th, NULL, set_load_job, &j[x]);
        if (x == 1 || !started) set_load_job(&j[x]);   /* (the last, or a thread that could not start: here) */
    }
    if (started) pthread_join(th, NULL);
    int rc = 0;
    for (int x = 0; x < 2; x++)
        if (j[x].rc && !rc) rc = j[x].rc, *err = j[x].err;
    if (rc)
        for (int x = 0; x < 2; x++) bddf_free(&f[x]);
    return rc;
}

/* Ply k's won and drawn sets of part opened lazily (bddf_lazy), each
 * checked against the manifest's tag and count: 1 both open (in l), 0
 * either file is in one frame (read them whole), or the failure's code
 * (negative) with err set. */
static int ply_lazy(const char *bdir, const strong_manifest_t *m, int k, int part, bddf_lazy_t l[2], err_t *err)
{
    int x, rc = 1;
    for (x = 0; x < 2; x++) memset(&l[x], 0, sizeof l[x]), l[x].fd = -1;
    for (x = 0; x < 2 && rc == 1; x++) {
        char path[1200], tag[160];
        file_path(bdir, m, k, x, part, path, sizeof path);
        if (bddf_lazy_open(path, &l[x], err)) rc = -err->code;
        else if (l[x].fd < 0) rc = 0;
        else {
            struct strong_part rec = strong_file_rec(m, k, x, part);
            tag_of(m, k, x, part, tag, sizeof tag);
            if (strcmp(l[x].tag, tag))
                rc = -err_set(err, GSW_EFAIL, "%s was made for another board or set (\"%.100s\")", path, l[x].tag);
            else if (u256_cmp(&l[x].count, &rec.count))
                rc = -err_set(err, GSW_EFAIL, "%s is damaged (its count differs from the manifest's)", path);
        }
    }
    if (rc != 1)
        for (int y = 0; y < 2; y++) bddf_lazy_close(&l[y]);
    return rc;
}

/* --- building --- */

typedef struct build_ctx {
    const strong_build_options_t *o;
    strong_manifest_t *m;
    const char *bdir, *mpath;
    int cells;
    double ms[STRONG_MAX_PLIES];  /* the plies' times in this run (0: made before) */
    double ply_t0, last_ms;       /* the backward pass: this ply's start, the last ply's time (0: none yet) */
    strong_prov_t *prov;          /* the folder's MANIFEST */
    long peak, table;             /* of node tables closed before the end (a ply made again in parts) */
} build_ctx_t;

/* The board's manifest written, and the MANIFEST brought up to date. */
static int save(build_ctx_t *c, err_t *err)
{
    if (strong_manifest_write(c->mpath, c->m, err)) return err->code;
    return strong_prov_sync(c->prov, c->m, err);
}

/* A progress line to the build's callback, printf-style. */
#define say(o, ...) err_say((o)->progress, (o)->ctx, __VA_ARGS__)

/* Write file i of ply k's set x (its tag set here) and list it in m. */
static int set_write(const char *bdir, strong_manifest_t *m, int k, int x, int i, const bddf_t *f, err_t *err)
{
    bddf_t t = *f;
    tag_of(m, k, x, i, t.tag, sizeof t.tag);
    char path[1200];
    file_path(bdir, m, k, x, i, path, sizeof path);
    uint64_t cs;
    if (bddf_write(path, &t, &cs, err)) return err->code;
    if (in_parts(m, k, x)) {
        m->ply[k].part[x][i] = (struct strong_part){ 1, f->count, (long)f->nnodes, cs };
        parts_sum(m, k);
        return GSW_OK;
    }
    m->ply[k].have[x] = 1;
    m->ply[k].count[x] = f->count;
    m->ply[k].nodes[x] = (long)f->nnodes;
    m->ply[k].checksum[x] = cs;
    return GSW_OK;
}

/* The time left to the forward pass after ply k, from the plies' times
 * (this run's, or the manifest's for plies made before). Up to the ply
 * where the sets are largest, about 0.78 of the board (6x5, 7x5 and 7x6
 * all peak there), each ply takes longer than the last by a factor that
 * starts at the last three plies' and shrinks to 1 at the peak; after it,
 * ply peak + i takes as long as ply peak - i. On 6x5 this is within a
 * third of the truth from ply 18 on. -1: too few plies made yet. */
static double forward_eta_ms(const build_ctx_t *c, int k)
{
    double t[STRONG_MAX_PLIES];
    for (int j = 0; j <= k; j++) t[j] = c->ms[j] > 0 ? c->ms[j] : c->m->ply[j].fms;
    if (k < 3 || !(t[k] > 0) || !(t[k - 3] > 0)) return -1;
    double g = cbrt(t[k] / t[k - 3]);
    if (!(g >= 1.0)) g = 1.0;
    if (g > 2.0) g = 2.0;
    double peak = 0.78 * c->cells, x = t[k], left = 0;
    for (int j = k + 1; j <= c->cells; j++) {
        if (j <= peak) {
            x *= pow(g, (peak - j) / (peak - k));
        } else {
            int ref = (int)lround(2 * peak - j);
            if (ref >= 0 && ref < j) x = t[ref];
        }
        t[j] = x;
        left += x;
    }
    return left;
}

static int forward_save(void *ctx, const c4b_ply_t *p, const bddf_t *go, const bddf_t *ended, err_t *err)
{
    build_ctx_t *c = ctx;
    struct strong_ply *mp = &c->m->ply[p->ply];
    if (set_write(c->bdir, c->m, p->ply, STRONG_GO, 0, go, err) || set_write(c->bdir, c->m, p->ply, STRONG_ENDED, 0, ended, err))
        return err->code;
    mp->positions = p->positions;
    mp->terminal = p->terminal;
    mp->fnodes = p->nodes;
    mp->fms = p->ms;
    mp->counted = 1;
    c->ms[p->ply] = p->ms > 0.05 ? p->ms : 0.05;
    return save(c, err);
}

static void forward_ply(void *ctx, const c4b_ply_t *p)
{
    build_ctx_t *c = ctx;
    char a[128], eta[64] = "";
    u256_text_grouped(&p->positions, a, sizeof a);
    double left = forward_eta_ms(c, p->ply);
    if (left >= 0 && left < 90e3) snprintf(eta, sizeof eta, "; about %.0f s left", ceil(left / 1e3));
    else if (left >= 0 && left < 180 * 60e3) snprintf(eta, sizeof eta, "; about %.0f min left", ceil(left / 60e3));
    else if (left >= 0) snprintf(eta, sizeof eta, "; about %.1f h left", left / 3600e3);
    say(c->o, "forward: ply %d of %d, %s positions, %ld nodes (%.1f s)%s", p->ply, c->cells, a, p->nodes,
        p->ms / 1e3, p->ply < c->cells ? eta : "");
}

/* The backward pass's sets, read from and written to the folder as it
 * goes (c4b_solve_ply_io). */
static int io_load(void *ctx, int k, int set, int part, bddf_t *f, err_t *err)
{
    build_ctx_t *c = ctx;
    return set_load(c->bdir, c->m, k, set, part < 0 ? 0 : part, f, err);
}

/* A set written: said, for a ply that takes long (7x6's ply 36 took 39
 * minutes, 28 of them on its won set). */
static int io_save(void *ctx, int k, int value, int part, const bddf_t *f, err_t *err)
{
    build_ctx_t *c = ctx;
    if (set_write(c->bdir, c->m, k, value, part < 0 ? 0 : part, f, err)) return err->code;
    char a[128], where[48] = "";
    u256_text_grouped(&f->count, a, sizeof a);
    if (part >= 0) snprintf(where, sizeof where, " (part %d of %d)", part + 1, 1 << c->m->ply[k].split);
    say(c->o, "backward: ply %d: %s set made%s, %s positions (%.1f s into the ply)", k, strong_value_name(value), where,
        a, (gsw_now_ms() - c->ply_t0) / 1e3);
    /* a part's three sets listed: a stop after it goes on from the next */
    if (part >= 0 && value == C4B_LOST) return save(c, err);
    return GSW_OK;
}

/* Is part `part` of ply k made (a build stopped half way through a ply)?
 * Its three files are read back first. */
static int io_done(void *ctx, int k, int part)
{
    build_ctx_t *c = ctx;
    for (int v = 0; v < 3; v++) {
        if (!c->m->ply[k].part[v][part].have) return 0;
        err_t e;
        if (strong_set_check(c->bdir, c->m, k, v, part, &e)) {
            say(c->o, "%s: making it again", e.msg);
            for (int x = 0; x < 3; x++) c->m->ply[k].part[x][part].have = 0;
            parts_sum(c->m, k);
            return 0;
        }
    }
    say(c->o, "backward: ply %d: part %d of %d was made before", k, part + 1, 1 << c->m->ply[k].split);
    return 1;
}

/* Ply k's value files on disk that m does not list (a ply made again, or
 * in another number of parts), removed. */
static void ply_tidy(const char *bdir, const strong_manifest_t *m, int k)
{
    for (int split = 0; split <= C4B_MAX_SPLIT; split++)
        for (int i = 0; i < 1 << split; i++)
            for (int v = 0; v < 3; v++) {
                char name[64], path[1200];
                name_of(k, v, split, i, name, sizeof name);
                if (split == m->ply[k].split && strong_file_listed(m, k, v, i)) continue;   /* listed: kept */
                snprintf(path, sizeof path, "%s/%s", bdir, name);
                unlink(path);
            }
}

/* The backward pass from ply from - 1 down to ply to. Each ply reads what
 * it needs from the folder and writes its sets there as they are made, so
 * about three sets are in memory at a time (7x6's ply 37 did not fit in
 * --memory 22 holding both plies' five). A ply that fills the node table
 * is made again in twice as many parts (the table opened afresh), and the
 * plies below it start from that many. */
static int backward(c4b_t **bp, const strong_build_options_t *o, build_ctx_t *c, int from, int to, err_t *err)
{
    strong_manifest_t *m = c->m;
    int rc = GSW_OK, split = o->split;
    c4b_spec_t spec = { m->w, m->h, m->enc, m->order, 0, 0 };
    int most = c4b_split_max(&spec);
    if (from <= c->cells) say(o, "going on from ply %d (plies %d to %d are solved)", from - 1, from, c->cells);
    for (int k = from - 1; k >= to && !rc; k--) {
        double tk = gsw_now_ms();
        c->ply_t0 = tk;
        if (m->ply[k].split && m->ply[k].split >= split) split = m->ply[k].split;   /* parts made before: go on with them */
        else if (m->ply[k].split != split) ply_reset(m, k, split);
        ply_tidy(c->bdir, m, k);
        char what[96], took[48] = "";
        if (split) snprintf(what, sizeof what, "making it in %d parts (by the first column's lowest %d cell%s)", 1 << split,
                            split, split > 1 ? "s" : "");
        else snprintf(what, sizeof what, "making its won set");
        if (c->last_ms > 0) snprintf(took, sizeof took, " (ply %d took %.1f s)", k + 1, c->last_ms / 1e3);
        say(o, "backward: ply %d: %s%s", k, what, took);
        c4b_solve_io_t io = { io_load, io_save, io_done, c, split, k < c->cells ? m->ply[k + 1].split : 0 };
        if (!(rc = save(c, err))) rc = c4b_solve_ply_io(*bp, k, &io, o->stop, err);
        if (rc && c4b_was_full(*bp) && split < most && !(o->stop && *o->stop)) {
            say(o, "backward: ply %d filled the node table (%ld nodes, --memory %.3g GB): making it again", k,
                c4b_table_nodes(*bp), o->memory_gb > 0 ? o->memory_gb : 1);
            if (c4b_peak_nodes(*bp) > c->peak) c->peak = c4b_peak_nodes(*bp);
            if (c4b_table_nodes(*bp) > c->table) c->table = c4b_table_nodes(*bp);
            c4b_close(*bp);
            *bp = NULL;
            if ((rc = c4b_open(bp, &spec, o->memory_gb > 0 ? o->memory_gb : 1, err))) break;
            split++;
            ply_reset(m, k, split);
            ply_tidy(c->bdir, m, k);
            k++;   /* this ply again */
            continue;
        }
        u256_t sum = u256_of(0);
        for (int x = 0; x < 3 && !rc; x++) u256_add(&sum, &m->ply[k].count[x]);
        if (!rc && u256_cmp(&sum, &m->ply[k].positions))   /* every position has one value */
            rc = err_set(err, GSW_EFAIL, "ply %d: the won, drawn and lost sets do not add up to its positions", k);
        if (!rc) rc = save(c, err);
        if (!rc) {
            char a[128], b2[128], d[128];
            u256_text_grouped(&m->ply[k].count[C4B_WON], a, sizeof a);
            u256_text_grouped(&m->ply[k].count[C4B_DRAWN], b2, sizeof b2);
            u256_text_grouped(&m->ply[k].count[C4B_LOST], d, sizeof d);
            c->last_ms = gsw_now_ms() - tk;
            say(o, "backward: ply %d: %s won, %s drawn, %s lost (%.1f s)", k, a, b2, d, c->last_ms / 1e3);
        }
    }
    return rc;
}

/* gsw strong split: each ply from o->from_ply up whose value sets are whole,
 * or in fewer parts, cut into 2^o->split parts, file by file with no BDD
 * package (each part the nodes of the file it comes from below its path,
 * bddf_prefix: a part of 2^a cut again by the next cells of the column);
 * the parts written, then the manifest, then the files before removed, so
 * a stop (between plies) or a crash leaves each ply as it was or in its
 * new parts. */
static int split_body(build_ctx_t *c, err_t *err)
{
    const strong_build_options_t *o = c->o;
    strong_manifest_t *m = c->m;
    c4b_spec_t spec = { m->w, m->h, m->enc, m->order, 0, 0 };
    if (o->split < 1) return err_set(err, GSW_EINPUT, "strong split wants 2 parts or more");
    if (c4b_split_check(&spec, o->split, err)) return err->code;
    int lowest = strong_lowest_solved(m), did = 0, rc = GSW_OK;
    if (lowest > c->cells) return err_set(err, GSW_EFAIL, "%s holds no solved ply to split", c->bdir);
    int from = o->from_ply > lowest ? o->from_ply : lowest;
    for (int k = c->cells; k >= from && !rc; k--) {
        const int had = m->ply[k].split;   /* cut from 2^had files each */
        if (had >= o->split) {
            say(o, "ply %d: in %d parts already", k, 1 << had);
            continue;
        }
        if (o->stop && *o->stop) return err_set(err, GSW_EFAIL, "stopped before ply %d", k);
        double t0 = gsw_now_ms();
        ply_tidy(c->bdir, m, k);   /* (parts of a split stopped half way) */
        strong_manifest_t *w = malloc(sizeof *w);   /* the ply in parts, listed once every part is written */
        if (!w) return err_set(err, GSW_EFAIL, "out of memory");
        *w = *m;
        ply_reset(w, k, o->split);
        for (int v = 0; v < 3 && !rc; v++)
            for (unsigned from_part = 0; from_part < 1u << had && !rc; from_part++) {
                bddf_t f;
                if ((rc = set_load(c->bdir, m, k, v, (int)from_part, &f, err))) break;
                /* the parts whose first cells are this file's */
                for (unsigned j = 0; j < 1u << (o->split - had) && !rc; j++) {
                    unsigned i = from_part | j << had;
                    bddf_t part;
                    if (bddf_prefix(&f, o->split, i, &part)) rc = err_set(err, GSW_EFAIL, "out of memory");
                    else rc = set_write(c->bdir, w, k, v, (int)i, &part, err);
                    bddf_free(&part);
                }
                bddf_free(&f);
            }
        for (int v = 0; v < 3 && !rc; v++)   /* the parts add up to the whole */
            if (u256_cmp(&w->ply[k].count[v], &m->ply[k].count[v]))
                rc = err_set(err, GSW_EFAIL, "ply %d: the parts of its %s set do not add up to it", k, strong_value_name(v));
        if (!rc) {
            *m = *w;
            rc = save(c, err);
        }
        free(w);
        if (rc) break;
        ply_tidy(c->bdir, m, k);   /* the whole files */
        did++;
        long nodes = m->ply[k].nodes[0] + m->ply[k].nodes[1] + m->ply[k].nodes[2];
        say(o, "ply %d: in %d parts%s, %ld nodes together (%.1f s)", k, 1 << o->split, had ? " (from fewer)" : "",
            nodes, (gsw_now_ms() - t0) / 1e3);
    }
    if (!rc && !did) say(o, "nothing to split: plies %d to %d are in parts already", from, c->cells);
    return rc;
}

static int build_body(const gv_t *v, const strong_build_options_t *o, strong_prov_t *prov, strong_report_t *rep,
                      err_t *err)
{
    memset(rep, 0, sizeof *rep);
    rep->resumed_from = -1;
    rep->forward_from = -1;
    if (!strong_supported(v)) return err_set(err, GSW_EINPUT, "%s has no strong solutions (connect4 has)", v->game->name);
    const c4v_t *d = board_of(v);
    int cells = d->w * d->h;
    if (o->from_ply < 0 || o->from_ply > cells)
        return err_set(err, GSW_EINPUT, "--from-ply: connect4:%dx%d has plies 0 to %d", d->w, d->h, cells);
    char bdir[1100], mpath[1200];
    strong_board_dir(v, o->dir, bdir, sizeof bdir);
    snprintf(mpath, sizeof mpath, "%s/manifest", bdir);
    if (cache_mkdir_p(bdir, "strong-solution folder", err)) return err->code;
    strong_manifest_t *m = &rep->m;
    int had = strong_manifest_load(bdir, m, err);
    if (had < 0) return err->code;
    if (had && (m->w != d->w || m->h != d->h))
        return err_set(err, GSW_EFAIL, "%s was made for connect4:%dx%d, not %dx%d", mpath, m->w, m->h, d->w, d->h);
    if (had && (m->enc != o->enc || m->order != o->order))
        return err_set(err, GSW_EFAIL, "%s holds sets made with the %s encoding in %s order: use them "
                       "(--encoding %s --order %s), or another --dir", mpath, c4b_encoding_name(m->enc),
                       c4b_order_name(m->order), c4b_encoding_name(m->enc), c4b_order_name(m->order));
    if (!had) {
        memset(m, 0, sizeof *m);
        m->w = d->w;
        m->h = d->h;
        m->enc = o->enc;
        m->order = o->order;
    }
    if (o->split_only) {
        build_ctx_t sc = { o, m, bdir, mpath, cells, { 0 }, 0, 0, prov, 0, 0 };
        return split_body(&sc, err);   /* (strong_build found the manifest) */
    }
    int to = o->forward_only ? cells + 1 : o->from_ply;
    /* where the backward pass goes on from: the lowest ply whose sets, and
     * every later ply's, are listed and read back whole (a damaged file is
     * solved again, with every ply below it) */
    int from = cells + 1;
    while (!o->forward_only && from > to) {
        const struct strong_ply *p = &m->ply[from - 1];
        int good = p->have[0] && p->have[1] && p->have[2];
        for (int x = 0; x < 3 && good; x++)
            for (int i = 0; i < strong_files(m, from - 1, x) && good; i++) {
                err_t e2;
                if (strong_set_check(bdir, m, from - 1, x, i, &e2)) {
                    say(o, "%s: building it again", e2.msg);
                    good = 0;
                }
            }
        if (!good) break;
        from--;
    }
    /* what lies below is solved again (but the parts made of the ply
       below, a build stopped half way through it, are checked and kept) */
    for (int k = 0; !o->forward_only && k < from; k++)
        if (k < from - 1 || !m->ply[k].split) ply_reset(m, k, 0);
    build_ctx_t ctx = { o, m, bdir, mpath, cells, { 0 }, 0, 0, prov, 0, 0 };
    if (from <= cells) rep->resumed_from = from;
    if (!o->forward_only && from <= to) {   /* nothing to do: every file was checked */
        if (to == 0) say(o, "%s is complete: every file checked", bdir);
        else say(o, "%s holds plies %d to %d: every file checked", bdir, from, cells);
        m->complete |= to == 0;
        return save(&ctx, err);   /* (a MANIFEST missing sets gets them) */
    }
    m->complete = 0;
    /* where the forward pass goes on from: the last ply of a run of plies
     * from 0 whose sets are listed, its go-on set read back whole */
    int fdone = strong_forward_done(m);
    bddf_t start = { 0 };
    while (fdone >= 0 && fdone < cells) {
        err_t e2;
        if (!set_load(bdir, m, fdone, STRONG_GO, 0, &start, &e2)) break;
        say(o, "%s: making it again", e2.msg);
        m->ply[fdone].have[STRONG_GO] = m->ply[fdone].have[STRONG_ENDED] = 0;
        fdone--;
    }
    rep->forward_from = fdone;
    if (o->forward_only && fdone == cells) return GSW_OK;   /* counted before */
    c4b_spec_t spec = { d->w, d->h, o->enc, o->order, 0, 0 };
    c4b_t *b;
    if (c4b_open(&b, &spec, o->memory_gb > 0 ? o->memory_gb : 1, err)) {
        bddf_free(&start);
        return err->code;
    }
    int rc = GSW_OK;
    double t0 = gsw_now_ms();
    if (fdone < cells) {
        if (fdone > 0) say(o, "going on after ply %d of the forward pass", fdone);
        c4b_fwd_t fo = { .from = fdone > 0 ? fdone : 0, .start = fdone > 0 ? &start : NULL, .save = forward_save,
                         .progress = forward_ply, .ctx = &ctx };
        if (!(rc = save(&ctx, err))) rc = c4b_forward_run(b, &fo, o->stop, err);
    }
    bddf_free(&start);
    rep->forward_ms = gsw_now_ms() - t0;
    rep->forward_done = !rc;
    double t1 = gsw_now_ms();
    if (!rc && !o->forward_only) rc = backward(&b, o, &ctx, from, to, err);
    rep->backward_ms = gsw_now_ms() - t1;
    rep->peak_nodes = ctx.peak;
    rep->table_nodes = ctx.table;
    if (b) {   /* (none: a table opened again could not be) */
        if (c4b_peak_nodes(b) > rep->peak_nodes) rep->peak_nodes = c4b_peak_nodes(b);
        if (c4b_table_nodes(b) > rep->table_nodes) rep->table_nodes = c4b_table_nodes(b);
        c4b_close(b);
    }
    if (rc || o->forward_only) return rc;
    m->complete = to == 0;
    return save(&ctx, err);
}

/* One build or count at a time in a board's folder: a lock file held with
 * flock. Another waits (saying so), or stops on o->stop. */
int strong_build(const gv_t *v, const strong_build_options_t *o, strong_report_t *rep, err_t *err)
{
    memset(rep, 0, sizeof *rep);
    rep->resumed_from = rep->forward_from = -1;
    if (!strong_supported(v)) return err_set(err, GSW_EINPUT, "%s has no strong solutions (connect4 has)", v->game->name);
    char bdir[1100], lpath[1200];
    strong_board_dir(v, o->dir, bdir, sizeof bdir);
    struct stat st;
    snprintf(lpath, sizeof lpath, "%s/manifest", bdir);
    if (o->split_only && stat(lpath, &st)) return err_set(err, GSW_EFAIL, "no strong solution in %s (no manifest)", bdir);
    if (cache_mkdir_p(bdir, "strong-solution folder", err)) return err->code;
    snprintf(lpath, sizeof lpath, "%s/lock", bdir);
    int fd = open(lpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return err_set(err, GSW_EFAIL, "cannot open %s: %s", lpath, strerror(errno));
    for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB);) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            int e = errno;
            close(fd);
            return err_set(err, GSW_EFAIL, "cannot lock %s: %s", lpath, strerror(e));
        }
        if (o->stop && *o->stop) {
            close(fd);
            return err_set(err, GSW_EFAIL, "stopped while waiting for another gsw working in %s", bdir);
        }
        if (!waited++) say(o, "waiting: another gsw is building or counting in %s", bdir);
        usleep(100000);
    }
    strong_prov_t *prov = strong_prov_open(bdir, o->argc, o->argv);
    int rc = build_body(v, o, prov, rep, err);
    if (strong_prov_close(prov, rc ? NULL : err) && !rc) rc = err->code;
    close(fd);   /* (the lock goes with it) */
    return rc;
}

/* --- reading --- */

static int strong_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi);

int strong_open(strong_t **out, const gv_t *v, const char *dir, err_t *err)
{
    *out = NULL;
    if (!strong_supported(v)) return 0;
    strong_t *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory"), -1;
    s->v = v;
    strong_board_dir(v, dir, s->dir, sizeof s->dir);
    int rc = strong_manifest_load(s->dir, &s->m, err);
    if (rc > 0) s->lowest = strong_lowest_solved(&s->m);
    if (rc <= 0 || s->lowest > s->m.w * s->m.h) {   /* none, or no ply solved yet */
        free(s);
        return rc < 0 ? -1 : 0;
    }
    const c4v_t *d = board_of(v);
    if (s->m.w != d->w || s->m.h != d->h) {
        err_set(err, GSW_EFAIL, "%s/manifest was made for connect4:%dx%d, not %dx%d", s->dir, s->m.w, s->m.h, d->w, d->h);
        free(s);
        return -1;
    }
    s->spec = (c4b_spec_t){ d->w, d->h, s->m.enc, s->m.order, 0, 0 };
    int plies = d->w * d->h + 1;
    s->held = calloc((size_t)plies, sizeof *s->held);
    for (int k = 0; s->held && k < plies; k++)
        if (!(s->held[k] = calloc((size_t)strong_files(&s->m, k, 0), sizeof **s->held))) {
            while (k--) free(s->held[k]);
            free(s->held);
            s->held = NULL;
        }
    if (!s->held) {
        free(s);
        return err_set(err, GSW_EFAIL, "out of memory"), -1;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->oracle.probe = strong_probe;
    s->oracle.ctx = s;
    *out = s;
    return 1;
}

void strong_close(strong_t *s)
{
    if (!s) return;
    int plies = s->m.w * s->m.h + 1;
    for (int k = 0; k < plies; k++) {
        for (int i = 0; i < strong_files(&s->m, k, 0); i++)
            for (int x = 0; x < 2; x++) {
                bddf_free(&s->held[k][i].set[x]);
                if (s->held[k][i].loaded == 2) bddf_lazy_close(&s->held[k][i].lazy[x]);
            }
        free(s->held[k]);
    }
    free(s->held);
    trust_dir_free(&s->trust);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

int strong_value_file(strong_t *s, const void *pos, char *path, size_t n, err_t *err)
{
    const gv_t *v = s->v;
    int w = s->m.w, h = s->m.h;
    int k = v->ops->pos_ply ? v->ops->pos_ply(v, pos) : -1;
    if (k < 0 || k > w * h) return err_set(err, GSW_EFAIL, "no ply of this position"), -1;
    if (k < s->lowest)
        return err_set(err, GSW_EFAIL, "%s holds plies %d to %d of the solution, not ply %d (gsw strong build "
                       "--from-ply %d solves down to it)", s->dir, s->lowest, w * h, k, k), -1;
    static _Thread_local board_view_t view_buf;   /* a probe per search node: no allocation */
    board_view_t *view = &view_buf;
    v->ops->view(v, pos, view);
    int8_t cells[128];
    for (int c = 0; c < w; c++)
        for (int r = 0; r < h; r++) {
            const view_cell_t *cell = &view->cell[(h - 1 - r) * w + c];
            cells[c * h + r] = cell->kind == VIEW_PIECE ? (int8_t)(1 + cell->owner) : 0;
        }
    uint8_t bits[BDDF_MAX_VARS];
    c4b_assign(&s->spec, cells, k, bits);
    /* the part the position falls in: only its files are read */
    int part = s->m.ply[k].split ? (int)c4b_part_of(s->m.ply[k].split, bits) : 0;
    struct strong_held *hd = &s->held[k][part];
    pthread_mutex_lock(&s->lock);
    int rc = 0;
    for (int x = 0; x < 3 && s->guard && !hd->loaded && !rc; x++) {   /* the MANIFEST vouches for each (cheaply) */
        char name[64], fix[1300];
        strong_file_name(&s->m, k, x, part, name, sizeof name);
        snprintf(fix, sizeof fix, "gsw strong verify connect4:%dx%d --dir %.1000s", w, h, s->dir);
        char *slash = strrchr(fix, '/');   /* (--dir names the folder above the board's) */
        if (slash) *slash = 0;
        rc = trust_file(&s->trust, s->dir, name, fix, 1, err);
        if (rc) snprintf(s->damage, sizeof s->damage, "%s", err->msg);
    }
    if (!hd->loaded && !rc) {   /* a frame at a time where the files allow, else whole */
        int lz = ply_lazy(s->dir, &s->m, k, part, hd->lazy, err);
        if (lz == 1) hd->loaded = 2;
        else if (lz < 0) rc = -lz;
    }
    if (hd->loaded == 2 && !rc && ++hd->probes > STRONG_LAZY_PROBES) {   /* a search's many probes: whole */
        for (int x = 0; x < 2; x++) bddf_lazy_close(&hd->lazy[x]);
        hd->loaded = 0;
    }
    if (!hd->loaded && !rc) {
        rc = ply_load(s->dir, &s->m, k, part, hd->set, err);
        if (!rc) hd->loaded = 1;
    }
    int found = C4B_LOST, hits = 0;   /* (in neither of the two read) */
    for (int x = 0; x < 2 && hd->loaded == 2 && !rc; x++) {   /* (the frames' cache is shared: under the lock) */
        int in = bddf_lazy_eval(&hd->lazy[x], bits, err);
        if (in < 0) rc = err->code;
        else if (in) found = x, hits++;
    }
    if (rc) snprintf(s->damage, sizeof s->damage, "%s", err->msg);
    int whole = hd->loaded == 1;
    pthread_mutex_unlock(&s->lock);
    if (rc) return -1;
    for (int x = 0; x < 2 && whole; x++)
        if (bddf_eval(&hd->set[x], bits)) found = x, hits++;
    if (hits > 1) {
        snprintf(s->damage, sizeof s->damage, "%.300s: ply %d's won and drawn sets both hold a position", s->dir, k);
        return err_set(err, GSW_EFAIL, "%s", s->damage), -1;
    }
    if (path) file_path(s->dir, &s->m, k, found, part, path, n);
    return found;
}

int strong_value(strong_t *s, const void *pos, err_t *err) { return strong_value_file(s, pos, NULL, 0, err); }

static int strong_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    strong_t *s = ctx;
    err_t err;
    int x = strong_value(s, pos, &err);
    if (x < 0) return 0;
    int left = s->m.w * s->m.h - v->ops->pos_ply(v, pos);   /* plies left at most */
    if (x == C4B_DRAWN) *lo = *hi = VAL_DRAW;
    else if (x == C4B_WON) *lo = val_win(left), *hi = val_win(1);
    else *lo = val_loss(0), *hi = val_loss(left);
    return 1;
}
