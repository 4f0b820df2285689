/* The Connect Four engine, written once over a bitboard type and instantiated
 * twice: c4_64.c (BB = uint64_t, boards with w*(h+1) <= 64) and c4_128.c
 * (BB = unsigned __int128, up to 128). The including file defines BB, C4(x)
 * (name suffixing) and C4_OPS (the ops object's name). Each instantiation also
 * gets its own copy of the core's exact alpha-beta with these ops inlined.
 *
 * A position keeps the stones of the side to move (cur) and of both sides
 * (mask); a column's stones sit in consecutive bits from its bottom bit. */
#include <stdio.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "core/ab.h"
#include "games/connect4/c4.h"

typedef struct C4(pos) {
    BB cur, mask;
    int32_t moves;
    int32_t over;            /* the last move made four in a row */
    int32_t nowin;           /* known: the side to move has no immediate win */
} C4(pos_t);

#define D ((const c4v_t *)v->data)

/* Board dimensions: from the variant data, or compile-time constants when the
 * including file fixes them (C4_FIXED_W, C4_FIXED_H), which lets the compiler
 * fold every shift and mask as a hand-written 7x6 solver would. */
#ifdef C4_FIXED_W
#define C4_W(d) ((void)(d), C4_FIXED_W)
#define C4_H(d) ((void)(d), C4_FIXED_H)
#define C4_H1(d) ((void)(d), C4_FIXED_H + 1)
#define C4_CELLS(d) ((void)(d), C4_FIXED_W * C4_FIXED_H)
#define C4_BOTTOM(d) ((void)(d), C4(bottom_const)())
#define C4_BOARD(d) ((void)(d), C4(bottom_const)() * ((((BB)1) << C4_FIXED_H) - 1))
static inline BB C4(bottom_const)(void)
{
    BB b = 0;
    for (int c = 0; c < C4_FIXED_W; c++) b |= (BB)1 << (c * (C4_FIXED_H + 1));
    return b;
}
static const int C4(order_const)[C4_FIXED_W] = C4_FIXED_ORDER;
#define C4_ORDER(d) ((void)(d), C4(order_const))
#else
#define C4_W(d) ((d)->w)
#define C4_H(d) ((d)->h)
#define C4_H1(d) ((d)->h1)
#define C4_CELLS(d) ((d)->cells)
#define C4_BOTTOM(d) ((BB)(d)->bottom)
#define C4_BOARD(d) ((BB)(d)->board)
#define C4_ORDER(d) ((d)->order)
#endif

static inline int C4(popcount)(BB x)
{
#if C4_WORDS == 1
    return __builtin_popcountll(x);
#else
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
#endif
}

#define C4_BITS ((int)(8 * sizeof(BB)))
/* Shifts by a board-dependent amount, zero past the word (C leaves that undefined). */
static inline BB C4(shl)(BB x, int n) { return n < C4_BITS ? x << n : 0; }
static inline BB C4(shr)(BB x, int n) { return n < C4_BITS ? x >> n : 0; }

static inline BB C4(col_mask)(const c4v_t *d, int c) { return (((BB)1 << C4_H(d)) - 1) << (c * C4_H1(d)); }
static inline BB C4(top_bit)(const c4v_t *d, int c) { return (BB)1 << (c * C4_H1(d) + C4_H(d) - 1); }
static inline BB C4(bottom_bit)(const c4v_t *d, int c) { return (BB)1 << (c * C4_H1(d)); }

/* Does p hold four in a row in the direction of shift k? */
static inline int C4(aligned_dir)(BB p, int k)
{
    BB m = p & C4(shr)(p, k);
    return (m & C4(shr)(m, 2 * k)) != 0;
}

/* Does p hold four in a row? (Written out so constant sizes fold.) */
static inline int C4(aligned)(const c4v_t *d, BB p)
{
    return C4(aligned_dir)(p, 1) || C4(aligned_dir)(p, C4_H1(d)) || C4(aligned_dir)(p, C4_H(d))
        || C4(aligned_dir)(p, C4_H1(d) + 1);
}

/* Empty cells that complete a line of p in the direction of shift k:
 * written once for a board (T = BB) and for a vector of boards (ab_order),
 * SHL and SHR shifting a T. */
