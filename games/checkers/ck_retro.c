/* Checkers endgame-database indexing (core/retro.h): slices of Black-to-move
 * positions by material and by the row of each side's most advanced man, a
 * gap-free index of each slice, and the moves forward and backward between
 * indexed positions; White to move is looked up as its colour-reversed image. */
#include <pthread.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <stdio.h>
#include <string.h>

#include "core/retro.h"
#include "games/checkers/ck.h"

/* Index of a position, inside its slice (bk, bm, wk, wm, rb, rw):
 *   ((men * C(F, bk) + black kings) * C(F - bk, wk) + white kings)
 * with F = 32 - bm - wm the squares no man holds. The black men rank in
 * colex order among bits 0..27 (rank of c1 < .. < cm = sum C(ci, i)), so
 * those whose highest man is on row rb form the range [C(4rb, bm),
 * C(4rb + 4, bm)). The white men rank the same way in White's own order
 * (bit b is w = 31 - b) among the squares no black man holds; how many
 * white placements have their leader on row rw depends on the black men
 * only through how many black men stand on White's rows below rw (a) and
 * on its row rw (r), so the men's part is
 *   men = P(B) - P(first B of row rb) + white rank - C(free below row rw, wm)
 * where P(B), the white placements of every black set before B in colex
 * order, is a sum of one table entry per black man (ckr_pre below). */

#define CKR_MAX_PIECES 10
#define CKR_NONE 7                     /* the leading-man row of a side with no men */
#define CKR_TI (CKR_MAX_PIECES)        /* black men beside a white man: 0..9 */
#define CKR_TC 29                      /* c: black sets among bits 0..c-1, c = 0..28 */
#define CKR_TA (CKR_MAX_PIECES)        /* a: 0..9 */
#define CKR_TR 5                       /* r: 0..4 */
#define CKR_TBLOCK (CKR_TI * CKR_TC * CKR_TA * CKR_TR)

static uint64_t ckr_binom[33][33];
/* ckr_pre[wm - 1][rw][ckr_tix(i, c, a, r)]: the white placements (wm men,
 * leader on row rw) summed over every set S of i black men among bits
 * 0..c-1, with a black men already on White's rows below rw and r on row
 * rw (from black men above bit c). 7.3 MB, built on first use with the
 * binomials (pthread_once), read-only after. */
static uint64_t ckr_pre[CKR_MAX_PIECES - 1][7][CKR_TBLOCK];
/* ckr_cb[c][t] = C(c, t), t <= CKR_MAX_PIECES: the colex rank's terms,
 * 1.2 KB, so that they stay in the first-level cache beside the node
 * arrays (a table per byte of the set took 36 KB, more than that cache). */
static uint32_t ckr_cb[32][CKR_MAX_PIECES + 1];
/* ckr_unr[ckr_unr_at[k] + r]: the set of k squares (k <= CKR_UNR_K) with
 * colex rank r, for every r < C(32, k): one read where the search below
 * makes k dependent ones of five steps each. 162 KB. */
#define CKR_UNR_K 4
static const int ckr_unr_at[CKR_UNR_K + 2] = { 0, 0, 32, 32 + 496, 32 + 496 + 4960, 32 + 496 + 4960 + 35960 };
static uint32_t ckr_unr[32 + 496 + 4960 + 35960];
/* ckr_jover[s][d] / ckr_jland[s][d]: the square a piece on s jumps in
 * direction d and the one it lands on, as bits (0: off the board). */
static uint32_t ckr_jover[32][4], ckr_jland[32][4];
static pthread_once_t ckr_once = PTHREAD_ONCE_INIT;

static inline int ckr_tix(int i, int c, int a, int r) { return ((i * CKR_TC + c) * CKR_TA + a) * CKR_TR + r; }

/* The black-man squares on White's rows below rw (A) and on row rw (R). */
static inline uint32_t ckr_mask_below(int rw) { return rw >= 2 ? 0x0FFFFFFFu & ~((1u << (32 - 4 * rw)) - 1) : 0; }
static inline uint32_t ckr_mask_row(int rw) { return (0xFu << (28 - 4 * rw)) & 0x0FFFFFFFu; }

static inline int ckr_popcount(uint32_t b) { return __builtin_popcount(b); }
static inline int ckr_top(uint32_t b) { return 31 - __builtin_clz(b); }

