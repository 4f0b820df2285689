/* Chess tablebases' indexing (core/retro.h): one slice per ending, named
 * by its material with the stronger side as White ("KRK", "KQKR"); a
 * position whose stronger side is Black is looked up as its colour-reversed
 * image (colours swapped, the board turned upside down, the other side to
 * move), which has the same value for the side to move.
 *
 * A slice holds both sides to move. Its index is
 *   side * half + kk * G + g
 * where kk numbers the kings' squares (below) and g is a mixed-radix number
 * over the other pieces' groups (White's queens, rooks, bishops, knights,
 * pawns, then Black's), each group a colex rank of its squares among 64
 * (pawns: the 48 squares of ranks 2 to 7).
 *
 * Symmetry is folded: a position and its images under the board's
 * symmetries that keep the rules (all eight without pawns, the mirror
 * a-file <-> h-file with pawns; castling rights are not covered) have one
 * index, that of the image whose kings kk numbers:
 *   - without pawns, the 462 pairs with White's king in the triangle
 *     a1-d1-d4 and, when it stands on the diagonal a1-h8, Black's king on
 *     or below it (kings apart). When both kings stand on that diagonal the
 *     position and its reflection in it are both numbered: the smaller
 *     index is the position's, and the other holds no position;
 *   - with pawns, the 1806 pairs with White's king on files a to d.
 * Some indices still hold no legal position (two pieces on a square, the
 * side not to move in check, the diagonal's larger twin): `legal` tells
 * them apart, they are stored as draws with no moves, and `weight` says how
 * many positions a legal index stands for (8 or 4 without pawns, 2 with).
 *
 * En passant: with pawns on both sides, a position whose side to move may
 * take en passant (ch_pos_t.ep set: the other side's pawn just stepped two
 * squares past an empty square that a pawn of the side to move attacks) is
 * a position of its own. Such endings have more indices after the 2 * half
 * above: for White to move, then for Black to move,
 *   ep_base[side] + (file * KK + kk) * G' + g'
 * where file is the ep square's, and g' numbers the groups as g does but
 * with the pawn that stepped (on the ep square's file, fourth rank from its
 * side) taken out of its group. Such an index is legal when its position
 * is and the ep right is one gsw's FEN parser keeps (the square passed is
 * empty, a pawn of the side to move attacks it); the square the pawn left
 * need not be empty, as the parser does not ask. Its only un-move is that
 * double step (when the square it left is empty), and it has every move of
 * the same position without the right plus the capture en passant. The
 * double step of a position leads to its ep index when the right arises;
 * so the plain position's un-moves skip a double step that would give the
 * right, and every un-move's position also stands for its ep image when
 * there is one. With pawns on one side only, no ep right can arise and the
 * index is as above.
 *
 * Not covered: castling rights. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/retro.h"
#include "games/chess/ch.h"

#define CHR_MAX_PIECES 5
#define CHR_GROUPS 10

/* The order pieces are named and indexed in, strongest first. */
static const int chr_order[5] = { CH_QUEEN, CH_ROOK, CH_BISHOP, CH_KNIGHT, CH_PAWN };
static const char chr_letter[7] = { '?', 'P', 'N', 'B', 'R', 'Q', 'K' };
static const int chr_worth[7] = { 0, 1, 3, 3, 5, 9, 0 };

/* Material: counts by colour and piece type (CH_PAWN..CH_QUEEN). */
typedef struct chr_mat {
    int n[2][7];
} chr_mat_t;

/* A slice id: 3 bits per count, White's pawn..queen in bits 0-14, Black's
 * in bits 15-29. */
static uint64_t chr_pack(const chr_mat_t *m)
{
    uint64_t id = 0;
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) id |= (uint64_t)m->n[c][t] << (c * 15 + (t - 1) * 3);
    return id;
}

static void chr_unpack(uint64_t id, chr_mat_t *m)
{
    memset(m, 0, sizeof *m);
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) m->n[c][t] = (int)(id >> (c * 15 + (t - 1) * 3) & 7);
}

static int chr_men(const chr_mat_t *m)
{
    int k = 0;
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) k += m->n[c][t];
    return k;
}

/* > 0 when White's material is the stronger: worth (1/3/3/5/9), then the
 * counts from queens down to pawns. */
static int chr_cmp(const chr_mat_t *m)
{
    int w = 0, b = 0;
    for (int t = CH_PAWN; t <= CH_QUEEN; t++) w += chr_worth[t] * m->n[0][t], b += chr_worth[t] * m->n[1][t];
    if (w != b) return w - b;
    for (int i = 0; i < 5; i++)
        if (m->n[0][chr_order[i]] != m->n[1][chr_order[i]]) return m->n[0][chr_order[i]] - m->n[1][chr_order[i]];
    return 0;
}

static void chr_swap(chr_mat_t *m)
{
    for (int t = 0; t < 7; t++) {
        int x = m->n[0][t];
        m->n[0][t] = m->n[1][t];
        m->n[1][t] = x;
    }
}

/* 1 if m is an ending the tablebases cover, in its canonical orientation. */
static int chr_covered(const chr_mat_t *m)
{
    if (chr_men(m) + 2 > CHR_MAX_PIECES) return 0;
    return chr_cmp(m) >= 0;
}

/* ---- the index's layout ---- */

