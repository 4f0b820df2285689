/* Chess's evaluation network (ch_nn.c): a small network of the kind
 * chess engines call NNUE. The built-in network's hidden sums are kept,
 * a copy per thread, and updated by the pieces that differ from the last
 * position evaluated (in a search, a near relative); any other network is
 * summed from scratch.
 *
 * Input: 768 features, one per piece type, colour and square, seen from
 * each side ("perspective"): from White's, a White knight on c3 is feature
 * (0 * 6 + knight - 1) * 64 + c3; from Black's, the board is flipped
 * rank for rank and colours swap, so the same knight is an enemy knight
 * on c6. One hidden layer of CH_NN_H units, its weights shared by both
 * perspectives (the "accumulator" of each); the side to move's units and
 * then the other's, each squared after clipping to [0, 1] (SCReLU), give
 * the output, in units of CH_NN_SCALE centipawns.
 *
 * It is trained and evaluated antisymmetrically: the output less the
 * output with the move passed (the two views' units swapped), halved, so
 * that a position and the same one with the other side to move score
 * opposite. Trained otherwise on positions of fast self-play games scored
 * by a stronger engine, a network learns that the side to move stands
 * better (its opponent's last move was often a mistake the teacher
 * punishes, or left something to take); searched, that worth would count
 * twice, once in the evaluation and once in quiescence. Only the
 * difference of the output weights' two halves matters, and the output's
 * bias none (the trainer writes 0).
 *
 * The weights (ch_nn_weights.h) are made by `gsw tune chess --eval --net`
 * (protocol/tune_net.c), from positions scored by a teacher engine, and
 * kept in integers: the hidden layer at CH_NN_QA, the output at CH_NN_QB,
 * so that an evaluation is exact and the same on every machine. */
#ifndef GSW_CH_NN_H
#define GSW_CH_NN_H

#include <stdint.h>

#include "games/chess/ch.h"

#define CH_NN_IN 768
#define CH_NN_QA 255
#define CH_NN_QB 64
#define CH_NN_SCALE 400
#define CH_NN_WMAX 1.98   /* |weight| at most this (in units of QA or QB): the integers cannot overflow */

/* The features of position p from side persp's view, into f (at most 32);
 * returns how many. */
int ch_nn_features(const ch_pos_t *p, int persp, uint16_t *f);

/* A network in integers (the built-in one, or one being tried). */
typedef struct ch_nn {
    int h;                 /* hidden units */
    const int16_t *w1;     /* [CH_NN_IN][h], at QA */
    const int16_t *b1;     /* [h], at QA */
    const int16_t *w2;     /* [2h]: the side to move's units, then the other's, at QB */
    int32_t b2;            /* at QA * QB (unused: the antisymmetric value has none) */
} ch_nn_t;

/* The built-in network (ch_nn_weights.h). */
const ch_nn_t *ch_nn_builtin(void);

/* Position p's value for the side to move, in centipawns. */
int32_t ch_nn_eval(const ch_nn_t *n, const ch_pos_t *p);

#endif