static uint64_t ckr_c(int n, int k) { return n < 0 || k < 0 || k > n ? 0 : ckr_binom[n][k]; }

/* The bits of x where m has one, packed down (x's bits outside m dropped),
 * and the inverse: the low bits of x spread over m's ones. */
static inline uint32_t ckr_pext(uint32_t x, uint32_t m)
{
#ifdef __BMI2__
    return _pext_u32(x, m);
#else
    uint32_t r = 0;
    for (uint32_t k = 1; m; m &= m - 1, k <<= 1)
        if (x & m & -m) r |= k;
    return r;
#endif
}

static inline uint32_t ckr_pdep(uint32_t x, uint32_t m)
{
#ifdef __BMI2__
    return _pdep_u32(x, m);
#else
    uint32_t r = 0;
    for (uint32_t k = 1; m; m &= m - 1, k <<= 1)
        if (x & k) r |= m & -m;
    return r;
#endif
}

/* The colex rank of a set of at most CKR_MAX_PIECES squares: the sum of
 * C(c_t, t) over its squares c_1 < c_2 < ..., a table entry a square. */
static inline uint64_t ckr_colex(uint32_t s)
{
    uint64_t r = 0;
    for (int t = 1; s; s &= s - 1, t++) r += ckr_cb[__builtin_ctz(s)][t];
    return r;
}

/* The next set of as many elements in colex order (numeric order of the
 * masks); s must have one. */
static inline uint32_t ckr_colex_next(uint32_t s)
{
    uint64_t x = s, r = x + (x & -x);
    return (uint32_t)(r | ((r ^ x) >> (2 + __builtin_ctz(s))));
}

static void ckr_build_tables(void)
{
    for (int n = 0; n <= 32; n++) {
        ckr_binom[n][0] = 1;
        for (int k = 1; k <= n; k++) ckr_binom[n][k] = ckr_binom[n - 1][k - 1] + (k < n ? ckr_binom[n - 1][k] : 0);
    }
    for (int c = 0; c < 32; c++)
        for (int t = 0; t <= CKR_MAX_PIECES; t++) ckr_cb[c][t] = (uint32_t)ckr_c(c, t);
    for (int sq = 0; sq < 32; sq++)
        for (int d = 0; d < 4; d++) {
            int over = ck_nb[sq][d], land = over >= 0 ? ck_nb[over][d] : -1;
            ckr_jover[sq][d] = land >= 0 ? 1u << over : 0;
            ckr_jland[sq][d] = land >= 0 ? 1u << land : 0;
        }
    for (int k = 1; k <= CKR_UNR_K; k++) {   /* colex order is the masks' numeric order */
        uint32_t set = (1u << k) - 1;
        for (int r = ckr_unr_at[k]; r < ckr_unr_at[k + 1]; r++) {
            ckr_unr[r] = set;
            if (r + 1 < ckr_unr_at[k + 1]) set = ckr_colex_next(set);
        }
    }
    for (int wm = 1; wm < CKR_MAX_PIECES; wm++)
        for (int rw = 0; rw < 7; rw++) {
            uint64_t *t = ckr_pre[wm - 1][rw];
            uint32_t ma = ckr_mask_below(rw), mr = ckr_mask_row(rw);
            for (int c = 0; c < CKR_TC; c++)
                for (int a = 0; a < CKR_TA; a++)
                    for (int r = 0; r < CKR_TR; r++) {
                        int lo = 4 * rw - a, hi = lo + 4 - r;
                        t[ckr_tix(0, c, a, r)] = ckr_c(hi, wm) - ckr_c(lo, wm);
                    }
            for (int i = 1; i < CKR_TI; i++)
                for (int a = 0; a < CKR_TA; a++)
                    for (int r = 0; r < CKR_TR; r++) {
                        t[ckr_tix(i, 0, a, r)] = 0;
                        for (int c = 1; c < CKR_TC; c++) {
                            int a2 = a + (int)(ma >> (c - 1) & 1), r2 = r + (int)(mr >> (c - 1) & 1);
                            uint64_t with = a2 < CKR_TA && r2 < CKR_TR ? t[ckr_tix(i - 1, c - 1, a2, r2)] : 0;
                            t[ckr_tix(i, c, a, r)] = t[ckr_tix(i, c - 1, a, r)] + with;
                        }
                    }
        }
}

/* pthread_once costs about 25 instructions a call, paid for every position
 * of a build; a flag set after the tables checks first. */
