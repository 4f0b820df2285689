/* The certificate reader: see cert.h and docs/CERTIFICATE.md. */
#include "check/cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cert_kind_name[] = { "one", "all", "end", "db", "strong", "rep" };

static int dist_parse(const char *s, int lo, int *d)
{
    if (!*s || strlen(s) > 5) return -1;
    int x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        x = x * 10 + (*s - '0');
    }
    if (x < lo) return -1;
    *d = x;
    return 0;
}

int cv_parse(const char *s, int32_t *v)
{
    int d;
    if (!strcmp(s, "win")) *v = 1;
    else if (!strcmp(s, "draw")) *v = 0;
    else if (!strcmp(s, "loss")) *v = -1;
    else if (!strncmp(s, "win/", 4) && !dist_parse(s + 4, 1, &d)) *v = CV_WIN - d;
    else if (!strncmp(s, "loss/", 5) && !dist_parse(s + 5, 0, &d)) *v = -CV_WIN + d;
    else return -1;
    return 0;
}

void cv_text(int32_t v, char *buf, size_t n)
{
    if (v >= CV_DIST) snprintf(buf, n, "win/%d", CV_WIN - v);
    else if (v <= -CV_DIST) snprintf(buf, n, "loss/%d", v + CV_WIN);
    else snprintf(buf, n, "%s", v > 0 ? "win" : v < 0 ? "loss" : "draw");
}

int32_t cv_up(int32_t child)
{
    if (child >= CV_DIST) return -child + 1;
    if (child <= -CV_DIST) return -child - 1;
    return -child;
}

/* A bound ">=V" or "<=V". */
static int bound_parse(const char *s, int *ge, int32_t *v)
{
    if ((s[0] != '>' && s[0] != '<') || s[1] != '=') return -1;
    *ge = s[0] == '>';
    return cv_parse(s + 2, v);
}

static int id_parse(const char *s, int64_t *id)
{
    if (!*s || strlen(s) > 18) return -1;
    int64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        x = x * 10 + (*s - '0');
    }
    *id = x;
    return 0;
}

/* Split s in place into at most max words separated by spaces; *rest: what
 * follows the max-th word's separating spaces (NULL when nothing). */
static int words(char *s, char **w, int max, char **rest)
{
    int n = 0;
    if (rest) *rest = NULL;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        if (n == max) {
            if (rest) *rest = s;
            return n;
        }
        w[n++] = s;
        while (*s && *s != ' ') s++;
        if (*s) *s++ = 0;
    }
    return n;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static int file_find(const cert_t *c, const char *fid)
{
    for (int i = 0; i < c->nfile; i++)
        if (!strcmp(c->file[i].fid, fid)) return i;
    return -1;
}

static int sha_ok(const char *s)
{
    if (strlen(s) != 64) return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))) return 0;
    return 1;
}

