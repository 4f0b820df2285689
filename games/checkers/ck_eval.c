/* The heuristic evaluation of a checkers position, for the side to move, in
 * units where a man is 100: material (kings 135, and a bonus for trading
 * down when ahead), advancement, the back rank, the centre, mobility,
 * tempo (the move itself) and runaway men (a man whose way to the crowning
 * row nothing can block). Each side's terms are computed in the same frame:
 * White's pieces are turned half a turn (square s to 33 - s) so both sides'
 * men move down, which makes the evaluation symmetric by construction. */
#include "games/checkers/ck.h"

#define EV_MAN 100
#define EV_KING 135
#define EV_TRADE 4       /* material lead * EV_TRADE / (pieces + 6): trade when ahead */
#define EV_BACK 3        /* a man still on its own back row (while the opponent has men) */
#define EV_BRIDGE 5      /* both of the bridge squares (Black 1 and 3, White 30 and 32) */
#define EV_CENTRE_MAN 3  /* a man on 14, 15, 18, 19 */
#define EV_CENTRE_KING 6 /* a king in the middle of the board (rows 3-6, files c-f) */
#define EV_MOBILITY 2    /* each plain move */
#define EV_TEMPO 3       /* having the move */
#define EV_RUNAWAY 16    /* a runaway man, less EV_RUNAWAY_STEP per row still to go */
#define EV_RUNAWAY_STEP 2

/* Board masks in the down-moving frame (Black's; White's turned). */
#define EV_ROWBIT0 0xF0F0F0F0u   /* squares whose row (0 = the back row) has bit 0 set */
#define EV_ROWBIT1 0xFF00FF00u
#define EV_ROWBIT2 0xFFFF0000u
#define EV_BACKROW 0x0000000Fu
#define EV_BRIDGE_SQ 0x00000005u /* squares 1 and 3 */
#define EV_CENTRE 0x00066000u    /* squares 14, 15, 18, 19 */
#define EV_MIDDLE 0x00666600u    /* squares 10, 11, 14, 15, 18, 19, 22, 23 */



/* The squares ahead of a man moving down from each square, to the crowning
 * row: every square it could reach, so a man whose cone is empty (and whose
 * opponent has no king) cannot be stopped. Generated from the geometry. */
static const uint32_t ev_cone[32] = {
    0xFFF77330u, 0xFFFFF760u, 0xFFFFEEC0u, 0xFFEECC80u,
    0xF7733100u, 0xFFF77300u, 0xFFFFE600u, 0xFFEECC00u,
    0xF7733000u, 0xFFF76000u, 0xFFEEC000u, 0xEECC8000u,
    0x73310000u, 0xF7730000u, 0xFFE60000u, 0xEECC0000u,
    0x73300000u, 0xF7600000u, 0xEEC00000u, 0xCC800000u,
    0x31000000u, 0x73000000u, 0xE6000000u, 0xCC000000u,
    0x30000000u, 0x60000000u, 0xC0000000u, 0x80000000u,
    0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
};

static inline int ev_pop(uint32_t b) { return __builtin_popcount(b); }

/* One side's positional terms (everything but material and mobility), its
 * men moving down; n is the number of pieces on the board. */
static int ev_side(uint32_t own, uint32_t opp, uint32_t kings, int n)
{
    uint32_t men = own & ~kings, occ = own | opp;
    int sc = 0;
    /* advancement: rows gone forward, worth more as the board empties */
    int rows = ev_pop(men & EV_ROWBIT0) + 2 * ev_pop(men & EV_ROWBIT1) + 4 * ev_pop(men & EV_ROWBIT2);
    sc += rows * (1 + (24 - n) / 12);
    /* the back rank holds the opponent's men off their crowning row */
    if (opp & ~kings && n >= 10) {
        sc += EV_BACK * ev_pop(men & EV_BACKROW);
        if ((men & EV_BRIDGE_SQ) == EV_BRIDGE_SQ) sc += EV_BRIDGE;
    }
    sc += EV_CENTRE_MAN * ev_pop(men & EV_CENTRE) + EV_CENTRE_KING * ev_pop(own & kings & EV_MIDDLE);
    /* runaway men: nothing in the way and no king to come back */
    if (!(opp & kings)) {
        for (uint32_t b = men; b; b &= b - 1) {
            int sq = __builtin_ctz(b);
            if (!(ev_cone[sq] & occ)) sc += EV_RUNAWAY - EV_RUNAWAY_STEP * (7 - sq / 4);
        }
    }
    return sc;
}

int32_t ck_evaluate(const ck_pos_t *p)
{
    uint32_t b = p->p[0], w = p->p[1], k = p->k, empty = ~(b | w);
    int n = ev_pop(b | w);
    int mat = EV_MAN * (ev_pop(b & ~k) - ev_pop(w & ~k)) + EV_KING * (ev_pop(b & k) - ev_pop(w & k));
    int sc = mat + mat * EV_TRADE / (n + 6);
    /* mobility: plain moves of each side */
    uint32_t bk = b & k, wk = w & k;
    int mb = ev_pop(ck_dl(b) & empty) + ev_pop(ck_dr(b) & empty) + ev_pop(ck_ul(bk) & empty) + ev_pop(ck_ur(bk) & empty);
    int mw = ev_pop(ck_ul(w) & empty) + ev_pop(ck_ur(w) & empty) + ev_pop(ck_dl(wk) & empty) + ev_pop(ck_dr(wk) & empty);
    sc += EV_MOBILITY * (mb - mw);
    uint32_t tb = ck_rot180(b), tw = ck_rot180(w), tk = ck_rot180(k);
    sc += ev_side(b, w, k, n) - ev_side(tw, tb, tk, n);
    return (p->side ? -sc : sc) + EV_TEMPO;
}