static int ckr_ready;
static void ckr_build_once(void)
{
    ckr_build_tables();
    __atomic_store_n(&ckr_ready, 1, __ATOMIC_RELEASE);
}

static inline void ckr_init(void)
{
    if (!__atomic_load_n(&ckr_ready, __ATOMIC_ACQUIRE)) pthread_once(&ckr_once, ckr_build_once);
}

/* ---- slice ids ---- */

typedef struct ckr_slice {
    int bk, bm, wk, wm, rb, rw;
} ckr_slice_t;

static uint64_t ckr_pack(int bk, int bm, int wk, int wm, int rb, int rw)
{
    return (uint64_t)bk | (uint64_t)bm << 4 | (uint64_t)wk << 8 | (uint64_t)wm << 12 | (uint64_t)rb << 16
         | (uint64_t)rw << 20;
}

static ckr_slice_t ckr_unpack(uint64_t id)
{
    ckr_slice_t s = { (int)(id & 15), (int)(id >> 4 & 15), (int)(id >> 8 & 15), (int)(id >> 12 & 15),
                      (int)(id >> 16 & 15), (int)(id >> 20 & 15) };
    return s;
}

/* The placements of the men (black and white) of a sub-slice; 0 for an id
 * that is no sub-slice. */
static uint64_t ckr_men_count(const ckr_slice_t *s)
{
    if (s->bm == 0 && s->wm == 0) return 1;
    if (s->wm == 0) return ckr_c(4 * s->rb + 4, s->bm) - ckr_c(4 * s->rb, s->bm);
    if (s->bm == 0) return ckr_c(4 * s->rw + 4, s->wm) - ckr_c(4 * s->rw, s->wm);
    const uint64_t *t = ckr_pre[s->wm - 1][s->rw];
    return t[ckr_tix(s->bm, 4 * s->rb + 4, 0, 0)] - t[ckr_tix(s->bm, 4 * s->rb, 0, 0)];
}

static int ckr_slice_valid(uint64_t id, ckr_slice_t *s)
{
    if (id >> 24) return 0;
    *s = ckr_unpack(id);
    int n = s->bk + s->bm + s->wk + s->wm;
    if (n < 1 || n > CKR_MAX_PIECES) return 0;
    if (s->bm ? s->rb > 6 : s->rb != CKR_NONE) return 0;
    if (s->wm ? s->rw > 6 : s->rw != CKR_NONE) return 0;
    return 1;
}

static uint64_t ckr_size(const ckr_slice_t *s)
{
    int f = 32 - s->bm - s->wm;
    return ckr_men_count(s) * ckr_c(f, s->bk) * ckr_c(f - s->bk, s->wk);
}

static uint64_t ckr_slice_size(const gv_t *v, uint64_t slice)
{
    (void)v;
    ckr_init();
    ckr_slice_t s;
    return ckr_slice_valid(slice, &s) ? ckr_size(&s) : 0;
}

/* Every sub-slice with `pieces` pieces and at least one position. */
static int ckr_slices(const gv_t *v, int pieces, uint64_t *out, int max)
{
    (void)v;
    ckr_init();
    int n = 0;
    if (pieces < 1 || pieces > CKR_MAX_PIECES) return 0;
    for (int bk = 0; bk <= pieces; bk++)
        for (int bm = 0; bk + bm <= pieces; bm++)
            for (int wk = 0; bk + bm + wk <= pieces; wk++) {
                int wm = pieces - bk - bm - wk;
                for (int rb = bm ? 0 : CKR_NONE; rb <= (bm ? 6 : CKR_NONE); rb++)
                    for (int rw = wm ? 0 : CKR_NONE; rw <= (wm ? 6 : CKR_NONE); rw++) {
                        ckr_slice_t s = { bk, bm, wk, wm, rb, rw };
                        if (!ckr_size(&s)) continue;
                        if (out && n < max) out[n] = ckr_pack(bk, bm, wk, wm, rb, rw);
                        n++;
                    }
            }
    return n;
}

static void ckr_slice_name(const gv_t *v, uint64_t slice, char *buf, size_t n)
{
    (void)v;
    ckr_slice_t s = ckr_unpack(slice);
    snprintf(buf, n, "%dK%dC-%dK%dC.b%cw%c", s.bk, s.bm, s.wk, s.wm, s.rb == CKR_NONE ? 'x' : '0' + s.rb,
             s.rw == CKR_NONE ? 'x' : '0' + s.rw);
}