static const uint64_t chr_binom[65][5] = {
#define B0(n) 1
#define B1(n) (uint64_t)(n)
#define B2(n) ((uint64_t)(n) * ((n) - 1) / 2)
#define B3(n) ((uint64_t)(n) * ((n) - 1) * ((n) - 2) / 6)
#define B4(n) ((uint64_t)(n) * ((n) - 1) * ((n) - 2) * ((n) - 3) / 24)
#define ROW(n) { B0(n), B1(n), (n) >= 2 ? B2(n) : 0, (n) >= 3 ? B3(n) : 0, (n) >= 4 ? B4(n) : 0 }
#define R8(n) ROW(n), ROW(n + 1), ROW(n + 2), ROW(n + 3), ROW(n + 4), ROW(n + 5), ROW(n + 6), ROW(n + 7)
    R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56), ROW(64)
#undef R8
#undef ROW
#undef B4
#undef B3
#undef B2
#undef B1
#undef B0
};

/* ---- the board's symmetries ---- */

enum { CHR_FILES, CHR_RANKS, CHR_DIAGONAL };   /* a <-> h, 1 <-> 8, a1-h8 */

static inline int chr_sq_turn(int sq, int op)
{
    return op == CHR_FILES ? sq ^ 7 : op == CHR_RANKS ? sq ^ 56 : (sq & 7) << 3 | sq >> 3;
}

static inline uint64_t chr_bb_turn(uint64_t x, int op)
{
    if (op == CHR_RANKS) return __builtin_bswap64(x);
    if (op == CHR_FILES) {
        x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
        x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
        return (x >> 4 & 0x0f0f0f0f0f0f0f0full) | (x & 0x0f0f0f0f0f0f0f0full) << 4;
    }
    uint64_t t = 0x0f0f0f0f00000000ull & (x ^ x << 28);
    x ^= t ^ t >> 28;
    t = 0x3333000033330000ull & (x ^ x << 14);
    x ^= t ^ t >> 14;
    t = 0x5500550055005500ull & (x ^ x << 7);
    return x ^ t ^ t >> 7;
}

/* The turns of ops (bits: 1 a <-> h, 2 1 <-> 8, 4 a1-h8), in that order. */
enum { CHR_OP_FILES = 1, CHR_OP_RANKS = 2, CHR_OP_DIAGONAL = 4 };

static inline int chr_sq_ops(int sq, int ops)
{
    if (ops & CHR_OP_FILES) sq ^= 7;
    if (ops & CHR_OP_RANKS) sq ^= 56;
    return ops & CHR_OP_DIAGONAL ? chr_sq_turn(sq, CHR_DIAGONAL) : sq;
}

/* A bitboard turned by ops, square by square from a table (a group holds
 * at most three pieces: three table reads cost less than three turns of
 * the whole bitboard). */
static uint8_t chr_sq_op_table[8][64];

static void chr_sq_op_init(void)
{
    for (int ops = 0; ops < 8; ops++)
        for (int sq = 0; sq < 64; sq++) chr_sq_op_table[ops][sq] = (uint8_t)chr_sq_ops(sq, ops);
}

static inline uint64_t chr_sqs_ops(uint64_t b, int ops)
{
    if (!ops) return b;
    uint64_t t = 0;
    for (; b; b &= b - 1) t |= 1ull << chr_sq_op_table[ops][__builtin_ctzll(b)];
    return t;
}

/* ---- the kings' pairs (the header's kk) ---- */

typedef struct chr_kk {
    int n;
    int16_t idx[64][64];   /* [wk][bk]: kk, or -1 */
    uint8_t wk[1806], bk[1806];
} chr_kk_t;

static chr_kk_t chr_kk[2];   /* [0] without pawns, [1] with */
static pthread_once_t chr_kk_once = PTHREAD_ONCE_INIT;

static inline int chr_on_diag(int sq) { return (sq >> 3) == (sq & 7); }

static void chr_kk_init(void)
{
    chr_sq_op_init();
    for (int fold = 0; fold < 2; fold++) {
        chr_kk_t *t = &chr_kk[fold];
        t->n = 0;
        for (int wk = 0; wk < 64; wk++)
            for (int bk = 0; bk < 64; bk++) {
                int wf = wk & 7, wr = wk >> 3, df = (bk & 7) - wf, dr = (bk >> 3) - wr;
                int ok = wf <= 3 && (df < -1 || df > 1 || dr < -1 || dr > 1);
                if (ok && fold == 0) ok = wr <= wf && (wr < wf || (bk >> 3) <= (bk & 7));
                t->idx[wk][bk] = (int16_t)(ok ? t->n : -1);
                if (ok) t->wk[t->n] = (uint8_t)wk, t->bk[t->n] = (uint8_t)bk, t->n++;
            }
    }
}

typedef struct chr_layout {
    int ng;
    int color[CHR_GROUPS], type[CHR_GROUPS], k[CHR_GROUPS];
    uint64_t size[CHR_GROUPS];
    const chr_kk_t *kk;  /* the kings' pairs: chr_kk[pawnful] */
    int pawnful;       /* pawns of either side: only the mirror a <-> h is folded */
    uint64_t g;        /* the groups' placements */
    uint64_t mul[CHR_GROUPS];   /* a group's rank's weight in them: the sizes of the groups after it */
    uint64_t half;     /* positions with one side to move: kk->n * g */
    int pawns[2];      /* the group of each colour's pawns; -1: none */
    /* ep indices (pawns on both sides), by the side to move: the groups'
       placements without the pawn that stepped, the first index */
    uint64_t epg[2], ep_base[2];
    uint64_t total;    /* every index */
    int8_t group[2][7]; /* the group of (colour, type); -1: none */
} chr_layout_t;

