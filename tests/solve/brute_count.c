/* An independent brute-force solver of small chess and checkers endings
 * under the move-count rule (brute_count.h). Written from the rules of the
 * games: nothing of games/, core/ or solve/ is used. */
#include "tests/solve/brute_count.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ==== values ==============================================================
 * A value is a code: 0 a draw, d + 1 the side to move wins in d plies,
 * -(d + 1) it loses in d plies. */
#define CODE_NONE INT_MIN

/* The value for the mover of a move to a position of value c. */
static int code_up(int c) { return c > 0 ? -(c + 1) : c < 0 ? -c + 1 : 0; }

/* The order the mover prefers: the fastest win, then a draw, then the
 * slowest loss. */
static int code_rank(int c) { return c == CODE_NONE ? INT_MIN : c > 0 ? 100000 - c : c < 0 ? -100000 - c : 0; }
static int code_best(int a, int b) { return code_rank(a) >= code_rank(b) ? a : b; }

static brute_value_t code_value(int c)
{
    brute_value_t v = { 0, -1 };
    if (c > 0) { v.outcome = 1; v.plies = c - 1; }
    if (c < 0) { v.outcome = -1; v.plies = -c - 1; }
    return v;
}

/* ==== retrograde analysis over an explicit graph ==========================
 * A node's moves are its children in the graph, plus what leaves the graph
 * (captures, promotions), summed up as one exit code: the best value such a
 * move gives the mover, CODE_NONE when there is none. A node with no move
 * has its end as its exit (a loss in 0: -1; a stalemate: 0). A node is won
 * in d when its best way to a lost child is d, lost in d when every move
 * leads to a win, the longest making d. Nodes are settled in the order of
 * their distances; what is never settled is a draw. */
typedef struct graph {
    int n;
    int *first, *child;   /* children, a compressed list: first[n + 1] */
    int *exit;            /* exit codes */
} graph_t;

typedef struct ivec { int *a; int n, cap; } ivec_t;

static int ivec_push(ivec_t *v, int x)
{
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 256;
        int *a = realloc(v->a, (size_t)cap * sizeof *a);
        if (!a) return -1;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return 0;
}

enum { MAX_DIST = 1000 };

/* Fills val (n codes) and *maxd, the longest decisive distance. */
static int retro_solve(const graph_t *g, int16_t *val, int *maxd)
{
    int n = g->n, edges = g->first[n], rc = -1;
    int *pfirst = calloc((size_t)n + 1, sizeof *pfirst), *parent = malloc(((size_t)edges + 1) * sizeof *parent);
    int *left = malloc((size_t)n * sizeof *left), *worst = malloc((size_t)n * sizeof *worst);
    uint8_t *done = calloc((size_t)n, 1);
    ivec_t *bucket = calloc(MAX_DIST + 2, sizeof *bucket);
    if (!pfirst || !parent || !left || !worst || !done || !bucket) goto out;
    for (int e = 0; e < edges; e++) pfirst[g->child[e] + 1]++;
    for (int i = 0; i < n; i++) pfirst[i + 1] += pfirst[i];
    memcpy(left, pfirst, (size_t)n * sizeof *left);   /* (a fill pointer for now) */
    for (int i = 0; i < n; i++)
        for (int e = g->first[i]; e < g->first[i + 1]; e++) parent[left[g->child[e]]++] = i;
    *maxd = 0;
    for (int i = 0; i < n; i++) {
        val[i] = 0;
        left[i] = g->first[i + 1] - g->first[i];
        int x = g->exit[i];
        worst[i] = x != CODE_NONE && x < 0 ? x : 0;
        if (x != CODE_NONE && x > 0 && (x - 1 > MAX_DIST || ivec_push(&bucket[x - 1], 2 * i + 1))) goto out;
        if (!left[i] && x != CODE_NONE && x < 0 && (-x - 1 > MAX_DIST || ivec_push(&bucket[-x - 1], 2 * i))) goto out;
    }
    for (int d = 0; d <= MAX_DIST; d++) {
        for (int k = 0; k < bucket[d].n; k++) {
            int x = bucket[d].a[k] >> 1, win = bucket[d].a[k] & 1;
            if (done[x]) continue;
            done[x] = 1;
            val[x] = (int16_t)(win ? d + 1 : -(d + 1));
            if (d > *maxd) *maxd = d;
            for (int e = pfirst[x]; e < pfirst[x + 1]; e++) {
                int y = parent[e];
                if (done[y]) continue;
                if (!win) {
                    if (d + 1 > MAX_DIST || ivec_push(&bucket[d + 1], 2 * y + 1)) goto out;
                    continue;
                }
                if (-(d + 2) < worst[y]) worst[y] = -(d + 2);
                int ex = g->exit[y];
                if (--left[y] == 0 && (ex == CODE_NONE || ex < 0)) {
                    int dd = -worst[y] - 1;
                    if (dd > MAX_DIST || ivec_push(&bucket[dd], 2 * y)) goto out;
                }
            }
        }
        free(bucket[d].a);
        bucket[d].a = NULL;
    }
    rc = 0;
out:
    if (bucket)
        for (int d = 0; d <= MAX_DIST + 1; d++) free(bucket[d].a);
    free(bucket);
    free(done);
    free(worst);
    free(left);
    free(parent);
    free(pfirst);
    return rc;
}