/* A header line after the first (w: its words, the last field whole). */
static const char *header_line(cert_t *c, char *s, const char *dir)
{
    char *w[12], *rest;
    int n = words(s, w, 1, &rest);
    if (n < 1 || !rest) return "a header line needs a value";
    if (!strcmp(w[0], "game")) {
        if (c->game[0]) return "a second game line";
        if (strlen(rest) >= sizeof c->game || strchr(rest, ' ')) return "bad game";
        snprintf(c->game, sizeof c->game, "%s", rest);
    } else if (!strcmp(w[0], "rules")) {
        if (strcmp(rest, "position")) return "unknown rules (only \"rules position\" is format 1's)";
    } else if (!strcmp(w[0], "root")) {
        if (c->nroot == 2) return "more than two roots";
        if (id_parse(rest, &c->root[c->nroot])) return "bad root id";
        c->nroot++;
    } else if (!strcmp(w[0], "line")) {
        char **l = realloc(c->line, (size_t)(c->nline + 1) * sizeof *l);
        if (!l) return "out of memory";
        c->line = l;
        if (!(l[c->nline] = dup_text(rest))) return "out of memory";
        c->nline++;
    } else if (!strcmp(w[0], "file")) {
        char *f[10], *path = NULL;
        int k = words(rest, f, 3, &path);
        if (k < 3 || !path) return "a file line is: file FID KIND SHA256 PATH ...";
        int strong = !strcmp(f[1], "strong");
        if (!strong && strcmp(f[1], "egdb")) return "a file's kind is egdb or strong";
        if (!sha_ok(f[2])) return "a file's SHA-256 is 64 lower-case hex digits";
        if (strlen(f[0]) >= 64) return "file id too long";
        if (file_find(c, f[0]) >= 0) return "a file id given twice";
        cert_file_t x;
        memset(&x, 0, sizeof x);
        snprintf(x.fid, sizeof x.fid, "%s", f[0]);
        x.strong = strong;
        memcpy(x.sha256, f[2], 65);
        if (strong) {
            char *g[7], *more;
            if (words(path, g, 7, &more) != 7 || more) return "a strong file line is: file FID strong SHA256 PATH W H "
                                                     "ENCODING ORDER PLY SET";
            path = g[0];
            const char *sets[3] = { "won", "drawn", "lost" };
            x.set = -1;
            for (int i = 0; i < 3; i++)
                if (!strcmp(g[6], sets[i])) x.set = i;
            if (sscanf(g[1], "%d", &x.w) != 1 || sscanf(g[2], "%d", &x.h) != 1 || sscanf(g[5], "%d", &x.ply) != 1
                || x.set < 0 || strlen(g[3]) >= 16 || strlen(g[4]) >= 16)
                return "bad strong file fields";
            snprintf(x.enc, sizeof x.enc, "%s", g[3]);
            snprintf(x.order, sizeof x.order, "%s", g[4]);
        } else if (strchr(path, ' '))
            return "a file's path has no spaces";
        int len = path[0] == '/' || !dir || !*dir ? snprintf(x.path, sizeof x.path, "%s", path)
                                                  : snprintf(x.path, sizeof x.path, "%s/%s", dir, path);
        if (len < 0 || (size_t)len >= sizeof x.path) return "a file's path is too long";
        cert_file_t *nf = realloc(c->file, (size_t)(c->nfile + 1) * sizeof *nf);
        if (!nf) return "out of memory";
        c->file = nf;
        nf[c->nfile++] = x;
    } else if (!strcmp(w[0], "size")) {
        if (sscanf(rest, "%ld %ld", &c->size_nodes, &c->size_depth) != 2) return "a size line is: size NODES DEPTH";
    } else if (strcmp(w[0], "made"))
        return "unknown header line";
    return NULL;
}

/* A node line into *x. */
static const char *node_line(cert_t *c, char *s, cert_node_t *x)
{
    char *bar = strstr(s, " | ");
    size_t len = strlen(s);
    if (!bar && len >= 2 && !strcmp(s + len - 2, " |")) bar = s + len - 2;   /* an empty position: Connect Four's start */
    if (!bar) return "a node line ends with \" | POSITION\"";
    *bar = 0;
    char *pos = bar + 2 + (bar[2] == ' ');
    while (*pos == ' ') pos++;
    size_t cap = strlen(s) / 2 + 4;
    char **w = malloc(cap * sizeof *w);
    if (!w) return "out of memory";
    int n = words(s, w, (int)cap, NULL);
    const char *why = NULL;
    int kind = -1;
    for (int k = 0; n >= 2 && k <= CK_REP; k++)
        if (!strcmp(w[1], cert_kind_name[k])) kind = k;
    if (n < 3 || id_parse(w[0], &x->id)) why = "a node line is: ID KIND BOUND ... | POSITION";
    else if (kind < 0) why = "unknown node kind";
    else if (bound_parse(w[2], &x->ge, &x->v)) why = "bad bound (>=V or <=V, V as win/3, win, draw, loss, loss/0)";
    else if (kind == CK_ONE && (n != 5 || !x->ge)) why = "a one node is: ID one >=V MOVE CHILD";
    else if (kind == CK_ALL && (n < 5 || n % 2 == 0 || x->ge)) why = "an all node is: ID all <=V MOVE CHILD ...";
    else if ((kind == CK_END || kind == CK_REP) && n != 3) why = "an end or rep node is: ID KIND BOUND";
    else if ((kind == CK_DB || kind == CK_STRONG) && n != 4) why = "a db or strong node is: ID KIND BOUND FID";
    if (!why && (kind == CK_DB || kind == CK_STRONG)) {
        x->file = file_find(c, w[3]);
        if (x->file < 0) why = "names a file no header line gives";
        else if (c->file[x->file].strong != (kind == CK_STRONG)) why = "names a file of the other kind";
    }
    x->kind = kind;
    if (!why && (kind == CK_ONE || kind == CK_ALL)) {
        x->nmove = (n - 3) / 2;
        x->move = calloc((size_t)x->nmove, sizeof *x->move);
        x->child = calloc((size_t)x->nmove, sizeof *x->child);
        if (!x->move || !x->child) why = "out of memory";
        for (int i = 0; !why && i < x->nmove; i++) {
            if (!(x->move[i] = dup_text(w[3 + 2 * i]))) why = "out of memory";
            else if (id_parse(w[4 + 2 * i], &x->child[i])) why = "bad child id";
        }
    }
    free(w);
    if (!why && !(x->pos = dup_text(pos))) why = "out of memory";
    return why;
}