static void chr_layout(const chr_mat_t *m, chr_layout_t *l)
{
    pthread_once(&chr_kk_once, chr_kk_init);
    l->ng = 0;
    l->g = 1;
    l->pawns[0] = l->pawns[1] = -1;
    memset(l->group, -1, sizeof l->group);
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 5; i++) {
            int t = chr_order[i], k = m->n[c][t];
            if (!k) continue;
            int g = l->ng++;
            l->color[g] = c;
            l->type[g] = t;
            l->k[g] = k;
            l->size[g] = chr_binom[t == CH_PAWN ? 48 : 64][k];
            l->g *= l->size[g];
            l->group[c][t] = (int8_t)g;
            if (t == CH_PAWN) l->pawns[c] = g;
        }
    l->pawnful = l->pawns[0] >= 0 || l->pawns[1] >= 0;
    l->kk = &chr_kk[l->pawnful];
    l->half = (uint64_t)l->kk->n * l->g;
    l->total = 2 * l->half;
    for (int g = l->ng - 1; g >= 0; g--) l->mul[g] = g == l->ng - 1 ? 1 : l->mul[g + 1] * l->size[g + 1];
    for (int s = 0; s < 2; s++) {
        l->epg[s] = l->ep_base[s] = 0;
        if (l->pawns[0] < 0 || l->pawns[1] < 0) continue;
        int gp = l->pawns[s ^ 1];   /* (the side that stepped is the other) */
        l->epg[s] = l->g / l->size[gp] * chr_binom[48][l->k[gp] - 1];
        l->ep_base[s] = l->total;
        l->total += 8 * (uint64_t)l->kk->n * l->epg[s];
    }
}

/* ---- a position's image under the board's symmetries ---- */

/* The kings, the groups' squares and the ep square (CH_NOSQ: none). */
typedef struct chr_img {
    int wk, bk, ep;
    uint64_t bb[CHR_GROUPS];
} chr_img_t;


/* For side s to move with an ep right on file f: the square passed, and
 * the square of the pawn that passed it. */
static inline int chr_ep_square(int s, int f) { return s == CH_WHITE ? 40 + f : 16 + f; }
static inline int chr_ep_pawn(int s, int ep) { return s == CH_WHITE ? ep - 8 : ep + 8; }

/* 1 when p's ep right (p->ep, set) is one gsw keeps: on the right rank,
 * the other side's pawn beyond it, the square itself empty, and a pawn of
 * the side to move attacking it (as the FEN parser and ch_play ask). */
static int chr_ep_ok(const ch_pos_t *p)
{
    int s = p->side, e = p->ep;
    if (e >= 64 || e / 8 != (s == CH_WHITE ? 5 : 2)) return 0;
    return !p->sq[e] && p->sq[chr_ep_pawn(s, e)] == ch_pc(s ^ 1, CH_PAWN) &&
           (ch_pawn_att(s ^ 1, e) & p->color[s] & p->type[CH_PAWN]) != 0;
}

/* Squares of a group in its own numbering (pawns: 0..47 for a2..h7). */
static inline int chr_gsq(int type, int sq) { return type == CH_PAWN ? sq - 8 : sq; }
static inline int chr_bsq(int type, int g) { return type == CH_PAWN ? g + 8 : g; }

/* The colex rank of the set bits of b (k of them, in group numbering). */
static uint64_t chr_rank(uint64_t b, int type)
{
    uint64_t r = 0;
    for (int i = 1; b; b &= b - 1, i++) r += chr_binom[chr_gsq(type, __builtin_ctzll(b))][i];
    return r;
}

/* The index of the image of groups bb (group dg's bits dbb flipped; dg
 * -1: none) turned by ops, with kings wk, bk and ep square as turned
 * (numbered by kk), side s to move. */
static uint64_t chr_img_index(const chr_layout_t *l, const uint64_t *bb, int dg, uint64_t dbb, int ops, int wk,
                              int bk, int ep, int s)
{
    uint64_t r = (uint64_t)l->kk->idx[wk][bk];
    if (ep == CH_NOSQ) {
        for (int g = 0; g < l->ng; g++)
            r = r * l->size[g] + chr_rank(chr_sqs_ops(bb[g] ^ (g == dg ? dbb : 0), ops), l->type[g]);
        return (uint64_t)s * l->half + r;
    }
    int epg = l->pawns[s ^ 1];
    r += (uint64_t)(ep & 7) * (uint64_t)l->kk->n;
    for (int g = 0; g < l->ng; g++) {
        uint64_t b = chr_sqs_ops(bb[g] ^ (g == dg ? dbb : 0), ops);
        if (g != epg) r = r * l->size[g] + chr_rank(b, l->type[g]);
        else r = r * chr_binom[48][l->k[g] - 1] + chr_rank(b & ~(1ull << chr_ep_pawn(s, ep)), l->type[g]);
    }
    return l->ep_base[s] + r;
}

/* The index of p, whose material m is in canonical orientation (an ep
 * right, when p has one, must pass chr_ep_ok): that of its image whose
 * kings kk numbers (the smaller of two on the diagonal). *sym (may be
 * NULL): 1 when the index is an image's. UINT64_MAX: no index holds p
 * (kings touching). */
static uint64_t chr_img_encode_d(const chr_layout_t *l, const uint64_t *bb, int dg, uint64_t dbb, int wk, int bk,
                                 int ep0, int side, uint8_t *sym);

/* p as an image (its kings, groups and ep square) in layout l. */
static inline chr_img_t chr_img_of(const chr_layout_t *l, const ch_pos_t *p)
{
    chr_img_t x = { .wk = p->king[CH_WHITE], .bk = p->king[CH_BLACK], .ep = p->ep };
    for (int g = 0; g < l->ng; g++) x.bb[g] = p->color[l->color[g]] & p->type[l->type[g]];
    return x;
}