/* ==== values with a clock ===================================================
 * A layer holds the codes of a table's positions at one clock, filled as
 * the recursion meets them; it is made only for a clock where some value
 * can differ from the one without the rule. */
#define LAYER_UNKNOWN INT16_MIN

static int16_t *layer_new(int n)
{
    int16_t *l = malloc((size_t)n * sizeof *l);
    if (l)
        for (int i = 0; i < n; i++) l[i] = LAYER_UNKNOWN;
    return l;
}

/* ==== chess ===============================================================
 * Squares 0-63, rank * 8 + file (a1 = 0, h8 = 63). A table holds the
 * positions of the two kings and one white piece of a kind; a black piece
 * is the board turned over (ranks mirrored, colours and the side to move
 * swapped). Its index: side to move << 18 | white king << 12 | black king
 * << 6 | the piece. K+B v K and K+N v K are drawn at once; K v K too. */
enum { PT_NONE, PT_Q, PT_R, PT_B, PT_N, PT_P };
enum { T_Q, T_R, T_P, NT };
#define CH_N (1 << 19)
#define CH_LIMIT 100

static const int tab_piece[NT] = { PT_Q, PT_R, PT_P };

typedef struct ctab {
    int16_t *val;                 /* codes without the rule */
    int16_t *layer[CH_LIMIT];     /* codes with the clock at k (LAYER_UNKNOWN: not known yet) */
    int maxd;
    int state;      /* 0 not built, 1 built, -1 failed (or a value beyond the rule) */
} ctab_t;

static ctab_t ctab[NT];

static int ch_file(int s) { return s & 7; }
static int ch_rank(int s) { return s >> 3; }
static int ch_dist(int a, int b)
{
    int df = abs(ch_file(a) - ch_file(b)), dr = abs(ch_rank(a) - ch_rank(b));
    return df > dr ? df : dr;
}
static int ch_idx(int stm, int wk, int bk, int xs) { return stm << 18 | wk << 12 | bk << 6 | xs; }

/* Whether a white piece of type pt on from attacks square to, the squares
 * in occ (a bit each) blocking its lines. */
