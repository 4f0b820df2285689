/* A certificate checked node by node: see check.h and docs/CERTIFICATE.md.
 * Nodes are visited breadth first from the roots, so the first bad node
 * reported is one nearest a root, and its line of moves is the shortest. */
#include "check/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/cert.h"
#include "check/deep.h"
#include "check/files.h"
#include "check/rules.h"
#include "db/dbfile.h"

typedef struct ctx {
    const char *path;
    cert_t c;
    rules_t r;
    int *parent, *pmove;       /* the node each was first reached from, and by which move (-1: a root) */
    int *queue;
    int *fstate;               /* per file: 0 not yet attested, 1 attested, -1 failed */
    long ev[CK_REP + 1];       /* leaves by kind */
    int tail;                  /* of the queue */
    int depth;
} ctx_t;

/* Print the verdict for a bad node: its reason and the line of moves from a root. */
static int bad(const ctx_t *x, int i, const char *why)
{
    const cert_node_t *n = &x->c.node[i];
    printf("BAD: node %lld: %s\n", (long long)n->id, why);
    if (!x->parent || x->parent[i] < 0) return 1;
    int len = 0;
    for (int k = i; x->parent[k] >= 0; k = x->parent[k]) len++;
    int *path = malloc((size_t)(len + 1) * sizeof *path), k = i, root;
    if (!path) return 1;
    for (int j = len; j > 0; j--, k = x->parent[k]) path[j - 1] = k;
    root = k;
    printf("line from root %lld:", (long long)x->c.node[root].id);
    for (int j = 0; j < len; j++) {
        const cert_node_t *p = &x->c.node[x->parent[path[j]]];
        printf(" %s", p->move[x->pmove[path[j]]]);
    }
    printf("\n");
    free(path);
    return 1;
}

static void bound_text(int ge, int32_t v, char *buf, size_t n)
{
    char t[32];
    cv_text(v, t, sizeof t);
    snprintf(buf, n, "%s%s", ge ? ">=" : "<=", t);
}

/* The evidence's value, lo .. hi, satisfies the node's bound. */
static int satisfies(const cert_node_t *n, int32_t lo, int32_t hi) { return n->ge ? lo >= n->v : hi <= n->v; }

static int leaf_bad(const ctx_t *x, int i, const char *what, int32_t lo, int32_t hi)
{
    const cert_node_t *n = &x->c.node[i];
    char b[40], l[32], h[32], why[200];
    bound_text(n->ge, n->v, b, sizeof b);
    cv_text(lo, l, sizeof l);
    cv_text(hi, h, sizeof h);
    if (lo == hi || (lo == 1 && hi == CV_WIN - 1) || (lo == -CV_WIN && hi == -1))
        snprintf(why, sizeof why, "%s gives %s, which is not %s", what, lo > 0 ? l : h, b);
    else
        snprintf(why, sizeof why, "%s gives %s .. %s, which is not %s", what, l, h, b);
    return bad(x, i, why);
}

/* A db or strong leaf's file: its SHA-256 and manifest (once a file). */
static int attest(ctx_t *x, int i)
{
    int fi = x->c.node[i].file;
    err_t err;
    if (x->fstate[fi] == 0) x->fstate[fi] = files_attest(x->c.file[fi].path, x->c.file[fi].sha256, &err) ? -1 : 1;
    if (x->fstate[fi] > 0) return 0;
    if (x->fstate[fi] == -1) {
        x->fstate[fi] = -2;
        return bad(x, i, err.msg);
    }
    char why[1200];
    snprintf(why, sizeof why, "its file %s failed its checksum or manifest check", x->c.file[fi].path);
    return bad(x, i, why);
}