static uint64_t chr_encode(const chr_mat_t *m, const chr_layout_t *l, const ch_pos_t *p, uint8_t *sym)
{
    (void)m;
    chr_img_t x = chr_img_of(l, p);
    return chr_img_encode_d(l, x.bb, -1, 0, x.wk, x.bk, x.ep, p->side, sym);
}

/* The index of image x, side to move: that of its image whose kings kk
 * numbers (chr_encode). */
static uint64_t chr_img_encode_d(const chr_layout_t *l, const uint64_t *bb, int dg, uint64_t dbb, int wk, int bk,
                                 int ep0, int side, uint8_t *sym)
{
    /* the turns follow from the kings alone; the groups are turned as they
       are ranked (no copy of an image whose square was just written: wide
       loads stall on narrow stores) */
    int ops = 0;
    if ((wk & 7) > 3) ops |= CHR_OP_FILES, wk ^= 7, bk ^= 7;
    if (!l->pawnful) {
        if (wk >> 3 > 3) ops |= CHR_OP_RANKS, wk ^= 56, bk ^= 56;
        if ((wk >> 3) > (wk & 7) || (chr_on_diag(wk) && (bk >> 3) > (bk & 7))) {
            ops |= CHR_OP_DIAGONAL;
            wk = chr_sq_turn(wk, CHR_DIAGONAL);
            bk = chr_sq_turn(bk, CHR_DIAGONAL);
        }
    }
    if (l->kk->idx[wk][bk] < 0) return UINT64_MAX;
    int ep = ep0 == CH_NOSQ ? CH_NOSQ : chr_sq_ops(ep0, ops);
    uint64_t i = chr_img_index(l, bb, dg, dbb, ops, wk, bk, ep, side);
    int turned = ops != 0;
    if (!l->pawnful && chr_on_diag(wk) && chr_on_diag(bk)) {   /* the diagonal's twin (kings stay; no ep) */
        uint64_t j = chr_img_index(l, bb, dg, dbb, ops ^ CHR_OP_DIAGONAL, wk, bk, ep, side);
        if (j < i) i = j, turned = (ops ^ CHR_OP_DIAGONAL) != 0;
    }
    if (sym) *sym = (uint8_t)turned;
    return i;
}

/* A position's moves that leave its kings alone and give no ep right
 * change one group's rank: when its kings stand where kk numbers them (a
 * decoded position's do) and no diagonal twin is compared, the index of
 * such a move's image, with side to move `side`, is the position's with
 * that rank replaced (no turn: sym 0). ok 0: use chr_img_encode_d. */
typedef struct chr_near {
    int ok;
    uint64_t base;              /* the image's index as it stands, side to move `side` */
    uint64_t rank[CHR_GROUPS];  /* each group's rank there */
} chr_near_t;

static void chr_near_init(const chr_layout_t *l, const chr_img_t *x, int side, chr_near_t *n)
{
    n->ok = x->ep == CH_NOSQ && (l->pawnful || !chr_on_diag(x->wk) || !chr_on_diag(x->bk)) &&
            l->kk->idx[x->wk][x->bk] >= 0;
    if (!n->ok) return;
    uint64_t r = (uint64_t)l->kk->idx[x->wk][x->bk];
    for (int g = 0; g < l->ng; g++) {
        n->rank[g] = chr_rank(x->bb[g], l->type[g]);
        r = r * l->size[g] + n->rank[g];
    }
    n->base = (uint64_t)side * l->half + r;
}

/* The index with group dg's bits dbb flipped (n->ok, dg >= 0). */
static inline uint64_t chr_near_index(const chr_layout_t *l, const chr_near_t *n, const chr_img_t *x, int dg,
                                      uint64_t dbb)
{
    return n->base + (chr_rank(x->bb[dg] ^ dbb, l->type[dg]) - n->rank[dg]) * l->mul[dg];   /* (mod 2^64) */
}

/* A piece of colour c and type t put on the empty square sq, its
 * bitboards too. */
static inline void chr_put(ch_pos_t *p, int c, int t, int sq)
{
    uint64_t b = 1ull << sq;
    p->sq[sq] = (uint8_t)ch_pc(c, t);
    p->type[t] |= b;
    p->type[0] |= b;
    p->color[c] |= b;
    if (t == CH_KING) p->king[c] = (uint8_t)sq;
}

/* The position at index of the material m (layout l) into p: 1 when it is
 * a legal position, 0 when not (p then holds what could be placed). Its
 * squares and bitboards are set straight, without a Zobrist key (the
 * builder never asks for one; ch_refresh gives it). */