#ifndef C4_DEF_WINNING_DIR
#define C4_DEF_WINNING_DIR(name, T, SHL, SHR)   \
    static inline T name(T p, int k)            \
    {                                           \
        T q = SHL(p, k) & SHL(p, 2 * k);        \
        T r = q & SHL(p, 3 * k);                \
        r |= q & SHR(p, k);                     \
        q = SHR(p, k) & SHR(p, 2 * k);          \
        r |= q & SHL(p, k);                     \
        r |= q & SHR(p, 3 * k);                 \
        return r;                               \
    }
#endif
C4_DEF_WINNING_DIR(C4(winning_dir), BB, C4(shl), C4(shr))

/* Empty cells where one more stone of p makes four in a row. */
static inline BB C4(winning)(const c4v_t *d, BB p, BB mask)
{
    BB r = (p << 1) & (p << 2) & (p << 3);           /* vertical */
    r |= C4(winning_dir)(p, C4_H1(d));               /* horizontal */
    r |= C4(winning_dir)(p, C4_H(d));                /* diagonals */
    r |= C4(winning_dir)(p, C4_H1(d) + 1);
    return r & (C4_BOARD(d) ^ mask);
}

static inline BB C4(possible)(const c4v_t *d, BB mask) { return (mask + C4_BOTTOM(d)) & C4_BOARD(d); }

/* Mirror a board (or key) left to right. */
static inline BB C4(mirror)(const c4v_t *d, BB x)
{
    BB r = 0, cm = ((BB)1 << C4_H1(d)) - 1;
    for (int c = 0, m = C4_W(d) - 1; c < m; c++, m--) {
        r |= ((x >> (c * C4_H1(d))) & cm) << (m * C4_H1(d));
        r |= ((x >> (m * C4_H1(d))) & cm) << (c * C4_H1(d));
    }
    if (C4_W(d) & 1) r |= x & (cm << ((C4_W(d) / 2) * C4_H1(d)));
    return r;
}

static inline uint64_t C4(fold64)(BB x)
{
#if C4_WORDS == 1
    return x;
#else
    uint64_t a = (uint64_t)x, b = (uint64_t)(x >> 64);
    uint64_t h = a ^ (b * 0xff51afd7ed558ccdull);
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h;
#endif
}

/* ---- positions ---- */

static void C4(start)(const gv_t *v, void *pos)
{
    (void)v;
    memset(pos, 0, sizeof(C4(pos_t)));
}

static inline void C4(play_col)(const c4v_t *d, C4(pos_t) *p, int c)
{
    p->cur ^= p->mask;
    p->mask |= p->mask + C4(bottom_bit)(d, c);
    p->moves++;
    p->over = C4(aligned)(d, p->cur ^ p->mask);
    p->nowin = 0;
}

/* Play a move from ab_expand's list: it neither wins (ab_expand would have
 * settled the position) nor leaves the opponent a winning move. */
static void C4(ab_play)(const gv_t *v, void *pos, move_t m)
{
    C4(pos_t) *p = pos;
    p->cur ^= p->mask;
    p->mask |= p->mask + C4(bottom_bit)(D, (int)m);
    p->moves++;
    p->over = 0;
    p->nowin = 1;
}

static void C4(play)(const gv_t *v, void *pos, move_t m)
{
    C4(play_col)(D, pos, (int)m);
}

static void C4(undo)(const gv_t *v, void *pos, move_t m)
{
    C4(pos_t) *p = pos;
    BB col = p->mask & C4(col_mask)(D, (int)m);
    /* the top stone of the column: the highest set bit of col */
    BB top = col ^ (col >> 1 & col);
    p->mask ^= top;
    p->cur ^= p->mask;
    p->moves--;
    p->over = 0;
    p->nowin = 0;
}

static int C4(terminal)(const gv_t *v, const void *pos, val_t *value)
{
    const C4(pos_t) *p = pos;
    if (p->over) { *value = val_loss(0); return 1; }
    if (p->moves >= C4_CELLS(D)) { *value = VAL_DRAW; return 1; }
    return 0;
}

static int C4(moves)(const gv_t *v, const void *pos, move_t *out)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    if (p->over || p->moves >= C4_CELLS(d)) return 0;
    int n = 0;
    for (int i = 0; i < C4_W(d); i++) {
        int c = C4_ORDER(d)[i];
        if (!(p->mask & C4(top_bit)(d, c))) out[n++] = (move_t)c;
    }
    return n;
}

