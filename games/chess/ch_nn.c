/* Chess's evaluation network: see ch_nn.h. */
#include "games/chess/ch_nn.h"

#include <stddef.h>

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

/* The evaluation with h hidden units: inlined with h a constant for the
 * built-in network (the loops unrolled over whole vectors), and as a
 * function for any other. */
static inline __attribute__((always_inline)) int32_t nn_eval(const int16_t *restrict w1, const int16_t *restrict b1,
                                                              const int16_t *restrict w2, int32_t b2, const int h,
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
    /* antisymmetric: the side to move's value less the other side's, halved
       (the same units seen with the move passed), so the move itself adds
       nothing: what the side to move can take at once is quiescence's */
    int64_t d = 0;
    for (int j = 0; j < h; j++) {
        const int32_t c0 = a0[j] < 0 ? 0 : a0[j] > CH_NN_QA ? CH_NN_QA : a0[j];
        const int32_t c1 = a1[j] < 0 ? 0 : a1[j] > CH_NN_QA ? CH_NN_QA : a1[j];
        d += (int64_t)(c0 * c0 - c1 * c1) * (w2[j] - w2[h + j]);
    }
    (void)b2;
    const int64_t out = d / (2 * CH_NN_QA);   /* at QA * QB */
    return (int32_t)(out * CH_NN_SCALE / (CH_NN_QA * CH_NN_QB));
}

int32_t ch_nn_eval(const ch_nn_t *nn, const ch_pos_t *p)
{
    if (nn->w1 == ch_nn_w1) return nn_eval(ch_nn_w1, ch_nn_b1, ch_nn_w2, CH_NN_B2, CH_NN_H, p);
    return nn_eval(nn->w1, nn->b1, nn->w2, nn->b2, nn->h, p);
}
