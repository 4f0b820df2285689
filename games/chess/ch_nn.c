/* Chess's evaluation network: see ch_nn.h. */
#include "games/chess/ch_nn.h"

#include <stddef.h>
#include <string.h>

#define CH_NN_HMAX 256

#include "games/chess/ch_nn_weights.h"
_Static_assert(CH_NN_H % 8 == 0 && CH_NN_H <= CH_NN_HMAX, "ch_nn_weights.h: hidden units a multiple of 8, at most 256");
static const ch_nn_t ch_nn_built = { CH_NN_H, ch_nn_w1, ch_nn_b1, ch_nn_w2, CH_NN_B2 };
const ch_nn_t *ch_nn_builtin(void) { return &ch_nn_built; }

/* The feature of piece pc on square s from side persp's view (the one
 * formula the trainer's features and the engine's sums share). */
static inline int nn_feature(int persp, int pc, int s)
{
    const int rel = ch_pc_color(pc) != persp;   /* 0: the perspective's own piece */
    return (rel * 6 + ch_pc_type(pc) - 1) * 64 + (s ^ (persp == CH_BLACK ? 56 : 0));
}

int ch_nn_features(const ch_pos_t *p, int persp, uint16_t *f)
{
    int n = 0;
    for (uint64_t b = p->type[0]; b && n < 32; b &= b - 1) {
        const int s = __builtin_ctzll(b);
        f[n++] = (uint16_t)nn_feature(persp, p->sq[s], s);
    }
    return n;
}

/* The output from the two views' hidden sums: the side to move's value
 * less the other side's, halved (the same units seen with the move
 * passed), so the move itself adds nothing: what the side to move can take
 * at once is quiescence's. */
static inline __attribute__((always_inline)) int32_t nn_out(const int16_t *restrict a0, const int16_t *restrict a1,
                                                             const int16_t *restrict w2, const int h)
{
    /* each term is under 2^24 in size (255^2 times 2 * 1.98 QB), so 64 of
       them sum exactly in 32 bits, and the loop vectorizes */
    int64_t d = 0;
    for (int j0 = 0; j0 < h; j0 += 64) {
        const int n = h - j0 < 64 ? h - j0 : 64;
        int32_t part = 0;
        for (int j = j0; j < j0 + n; j++) {
            const int32_t c0 = a0[j] < 0 ? 0 : a0[j] > CH_NN_QA ? CH_NN_QA : a0[j];
            const int32_t c1 = a1[j] < 0 ? 0 : a1[j] > CH_NN_QA ? CH_NN_QA : a1[j];
            part += (c0 * c0 - c1 * c1) * (w2[j] - w2[h + j]);
        }
        d += part;
    }
    const int64_t out = d / (2 * CH_NN_QA);   /* at QA * QB */
    return (int32_t)(out * CH_NN_SCALE / (CH_NN_QA * CH_NN_QB));
}

/* The evaluation with h hidden units, summed from scratch: inlined with h a
 * constant for the built-in network (the loops unrolled over whole
 * vectors), and as a function for any other. */
static inline __attribute__((always_inline)) int32_t nn_eval(const int16_t *restrict w1, const int16_t *restrict b1,
                                                              const int16_t *restrict w2, const int h,
                                                              const ch_pos_t *p)
{
    int16_t acc[2][CH_NN_HMAX] __attribute__((aligned(64)));
    int16_t *restrict a0 = acc[0], *restrict a1 = acc[1];   /* the side to move's view, the other's */
    for (int j = 0; j < h; j++) a0[j] = a1[j] = b1[j];
    const int us = p->side;
    for (uint64_t b = p->type[0]; b; b &= b - 1) {
        const int s = __builtin_ctzll(b), pc = p->sq[s];
        const int16_t *w = w1 + (size_t)nn_feature(us, pc, s) * (size_t)h;
        const int16_t *x = w1 + (size_t)nn_feature(!us, pc, s) * (size_t)h;
        for (int j = 0; j < h; j++) a0[j] = (int16_t)(a0[j] + w[j]);
        for (int j = 0; j < h; j++) a1[j] = (int16_t)(a1[j] + x[j]);
    }
    return nn_out(a0, a1, w2, h);
}

/* The built-in network's hidden sums are kept from one evaluation to the
 * next, a copy per thread, with the pieces they sum: the next position
 * (in a search, a sibling or a near relative of the last) changes only the
 * features of the pieces that differ, a few rows instead of one per piece.
 * The sums are the same integers as from scratch: int16 addition wraps,
 * and the whole sum fits (|b1| + 32 rows of at most 1.98 QA each). */
typedef struct nn_cache {
    int16_t acc[2][CH_NN_H] __attribute__((aligned(64)));   /* White's view, Black's */
    uint64_t bb[2][6];   /* the pieces summed, by colour and type (CH_PAWN..CH_KING - 1) */
    int valid;
} nn_cache_t;
static _Thread_local nn_cache_t nn_tc;

/* Adds (sign 1) or takes away (-1) the rows of the pieces of code pc in b, in both views. */
static inline __attribute__((always_inline)) void nn_rows(nn_cache_t *c, int pc, uint64_t b, int sign)
{
    for (; b; b &= b - 1) {
        const int s = __builtin_ctzll(b);
        for (int v = 0; v < 2; v++) {
            const int16_t *restrict w = ch_nn_w1 + (size_t)nn_feature(v, pc, s) * CH_NN_H;
            int16_t *restrict a = c->acc[v];
            if (sign > 0)
                for (int j = 0; j < CH_NN_H; j++) a[j] = (int16_t)(a[j] + w[j]);
            else
                for (int j = 0; j < CH_NN_H; j++) a[j] = (int16_t)(a[j] - w[j]);
        }
    }
}

static int32_t nn_eval_builtin(const ch_pos_t *p)
{
    nn_cache_t *c = &nn_tc;
    uint64_t now[2][6], changed = 0;
    for (int col = 0; col < 2; col++)
        for (int t = 0; t < 6; t++) {
            now[col][t] = p->color[col] & p->type[t + 1];
            changed |= now[col][t] ^ c->bb[col][t];
        }
    /* from scratch when the last position is far (or none) */
    if (!c->valid || __builtin_popcountll(changed) > __builtin_popcountll(p->type[0])) {
        for (int v = 0; v < 2; v++)
            for (int j = 0; j < CH_NN_H; j++) c->acc[v][j] = ch_nn_b1[j];
        memset(c->bb, 0, sizeof c->bb);
        c->valid = 1;
    }
    for (int col = 0; col < 2; col++)
        for (int t = 0; t < 6; t++) {
            const uint64_t was = c->bb[col][t], is = now[col][t];
            if (was == is) continue;
            nn_rows(c, ch_pc(col, t + 1), was & ~is, -1);
            nn_rows(c, ch_pc(col, t + 1), is & ~was, 1);
            c->bb[col][t] = is;
        }
    const int us = p->side;
    return nn_out(c->acc[us], c->acc[!us], ch_nn_w2, CH_NN_H);
}

int32_t ch_nn_eval(const ch_nn_t *nn, const ch_pos_t *p)
{
    if (nn->w1 == ch_nn_w1 && nn->b1 == ch_nn_b1 && nn->w2 == ch_nn_w2) return nn_eval_builtin(p);
    return nn_eval(nn->w1, nn->b1, nn->w2, nn->h, p);
}