static int chr_decode(const chr_mat_t *m, const chr_layout_t *l, uint64_t index, ch_pos_t *p)
{
    memset(p, 0, sizeof *p);
    int side, legal = 1, ep = CH_NOSQ, epg = -1;
    uint64_t r;
    uint64_t gr[CHR_GROUPS], size[CHR_GROUPS];
    int k[CHR_GROUPS];
    memcpy(size, l->size, sizeof size);
    memcpy(k, l->k, sizeof k);
    if (index < 2 * l->half) {
        side = (int)(index / l->half);
        r = index % l->half;
    } else {   /* an ep index: one pawn of the side that stepped is out of its group */
        side = index >= l->ep_base[1] && l->ep_base[1] > l->ep_base[0];
        r = index - l->ep_base[side];
        epg = l->pawns[side ^ 1];
        size[epg] = chr_binom[48][--k[epg]];
    }
    for (int g = l->ng - 1; g >= 0; g--) {
        gr[g] = r % size[g];
        r /= size[g];
    }
    int kk = (int)(r % (uint64_t)l->kk->n), wk = l->kk->wk[kk], bk = l->kk->bk[kk];
    if (epg >= 0) ep = chr_ep_square(side, (int)(r / (uint64_t)l->kk->n));
    chr_put(p, CH_WHITE, CH_KING, wk);
    chr_put(p, CH_BLACK, CH_KING, bk);
    if (epg >= 0) {   /* the pawn that stepped */
        int sq = chr_ep_pawn(side, ep);
        if (p->sq[sq]) legal = 0;
        else chr_put(p, side ^ 1, CH_PAWN, sq);
    }
    for (int g = 0; g < l->ng; g++) {
        uint64_t x = gr[g];
        int hi = l->type[g] == CH_PAWN ? 48 : 64;
        for (int i = k[g]; i > 0; i--) {   /* colex unranking, highest first */
            int s = i == 1 ? (int)x : hi - 1;   /* (C(s, 1) = s) */
            if (i > 1) {   /* the largest s below hi with C(s, i) <= x */
                int lo = i - 1;
                while (lo < s) {
                    int mid = (lo + s + 1) / 2;
                    if (chr_binom[mid][i] <= x) lo = mid;
                    else s = mid - 1;
                }
            }
            x -= chr_binom[s][i];
            hi = s;
            int sq = chr_bsq(l->type[g], s);
            if (p->sq[sq]) legal = 0;
            else chr_put(p, l->color[g], l->type[g], sq);
        }
    }
    p->side = (uint8_t)side;
    memset(p->rook, CH_NOSQ, sizeof p->rook);
    p->ep = (uint8_t)ep;
    p->fullmove = 1;
    if (!legal) return 0;
    if (ep != CH_NOSQ && !chr_ep_ok(p)) return 0;
    /* the side not to move must not be in check */
    if (ch_attackers(p, p->king[side ^ 1], side, p->type[0])) return 0;
    /* of the diagonal's twins, the smaller index holds the position */
    return l->pawnful || !chr_on_diag(wk) || !chr_on_diag(bk) || chr_encode(m, l, p, NULL) == index;
}

static void chr_material_of(const ch_pos_t *p, chr_mat_t *m)
{
    memset(m, 0, sizeof *m);
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) m->n[c][t] = __builtin_popcountll(p->color[c] & p->type[t]);
}

/* Colours reversed and the board turned upside down (the image a position
 * of the weaker side's material stands for). */
static void chr_flip(const ch_pos_t *p, ch_pos_t *q)
{
    *q = *p;
    memset(q->sq, 0, sizeof q->sq);
    for (int s = 0; s < 64; s++)
        if (p->sq[s]) q->sq[s ^ 56] = (uint8_t)ch_pc(ch_pc_color(p->sq[s]) ^ 1, ch_pc_type(p->sq[s]));
    q->side = p->side ^ 1;
    static const int other[4] = { CH_BK, CH_BQ, CH_WK, CH_WQ };
    for (int i = 0; i < 4; i++) q->rook[other[i]] = p->rook[i] == CH_NOSQ ? CH_NOSQ : (uint8_t)(p->rook[i] ^ 56);
    q->ep = p->ep == CH_NOSQ ? CH_NOSQ : (uint8_t)(p->ep ^ 56);
    ch_refresh(q);
}

/* ---- the retro_game_t hooks ---- */

static const char *const chr_material_names[] = {
    "white_pawns", "white_knights", "white_bishops", "white_rooks", "white_queens",
    "black_pawns", "black_knights", "black_bishops", "black_rooks", "black_queens", NULL,
};

/* Every covered material of `men` men: counts placed type by type. */
static void chr_slices_rec(chr_mat_t *m, int at, int left, uint64_t *out, int max, int *n)
{
    if (at == 10) {
        if (left || !chr_covered(m)) return;
        if (out && *n < max) out[*n] = chr_pack(m);
        ++*n;
        return;
    }
    for (int k = 0; k <= left; k++) {
        m->n[at / 5][CH_PAWN + at % 5] = k;
        chr_slices_rec(m, at + 1, left - k, out, max, n);
    }
    m->n[at / 5][CH_PAWN + at % 5] = 0;
}

static int chr_slices(const gv_t *v, int pieces, uint64_t *out, int max)
{
    (void)v;
    int n = 0;
    if (pieces < 2 || pieces > CHR_MAX_PIECES) return 0;
    chr_mat_t m;
    memset(&m, 0, sizeof m);
    chr_slices_rec(&m, 0, pieces - 2, out, max, &n);
    return n;
}

static uint64_t chr_slice_size(const gv_t *v, uint64_t slice)
{
    (void)v;
    chr_mat_t m;
    chr_layout_t l;
    chr_unpack(slice, &m);
    chr_layout(&m, &l);
    return l.total;
}

static void chr_slice_name(const gv_t *v, uint64_t slice, char *buf, size_t n)
{
    (void)v;
    chr_mat_t m;
    chr_unpack(slice, &m);
    char s[32];
    size_t k = 0;
    for (int c = 0; c < 2; c++) {
        s[k++] = 'K';
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < m.n[c][chr_order[i]] && k < sizeof s - 2; j++) s[k++] = chr_letter[chr_order[i]];
    }
    s[k] = 0;
    snprintf(buf, n, "%s", s);
}