static int C4(pos_parse)(const gv_t *v, const char *text, void *pos, err_t *err)
{
    const c4v_t *d = D;
    C4(pos_t) *p = pos;
    memset(p, 0, sizeof *p);
    const char *s = text;
    int k = 0;
    while (*s) {
        int c = 0;
        if (C4_W(d) <= 9) {
            if (*s < '0' || *s > '9')
                return err_set(err, GSW_EINPUT, "bad character '%c' at offset %d of move string \"%s\" (expected columns 1-%d)",
                               *s, (int)(s - text), text, C4_W(d));
            c = *s++ - '0';
        } else {
            if (*s < '0' || *s > '9')
                return err_set(err, GSW_EINPUT, "bad character '%c' at offset %d of move string \"%s\" (expected comma-separated columns 1-%d)",
                               *s, (int)(s - text), text, C4_W(d));
            while (*s >= '0' && *s <= '9' && c < 1000) c = c * 10 + (*s++ - '0');
            if (*s == ',' && s[1]) s++;
            else if (*s && *s != ',')
                return err_set(err, GSW_EINPUT, "bad character '%c' at offset %d of move string \"%s\"", *s, (int)(s - text), text);
            else if (*s == ',') s++;
        }
        k++;
        if (c < 1 || c > C4_W(d))
            return err_set(err, GSW_EINPUT, "move %d: column %d is out of range 1-%d", k, c, C4_W(d));
        if (p->over)
            return err_set(err, GSW_EINPUT, "move %d (column %d) comes after the game ended at move %d", k, c, k - 1);
        if (p->mask & C4(top_bit)(d, c - 1))
            return err_set(err, GSW_EINPUT, "move %d: column %d is full", k, c);
        C4(play_col)(d, p, c - 1);
    }
    return GSW_OK;
}

/* Find a move order that produces the board (peeling top stones back). */
static int C4(unplay)(const c4v_t *d, BB cur, BB mask, int moves, int *out)
{
    if (moves == 0) return 1;
    BB mover = cur ^ mask;
    for (int i = C4_W(d) - 1; i >= 0; i--) {
        int c = C4_ORDER(d)[i];
        BB col = mask & C4(col_mask)(d, c);
        if (!col) continue;
        BB top = col ^ (col >> 1 & col);
        if (!(mover & top)) continue;
        BB pmask = mask ^ top, pcur = mover ^ top;
        if (C4(aligned)(d, pcur) || C4(aligned)(d, pcur ^ pmask)) continue;
        if (C4(unplay)(d, pcur, pmask, moves - 1, out)) { out[moves - 1] = c; return 1; }
    }
    return 0;
}

static void C4(pos_format)(const gv_t *v, const void *pos, char *buf, size_t n)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    int seq[128];
    size_t o = 0;
    buf[0] = '\0';
    if (!C4(unplay)(d, p->cur, p->mask, p->moves, seq)) {
        snprintf(buf, n, "?");
        return;
    }
    for (int i = 0; i < p->moves && o + 4 < n; i++)
        o += (size_t)snprintf(buf + o, n - o, C4_W(d) <= 9 ? "%d" : (i ? ",%d" : "%d"), seq[i] + 1);
}

static uint64_t C4(tt_key)(const gv_t *v, const void *pos, int *sym)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    BB k = p->cur + p->mask;
    /* mirror pairs matter early; past a third of the board they are rare and
     * the mirroring costs more than it saves (the key stays a function of
     * the position either way) */
    if (!*sym || p->moves * 3 > C4_CELLS(d)) { *sym = 0; return C4(fold64)(k); }
    BB m = C4(mirror)(d, k);
    *sym = m < k;
    return C4(fold64)(m < k ? m : k);
}

static size_t C4(pos_key)(const gv_t *v, const void *pos, uint8_t *key, int *sym)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    BB k = p->cur + p->mask, m = C4(mirror)(d, k);
    int s = m < k;
    if (sym) *sym = s;
    BB c = s ? m : k;
    for (size_t i = 0; i < sizeof(BB); i++) key[i] = (uint8_t)(c >> (8 * i));
    return sizeof(BB);
}

/* The key is cur + mask: a column of k stones holds 2^k - 1 + (the side
 * to move's stones), a number of k + 1 bits, so each column decodes alone. */