static int by_id(const void *a, const void *b)
{
    int64_t x = ((const cert_node_t *)a)->id, y = ((const cert_node_t *)b)->id;
    return (x > y) - (x < y);
}

int cert_parse(const char *text, size_t n, const char *name, const char *dir, cert_t *c, err_t *err)
{
    memset(c, 0, sizeof *c);
    c->size_nodes = c->size_depth = -1;
    if (memchr(text, 0, n)) return err_set(err, GSW_EINPUT, "%s: not a certificate (a NUL byte)", name);
    char *buf = malloc(n + 1);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory");
    memcpy(buf, text, n);
    buf[n] = 0;
    int lineno = 0, seen_header = 0, cap = 0;
    const char *why = NULL;
    for (char *s = buf, *next; s && !why; s = next) {
        next = strchr(s, '\n');
        if (next) *next++ = 0;
        lineno++;
        size_t len = strlen(s);
        if (len && s[len - 1] == '\r') s[--len] = 0;
        if (s[0] == '#' || strspn(s, " ") == len) continue;
        if (!seen_header) {
            char *w[3];
            if (words(s, w, 3, NULL) != 2 || strcmp(w[0], "gsw-certificate") || strcmp(w[1], "1"))
                why = "not a certificate (the first line is \"gsw-certificate 1\")";
            seen_header = 1;
            continue;
        }
        if (s[0] >= '0' && s[0] <= '9') {
            if (c->nnode == cap) {
                cap = cap ? 2 * cap : 64;
                cert_node_t *nn = realloc(c->node, (size_t)cap * sizeof *nn);
                if (!nn) { why = "out of memory"; break; }
                c->node = nn;
            }
            cert_node_t *x = &c->node[c->nnode++];
            memset(x, 0, sizeof *x);
            x->line = lineno;
            why = node_line(c, s, x);
        } else if (c->nnode)
            why = "a header line after the first node line";
        else
            why = header_line(c, s, dir);
    }
    free(buf);
    if (why) {
        err_set(err, GSW_EINPUT, "%s:%d: %s", name, lineno, why);
        cert_free(c);
        return GSW_EINPUT;
    }
    if (!seen_header) why = "not a certificate (empty)";
    else if (!c->game[0]) why = "no game line";
    else if (!c->nroot) why = "no root line";
    else if (!c->nnode) why = "no node line";
    if (why) {
        err_set(err, GSW_EINPUT, "%s: %s", name, why);
        cert_free(c);
        return GSW_EINPUT;
    }
    qsort(c->node, (size_t)c->nnode, sizeof *c->node, by_id);
    for (int i = 1; i < c->nnode; i++)
        if (c->node[i].id == c->node[i - 1].id) {
            int l1 = c->node[i - 1].line, l2 = c->node[i].line;
            err_set(err, GSW_EINPUT, "%s:%d: node %lld is given again (line %d)", name, l1 > l2 ? l1 : l2,
                    (long long)c->node[i].id, l1 < l2 ? l1 : l2);
            cert_free(c);
            return GSW_EINPUT;
        }
    return GSW_OK;
}

int cert_find(const cert_t *c, int64_t id)
{
    int lo = 0, hi = c->nnode - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->node[mid].id == id) return mid;
        if (c->node[mid].id < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

void cert_free(cert_t *c)
{
    for (int i = 0; i < c->nnode; i++) {
        for (int k = 0; c->node[i].move && k < c->node[i].nmove; k++) free(c->node[i].move[k]);
        free(c->node[i].move);
        free(c->node[i].child);
        free(c->node[i].pos);
    }
    free(c->node);
    for (int i = 0; i < c->nline; i++) free(c->line[i]);
    free(c->line);
    free(c->file);
    memset(c, 0, sizeof *c);
}