/* "KRK", "KQKR", "kbnk"; "KKR" names the same ending as "KRK". */
static int chr_slice_parse(const gv_t *v, const char *text, uint64_t *slice, err_t *err)
{
    (void)v;
    chr_mat_t m;
    memset(&m, 0, sizeof m);
    int side = -1, men = 0;
    for (const char *q = text; *q; q++) {
        int ch = toupper((unsigned char)*q);
        if (ch == 'K') {
            if (++side > 1) break;
            continue;
        }
        const char *at = side >= 0 ? strchr("PNBRQ", ch) : NULL;
        if (!at || !ch) { side = 9; break; }
        if (++men > 8) break;
        m.n[side][CH_PAWN + (int)(at - "PNBRQ")]++;
    }
    if (side != 1 || men > 8)
        return err_set(err, GSW_EINPUT,
                       "bad ending \"%.40s\" (expected the pieces of each side after its king, e.g. KRK or KQKR)", text);
    if (chr_men(&m) + 2 > CHR_MAX_PIECES)
        return err_set(err, GSW_EINPUT, "%.40s: the chess tablebases cover endings of at most %d pieces", text,
                       CHR_MAX_PIECES);
    if (chr_cmp(&m) < 0) chr_swap(&m);
    *slice = chr_pack(&m);
    return GSW_OK;
}

static int chr_slice_material(const gv_t *v, uint64_t slice, int *counts)
{
    (void)v;
    chr_mat_t m;
    chr_unpack(slice, &m);
    int k = 0;
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) counts[k++] = m.n[c][t];
    return k;
}

static int chr_slice_pieces(const gv_t *v, uint64_t slice)
{
    (void)v;
    chr_mat_t m;
    chr_unpack(slice, &m);
    return chr_men(&m) + 2;
}

static void chr_succ_add(chr_mat_t m, uint64_t self, uint64_t *out, int max, int *n)
{
    if (chr_cmp(&m) < 0) chr_swap(&m);
    uint64_t id = chr_pack(&m);
    if (id == self) return;
    for (int i = 0; i < *n && i < max; i++)
        if (out[i] == id) return;
    if (*n < max) out[*n] = id;
    ++*n;
}

/* What a capture (either side's piece taken), a promotion, or both leave. */
static int chr_slice_succ(const gv_t *v, uint64_t slice, uint64_t *out, int max)
{
    (void)v;
    chr_mat_t m;
    chr_unpack(slice, &m);
    int n = 0;
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) {
            if (!m.n[c][t]) continue;
            chr_mat_t x = m;   /* a capture of a piece of colour c */
            x.n[c][t]--;
            chr_succ_add(x, slice, out, max, &n);
        }
    for (int c = 0; c < 2; c++) {
        if (!m.n[c][CH_PAWN]) continue;
        for (int pr = CH_KNIGHT; pr <= CH_QUEEN; pr++) {
            chr_mat_t x = m;
            x.n[c][CH_PAWN]--;
            x.n[c][pr]++;
            chr_succ_add(x, slice, out, max, &n);
            for (int t = CH_PAWN + 1; t <= CH_QUEEN; t++) {   /* promoting with a capture */
                if (!m.n[c ^ 1][t]) continue;
                chr_mat_t y = x;
                y.n[c ^ 1][t]--;
                chr_succ_add(y, slice, out, max, &n);
            }
        }
    }
    return n;
}

/* The layout of material m (slice id `slice`), from this thread's few
 * most recent (a builder's moves capture into the same few slices a
 * hundred million times). */
static const chr_layout_t *chr_layout_of(const chr_mat_t *m, uint64_t slice)
{
    enum { WAYS = 8 };
    static _Thread_local struct { uint64_t slice[WAYS]; int n, next; chr_layout_t l[WAYS]; } c;
    for (int i = 0; i < c.n; i++)
        if (c.slice[i] == slice) return &c.l[i];
    int i = c.n < WAYS ? c.n++ : c.next++ % WAYS;
    chr_layout(m, &c.l[i]);
    c.slice[i] = slice;
    return &c.l[i];
}

/* The slice and index of p (retro_game_t.locate); *sym (may be NULL): 1
 * when the index is that of a mirror image of p (or of its colours
 * reversed). */
static int chr_locate_pos(const ch_pos_t *p, uint64_t *slice, uint64_t *index, int *flipped, uint8_t *sym)
{
    for (int i = 0; i < 4; i++)
        if (p->rook[i] != CH_NOSQ) return 0;   /* castling rights: not covered */
    if (__builtin_popcountll(p->type[0]) > CHR_MAX_PIECES) return 0;
    chr_mat_t m;
    chr_material_of(p, &m);
    if (chr_cmp(&m) >= 0) {
        if (!chr_covered(&m) || (p->ep != CH_NOSQ && !chr_ep_ok(p))) return 0;
        if (flipped) *flipped = 0;
        *slice = chr_pack(&m);
        *index = chr_encode(&m, chr_layout_of(&m, *slice), p, sym);
        return *index != UINT64_MAX;
    }
    chr_swap(&m);
    if (!chr_covered(&m)) return 0;
    ch_pos_t q;
    chr_flip(p, &q);
    if (q.ep != CH_NOSQ && !chr_ep_ok(&q)) return 0;
    if (flipped) *flipped = 1;
    *slice = chr_pack(&m);
    *index = chr_encode(&m, chr_layout_of(&m, *slice), &q, sym);
    return *index != UINT64_MAX;
}

static int chr_locate(const gv_t *v, const void *pos, uint64_t *slice, uint64_t *index, int *flipped)
{
    (void)v;
    return chr_locate_pos(pos, slice, index, flipped, NULL);
}

static void chr_mirror(const gv_t *v, void *pos)
{
    (void)v;
    ch_pos_t q;
    chr_flip(pos, &q);
    memcpy(pos, &q, sizeof q);
}

/* The position at (slice, index) into p, with the slice's material and
 * layout: 1 when it is a legal position. */