static int C4(pos_from_key)(const gv_t *v, const uint8_t *key, size_t klen, void *pos)
{
    const c4v_t *d = D;
    C4(pos_t) *p = pos;
    if (klen != sizeof(BB)) return 0;
    BB k = 0;
    for (size_t i = 0; i < sizeof(BB); i++) k |= (BB)key[i] << (8 * i);
    memset(p, 0, sizeof *p);
    BB all = 0;
    for (int c = 0; c < C4_W(d); c++) all |= C4(col_mask)(d, c) | C4(top_bit)(d, c) << 1;
    if ((k & ~all) || C4(mirror)(d, k) < k) return 0;   /* bits off the board, or not the canonical image */
    for (int c = 0; c < C4_W(d); c++) {
        BB col = C4(shr)(k, c * C4_H1(d)) & ((((BB)1) << C4_H1(d)) - 1);
        int n = 0;
        while (n < C4_H(d) && col >= ((((BB)1) << (n + 1)) - 1)) n++;   /* 2^n - 1 <= col < 2^(n+1) - 1 */
        if (col >= ((((BB)1) << (n + 1)) - 1)) return 0;
        BB m = ((((BB)1) << n) - 1);
        p->mask |= m << (c * C4_H1(d));
        p->cur |= (col - m) << (c * C4_H1(d));
        p->moves += n;
    }
    /* the side to move has half the stones, rounded down; only the last mover may have four */
    if (C4(popcount)(p->cur) != p->moves / 2 || C4(aligned)(d, p->cur)) return 0;
    p->over = C4(aligned)(d, p->cur ^ p->mask);
    return 1;
}

static uint64_t C4(pos_hash)(const gv_t *v, const void *pos)
{
    (void)v;
    const C4(pos_t) *p = pos;
    BB k = p->cur + p->mask;
#if C4_WORDS == 1
    k ^= k >> 29;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 32;
    return k;
#else
    return C4(fold64)(k);
#endif
}

static int C4(pos_symmetric)(const gv_t *v, const void *pos)
{
    const C4(pos_t) *p = pos;
    BB k = p->cur + p->mask;
    return C4(mirror)(D, k) == k;
}

static move_t C4(move_sym)(const gv_t *v, move_t m, int sym, int inverse)
{
    (void)inverse;   /* the mirror is its own inverse */
    return sym ? (move_t)(C4_W(D) - 1 - (int)m) : m;
}

static int C4(pos_ply)(const gv_t *v, const void *pos) { (void)v; return ((const C4(pos_t) *)pos)->moves; }
static int C4(pos_turn)(const gv_t *v, const void *pos) { (void)v; return ((const C4(pos_t) *)pos)->moves & 1; }

static int C4(move_parse)(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    char *end;
    long c = strtol(text, &end, 10);
    if (end == text || *end)
        return err_set(err, GSW_EINPUT, "bad move \"%s\": expected a column number 1-%d", text, C4_W(d));
    if (c < 1 || c > C4_W(d))
        return err_set(err, GSW_EINPUT, "column %ld is out of range 1-%d", c, C4_W(d));
    if (p->over || p->moves >= C4_CELLS(d))
        return err_set(err, GSW_EINPUT, "column %ld: the game is over", c);
    if (p->mask & C4(top_bit)(d, (int)c - 1))
        return err_set(err, GSW_EINPUT, "column %ld is full", c);
    *m = (move_t)(c - 1);
    return GSW_OK;
}

static void C4(move_format)(const gv_t *v, const void *pos, move_t m, char *buf, size_t n)
{
    (void)v; (void)pos;
    snprintf(buf, n, "%u", m + 1);
}

/* ---- the UI's view: row 0 is the top of the board ---- */