static int ch_attacks(int pt, int from, int to, uint64_t occ)
{
    if (from == to) return 0;
    int df = ch_file(to) - ch_file(from), dr = ch_rank(to) - ch_rank(from);
    int adf = abs(df), adr = abs(dr);
    switch (pt) {
    case PT_P: return dr == 1 && adf == 1;
    case PT_N: return (adf == 1 && adr == 2) || (adf == 2 && adr == 1);
    case PT_R:
        if (df && dr) return 0;
        break;
    case PT_B:
        if (adf != adr) return 0;
        break;
    case PT_Q:
        if (df && dr && adf != adr) return 0;
        break;
    default: return 0;
    }
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    for (int f = ch_file(from) + sf, r = ch_rank(from) + sr; f != ch_file(to) || r != ch_rank(to); f += sf, r += sr)
        if (occ >> (r * 8 + f) & 1) return 0;
    return 1;
}

/* Whether the position (white piece pt on xs, or none: xs < 0) is legal. */
static int ch_legal(int pt, int stm, int wk, int bk, int xs)
{
    if (wk == bk || ch_dist(wk, bk) < 2) return 0;
    if (xs < 0) return 1;
    if (xs == wk || xs == bk) return 0;
    if (pt == PT_P && (ch_rank(xs) == 0 || ch_rank(xs) == 7)) return 0;
    if (stm == 0 && ch_attacks(pt, xs, bk, 1ull << wk)) return 0;   /* Black, not to move, in check */
    return 1;
}

/* A move: to table t's position idx, or t < 0: to a drawn position
 * (insufficient material); conv: a capture or a pawn move. */
typedef struct cmove { int t, idx, conv; } cmove_t;

/* The legal moves of table t's legal position idx; *check: the side to
 * move is in check. */
static int ch_moves(int t, int idx, cmove_t *m, int *check)
{
    int pt = tab_piece[t], stm = idx >> 18, wk = idx >> 12 & 63, bk = idx >> 6 & 63, xs = idx & 63, n = 0;
    static const int kd[8][2] = { { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, -1 }, { 0, 1 }, { 1, -1 }, { 1, 0 }, { 1, 1 } };
    *check = 0;
    if (stm == 0) {
        for (int i = 0; i < 8; i++) {
            int f = ch_file(wk) + kd[i][0], r = ch_rank(wk) + kd[i][1], to = r * 8 + f;
            if (f < 0 || f > 7 || r < 0 || r > 7 || to == xs || ch_dist(to, bk) < 2) continue;
            m[n++] = (cmove_t){ t, ch_idx(1, to, bk, xs), 0 };
        }
        if (pt == PT_P) {
            int to = xs + 8;
            if (to == wk || to == bk) return n;
            if (ch_rank(to) == 7) {
                m[n++] = (cmove_t){ T_Q, ch_idx(1, wk, bk, to), 1 };
                m[n++] = (cmove_t){ T_R, ch_idx(1, wk, bk, to), 1 };
                m[n++] = (cmove_t){ -1, 0, 1 };   /* to a bishop */
                m[n++] = (cmove_t){ -1, 0, 1 };   /* to a knight */
                return n;
            }
            m[n++] = (cmove_t){ t, ch_idx(1, wk, bk, to), 1 };
            if (ch_rank(xs) == 1 && to + 8 != wk && to + 8 != bk) m[n++] = (cmove_t){ t, ch_idx(1, wk, bk, to + 8), 1 };
            return n;
        }
        /* the queen or rook along its lines, up to a king */
        for (int i = 0; i < 8; i++) {
            if (pt == PT_R && kd[i][0] && kd[i][1]) continue;
            for (int f = ch_file(xs) + kd[i][0], r = ch_rank(xs) + kd[i][1]; f >= 0 && f < 8 && r >= 0 && r < 8;
                 f += kd[i][0], r += kd[i][1]) {
                int to = r * 8 + f;
                if (to == wk || to == bk) break;
                m[n++] = (cmove_t){ t, ch_idx(1, wk, bk, to), 0 };
            }
        }
        return n;
    }
    *check = ch_attacks(pt, xs, bk, 1ull << wk);
    for (int i = 0; i < 8; i++) {
        int f = ch_file(bk) + kd[i][0], r = ch_rank(bk) + kd[i][1], to = r * 8 + f;
        if (f < 0 || f > 7 || r < 0 || r > 7 || ch_dist(to, wk) < 2) continue;
        if (to == xs) m[n++] = (cmove_t){ -1, 0, 1 };   /* takes the piece: K v K */
        else if (!ch_attacks(pt, xs, to, 1ull << wk)) m[n++] = (cmove_t){ t, ch_idx(0, wk, to, xs), 0 };
    }
    return n;
}