static int ckr_slice_parse(const gv_t *v, const char *text, uint64_t *slice, err_t *err)
{
    int bk, bm, wk, wm, end = -1;
    char rb, rw;
    if (sscanf(text, "%2dK%2dC-%2dK%2dC.b%cw%c%n", &bk, &bm, &wk, &wm, &rb, &rw, &end) != 6 || end < 0
        || text[end] || bk < 0 || bm < 0 || wk < 0 || wm < 0 || bk > 15 || bm > 15 || wk > 15 || wm > 15
        || (rb != 'x' && (rb < '0' || rb > '6')) || (rw != 'x' && (rw < '0' || rw > '6')))
        return err_set(err, GSW_EINPUT, "\"%s\" is not a checkers slice name (like 2K1C-1K0C.b3wx)", text);
    uint64_t id = ckr_pack(bk, bm, wk, wm, rb == 'x' ? CKR_NONE : rb - '0', rw == 'x' ? CKR_NONE : rw - '0');
    char back[64];
    ckr_slice_name(v, id, back, sizeof back);
    if (strcmp(back, text))
        return err_set(err, GSW_EINPUT, "\"%s\" is not a checkers slice name (written %s)", text, back);
    if (!ckr_slice_size(v, id))
        return err_set(err, GSW_EINPUT, "checkers slice %s holds no position (at most %d pieces; a side's leading "
                                        "man row x exactly when it has no man, room for its men)",
                       text, CKR_MAX_PIECES);
    *slice = id;
    return GSW_OK;
}

static const char *const ckr_material_names[] = { "black_kings", "black_men", "white_kings", "white_men", NULL };

static int ckr_slice_material(const gv_t *v, uint64_t slice, int *counts)
{
    (void)v;
    ckr_slice_t s = ckr_unpack(slice);
    counts[0] = s.bk;
    counts[1] = s.bm;
    counts[2] = s.wk;
    counts[3] = s.wm;
    return 4;
}

static int ckr_slice_pieces(const gv_t *v, uint64_t slice)
{
    (void)v;
    ckr_slice_t s = ckr_unpack(slice);
    return s.bk + s.bm + s.wk + s.wm;
}

/* The slices Black's move can lead to, seen colour-reversed (White to move
 * becomes Black to move). A plain move keeps Black's material, its leader
 * on its row or one further on, or crowns a man from row 6. A capture
 * takes x >= 1 of White's pieces (White's leader on its row, or further
 * back if a man went): by a king, Black's men stay; by a man, x <= 3 (two
 * rows a jump, from row 0 at best) and the man lands 2x rows on, so
 * Black's leader stays or goes on by up to 2x rows, or the man crowns if
 * it can reach row 7 (the other men's leader then on row rb or behind).
 * Distinct choices give distinct slices, so nothing is listed twice. */
static int ckr_slice_succ(const gv_t *v, uint64_t slice, uint64_t *out, int max)
{
    (void)v;
    ckr_init();
    ckr_slice_t s;
    if (!ckr_slice_valid(slice, &s) || s.bk + s.bm == 0) return 0;
    int n = 0;
    for (int xk = 0; xk <= s.wk; xk++)
        for (int xm = 0; xm <= s.wm; xm++) {
            int x = xk + xm, wk = s.wk - xk, wm = s.wm - xm;
            int by_man = s.bm > 0 && x <= 3, by_king = s.bk > 0;
            if (!by_man && !by_king) continue;
            /* how far Black's leader can go on; whether a man can crown */
            int steps = !by_man ? 0 : x ? 2 * x : 1, crown = by_man && s.rb + steps >= 7;
            int rw0 = wm == 0 ? CKR_NONE : xm ? 0 : s.rw, rw1 = wm == 0 ? CKR_NONE : s.rw;
            for (int c = 0; c <= crown; c++) {
                int bk = s.bk + c, bm = s.bm - c;
                int rb0 = bm == 0 ? CKR_NONE : c ? 0 : s.rb;
                int rb1 = bm == 0 ? CKR_NONE : c ? s.rb : s.rb + steps > 6 ? 6 : s.rb + steps;
                for (int rb = rb0; rb <= rb1; rb++)
                    for (int rw = rw0; rw <= rw1; rw++) {
                        ckr_slice_t t = { wk, wm, bk, bm, rw, rb };
                        uint64_t id = ckr_pack(wk, wm, bk, bm, rw, rb);
                        if (id == slice || !ckr_size(&t)) continue;
                        if (out && n < max) out[n] = id;
                        n++;
                    }
            }
        }
    return n;
}