static void C4(view)(const gv_t *v, const void *pos, board_view_t *out)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    int w = C4_W(d), h = C4_H(d);
    out->rows = h;
    out->cols = w;
    out->drop = 1;
    snprintf(out->side[0], sizeof out->side[0], "Red");
    snprintf(out->side[1], sizeof out->side[1], "Yellow");
    out->tag_name[0] = 0;
    BB mine = p->moves & 1 ? p->mask ^ p->cur : p->cur;   /* the first player's stones */
    /* the last mover's fours (a game ends at its first, so they hold its last move) */
    BB last = p->mask ^ p->cur, four = 0;
    const int dir[4] = { 1, C4_H1(d), C4_H(d), C4_H1(d) + 1 };
    for (int k = 0; k < 4; k++) {
        BB s = last & C4(shr)(last, dir[k]) & C4(shr)(last, 2 * dir[k]) & C4(shr)(last, 3 * dir[k]);
        four |= s | C4(shl)(s, dir[k]) | C4(shl)(s, 2 * dir[k]) | C4(shl)(s, 3 * dir[k]);
    }
    for (int c = 0; c < w; c++) {
        snprintf(out->col_label[c], sizeof out->col_label[c], "%d", (c + 1) % 100);
        for (int r = 0; r < h; r++) {
            view_cell_t *cell = &out->cell[(h - 1 - r) * w + c];
            BB bit = (BB)1 << (c * C4_H1(d) + r);
            memset(cell, 0, sizeof *cell);
            if (!(p->mask & bit)) {
                cell->kind = VIEW_EMPTY;
                cell->ascii = '.';
                continue;
            }
            cell->kind = VIEW_PIECE;
            cell->owner = (mine & bit) ? 0 : 1;
            cell->ascii = cell->owner ? 'O' : 'X';
            cell->won = (four & bit) != 0;
            /* discs told apart by shape too, for monochrome screens */
            snprintf(cell->glyph, sizeof cell->glyph, "%s", cell->owner ? "\u25CB" : "\u25CF");
        }
    }
    for (int r = 0; r < h; r++) out->row_label[r][0] = 0;
}

/* A drop: no from-cell; it lands on the lowest empty cell of its column. */
static void C4(move_cells)(const gv_t *v, const void *pos, move_t m, int *from, int *to)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    int c = (int)m, r = C4(popcount)(p->mask & C4(col_mask)(d, c));
    *from = -1;
    *to = (C4_H(d) - 1 - r) * C4_W(d) + c;
}

/* ---- solver hooks ---- */

static int32_t C4(evaluate)(const gv_t *v, const void *pos)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    BB opp = p->cur ^ p->mask;
    BB mine_w = C4(winning)(d, p->cur, p->mask), opp_w = C4(winning)(d, opp, p->mask);
    int32_t s = 0;
    /* threats count most; low threats (soon playable) more */
    s += 40 * (C4(popcount)(mine_w) - C4(popcount)(opp_w));
    s += 60 * (C4(popcount)(mine_w & C4(possible)(d, p->mask)) - C4(popcount)(opp_w & C4(possible)(d, p->mask)));
    /* central stones take part in more lines */
    for (int c = 0; c < C4_W(d); c++) {
        int wgt = C4_W(d) / 2 - (c < C4_W(d) / 2 ? C4_W(d) / 2 - c : c - C4_W(d) / 2);
        s += wgt * 3 * (C4(popcount)(p->cur & C4(col_mask)(d, c)) - C4(popcount)(opp & C4(col_mask)(d, c)));
    }
    return s;
}

/* Empty cells in the even rows (2nd, 4th, ... from the bottom). */
static inline BB C4(even_rows)(const c4v_t *d)
{
    BB r = 0;
    for (int y = 1; y < C4_H(d); y += 2) r |= C4_BOTTOM(d) << y;
    return r;
}

/* The first cells (leftmost) of p's fours in the direction of shift k. */
static inline BB C4(fours_dir)(BB p, int k)
{
    BB m = p & C4(shr)(p, k);
    return m & C4(shr)(m, 2 * k);
}

/* The cells at least n rows above a cell of f, in its column. */
static inline BB C4(above)(const c4v_t *d, BB f, int n)
{
    for (int i = 1; i < n && f; i++) f = (f << 1) & C4_BOARD(d);
    BB r = 0;
    for (int i = 1; i < C4_H(d) && f; i++) {
        f = (f << 1) & C4_BOARD(d);
        r |= f;
    }
    return r;
}

/* Claimeven (below): may the side to move still make four first, when the
 * other side's follow-up gives it at most pcells and the other qcells?
 * A four of pcells is filled only after every cell below its own cells in
 * their columns; when those hold a whole four of qcells, that four was
 * completed first. So the side to move may win only by a four without
 * one of qcells underneath. A four lies under another only when it spans
 * the same four columns with every cell lower (its first cell r rows lower
 * at least, r by the two directions: 1 for the same direction, a horizontal
 * under a rising diagonal, or a falling one under either; 4 for a rising
 * diagonal under a horizontal, or a horizontal under a falling diagonal; 7
 * for a rising under a falling one). Vertical fours of pcells are not
 * judged (they may win). */