/* Table t without the rule (the tables it promotes to are built first). */
static int ch_build(int t)
{
    if (ctab[t].state) return ctab[t].state > 0 ? 0 : -1;
    ctab[t].state = -1;
    if (t == T_P && (ch_build(T_Q) || ch_build(T_R))) return -1;
    graph_t g = { CH_N, malloc((CH_N + 1) * sizeof(int)), NULL, malloc(CH_N * sizeof(int)) };
    int cap = 1 << 22, edges = 0, rc = -1;
    g.child = malloc((size_t)cap * sizeof *g.child);
    ctab[t].val = malloc(CH_N * sizeof *ctab[t].val);
    if (!g.first || !g.child || !g.exit || !ctab[t].val) goto out;
    cmove_t m[64];
    for (int i = 0; i < CH_N; i++) {
        g.first[i] = edges;
        g.exit[i] = CODE_NONE;
        if (!ch_legal(tab_piece[t], i >> 18, i >> 12 & 63, i >> 6 & 63, i & 63)) continue;
        int check, n = ch_moves(t, i, m, &check);
        if (!n) g.exit[i] = check ? -1 : 0;   /* checkmated: lost in 0; stalemate */
        for (int k = 0; k < n; k++) {
            if (m[k].t == t) {
                if (edges == cap) {
                    int *c = realloc(g.child, (size_t)(cap *= 2) * sizeof *c);
                    if (!c) goto out;
                    g.child = c;
                }
                g.child[edges++] = m[k].idx;
            } else {
                int c = m[k].t < 0 ? 0 : ctab[m[k].t].val[m[k].idx];
                g.exit[i] = code_best(g.exit[i], code_up(c));
            }
        }
    }
    g.first[CH_N] = edges;
    if (retro_solve(&g, ctab[t].val, &ctab[t].maxd)) goto out;
    /* the clock-0 values are the ones without the rule only when every
       decisive one fits in the rule's length */
    if (ctab[t].maxd > CH_LIMIT) goto out;
    ctab[t].state = 1;
    rc = 0;
out:
    free(g.first);
    free(g.child);
    free(g.exit);
    return rc;
}

/* Table t's position idx with k plies on the clock. */
static int ch_value(int t, int idx, int k, int *code)
{
    int c0 = ctab[t].val[idx];
    if (k >= CH_LIMIT) { *code = c0 == -1 ? -1 : 0; return 0; }   /* only checkmate beats the rule */
    if (c0 == 0 || abs(c0) - 1 <= CH_LIMIT - k) { *code = c0; return 0; }
    int16_t **layer = &ctab[t].layer[k];
    if (!*layer && !(*layer = layer_new(CH_N))) return -1;
    if ((*layer)[idx] != LAYER_UNKNOWN) { *code = (*layer)[idx]; return 0; }
    cmove_t m[64];
    int check, n = ch_moves(t, idx, m, &check), best = CODE_NONE;
    for (int i = 0; i < n; i++) {
        int c = 0;
        if (m[i].t >= 0 && ch_value(m[i].t, m[i].idx, m[i].conv ? 0 : k + 1, &c)) return -1;
        best = code_best(best, code_up(c));
    }
    if (best == CODE_NONE) best = c0;   /* (no move: the end, already in c0) */
    *code = (*layer)[idx] = (int16_t)best;
    return 0;
}

/* Reads a non-negative number; -1 if none or too large. */
static long read_num(const char **s)
{
    long v = 0;
    if (!isdigit((unsigned char)**s)) return -1;
    while (isdigit((unsigned char)**s)) {
        v = v * 10 + (**s - '0');
        if (v > 1000000) return -1;
        (*s)++;
    }
    return v;
}