/* ---- positions <-> indices ---- */

/* The colour-reversed image: the board turned half a turn (bit b to
 * 31 - b), the colours swapped, the other side to move. */
static inline ck_pos_t ckr_flip(const ck_pos_t *p)
{
    ck_pos_t q = *p;
    q.p[0] = ck_rot180(p->p[1]);
    q.p[1] = ck_rot180(p->p[0]);
    q.k = ck_rot180(p->k);
    q.side = (uint8_t)!p->side;
    return q;
}

/* The slice and index of p read as Black to move (whoever is to move).
 * Every binomial here has 0 <= k, n <= 32 (ckr_binom is 0 for k > n). */
static int ckr_index(const ck_pos_t *p, uint64_t *slice, uint64_t *index)
{
    uint32_t bmen = p->p[0] & ~p->k, bkg = p->p[0] & p->k, wmen = p->p[1] & ~p->k, wkg = p->p[1] & p->k;
    if ((p->p[0] & p->p[1]) || (bmen & CK_BLACK_CROWN) || (wmen & CK_WHITE_CROWN)) return 0;
    int bk = ckr_popcount(bkg), bm = ckr_popcount(bmen), wk = ckr_popcount(wkg), wm = ckr_popcount(wmen);
    int n = bk + bm + wk + wm;
    if (n < 1 || n > CKR_MAX_PIECES) return 0;
    int rb = bm ? ckr_top(bmen) >> 2 : CKR_NONE, rw = wm ? 7 - (__builtin_ctz(wmen) >> 2) : CKR_NONE;
    uint64_t men = 0;
    if (bm) {
        if (wm) {
            const uint64_t *t = ckr_pre[wm - 1][rw];
            uint32_t ma = ckr_mask_below(rw), mr = ckr_mask_row(rw);
            int a = 0, r = 0, k = bm;
            for (uint32_t x = bmen; x; k--) {
                int c = ckr_top(x);
                men += t[ckr_tix(k, c, a, r)];
                a += (int)(ma >> c & 1);
                r += (int)(mr >> c & 1);
                x &= ~(1u << c);
            }
            men -= t[ckr_tix(bm, 4 * rb, 0, 0)];
        } else
            men = ckr_colex(bmen) - ckr_binom[4 * rb][bm];
    }
    if (wm) {
        /* White's order: bit b is w = 31 - b, less the black men before
           it; turned half a turn, the rank among the squares no black man
           holds */
        men += ckr_colex(ckr_pext(ck_rot180(wmen), ~ck_rot180(bmen)));
        men -= ckr_binom[4 * rw - ckr_popcount(bmen & ckr_mask_below(rw))][wm];
    }
    /* each side's kings rank among the squares still free */
    uint32_t occ = bmen | wmen;
    uint64_t kb = ckr_colex(ckr_pext(bkg, ~occ)), kw = ckr_colex(ckr_pext(wkg, ~(occ | bkg)));
    int f = 32 - bm - wm;
    *slice = ckr_pack(bk, bm, wk, wm, rb, rw);
    *index = (men * ckr_binom[f][bk] + kb) * ckr_binom[f - bk][wk] + kw;
    return 1;
}

static int ckr_locate(const gv_t *v, const void *pos, uint64_t *slice, uint64_t *index, int *flipped)
{
    (void)v;
    ckr_init();
    const ck_pos_t *p = pos;
    int flip = p->side != 0;
    if (flipped) *flipped = flip;
    if (!flip) return ckr_index(p, slice, index);
    ck_pos_t q = ckr_flip(p);
    return ckr_index(&q, slice, index);
}

/* The mirror hook: pos turned into its colour-reversed image in place. */
static void ckr_mirror(const gv_t *v, void *pos)
{
    (void)v;
    ck_pos_t *p = pos;
    *p = ckr_flip(p);
}

/* The colex set of k elements with rank r, as a mask of positions in
 * 0..hi-1 (r < C(hi, k), hi <= 32). */