static int check_leaf(ctx_t *x, int i, const void *pos)
{
    const cert_node_t *n = &x->c.node[i];
    err_t err;
    char why[1400];
    int32_t lo, hi;
    if (n->kind == CK_END) {
        if (!x->r.over(&x->r, pos, &lo)) return bad(x, i, "an end node, but the game is not over there");
        return satisfies(n, lo, lo) ? 0 : leaf_bad(x, i, "the end of the game", lo, lo);
    }
    if (n->kind == CK_REP) {
        if (!x->r.repeat_draws) return bad(x, i, "a rep node in a game where repetition is no draw");
        for (int k = 0; k < x->c.nline; k++) {
            GSW_POSBUF q[GSW_MAX_POS];
            if (x->r.parse(&x->r, x->c.line[k], q, &err)) {
                snprintf(why, sizeof why, "line position %d: %s", k + 1, err.msg);
                return bad(x, i, why);
            }
            if (x->r.same(pos, q)) return satisfies(n, 0, 0) ? 0 : leaf_bad(x, i, "the repetition", 0, 0);
        }
        return bad(x, i, "a rep node whose position is none of the header's line positions");
    }
    if (attest(x, i)) return 1;
    const cert_file_t *f = &x->c.file[n->file];
    if (n->kind == CK_DB) {
        if (files_db_value(&x->r, f->path, pos, &lo, &hi, &err)) return bad(x, i, err.msg);
        return satisfies(n, lo, hi) ? 0 : leaf_bad(x, i, "the database", lo, hi);
    }
    int in = files_strong_has(&x->r, f, pos, &err);
    if (in < 0) return bad(x, i, err.msg);
    if (!in) {
        snprintf(why, sizeof why, "the position is not in %s's set", f->fid);
        return bad(x, i, why);
    }
    static const int32_t cls[3][2] = { { 1, CV_WIN - 1 }, { 0, 0 }, { -CV_WIN, -1 } };
    return satisfies(n, cls[f->set][0], cls[f->set][1]) ? 0 : leaf_bad(x, i, "the strong solution", cls[f->set][0], cls[f->set][1]);
}

/* One node: its position, its moves and children, or its evidence. */
static int check_node(ctx_t *x, int i)
{
    const cert_node_t *n = &x->c.node[i];
    GSW_POSBUF pos[GSW_MAX_POS], q[GSW_MAX_POS];
    err_t err;
    char why[1400], text[1024];
    if (x->r.parse(&x->r, n->pos, pos, &err)) {
        snprintf(why, sizeof why, "its position does not parse: %s", err.msg);
        return bad(x, i, why);
    }
    if (n->kind != CK_ONE && n->kind != CK_ALL) {
        x->ev[n->kind]++;
        return check_leaf(x, i, pos);
    }
    int32_t v;
    if (x->r.over(&x->r, pos, &v)) return bad(x, i, "the game is over there: an end node, not a one or all");
    move_t legal[GSW_MAX_MOVES];
    int nl = x->r.moves(&x->r, pos, legal);
    char used[GSW_MAX_MOVES] = { 0 };
    for (int k = 0; k < n->nmove; k++) {
        move_t m;
        if (x->r.move_parse(&x->r, pos, n->move[k], &m, &err)) {
            snprintf(why, sizeof why, "move %s is not legal: %s", n->move[k], err.msg);
            return bad(x, i, why);
        }
        int at = 0;
        while (at < nl && legal[at] != m) at++;
        if (at == nl) return snprintf(why, sizeof why, "move %s is not legal", n->move[k]), bad(x, i, why);
        if (used[at]++) return snprintf(why, sizeof why, "move %s is listed twice", n->move[k]), bad(x, i, why);
        int c = cert_find(&x->c, n->child[k]);
        if (c < 0) {
            snprintf(why, sizeof why, "its child %lld (move %s) is not in the file", (long long)n->child[k], n->move[k]);
            return bad(x, i, why);
        }
        const cert_node_t *ch = &x->c.node[c];
        memcpy(q, pos, sizeof q);
        x->r.play(&x->r, q, m);
        x->r.format(&x->r, q, text, sizeof text);
        if (strcmp(text, ch->pos)) {
            snprintf(why, sizeof why, "move %s leads to %s, but its child %lld is %s", n->move[k], text,
                     (long long)ch->id, ch->pos);
            return bad(x, i, why);
        }
        char cb[40], pb[40];
        bound_text(ch->ge, ch->v, cb, sizeof cb);
        bound_text(n->ge, n->v, pb, sizeof pb);
        if (ch->ge == n->ge || (n->ge ? cv_up(ch->v) < n->v : cv_up(ch->v) > n->v)) {
            snprintf(why, sizeof why, "its bound %s does not follow from move %s's child %lld, %s", pb, n->move[k],
                     (long long)ch->id, cb);
            return bad(x, i, why);
        }
        if (x->parent[c] == -2) {   /* first reached: queued */
            x->parent[c] = i;
            x->pmove[c] = k;
            x->queue[x->tail++] = c;
        }
    }
    if (n->kind == CK_ALL && n->nmove != nl) {
        for (int k = 0; k < nl; k++)
            if (!used[k]) {
                x->r.move_format(&x->r, pos, legal[k], text, sizeof text);
                snprintf(why, sizeof why, "an all node without the legal move %s", text);
                return bad(x, i, why);
            }
    }
    return 0;
}