int brute_chess(const char *fen, brute_value_t *out)
{
    if (!fen || !out) return -1;
    int wk = -1, bk = -1, xs = -1, xpt = PT_NONE, xblack = 0, kings[2] = { 0, 0 }, others = 0;
    const char *s = fen;
    while (*s == ' ') s++;
    for (int r = 7; r >= 0; r--) {
        int f = 0;
        while (f < 8) {
            char c = *s++;
            if (c >= '1' && c <= '8') {
                f += c - '0';
                if (f > 8) return -1;
                continue;
            }
            const char *p = c ? strchr("KQRBNPkqrbnp", c) : NULL;
            if (!p) return -1;
            int sq = r * 8 + f++, black = islower((unsigned char)c) != 0, up = toupper((unsigned char)c);
            if (up == 'K') {
                if (kings[black]++) return -1;
                if (black) bk = sq;
                else wk = sq;
                continue;
            }
            if (others++) return -1;   /* more than three pieces */
            xs = sq;
            xblack = black;
            xpt = up == 'Q' ? PT_Q : up == 'R' ? PT_R : up == 'B' ? PT_B : up == 'N' ? PT_N : PT_P;
        }
        if (r > 0 && *s++ != '/') return -1;
    }
    if (!kings[0] || !kings[1]) return -1;
    if (*s++ != ' ') return -1;
    int stm = *s == 'w' ? 0 : *s == 'b' ? 1 : -1;
    if (stm < 0) return -1;
    s++;
    if (strncmp(s, " - - ", 5)) return -1;   /* no castling rights, no en passant */
    s += 5;
    long clock = read_num(&s);
    if (clock < 0 || clock > CH_LIMIT || *s++ != ' ') return -1;
    long move = read_num(&s);
    if (move < 1) return -1;
    while (*s == ' ' || *s == '\n') s++;
    if (*s) return -1;
    /* a black piece: the board turned over */
    if (xs >= 0 && xblack) {
        int w = wk;
        wk = bk ^ 56;
        bk = w ^ 56;
        xs ^= 56;
        stm = !stm;
    }
    if (!ch_legal(xpt, stm, wk, bk, xs)) return -1;
    if (xpt == PT_NONE || xpt == PT_B || xpt == PT_N) {   /* insufficient material */
        *out = code_value(0);
        return 0;
    }
    int t = xpt == PT_Q ? T_Q : xpt == PT_R ? T_R : T_P, code;
    if (ch_build(t) || ch_value(t, ch_idx(stm, wk, bk, xs), (int)clock, &code)) return -1;
    *out = code_value(code);
    return 0;
}

/* ==== checkers ============================================================
 * Squares 0-31 are 1-32 of the standard numbering: row r = sq / 4 from
 * Black's side, Black's men move towards row 7 (29-32) and crown there,
 * White's towards row 0 (1-4). A position with no legal move is lost; a
 * capture is forced, a jump goes on while it can, a man that crowns ends
 * its move. */
#define CK_KEYS (2 * 129 * 129 * 129)
#define CK_LIMIT 80

static struct {
    int n;
    uint8_t (*board)[32];
    uint8_t *side, *capture;
    int32_t *node_of;   /* a position's key to its node + 1 */
    int16_t *val;       /* codes without the rule */
    int16_t *layer[CK_LIMIT];   /* codes with q quiet plies (LAYER_UNKNOWN: not known yet) */
    int maxd;
    int state;          /* 0 not built, 1 built, -1 failed */
} ck;

static int ck_row(int sq) { return sq / 4; }
static int ck_col(int sq) { return 2 * (sq % 4) + (ck_row(sq) % 2 == 0); }
static int ck_sq(int r, int c) { return r < 0 || r > 7 || c < 0 || c > 7 ? -1 : r * 4 + c / 2; }
static int ck_black(int p) { return p == BRUTE_CK_BM || p == BRUTE_CK_BK; }
static int ck_crowns(int p, int sq)
{
    return (p == BRUTE_CK_BM && ck_row(sq) == 7) || (p == BRUTE_CK_WM && ck_row(sq) == 0);
}