static inline int C4(may_win_first)(const c4v_t *d, BB pcells, BB qcells)
{
    if (C4(aligned_dir)(pcells, 1)) return 1;
    const int kh = C4_H1(d), ku = C4_H1(d) + 1, kd = C4_H(d);
    BB ph = C4(fours_dir)(pcells, kh), pu = C4(fours_dir)(pcells, ku), pd = C4(fours_dir)(pcells, kd);
    if (!(ph | pu | pd)) return 0;
    BB qh = C4(fours_dir)(qcells, kh), qu = C4(fours_dir)(qcells, ku), qd = C4(fours_dir)(qcells, kd);
    if (!(qh | qu | qd)) return 1;
    if (pu & ~C4(above)(d, qh | qu | qd, 1)) return 1;
    if (ph & ~(C4(above)(d, qh | qd, 1) | C4(above)(d, qu, 4))) return 1;
    if (pd & ~(C4(above)(d, qd, 1) | C4(above)(d, qh, 4) | C4(above)(d, qu, 7))) return 1;
    return 0;
}

/* Bounds from which cells each side can still get.
 * - A side that cannot make four even with every empty cell cannot win.
 * - Claimeven: on a board of even height with an even number of stones, the
 *   side not to move (Q) can answer every move so that it gets every empty
 *   cell of an even row that is not playable now (follow up in the same
 *   column; after a move into a column with an odd stone count, answer in
 *   another such column — there is always one, as their number is even). The
 *   side to move then gets at most the rest: if no four of the rest can be
 *   completed before one of Q's (may_win_first), it cannot win; if moreover
 *   Q's cells hold a four, Q wins. */
static inline void C4(bound_by_cells)(const c4v_t *d, const C4(pos_t) *p, val_t *lo, val_t *hi)
{
    BB empty = C4_BOARD(d) & ~p->mask, opp = p->cur ^ p->mask;
    int left = C4_CELLS(d) - p->moves;
    if (!C4(aligned)(d, p->cur | empty)) {
        if (*hi > VAL_DRAW) *hi = VAL_DRAW;
        if (!C4(aligned)(d, opp | empty)) { *lo = *hi = VAL_DRAW; return; }
    } else if (!C4(aligned)(d, opp | empty)) {
        if (*lo < VAL_DRAW) *lo = VAL_DRAW;
    }
    if ((C4_H(d) & 1) == 0 && (p->moves & 1) == 0) {
        BB playable = C4(possible)(d, p->mask);
        BB qcells = opp | (empty & C4(even_rows)(d) & ~playable);
        BB pcells = C4_BOARD(d) & ~qcells;
        if (!C4(may_win_first)(d, pcells, qcells)) {
            if (*hi > VAL_DRAW) *hi = VAL_DRAW;
            if (C4(aligned)(d, qcells) && *hi > val_loss(left)) *hi = val_loss(left);
        }
    }
    if (*lo > *hi) *lo = *hi;   /* only if a bound above was already tighter */
}

#if defined(C4_FIXED_W) && C4_WORDS == 1 && defined(__BMI2__)
/* For each set of columns (bit c: column c), its columns in the search's
 * order: ab_expand's move list in one copy. */
static move_t C4(cols_moves)[1 << C4_FIXED_W][C4_FIXED_W];
__attribute__((constructor)) static void C4(cols_moves_init)(void)
{
    for (unsigned set = 0; set < 1u << C4_FIXED_W; set++)
        for (int i = 0, n = 0; i < C4_FIXED_W; i++)
            if (set >> C4(order_const)[i] & 1) C4(cols_moves)[set][n++] = (move_t)C4(order_const)[i];
}
#endif