/* Cycles (Tarjan's strongly connected components, without recursion) and
 * the longest path from a root, back edges left out. */
static int check_cycles(ctx_t *x)
{
    int n = x->c.nnode, idx = 0, sp = 0, cs = 0, fail = -1;
    int *num = calloc((size_t)n, sizeof *num), *low = malloc((size_t)n * sizeof *low);
    int *stk = malloc((size_t)n * sizeof *stk), *on = calloc((size_t)n, sizeof *on);
    int *call = malloc((size_t)n * sizeof *call), *next = calloc((size_t)n, sizeof *next);
    int *height = calloc((size_t)n, sizeof *height);
    if (!num || !low || !stk || !on || !call || !next || !height) {
        printf("BAD: out of memory\n");
        fail = -2;
    }
    for (int r = 0; fail == -1 && r < x->c.nroot; r++) {
        int s = cert_find(&x->c, x->c.root[r]);
        if (num[s]) continue;
        call[cs++] = s;
        num[s] = low[s] = ++idx;
        stk[sp++] = s;
        on[s] = 1;
        while (cs) {
            int v = call[cs - 1];
            const cert_node_t *nd = &x->c.node[v];
            if (next[v] < nd->nmove) {
                int w = cert_find(&x->c, nd->child[next[v]++]);
                if (!num[w]) {
                    num[w] = low[w] = ++idx;
                    stk[sp++] = w;
                    on[w] = 1;
                    call[cs++] = w;
                } else {
                    if (on[w] && num[w] < low[v]) low[v] = num[w];
                    if (!on[w] && height[w] + 1 > height[v]) height[v] = height[w] + 1;
                }
                continue;
            }
            cs--;
            if (cs) {
                int u = call[cs - 1];
                if (low[v] < low[u]) low[u] = low[v];
                if (height[v] + 1 > height[u]) height[u] = height[v] + 1;
            }
            if (low[v] != num[v]) continue;
            int size = 0, self = 0, top = sp;
            do on[stk[--sp]] = 0, size++;
            while (stk[sp] != v);
            for (int k = 0; k < nd->nmove; k++) self |= cert_find(&x->c, nd->child[k]) == v;
            for (int k = sp; (size > 1 || self) && k < top && fail < 0; k++) {
                const cert_node_t *m = &x->c.node[stk[k]];
                if (!x->r.repeat_draws || m->v != 0) fail = stk[k];
            }
        }
        int hr = height[s];
        if (hr > x->depth) x->depth = hr;
    }
    if (fail >= 0) {
        const cert_node_t *m = &x->c.node[fail];
        char b[40], why[200];
        bound_text(m->ge, m->v, b, sizeof b);
        if (!x->r.repeat_draws) snprintf(why, sizeof why, "on a cycle, in a game where repetition is no draw");
        else snprintf(why, sizeof why, "on a cycle under the bound %s (a cycle is allowed under >=draw or <=draw only)", b);
        bad(x, fail, why);
    }
    free(num), free(low), free(stk), free(on), free(call), free(next), free(height);
    return fail != -1;
}