/* The key of a board: its pieces in square order, 7 bits each plus one,
 * at most 3 of them. */
static int ck_key(const uint8_t *b, int side)
{
    int k = 0, mul = 1;
    for (int sq = 0; sq < 32; sq++)
        if (b[sq]) { k += mul * (sq * 4 + b[sq]); mul *= 129; }
    return 2 * k + side;
}

static void ck_out(brute_ck_moves_t *m, const uint8_t *b, int conv)
{
    if (m->n < 64) {
        memcpy(m->out[m->n], b, 32);
        m->conv[m->n++] = (uint8_t)conv;
    }
}

/* The jumps on from (r, c) of the piece p, b having taken what it jumped;
 * took: whether one was taken yet (then a stop is a move). */
static void ck_jumps(uint8_t *b, int r, int c, int p, int took, brute_ck_moves_t *m)
{
    int any = 0;
    for (int dr = -1; dr <= 1; dr += 2) {
        if ((p == BRUTE_CK_BM && dr < 0) || (p == BRUTE_CK_WM && dr > 0)) continue;
        for (int dc = -1; dc <= 1; dc += 2) {
            int over = ck_sq(r + dr, c + dc), to = ck_sq(r + 2 * dr, c + 2 * dc);
            if (over < 0 || to < 0 || !b[over] || ck_black(b[over]) == ck_black(p) || b[to]) continue;
            any = 1;
            uint8_t keep = b[over];
            b[over] = 0;
            if (ck_crowns(p, to)) {   /* crowned: the move ends */
                b[to] = p == BRUTE_CK_BM ? BRUTE_CK_BK : BRUTE_CK_WK;
                ck_out(m, b, 1);
                b[to] = 0;
            } else {
                b[to] = (uint8_t)p;
                ck_jumps(b, 2 * dr + r, 2 * dc + c, p, 1, m);
                b[to] = 0;
            }
            b[over] = keep;
        }
    }
    if (!any && took) {
        b[ck_sq(r, c)] = (uint8_t)p;
        ck_out(m, b, 1);
        b[ck_sq(r, c)] = 0;
    }
}

void brute_ck_moves(const unsigned char b0[32], int side, brute_ck_moves_t *m, int *capture)
{
    uint8_t b[32];
    memcpy(b, b0, 32);
    m->n = 0;
    for (int sq = 0; sq < 32; sq++) {
        int p = b[sq];
        if (!p || ck_black(p) != (side == 0)) continue;
        b[sq] = 0;
        ck_jumps(b, ck_row(sq), ck_col(sq), p, 0, m);
        b[sq] = (uint8_t)p;
    }
    *capture = m->n > 0;
    if (*capture) return;
    for (int sq = 0; sq < 32; sq++) {
        int p = b[sq];
        if (!p || ck_black(p) != (side == 0)) continue;
        for (int dr = -1; dr <= 1; dr += 2) {
            if ((p == BRUTE_CK_BM && dr < 0) || (p == BRUTE_CK_WM && dr > 0)) continue;
            for (int dc = -1; dc <= 1; dc += 2) {
                int to = ck_sq(ck_row(sq) + dr, ck_col(sq) + dc);
                if (to < 0 || b[to] || m->n >= 64) continue;
                memcpy(m->out[m->n], b, 32);
                m->out[m->n][sq] = 0;
                m->out[m->n][to] =
                    (uint8_t)(ck_crowns(p, to) ? (p == BRUTE_CK_BM ? BRUTE_CK_BK : BRUTE_CK_WK) : p);
                m->conv[m->n++] = p == BRUTE_CK_BM || p == BRUTE_CK_WM;
            }
        }
    }
}