static int chr_at(uint64_t slice, uint64_t index, const chr_mat_t **m, const chr_layout_t **l, ch_pos_t *p)
{
    /* (the builder asks about one slice a hundred million times a thread:
       its layout is kept, and lent) */
    static _Thread_local struct { uint64_t slice; int set; chr_mat_t m; chr_layout_t l; } last;
    if (!last.set || last.slice != slice) {
        chr_unpack(slice, &last.m);
        chr_layout(&last.m, &last.l);
        last.slice = slice;
        last.set = 1;
    }
    *m = &last.m;
    *l = &last.l;
    return chr_decode(&last.m, &last.l, index, p);
}

static void chr_position(const gv_t *v, uint64_t slice, uint64_t index, void *pos)
{
    (void)v;
    const chr_mat_t *m;
    const chr_layout_t *l;
    chr_at(slice, index, &m, &l, pos);
    ch_refresh(pos);   /* (its Zobrist key) */
}

static int chr_legal(const gv_t *v, uint64_t slice, uint64_t index)
{
    (void)v;
    const chr_mat_t *m;
    const chr_layout_t *l;
    ch_pos_t p;
    return chr_at(slice, index, &m, &l, &p);
}

/* Forward: every legal move, located. A position with no move (mate,
 * stalemate), a dead one (no mate possible) and an index that is no legal
 * position have no children; the first is lost, the others drawn. */
static int chr_children(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out, val_t *terminal)
{
    (void)v;
    const chr_mat_t *m;
    const chr_layout_t *l;
    ch_pos_t p;
    if (terminal) *terminal = VAL_DRAW;
    if (!chr_at(slice, index, &m, &l, &p)) return 0;
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(&p, mv), kept = 0;
    if (n == 0) {
        if (terminal && ch_in_check(&p)) *terminal = val_loss(0);
        return 0;
    }
    if (ch_insufficient(&p)) return 0;
    chr_img_t here = chr_img_of(l, &p);
    here.ep = CH_NOSQ;
    chr_near_t near;
    chr_near_init(l, &here, p.side ^ 1, &near);
    for (int i = 0; i < n && kept < RETRO_MAX_MOVES; i++) {
        retro_move_t *o = &out[kept];
        int from = ch_from(mv[i]), to = ch_to(mv[i]), t = ch_pc_type(p.sq[from]);
        if (ch_kind(mv[i]) == CH_NORMAL && !p.sq[to] && !(t == CH_PAWN && (to - from == 16 || from - to == 16))) {
            /* no capture, no promotion, no ep right: this slice, as it is
               oriented, the piece's bit moved (no position played) */
            int wk = here.wk, bk = here.bk, dg = -1;
            if (t != CH_KING) dg = l->group[p.side][t];
            else if (p.side == CH_WHITE) wk = to;
            else bk = to;
            o->slice = slice;
            if (dg >= 0 && near.ok) {
                o->index = chr_near_index(l, &near, &here, dg, 1ull << from | 1ull << to);
                o->sym = 0;
            } else
                o->index = chr_img_encode_d(l, here.bb, dg, 1ull << from | 1ull << to, wk, bk, CH_NOSQ, p.side ^ 1,
                                            &o->sym);
        } else {
            ch_pos_t q = p;
            ch_play(&q, mv[i]);
            /* (always found: a move never adds pieces, and an ep right it
               gives is one chr_ep_ok keeps) */
            if (!chr_locate_pos(&q, &o->slice, &o->index, NULL, &o->sym)) continue;
        }
        o->move = mv[i];
        o->conv = (uint8_t)(p.sq[ch_to(mv[i])] != 0 || ch_pc_type(p.sq[ch_from(mv[i])]) == CH_PAWN);
        kept++;
    }
    return kept;
}

/* Parent p (legal, the side to move there about to make `move` into this
 * slice) into out[n..]: its index, then that of its ep image when p's
 * board also stands with an ep right (a pawn of the side not to move
 * there on its fourth rank, just stepped). The new count. */
static inline void chr_move_set(retro_move_t *o, uint64_t slice, move_t move, int conv)
{
    /* (field by field: a compound literal is built on the stack with narrow
       stores and copied with wide loads, which stall on them) */
    o->slice = slice;
    o->move = move;
    o->conv = (uint8_t)conv;
}

static int chr_parent_add(const chr_layout_t *l, const chr_near_t *near, uint64_t slice, ch_pos_t *p,
                          const chr_img_t *y, int dg, uint64_t dbb, move_t move, int conv, retro_move_t *out, int n)
{
    if (n >= RETRO_MAX_MOVES) return n;
    chr_move_set(&out[n], slice, move, conv);
    if (near && near->ok && dg >= 0) {
        out[n].index = chr_near_index(l, near, y, dg, dbb);
        out[n].sym = 0;
    } else
        out[n].index = chr_img_encode_d(l, y->bb, dg, dbb, p->king[CH_WHITE], p->king[CH_BLACK], CH_NOSQ, p->side,
                                        &out[n].sym);
    n++;
    if (l->pawns[0] < 0 || l->pawns[1] < 0) return n;
    int s = p->side;
    uint64_t fourth = s == CH_WHITE ? 0xffull << 32 : 0xffull << 24;   /* (the other side's) */
    for (uint64_t b = p->color[s ^ 1] & p->type[CH_PAWN] & fourth; b; b &= b - 1) {
        p->ep = (uint8_t)chr_ep_square(s, __builtin_ctzll(b) & 7);
        if (chr_ep_ok(p) && n < RETRO_MAX_MOVES) {
            chr_move_set(&out[n], slice, move, conv);
            out[n].index = chr_img_encode_d(l, y->bb, dg, dbb, p->king[CH_WHITE], p->king[CH_BLACK], p->ep, p->side,
                                            &out[n].sym);
            n++;
        }
    }
    p->ep = CH_NOSQ;
    return n;
}