static uint32_t ckr_unrank(uint64_t r, int k, int hi)
{
    if (k <= CKR_UNR_K) return k > 0 ? ckr_unr[ckr_unr_at[k] + r] : 0;
    uint32_t set = 0;
    for (; k > 0; k--) {
        /* the largest x < hi with C(x, k) <= r, by halving (C(k - 1, k) = 0
           <= r; x + step stays below hi <= 32, inside the table) */
        int x = k - 1;
        for (int step = 16; step; step >>= 1)
            if (x + step < hi && ckr_binom[x + step][k] <= r) x += step;
        set |= 1u << x;
        r -= ckr_binom[x][k];
        hi = x;
    }
    return set;
}

/* The men and Black's kings of an index, decoded; all but White's kings
 * (the fastest-moving part of the index) are kept per thread, so a pass
 * over consecutive indices decodes them once for C(F - bk, wk) positions. */
typedef struct ckr_memo {
    uint64_t slice, high;      /* high: index / C(F - bk, wk); slice ~0: empty */
    uint32_t bmen, wmen, bkg;
    uint64_t kw;               /* the last index's White kings: their rank, */
    uint32_t wk;               /* and their set packed into the free squares */
} ckr_memo_t;
static _Thread_local ckr_memo_t ckr_last = { ~(uint64_t)0, 0, 0, 0, 0, 0, 0 };

static void ckr_position(const gv_t *v, uint64_t slice, uint64_t index, void *pos)
{
    (void)v;
    ckr_init();
    ckr_slice_t s = ckr_unpack(slice);
    int f = 32 - s.bm - s.wm;
    uint64_t nbk = ckr_binom[f][s.bk], nwk = ckr_binom[f - s.bk][s.wk];
    uint64_t kw = index % nwk, high = index / nwk;
    ckr_memo_t *m = &ckr_last;
    if (m->slice != slice || m->high != high) {
        uint64_t kb = high % nbk, men = high / nbk;
        uint32_t bmen = 0, wmen = 0, bkg = 0;
        if (s.bm && s.wm) {
            const uint64_t *t = ckr_pre[s.wm - 1][s.rw];
            uint32_t ma = ckr_mask_below(s.rw), mr = ckr_mask_row(s.rw);
            uint64_t r0 = men + t[ckr_tix(s.bm, 4 * s.rb, 0, 0)];
            int a = 0, r = 0, hi = 4 * s.rb + 4;
            for (int k = s.bm; k > 0; k--) {
                /* the largest x < hi whose entry is <= r0, by halving (the
                   entries grow with x and are 0 below x = k) */
                int x = k - 1;
                for (int step = 16; step; step >>= 1)
                    if (x + step < hi && t[ckr_tix(k, x + step, a, r)] <= r0) x += step;
                r0 -= t[ckr_tix(k, x, a, r)];
                bmen |= 1u << x;
                a += (int)(ma >> x & 1);
                r += (int)(mr >> x & 1);
                hi = x;
            }
            men = r0;   /* the white men's rank past the first of row rw */
        } else if (s.bm) {
            bmen = ckr_unrank(men + ckr_binom[4 * s.rb][s.bm], s.bm, 4 * s.rb + 4);
            men = 0;
        }
        if (s.wm) {
            /* ranked in White's order (from the top) among the squares no
               black man holds: spread over them turned half a turn */
            int below = 4 * s.rw - ckr_popcount(bmen & ckr_mask_below(s.rw));
            uint32_t set = ckr_unrank(men + ckr_binom[below][s.wm], s.wm, below + 4);
            wmen = ck_rot180(ckr_pdep(set, ck_rot180(~bmen & 0xFFFFFFF0u)));
        }
        bkg = ckr_pdep(ckr_unrank(kb, s.bk, f), ~(bmen | wmen));
        *m = (ckr_memo_t){ slice, high, bmen, wmen, bkg, 0, 0 };
        m->kw = ~(uint64_t)0;
    }
    /* a pass in index order steps to the next set; else it is unranked */
    uint32_t cw = 0;
    if (s.wk && kw && kw - 1 == m->kw) cw = ckr_colex_next(m->wk);
    else if (s.wk)
        cw = ckr_unrank(kw, s.wk, f - s.bk);
    m->kw = kw;
    m->wk = cw;
    uint32_t wkg = ckr_pdep(cw, ~(m->bmen | m->wmen | m->bkg));
    ck_pos_t *p = pos;
    memset(p, 0, sizeof *p);
    p->p[0] = m->bmen | m->bkg;
    p->p[1] = m->wmen | wkg;
    p->k = m->bkg | wkg;
}