static int C4(ab_expand)(const gv_t *v, const void *pos, move_t *out, val_t *lo, val_t *hi)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    BB possible = C4(possible)(d, p->mask);
    if (!p->nowin && (C4(winning)(d, p->cur, p->mask) & possible)) { *lo = *hi = val_win(1); return 0; }
    BB opp = C4(winning)(d, p->cur ^ p->mask, p->mask);
    BB forced = possible & opp;
    if (forced) {
        if (forced & (forced - 1)) { *lo = *hi = val_loss(2); return 0; }
        possible = forced;
    }
    BB safe = possible & ~(opp >> 1);
    if (!safe) { *lo = *hi = val_loss(2); return 0; }
    if (p->moves >= C4_CELLS(d) - 2) { *lo = *hi = VAL_DRAW; return 0; }
    *lo = val_loss(4);
    *hi = val_win(3);
    /* at every ply: claimeven settles lines early as well (the positions
     * after 44 and 444, one thread, 1 GB: 55.3 M -> 54.2 M and 40.8 M ->
     * 40.3 M nodes, 4% faster; Test_L1_R1 and Test_L2_R2 as batches, 0.99
     * and 0.98 of the time with it gated at 3/8 of the board) */
    C4(bound_by_cells)(d, p, lo, hi);
#if defined(C4_FIXED_W) && C4_WORDS == 1 && defined(__BMI2__)
    /* the columns holding a safe cell, as a C4_FIXED_W-bit index: a
     * column's board bits plus its safe cell (at most one) carry into the
     * cell above the column */
    unsigned cols = (unsigned)_pext_u64((uint64_t)((safe + C4_BOARD(d)) & ~C4_BOARD(d)), (uint64_t)(C4_BOTTOM(d) << C4_FIXED_H));
    memcpy(out, C4(cols_moves)[cols], sizeof C4(cols_moves)[0]);
    return __builtin_popcount(cols);
#else
    int n = 0;
    for (int i = 0; i < C4_W(d); i++) {
        int c = C4_ORDER(d)[i];
        if (safe & C4(col_mask)(d, c)) out[n++] = (move_t)c;
    }
    return n;
#endif
}

/* Order the moves ab_expand gave: by the threats (cells completing four) the
 * move leaves, counting extra those right above a playable cell (the
 * opponent can never take the cell below) and, a little, those playable at
 * once; centre first among equals (a stable insertion sort of at most w
 * moves). Threats right above an opponent's threat do not count: the
 * opponent's would complete first. The weights 8/6/3 were chosen on node
 * counts: against threats alone they cut Test_L2_R2 (first 100 lines) from
 * 34.0k to 28.8k nodes per position and a 20-line sample of Test_L1_R2 from
 * 978k to 765k; other weights (4-8 for the second, 1-5 for the third) move
 * the counts by 1% at most. Dropping the useless threats took Test_L1_R1
 * from 3,130 to 3,009 nodes, Test_L2_R2's first 100 from 28.5k to 27.4k
 * and every 20th line of Test_L1_R2 from 683k to 635k. */
#if C4_WORDS == 1
/* Eight boards at once (GCC's vector extension: one AVX-512 register, or
 * two or four narrower ones), for the ordering's threats after each move. */
typedef uint64_t C4(vec_t) __attribute__((vector_size(64)));
/* Without AVX-512, GCC and Clang warn that passing such a vector changes
 * the ABI: these functions are static, with no ABI to keep. (GCC gives the
 * warning at the end of the file that includes this one: it stays off to
 * there.) */
#pragma GCC diagnostic ignored "-Wpsabi"

static inline C4(vec_t) C4(vshr)(C4(vec_t) x, int n) { return n < 64 ? x >> n : x ^ x; }
static inline C4(vec_t) C4(vshl)(C4(vec_t) x, int n) { return n < 64 ? x << n : x ^ x; }

C4_DEF_WINNING_DIR(C4(vwinning_dir), C4(vec_t), C4(vshl), C4(vshr))
#endif