/* Backward: the positions with a move that is not a capture leading here,
 * in the same slice: the side that just moved steps a piece back to an
 * empty square (a pawn one or two squares back). The parent must be legal:
 * the side to move here is not in check there. A position with an ep
 * right has one un-move, the pawn's double step; a position without one
 * has no double step that would have given one. Each parent found also
 * stands for its ep image (chr_parent_add). Un-promotions lead to another
 * slice (with a pawn), which is never built together with this one: they
 * are left out. */
static int chr_parents(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out)
{
    (void)v;
    const chr_mat_t *m;
    const chr_layout_t *l;
    ch_pos_t x;
    if (!chr_at(slice, index, &m, &l, &x)) return 0;
    int mover = x.side ^ 1, n = 0;
    uint64_t occ = x.type[0];
    chr_img_t here = chr_img_of(l, &x);
    here.ep = CH_NOSQ;
    chr_near_t near;
    chr_near_init(l, &here, mover, &near);
    if (x.ep != CH_NOSQ) {
        int to = chr_ep_pawn(x.side, x.ep), f = mover == CH_WHITE ? to - 16 : to + 16;
        if (occ >> f & 1) return 0;   /* (a position the FEN parser allows, no double step made) */
        ch_pos_t p = x;
        p.sq[f] = p.sq[to];
        p.sq[to] = 0;
        p.side = (uint8_t)mover;
        p.ep = CH_NOSQ;
        ch_refresh(&p);
        if (ch_attackers(&p, p.king[x.side], mover, p.type[0])) return 0;
        chr_img_t y = chr_img_of(l, &p);
        return chr_parent_add(l, NULL, slice, &p, &y, -1, 0, ch_move(f, to, CH_NORMAL, 0), 1, out, 0);
    }
    for (uint64_t b = x.color[mover]; b; b &= b - 1) {
        int to = __builtin_ctzll(b), t = ch_pc_type(x.sq[to]);
        uint64_t from;
        switch (t) {
        case CH_KING: from = ch_king_att(to); break;
        case CH_KNIGHT: from = ch_knight_att(to); break;
        case CH_BISHOP: from = ch_bishop_att(to, occ); break;
        case CH_ROOK: from = ch_rook_att(to, occ); break;
        case CH_QUEEN: from = ch_bishop_att(to, occ) | ch_rook_att(to, occ); break;
        default: {   /* a pawn: one step back, or two from its fourth rank */
            int back = mover == CH_WHITE ? -8 : 8, rank = to / 8;
            from = 0;
            int f1 = to + back;
            if (f1 >= 8 && f1 < 56 && !(occ >> f1 & 1)) {
                from |= 1ull << f1;
                /* (not when a pawn here could take en passant: that step
                   leads to the ep index) */
                if ((mover == CH_WHITE ? rank == 3 : rank == 4) && !(occ >> (f1 + back) & 1) &&
                    !(ch_pawn_att(mover, f1) & x.color[x.side] & x.type[CH_PAWN]))
                    from |= 1ull << (f1 + back);
            }
        }
        }
        from &= ~occ;
        for (; from; from &= from - 1) {
            int f = __builtin_ctzll(from);
            if (t == CH_KING && (ch_king_att(f) >> x.king[x.side] & 1)) continue;   /* kings touching */
            ch_pos_t p = x;   /* (its bitboards moved with the piece: no refresh) */
            uint64_t fb = 1ull << f | 1ull << to;
            p.sq[f] = p.sq[to];
            p.sq[to] = 0;
            p.color[mover] ^= fb;
            p.type[t] ^= fb;
            p.type[0] ^= fb;
            if (t == CH_KING) p.king[mover] = (uint8_t)f;
            p.side = (uint8_t)mover;
            if (ch_attackers(&p, p.king[x.side], mover, p.type[0])) continue;   /* here's side in check there */
            if (n >= RETRO_MAX_MOVES) return n;
            /* (the piece's bits moved back: p's kings, a group's bits) */
            n = chr_parent_add(l, &near, slice, &p, &here, t == CH_KING ? -1 : l->group[mover][t], fb,
                               ch_move(f, to, CH_NORMAL, 0), t == CH_PAWN, out, n);
        }
    }
    return n;
}

/* How many positions index stands for: its images under the symmetries
 * folded (see the header), one when an image is the position itself.
 * With the kings in the numbered pairs, only the reflection in a1-h8
 * can leave a position as it is (it keeps every piece on the diagonal,
 * or swaps two like pieces across it). */
static uint64_t chr_weight(const gv_t *v, uint64_t slice, uint64_t index)
{
    (void)v;
    const chr_mat_t *m;
    const chr_layout_t *l;
    ch_pos_t p;
    if (!chr_at(slice, index, &m, &l, &p)) return 0;
    if (l->pawnful) return 2;
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_KING; t++) {
            uint64_t b = p.color[c] & p.type[t];
            if (chr_bb_turn(b, CHR_DIAGONAL) != b) return 8;
        }
    return 4;
}

const retro_game_t ch_retro = {
    .max_pieces = CHR_MAX_PIECES,
    .material_names = chr_material_names,
    .slices = chr_slices,
    .slice_size = chr_slice_size,
    .slice_name = chr_slice_name,
    .slice_parse = chr_slice_parse,
    .slice_material = chr_slice_material,
    .slice_pieces = chr_slice_pieces,
    .slice_succ = chr_slice_succ,
    .locate = chr_locate,
    .mirror = chr_mirror,
    .position = chr_position,
    .children = chr_children,
    .parents = chr_parents,
    .legal = chr_legal,
    .weight = chr_weight,
    .mate_metric = 1,
};