/* The file's text: GSW_OK, or an error (exit 2). */
static int load(ctx_t *x, err_t *err)
{
    uint8_t *text;
    size_t n;
    if (db_read_whole(x->path, &text, &n, err)) return GSW_EINPUT;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", x->path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else dir[0] = 0;
    int rc = cert_parse((const char *)text, n, x->path, dir, &x->c, err);
    free(text);
    if (!rc && rules_open(x->c.game, &x->r, err)) {
        cert_free(&x->c);
        return GSW_EINPUT;
    }
    return rc ? GSW_EINPUT : GSW_OK;
}

static int verify(ctx_t *x)
{
    int n = x->c.nnode;
    for (int r = 0; r < x->c.nroot; r++) {
        int i = cert_find(&x->c, x->c.root[r]);
        if (i < 0) return printf("BAD: root %lld is not a node of the file\n", (long long)x->c.root[r]), 1;
        if (x->parent[i] != -2) return bad(x, i, "a root given twice");
        x->parent[i] = -1;
        x->queue[x->tail++] = i;
        if (r && strcmp(x->c.node[i].pos, x->c.node[cert_find(&x->c, x->c.root[0])].pos))
            return bad(x, i, "the roots are of different positions");
    }
    for (int head = 0; head < x->tail; head++)
        if (check_node(x, x->queue[head])) return 1;
    for (int i = 0; i < n; i++)
        if (x->parent[i] == -2) return bad(x, i, "not reachable from a root");
    return check_cycles(x);
}

int check_certificate(const char *path, int deep)
{
    ctx_t x;
    memset(&x, 0, sizeof x);
    x.path = path;
    err_t err;
    if (load(&x, &err)) {
        printf("UNREADABLE: %s\n", err.msg);
        return 2;
    }
    int n = x.c.nnode;
    x.parent = malloc((size_t)n * sizeof(int));
    x.pmove = malloc((size_t)n * sizeof(int));
    x.queue = malloc((size_t)n * sizeof(int));
    x.fstate = calloc((size_t)x.c.nfile + 1, sizeof(int));
    int rc = 2;
    if (!x.parent || !x.pmove || !x.queue || !x.fstate) printf("UNREADABLE: out of memory\n");
    else {
        for (int i = 0; i < n; i++) x.parent[i] = -2, x.pmove[i] = -1;
        rc = verify(&x);
    }
    for (int f = 0; !rc && deep && f < x.c.nfile; f++) {
        uint64_t npos = 0;
        if (!x.fstate[f] || x.c.file[f].strong) continue;   /* only the files leaves name */
        if (deep_file(x.c.file[f].path, &npos, &err)) {
            printf("BAD: file %s: %s\n", x.c.file[f].fid, err.msg);
            rc = err.code == GSW_EINPUT ? 2 : 1;
        }
    }
    if (!rc) {
        const cert_node_t *r0 = &x.c.node[cert_find(&x.c, x.c.root[0])];
        char claim[96], b[40], kinds[160] = "";
        bound_text(r0->ge, r0->v, claim, sizeof claim);
        if (x.c.nroot == 2) {
            const cert_node_t *r1 = &x.c.node[cert_find(&x.c, x.c.root[1])];
            bound_text(r1->ge, r1->v, b, sizeof b);
            if (r0->v == 0 && r1->v == 0 && r0->ge != r1->ge) snprintf(claim, sizeof claim, "draw");
            else snprintf(claim + strlen(claim), sizeof claim - strlen(claim), " and %s", b);
        }
        long leaves = 0;
        for (int k = CK_END; k <= CK_REP; k++) {
            if (!x.ev[k]) continue;
            size_t o = strlen(kinds);
            snprintf(kinds + o, sizeof kinds - o, "%s%ld %s", leaves ? ", " : "", x.ev[k], cert_kind_name[k]);
            leaves += x.ev[k];
        }
        printf("OK: %s for %s (%s), %d nodes, depth %d, %ld leaves on evidence (%s)%s\n", claim,
               r0->pos[0] ? r0->pos : "the start position", x.c.game, n,
               x.depth, leaves, kinds, deep ? ", database files consistent" : "");
    }
    free(x.parent), free(x.pmove), free(x.queue), free(x.fstate);
    cert_free(&x.c);
    return rc;
}