static void C4(ab_order)(const gv_t *v, const void *pos, move_t *mv, int n)
{
    const C4(pos_t) *p = pos;
    const c4v_t *d = D;
    BB possible = C4(possible)(d, p->mask);
    /* a threat right above one of the opponent's can never be played out */
    BB useless = C4(winning)(d, p->cur ^ p->mask, p->mask) << 1;
    BB t[64], pl[64];   /* after each move: its threats, and the playable cells */
#if C4_WORDS == 1
    /* All the moves together: the same scores, and (--hash 64 --no-cache
     * --clear-hash, best of 3) Test_L1_R1 220 -> 199 us per position,
     * every 5th line of Test_L2_R2 1,349 -> 1,284 us, every 20th of
     * Test_L1_R2 46.3 -> 44.9 ms. */
    if (n <= 8) {
        C4(vec_t) m = { 0 };
        for (int i = 0; i < n; i++) m[i] = possible & C4(col_mask)(d, (int)mv[i]);
        C4(vec_t) pc = m | p->cur, pm = m | p->mask;
        C4(vec_t) vt = (pc << 1) & (pc << 2) & (pc << 3);
        vt |= C4(vwinning_dir)(pc, C4_H1(d));
        vt |= C4(vwinning_dir)(pc, C4_H(d));
        vt |= C4(vwinning_dir)(pc, C4_H1(d) + 1);
        vt &= (C4_BOARD(d) ^ pm) & ~useless;
        C4(vec_t) vpl = (pm + C4_BOTTOM(d)) & C4_BOARD(d);
        for (int i = 0; i < n; i++) { t[i] = vt[i]; pl[i] = vpl[i]; }
    } else
#endif
    for (int i = 0; i < n; i++) {
        BB m = possible & C4(col_mask)(d, (int)mv[i]);
        t[i] = C4(winning)(d, p->cur | m, p->mask | m) & ~useless;
        pl[i] = C4(possible)(d, p->mask | m);
    }
    int score[64];
    move_t in[64];
    memcpy(in, mv, (size_t)n * sizeof mv[0]);
    for (int i = 0; i < n; i++) {
        int sc = 8 * C4(popcount)(t[i]) + 6 * C4(popcount)(t[i] & (pl[i] << 1)) + 3 * C4(popcount)(t[i] & pl[i]);
        int j = i;
        while (j > 0 && score[j - 1] < sc) { score[j] = score[j - 1]; mv[j] = mv[j - 1]; j--; }
        score[j] = sc;
        mv[j] = in[i];
    }
}

static int C4(value_score)(const gv_t *v, const void *pos, val_t value, int *score)
{
    const C4(pos_t) *p = pos;
    int left = C4_CELLS(D) + 2 - p->moves;
    if (val_is_win(value)) *score = (left - val_plies(value)) / 2;
    else if (val_is_loss(value)) *score = -((left - val_plies(value)) / 2);
    else *score = 0;
    return 1;
}

static int C4(draw_plies)(const gv_t *v, const void *pos)
{
    return C4_CELLS(D) - ((const C4(pos_t) *)pos)->moves;
}

val_t C4(ab_exact)(ab_t *s, const void *pos, val_t alpha, val_t beta);

const game_ops_t C4_OPS = {
    .pos_size = sizeof(C4(pos_t)),
    .pos_start = C4(start),
    .pos_parse = C4(pos_parse),
    .pos_format = C4(pos_format),
    .pos_key = C4(pos_key),
    .pos_from_key = C4(pos_from_key),
    .pos_hash = C4(pos_hash),
    .pos_ply = C4(pos_ply),
    .pos_turn = C4(pos_turn),
    .moves = C4(moves),
    .play = C4(play),
    .undo = C4(undo),
    .move_parse = C4(move_parse),
    .move_format = C4(move_format),
    .terminal = C4(terminal),
    .evaluate = C4(evaluate),
    .ab_expand = C4(ab_expand),
    .ab_order = C4(ab_order),
    .ab_play = C4(ab_play),
    .tt_key = C4(tt_key),
    .pos_symmetric = C4(pos_symmetric),
    .nsym = 2,
    .move_sym = C4(move_sym),
    .move_kind = GAME_MOVE_DROP,   /* typed as its column's number, 1 to the width */
    .move_chars = "0123456789",
    .value_score = C4(value_score),
    .draw_plies = C4(draw_plies),
    .ab_exact_entry = C4(ab_exact),
    .view = C4(view),
    .move_cells = C4(move_cells),
};

#define AB_FN C4(ab_exact)
#define AB_OPS (&C4_OPS)
#ifdef C4_FIXED_W
#define AB_MAX_MOVES C4_FIXED_W
#else
#define AB_MAX_MOVES 64   /* columns: w * (h + 1) <= 128 with h >= 1 */
#endif
#define AB_MAX_POS sizeof(C4(pos_t))
#include "core/ab_exact.h"

#undef D