/* Every board of 0 to 3 pieces (no man on its own crowning row), both
 * sides to move, as nodes (or only counted: ck.board NULL): b, and b with
 * up to `left` more pieces on squares from `from` on. */
static void ck_add(uint8_t *b, int from, int left)
{
    for (int side = 0; side < 2; side++) {
        if (ck.board) {
            memcpy(ck.board[ck.n], b, 32);
            ck.side[ck.n] = (uint8_t)side;
            ck.node_of[ck_key(b, side)] = ck.n + 1;
        }
        ck.n++;
    }
    if (!left) return;
    for (int sq = from; sq < 32; sq++)
        for (int p = BRUTE_CK_BM; p <= BRUTE_CK_WK; p++) {
            if (ck_crowns(p, sq)) continue;
            b[sq] = (uint8_t)p;
            ck_add(b, sq + 1, left - 1);
            b[sq] = 0;
        }
}

static int ck_build(void)
{
    if (ck.state) return ck.state > 0 ? 0 : -1;
    ck.state = -1;
    uint8_t b[32] = { 0 };
    ck.n = 0;
    ck_add(b, 0, 3);   /* counted */
    int n = ck.n, cap = 8 * n, edges = 0, rc = -1;
    ck.board = malloc((size_t)n * sizeof *ck.board);
    ck.side = malloc((size_t)n);
    ck.capture = malloc((size_t)n);
    ck.val = malloc((size_t)n * sizeof *ck.val);
    ck.node_of = calloc(CK_KEYS, sizeof *ck.node_of);
    graph_t g = { n, malloc(((size_t)n + 1) * sizeof(int)), malloc((size_t)cap * sizeof(int)),
                  malloc((size_t)n * sizeof(int)) };
    brute_ck_moves_t *m = malloc(sizeof *m);
    if (!ck.board || !ck.side || !ck.capture || !ck.val || !ck.node_of || !g.first || !g.child || !g.exit || !m)
        goto out;
    ck.n = 0;
    ck_add(b, 0, 3);
    for (int i = 0; i < n; i++) {
        g.first[i] = edges;
        int c;
        brute_ck_moves(ck.board[i], ck.side[i], m, &c);
        if (m->n >= 64) goto out;   /* (never with 3 pieces) */
        ck.capture[i] = (uint8_t)c;
        g.exit[i] = m->n ? CODE_NONE : -1;   /* no move: lost in 0 */
        for (int k = 0; k < m->n; k++) {
            if (edges == cap) {
                int *e = realloc(g.child, (size_t)(cap *= 2) * sizeof *e);
                if (!e) goto out;
                g.child = e;
            }
            int node = ck.node_of[ck_key(m->out[k], !ck.side[i])] - 1;
            if (node < 0) goto out;
            g.child[edges++] = node;
        }
    }
    g.first[n] = edges;
    if (retro_solve(&g, ck.val, &ck.maxd) || ck.maxd > CK_LIMIT) goto out;
    ck.state = 1;
    rc = 0;
out:
    free(m);
    free(g.first);
    free(g.child);
    free(g.exit);
    return rc;
}

/* Node x with q quiet plies played. */
static int ck_value(int x, int q, int *code)
{
    int c0 = ck.val[x];
    if (q >= CK_LIMIT) { *code = c0 == -1 ? -1 : 0; return 0; }   /* no move at the limit: lost */
    if (c0 == 0 || abs(c0) - 1 <= CK_LIMIT - q) { *code = c0; return 0; }
    int16_t **layer = &ck.layer[q];
    if (!*layer && !(*layer = layer_new(ck.n))) return -1;
    if ((*layer)[x] != LAYER_UNKNOWN) { *code = (*layer)[x]; return 0; }
    brute_ck_moves_t *m = malloc(sizeof *m);
    if (!m) return -1;
    int capture, best = CODE_NONE;
    brute_ck_moves(ck.board[x], ck.side[x], m, &capture);
    for (int i = 0; i < m->n; i++) {
        int c, y = ck.node_of[ck_key(m->out[i], !ck.side[x])] - 1;
        if (y < 0 || ck_value(y, m->conv[i] ? 0 : q + 1, &c)) {
            free(m);
            return -1;
        }
        best = code_best(best, code_up(c));
    }
    free(m);
    if (best == CODE_NONE) best = c0;
    *code = (*layer)[x] = (int16_t)best;
    return 0;
}