/* ---- moves between indexed positions ---- */

/* With at most 10 pieces a position has at most 40 plain moves (4 a king)
 * and few captures (16 at most for a lone king against 9 pieces, the
 * most for any one piece), so RETRO_MAX_MOVES never cuts the list. */
static int ckr_children(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out, val_t *terminal)
{
    ck_pos_t p;
    ckr_position(v, slice, index, &p);
    move_t mv[GSW_MAX_MOVES];
    int n = ck_moves(&p, mv), kept = 0;
    if (n == 0) {
        if (terminal) *terminal = val_loss(0);
        return 0;
    }
    /* A king's plain move leads to the slice of p's own reversed image r0
     * and changes only the last part of its index: the moving side's kings
     * (White's in r0), ranked among the squares no other piece holds. */
    ck_pos_t r0;
    uint64_t s0 = 0, i0 = 0, kw0 = 0;
    uint32_t rbk = 0, free0 = 0;
    int king_moves = -1;   /* -1: not ranked yet; 0: none to rank */
    for (int i = 0; i < n && kept < RETRO_MAX_MOVES; i++) {
        int from = ck_mfrom(mv[i]);
        if (!ck_mjumps(mv[i]) && (p.k >> from & 1) && king_moves) {
            if (king_moves < 0) {
                r0 = ckr_flip(&p);
                king_moves = ckr_index(&r0, &s0, &i0);
                rbk = r0.p[1] & r0.k;
                free0 = ~(r0.p[0] | (r0.p[1] & ~r0.k));
                kw0 = ckr_colex(ckr_pext(rbk, free0));
            }
            if (king_moves) {
                int to = ck_nb[from][ck_mdir(mv[i], 0)];
                uint32_t x = rbk ^ 1u << (31 - from) ^ 1u << (31 - to);
                retro_move_t *o = &out[kept++];
                o->slice = s0;
                o->index = i0 - kw0 + ckr_colex(ckr_pext(x, free0));
                o->move = mv[i];
                o->conv = 0;
                continue;
            }
        }
        ck_pos_t q = p;
        ck_play(&q, mv[i]);
        ck_pos_t r = ckr_flip(&q);
        retro_move_t *o = &out[kept];
        if (!ckr_index(&r, &o->slice, &o->index)) continue;   /* cannot happen: never more pieces */
        o->move = mv[i];
        o->conv = (uint8_t)(ck_mjumps(mv[i]) || !(p.k >> ck_mfrom(mv[i]) & 1));
        kept++;
    }
    return kept;
}

/* The parents of X (Black to move) are White-to-move positions whose
 * White made a plain move; in the colour-reversed picture Y = flip(X)
 * (White to move) they are Black-to-move positions P whose Black stepped
 * a piece to where it stands in Y. Each P must have no capture for Black,
 * else its plain moves were not legal. A king on Black's crowning row may
 * also have arrived as a man (an un-crowning: the parent has a man more).
 * crown 0 leaves the un-crownings out.
 *
 * P differs from Y by one piece, so its capture test is split: where
 * Black's other pieces land by a jump (with the mover's square `to` left
 * empty) is found once per mover, and a parent then only asks whether its
 * `from` square is the one landing left (two or more: no parent of this
 * mover is legal) and whether the mover itself can jump from there
 * (ckr_jover and ckr_jland: the square jumped and the one landed on, per
 * square and direction). */