/* One piece list of gsw's FEN ("WK10,11-13"): its squares into b. */
static int ck_parse_list(const char *s, const char *end, int black, uint8_t *b, int *pieces)
{
    while (s < end) {
        const char *stop = memchr(s, ',', (size_t)(end - s));
        if (!stop) stop = end;
        while (s < stop && isspace((unsigned char)*s)) s++;
        const char *e = stop;
        while (e > s && isspace((unsigned char)e[-1])) e--;
        int king = 0;
        if (s < e && (*s == 'K' || *s == 'k')) { king = 1; s++; }
        long a = read_num(&s), z = a;
        if (s < e && *s == '-') {
            s++;
            z = read_num(&s);
        }
        if (s != e || a < 1 || z < a || z > 32) return -1;
        for (long sq = a - 1; sq < z; sq++) {
            int p = black ? (king ? BRUTE_CK_BK : BRUTE_CK_BM) : (king ? BRUTE_CK_WK : BRUTE_CK_WM);
            if (b[sq] || ck_crowns(p, (int)sq) || ++*pieces > 3) return -1;
            b[sq] = (uint8_t)p;
        }
        if (stop < end && stop + 1 == end) return -1;   /* a comma with nothing after it */
        s = stop + 1;
    }
    return 0;
}

int brute_checkers(const char *fen, int quiet, brute_value_t *out)
{
    if (!fen || !out || quiet < 0 || quiet > CK_LIMIT) return -1;
    const char *s = fen, *end = fen + strlen(fen);
    while (s < end && isspace((unsigned char)*s)) s++;
    while (end > s && isspace((unsigned char)end[-1])) end--;
    if (end - s < 2 || s[1] != ':') return -1;
    int side = *s == 'B' || *s == 'b' ? 0 : *s == 'W' || *s == 'w' ? 1 : -1, have[2] = { 0, 0 }, pieces = 0;
    if (side < 0) return -1;
    uint8_t b[32] = { 0 };
    for (s += 2;;) {
        const char *next = memchr(s, ':', (size_t)(end - s)), *lend = next ? next : end;
        while (s < lend && isspace((unsigned char)*s)) s++;
        int black = s < lend && (*s == 'B' || *s == 'b'), white = s < lend && (*s == 'W' || *s == 'w');
        if ((!black && !white) || have[black]++) return -1;
        if (ck_parse_list(s + 1, lend, black, b, &pieces)) return -1;
        if (!next) break;
        s = next + 1;
    }
    if (!have[0] || !have[1]) return -1;
    if (ck_build()) return -1;
    int x = ck.node_of[ck_key(b, side)] - 1, code;
    if (x < 0 || ck_value(x, quiet, &code)) return -1;
    *out = code_value(code);
    return 0;
}

int brute_checkers_each(brute_ck_visit_fn *fn, void *ctx)
{
    if (ck_build()) return -1;
    for (int i = 0; i < ck.n; i++) fn(ctx, ck.board[i], ck.side[i], ck.capture[i], code_value(ck.val[i]));
    return 0;
}

void brute_free(void)
{
    for (int t = 0; t < NT; t++) {
        free(ctab[t].val);
        for (int k = 0; k < CH_LIMIT; k++) free(ctab[t].layer[k]);
        memset(&ctab[t], 0, sizeof ctab[t]);
    }
    for (int q = 0; q < CK_LIMIT; q++) free(ck.layer[q]);
    free(ck.board);
    free(ck.side);
    free(ck.capture);
    free(ck.node_of);
    free(ck.val);
    memset(&ck, 0, sizeof ck);
}