static inline int ckr_parents_of(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out, const int crown)
{
    ck_pos_t x;
    ckr_position(v, slice, index, &x);
    ck_pos_t y = ckr_flip(&x);
    const uint32_t own = y.p[0], opp = y.p[1], occ = own | opp;
    int n = 0;
    /* A king's step back keeps y's slice and men: only the kings' parts of
     * the index change (White's too: they rank among the squares Black's
     * kings leave). menb: the index's men part times C(F, bk). */
    uint64_t sy = 0, iy = 0, menb = 0, nwk = 1;
    uint32_t ymen = occ & ~y.k, ywk = opp & y.k;
    int kings = (own & y.k) && ckr_index(&y, &sy, &iy);
    if (kings) {
        ckr_slice_t s = ckr_unpack(sy);
        nwk = ckr_binom[32 - s.bm - s.wm - s.bk][s.wk];
        menb = iy / nwk - ckr_colex(ckr_pext(own & y.k, ~ymen));
    }
    for (uint32_t b = own; b; b &= b - 1) {
        int to = __builtin_ctz(b), king = (int)(y.k >> to & 1);
        const uint32_t tb = 1u << to, oth = own & ~tb, othk = oth & y.k;
        const uint32_t land = (ck_dl(ck_dl(oth) & opp) | ck_dr(ck_dr(oth) & opp) | ck_ul(ck_ul(othk) & opp) |
                               ck_ur(ck_ur(othk) & opp)) & ~(oth | opp);
        if (land & (land - 1)) continue;   /* two landings: one is left wherever the mover came from */
        const int uncrown = crown && king && (CK_BLACK_CROWN >> to & 1);
        for (int d = 0; d < 4; d++) {
            int from = ck_nb[to][d];
            if (from < 0 || (occ >> from & 1)) continue;
            const uint32_t fb = 1u << from;
            if (land & ~fb) continue;
            /* the mover stepped from `from` in direction 3 - d; a man only
             * moves down, so it came from above (d = UL, UR) */
            const int up = d >= CK_UL;
            if (!(king || up)) continue;
            const uint32_t empty = ~(oth | opp | fb);
            /* its jumps from `from`: down as a man or a king, up as a king */
            const int jdown = ((opp & ckr_jover[from][CK_DL]) && (empty & ckr_jland[from][CK_DL])) ||
                              ((opp & ckr_jover[from][CK_DR]) && (empty & ckr_jland[from][CK_DR]));
            const int jup = ((opp & ckr_jover[from][CK_UL]) && (empty & ckr_jland[from][CK_UL])) ||
                            ((opp & ckr_jover[from][CK_UR]) && (empty & ckr_jland[from][CK_UR]));
            for (int man = 0; man <= 1; man++) {
                if (man ? !up || (king && !uncrown) : !king) continue;
                if (jdown || (!man && jup)) continue;
                if (n >= RETRO_MAX_MOVES) return n;
                retro_move_t *o = &out[n];
                if (!man && kings) {
                    uint32_t bkg = (othk | fb);
                    o->slice = sy;
                    o->index = (menb + ckr_colex(ckr_pext(bkg, ~ymen))) * nwk +
                               ckr_colex(ckr_pext(ywk, ~(ymen | bkg)));
                } else {
                    ck_pos_t p = y;
                    p.side = 0;
                    p.p[0] = oth | fb;
                    p.k &= ~tb;
                    if (!man) p.k |= fb;
                    if (!ckr_index(&p, &o->slice, &o->index)) continue;
                }
                o->move = (move_t)from | (move_t)(3 - d) << 9;
                o->conv = (uint8_t)man;
                n++;
            }
        }
    }
    return n;
}

/* The index's last part: White's kings. After Black's move the board is
 * turned, and White's pieces decide the high part of where it lands: the
 * moves of positions that share White's kings (and men) land in one block
 * of C(F', bk') x C(F' - bk', wk') indices. */
static uint64_t ckr_index_low(const gv_t *v, uint64_t slice)
{
    (void)v;
    ckr_init();
    ckr_slice_t s;
    if (!ckr_slice_valid(slice, &s)) return 0;
    return ckr_binom[32 - s.bm - s.wm - s.bk][s.wk];
}

static int ckr_parents(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out)
{
    return ckr_parents_of(v, slice, index, out, 1);
}

/* Without the crownings undone: their parents have a man more, a slice no
 * unit shares with this one (a crowning cannot be undone by play). */
static int ckr_parents_inside(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out)
{
    return ckr_parents_of(v, slice, index, out, 0);
}

const retro_game_t ck_retro = {
    .max_pieces = CKR_MAX_PIECES,
    .material_names = ckr_material_names,
    .slices = ckr_slices,
    .slice_size = ckr_slice_size,
    .slice_name = ckr_slice_name,
    .slice_parse = ckr_slice_parse,
    .slice_material = ckr_slice_material,
    .slice_pieces = ckr_slice_pieces,
    .slice_succ = ckr_slice_succ,
    .locate = ckr_locate,
    .mirror = ckr_mirror,
    .position = ckr_position,
    .children = ckr_children,
    .parents = ckr_parents,
    .parents_inside = ckr_parents_inside,
    .index_low = ckr_index_low,
};
