/* The heuristic evaluation of a chess position, for the side to move, in
 * centipawns.
 *
 * Material comes from the parameters (value[CH_PAWN..CH_QUEEN]) and is
 * counted linearly, outside the tapering, so raising a piece's value by d
 * raises the score of a side a piece up by exactly d. Everything else is a
 * middlegame and an endgame score, blended by the phase (knights and
 * bishops 1, rooks 2, queens 4, at most 24 = the full set): piece-square
 * tables; the bishop pair; doubled, isolated and passed pawns (passers by
 * rank, more in the endgame, with the kings' distances to the square in
 * front, the own king ahead of the passer, and the rule of the square
 * against a side without pieces); rooks on open and half-open files;
 * mobility (attacked squares not holding an own piece nor attacked by an
 * enemy pawn); the king's pawn shelter and the pressure of enemy pieces on
 * the squares around it; and the move itself (tempo).
 *
 * Endgames: a side with no pawns and at most a minor piece more is scaled
 * down (it cannot mate); bishops of opposite colours with nothing else
 * halve the score; a lone king against mating material is driven to the
 * edge (to a corner of the bishop's colour with bishop and knight) with the
 * kings brought together, on top of a fixed known-win bonus.
 *
 * Each side's terms are computed in its own frame: Black's bitboards are
 * flipped rank for rank (a1 <-> a8) so both sides' pawns move up, which
 * makes the evaluation mirror-symmetric by construction. Piece-square
 * tables below are drawn as a board seen by White (rank 8 at the top), so
 * a square s of the mover's frame reads entry s ^ 56. */
#include "games/chess/ch.h"
#include "core/value.h"

#define EV_PHASE_MAX 24
#define EV_TEMPO 12
#define EV_BISHOP_PAIR_MG 30
#define EV_BISHOP_PAIR_EG 50
#define EV_DOUBLED_MG 10
#define EV_DOUBLED_EG 20
#define EV_ISOLATED_MG 10
#define EV_ISOLATED_EG 14
#define EV_ROOK_OPEN_MG 25
#define EV_ROOK_OPEN_EG 10
#define EV_ROOK_HALF_MG 12
#define EV_ROOK_HALF_EG 6
#define EV_SHELTER_NEAR 12     /* an own pawn one rank in front of the king, per file */
#define EV_SHELTER_FAR 6       /* ... two ranks in front */
#define EV_SHELTER_OPEN 15     /* no own pawn ahead on a file by the king */
#define EV_KING_ATTACK_CAP 300 /* the most the pressure on a king can score */
#define EV_KING_LEADS 20       /* the own king ahead of a passer, by its file (endgame) */
#define EV_UNSTOPPABLE 500     /* a passer the lone king cannot catch (endgame) */
#define EV_KNOWN_WIN 1000      /* mating material against a bare king */
#define EV_KING_EXPOSED 25     /* per rank the king stands past its second, while the enemy has a queen */

#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define DARK_SQUARES 0xAA55AA55AA55AA55ull

static inline int ev_pop(uint64_t b) { return __builtin_popcountll(b); }
static inline int ev_lsb(uint64_t b) { return __builtin_ctzll(b); }
static inline uint64_t ev_flip(uint64_t b) { return __builtin_bswap64(b); }
static inline uint64_t ev_north_fill(uint64_t b)
{
    b |= b << 8;
    b |= b << 16;
    return b | b << 32;
}
static inline uint64_t ev_south_fill(uint64_t b)
{
    b |= b >> 8;
    b |= b >> 16;
    return b | b >> 32;
}
static inline uint64_t ev_sideways(uint64_t b) { return (b << 1 & ~FILE_A) | (b >> 1 & ~FILE_H); }
static inline int ev_abs(int x) { return x < 0 ? -x : x; }
static inline int ev_max(int a, int b) { return a > b ? a : b; }
static inline int ev_min(int a, int b) { return a < b ? a : b; }
static inline int ev_cheb(int a, int b)
{
    return ev_max(ev_abs((a & 7) - (b & 7)), ev_abs((a >> 3) - (b >> 3)));
}
static inline int ev_manhattan(int a, int b)
{
    return ev_abs((a & 7) - (b & 7)) + ev_abs((a >> 3) - (b >> 3));
}
/* Manhattan distance from the four centre squares: 0 (d4..e5) to 6 (corners). */
static inline int ev_centre_dist(int s)
{
    int f = s & 7, r = s >> 3;
    return (f < 4 ? 3 - f : f - 4) + (r < 4 ? 3 - r : r - 4);
}

/* Piece-square tables, [type][square as drawn: rank 8 first], middlegame
 * and endgame. */
static const int8_t pst_mg[7][64] = {
    [CH_PAWN] = {
          0,   0,   0,   0,   0,   0,   0,   0,
         35,  35,  38,  40,  40,  38,  35,  35,
         14,  16,  20,  26,  26,  20,  16,  14,
          4,   6,  10,  20,  20,  10,   6,   4,
          0,   0,   6,  16,  16,   4,   0,   0,
          2,   2,   4,   6,   6,  -2,   2,   2,
          0,   2,   0, -10, -10,   6,   6,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
    },
    [CH_KNIGHT] = {
        -45, -28, -18, -12, -12, -18, -28, -45,
        -26, -12,   0,   4,   4,   0, -12, -26,
        -16,   4,  12,  18,  18,  12,   4, -16,
        -12,   6,  15,  22,  22,  15,   6, -12,
        -12,   2,  12,  18,  18,  12,   2, -12,
        -16,   0,   8,  10,  10,   8,   0, -16,
        -26, -12,  -2,   2,   2,  -2, -12, -26,
        -42, -22, -16, -14, -14, -16, -22, -42,
    },
    [CH_BISHOP] = {
        -16,  -8,  -9,  -8,  -8,  -9,  -8, -16,
         -8,   0,   0,   2,   2,   0,   0,  -8,
         -8,   2,   6,   8,   8,   6,   2,  -8,
         -7,   5,   7,  11,  11,   7,   5,  -7,
         -7,   3,  10,  11,  11,  10,   3,  -7,
         -6,  10,   8,   7,   7,   8,  10,  -6,
         -8,   9,   3,   3,   3,   3,   9,  -8,
        -16,  -8, -11,  -8,  -8, -11,  -8, -16,
    },
    [CH_ROOK] = {
          2,   2,   4,   6,   6,   4,   2,   2,
         16,  19,  20,  20,  20,  20,  19,  16,
         -4,   0,   1,   3,   3,   1,   0,  -4,
         -6,  -1,   0,   1,   1,   0,  -1,  -6,
         -6,  -1,   0,   0,   0,   0,  -1,  -6,
         -7,  -1,   0,   0,   0,   0,  -1,  -7,
         -9,  -3,  -1,   0,   0,  -1,  -3,  -9,
         -3,   0,   3,   7,   7,   5,   0,  -3,
    },
    [CH_QUEEN] = {
         -9,  -6,  -4,  -2,  -2,  -4,  -6,  -9,
         -6,  -2,   0,   1,   1,   0,  -2,  -6,
         -4,   0,   3,   3,   3,   3,   0,  -4,
         -2,   0,   3,   4,   4,   3,   0,  -2,
         -2,   0,   3,   4,   4,   3,   0,  -2,
         -4,   2,   3,   3,   3,   3,   1,  -4,
         -6,   0,   2,   1,   1,   0,  -1,  -6,
         -9,  -6,  -4,   0,  -3,  -5,  -6,  -9,
    },
    [CH_KING] = {
        -42, -46, -48, -52, -52, -48, -46, -42,
        -36, -40, -42, -46, -46, -42, -40, -36,
        -32, -36, -38, -42, -42, -38, -36, -32,
        -28, -32, -34, -38, -38, -34, -32, -28,
        -22, -26, -28, -32, -32, -28, -26, -22,
        -12, -16, -18, -22, -22, -18, -16, -12,
          8,   8,  -6, -12, -12,  -6,   8,   8,
         18,  28,  10,  -6,   0,   4,  30,  20,
    },
};
static const int8_t pst_eg[7][64] = {
    [CH_PAWN] = {
          0,   0,   0,   0,   0,   0,   0,   0,
         55,  52,  50,  48,  48,  50,  52,  55,
         32,  30,  28,  26,  26,  28,  30,  32,
         16,  15,  13,  12,  12,  13,  15,  16,
          7,   6,   5,   4,   4,   5,   6,   7,
          2,   1,   0,   0,   0,   0,   1,   2,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
    },
    [CH_KNIGHT] = {
        -32, -22, -14, -10, -10, -14, -22, -32,
        -20,  -8,   0,   3,   3,   0,  -8, -20,
        -14,   2,   8,  11,  11,   8,   2, -14,
        -10,   4,  11,  14,  14,  11,   4, -10,
        -10,   4,  11,  14,  14,  11,   4, -10,
        -14,   2,   8,  10,  10,   8,   2, -14,
        -20,  -8,   0,   2,   2,   0,  -8, -20,
        -32, -22, -14, -10, -10, -14, -22, -32,
    },
    [CH_BISHOP] = {
        -12,  -7,  -6,  -4,  -4,  -6,  -7, -12,
         -7,  -2,   0,   1,   1,   0,  -2,  -7,
         -6,   0,   4,   5,   5,   4,   0,  -6,
         -4,   1,   5,   8,   8,   5,   1,  -4,
         -4,   1,   5,   8,   8,   5,   1,  -4,
         -6,   0,   4,   5,   5,   4,   0,  -6,
         -7,  -2,   0,   1,   1,   0,  -2,  -7,
        -12,  -7,  -6,  -4,  -4,  -6,  -7, -12,
    },
    [CH_ROOK] = {
          4,   4,   5,   5,   5,   5,   4,   4,
         12,  13,  13,  13,  13,  13,  13,  12,
          3,   3,   3,   3,   3,   3,   3,   3,
          0,   1,   1,   1,   1,   1,   1,   0,
         -1,   0,   0,   0,   0,   0,   0,  -1,
         -2,  -1,  -1,  -1,  -1,  -1,  -1,  -2,
         -3,  -2,  -2,  -2,  -2,  -2,  -2,  -3,
         -4,  -2,  -1,   0,   0,  -1,  -2,  -4,
    },
    [CH_QUEEN] = {
        -18, -12,  -8,  -5,  -5,  -8, -12, -18,
        -12,  -4,   0,   3,   3,   0,  -4, -12,
         -8,   0,   7,  10,  10,   7,   0,  -8,
         -5,   3,  10,  14,  14,  10,   3,  -5,
         -5,   3,  10,  14,  14,  10,   3,  -5,
         -8,   0,   7,  10,  10,   7,   0,  -8,
        -12,  -4,   0,   3,   3,   0,  -4, -12,
        -18, -12,  -8,  -5,  -5,  -8, -12, -18,
    },
    [CH_KING] = {
        -44, -26, -16, -10, -10, -16, -26, -44,
        -24,  -6,   2,   6,   6,   2,  -6, -24,
        -14,   6,  16,  20,  20,  16,   6, -14,
        -12,   8,  20,  26,  26,  20,   8, -12,
        -14,   6,  18,  24,  24,  18,   6, -14,
        -18,   0,  10,  15,  15,  10,   0, -18,
        -26, -10,   0,   4,   4,   0, -10, -26,
        -46, -30, -20, -16, -16, -20, -30, -46,
    },
};

/* Passed pawns by the rank in the mover's frame (1 = its second rank). */
static const int16_t passed_mg[8] = {0, 2, 6, 12, 22, 38, 62, 0};
static const int16_t passed_eg[8] = {0, 8, 14, 24, 42, 70, 110, 0};

/* Mobility: per attacked square, around a typical count. */
static const int8_t mob_mg[7] = {[CH_KNIGHT] = 4, [CH_BISHOP] = 5, [CH_ROOK] = 2, [CH_QUEEN] = 1};
static const int8_t mob_eg[7] = {[CH_KNIGHT] = 4, [CH_BISHOP] = 5, [CH_ROOK] = 4, [CH_QUEEN] = 2};
static const int8_t mob_mid[7] = {[CH_KNIGHT] = 4, [CH_BISHOP] = 6, [CH_ROOK] = 7, [CH_QUEEN] = 13};
/* Pressure on the enemy king: weight per attacked square around it. */
static const int8_t king_att_w[7] = {[CH_KNIGHT] = 2, [CH_BISHOP] = 2, [CH_ROOK] = 3, [CH_QUEEN] = 5};

/* One side seen from its own frame (Black's flipped a1 <-> a8). */
typedef struct ev_view {
    uint64_t own[7];      /* own pieces by type; [0] all */
    uint64_t opp[7];      /* the opponent's */
    uint64_t occ;
    int king, opp_king;
    int to_move;          /* this side has the move */
} ev_view_t;

static void ev_make_view(const ch_pos_t *p, int c, ev_view_t *v)
{
    const int flip = c == CH_BLACK;
    uint64_t mine = p->color[c], theirs = p->color[!c];
    for (int t = 0; t <= CH_KING; t++) {
        uint64_t all = t ? p->type[t] : p->type[0];
        uint64_t a = all & mine, b = all & theirs;
        v->own[t] = flip ? ev_flip(a) : a;
        v->opp[t] = flip ? ev_flip(b) : b;
    }
    v->occ = v->own[0] | v->opp[0];
    v->king = p->king[c] ^ (flip ? 56 : 0);
    v->opp_king = p->king[!c] ^ (flip ? 56 : 0);
    v->to_move = p->side == c;
}

static uint64_t ev_attacks(int t, int s, uint64_t occ)
{
    switch (t) {
    case CH_KNIGHT: return ch_knight_att(s);
    case CH_BISHOP: return ch_bishop_att(s, occ);
    case CH_ROOK: return ch_rook_att(s, occ);
    default: return ch_bishop_att(s, occ) | ch_rook_att(s, occ);
    }
}

/* One side's positional terms (all but material and tempo). */
static void ev_side(const ev_view_t *v, int *mg_out, int *eg_out)
{
    int mg = 0, eg = 0;
    const uint64_t pawns = v->own[CH_PAWN], opp_pawns = v->opp[CH_PAWN];

    /* piece-square tables */
    for (int t = CH_PAWN; t <= CH_KING; t++)
        for (uint64_t b = v->own[t]; b; b &= b - 1) {
            int s = ev_lsb(b) ^ 56;
            mg += pst_mg[t][s];
            eg += pst_eg[t][s];
        }

    /* pawn structure */
    uint64_t own_files = ev_south_fill(ev_north_fill(pawns));
    uint64_t behind_own = ev_south_fill(pawns >> 8);      /* squares behind own pawns */
    int doubled = ev_pop(pawns & behind_own);
    int isolated = ev_pop(pawns & ~ev_sideways(own_files));
    mg -= doubled * EV_DOUBLED_MG + isolated * EV_ISOLATED_MG;
    eg -= doubled * EV_DOUBLED_EG + isolated * EV_ISOLATED_EG;

    uint64_t opp_front = ev_south_fill(opp_pawns >> 8);   /* files ahead of us held by them */
    uint64_t blocked = opp_front | ev_sideways(opp_front) | behind_own;
    const int opp_has_pieces = (v->opp[CH_KNIGHT] | v->opp[CH_BISHOP] | v->opp[CH_ROOK] | v->opp[CH_QUEEN]) != 0;
    int unstoppable = 0;
    for (uint64_t b = pawns & ~blocked; b; b &= b - 1) {
        int s = ev_lsb(b), r = s >> 3, f = s & 7;
        mg += passed_mg[r];
        eg += passed_eg[r];
        if ((v->king >> 3) > r && ev_abs((v->king & 7) - f) <= 1) eg += EV_KING_LEADS;
        if (r >= 3) {
            int stop = s + 8;
            eg += (4 * ev_cheb(v->opp_king, stop) - 2 * ev_cheb(v->king, stop)) * (r - 2);
        }
        if (!opp_has_pieces) {
            /* the rule of the square: the lone king cannot reach the queening square */
            uint64_t path = ev_north_fill(1ull << s) & ~(1ull << s);
            int dist = 7 - r - (r == 1);
            int king_dist = ev_cheb(v->opp_king, 56 + f) - !v->to_move;
            if (!(path & v->occ) && king_dist > dist) unstoppable = 1;
        }
    }
    if (unstoppable) eg += EV_UNSTOPPABLE;

    /* bishop pair */
    if ((v->own[CH_BISHOP] & DARK_SQUARES) && (v->own[CH_BISHOP] & ~DARK_SQUARES)) {
        mg += EV_BISHOP_PAIR_MG;
        eg += EV_BISHOP_PAIR_EG;
    }

    /* rooks on open and half-open files */
    for (uint64_t b = v->own[CH_ROOK]; b; b &= b - 1) {
        uint64_t file = FILE_A << (ev_lsb(b) & 7);
        if (!(file & pawns)) {
            if (!(file & opp_pawns)) {
                mg += EV_ROOK_OPEN_MG;
                eg += EV_ROOK_OPEN_EG;
            } else {
                mg += EV_ROOK_HALF_MG;
                eg += EV_ROOK_HALF_EG;
            }
        }
    }

    /* mobility and the pressure on the enemy king */
    uint64_t opp_pawn_att = (opp_pawns >> 7 & ~FILE_A) | (opp_pawns >> 9 & ~FILE_H);
    uint64_t area = ~v->own[0] & ~opp_pawn_att;
    uint64_t zone = ch_king_att(v->opp_king) | 1ull << v->opp_king;
    int attackers = 0, pressure = 0;
    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++)
        for (uint64_t b = v->own[t]; b; b &= b - 1) {
            uint64_t att = ev_attacks(t, ev_lsb(b), v->occ);
            int n = ev_pop(att & area) - mob_mid[t];
            mg += n * mob_mg[t];
            eg += n * mob_eg[t];
            uint64_t z = att & zone;
            if (z) {
                attackers++;
                pressure += ev_pop(z) * king_att_w[t];
            }
        }
    if (attackers >= 2 && v->own[CH_QUEEN]) mg += ev_min(pressure * pressure / 4, EV_KING_ATTACK_CAP);

    /* the king's pawn shelter, on its first two ranks */
    int kr = v->king >> 3, kf = v->king & 7;
    if (kr <= 1) {
        uint64_t ahead = ~0ull << (kr + 1) * 8;
        for (int f = ev_max(kf - 1, 0); f <= ev_min(kf + 1, 7); f++) {
            int near = (kr + 1) * 8 + f, far = (kr + 2) * 8 + f;
            if (pawns >> near & 1)
                mg += EV_SHELTER_NEAR;
            else if (pawns >> far & 1)
                mg += EV_SHELTER_FAR;
            else if (!(pawns & ahead & FILE_A << f))
                mg -= EV_SHELTER_OPEN;
        }
    }

    *mg_out = mg;
    *eg_out = eg;
}

/* A lone king against mating material (the strong side c, for c): the
 * known-win bonus, the lone king pushed to the edge (or to a corner of the
 * bishop's colour with bishop and knight), the kings together. */
static int ev_mop_up(const ch_pos_t *p, int c, int material)
{
    int weak = p->king[!c], strong = p->king[c];
    uint64_t mine = p->color[c];
    uint64_t bishops = p->type[CH_BISHOP] & mine, knights = p->type[CH_KNIGHT] & mine;
    int sc = material + EV_KNOWN_WIN;
    int only_bn = !(p->type[CH_QUEEN] & mine) && !(p->type[CH_ROOK] & mine) && !(p->type[CH_PAWN] & mine)
                  && ev_pop(bishops) == 1 && ev_pop(knights) == 1;
    if (only_bn) {
        /* a1 and h8 are dark, h1 and a8 light */
        int c1 = bishops & DARK_SQUARES ? 0 : 7, c2 = c1 ^ 63;
        int d = ev_min(ev_manhattan(weak, c1), ev_manhattan(weak, c2));
        sc += 40 * (7 - ev_min(d, 7)) + 10 * ev_centre_dist(weak);
    } else {
        sc += 30 * ev_centre_dist(weak);
    }
    sc += 10 * (14 - ev_manhattan(weak, strong));
    return sc;
}

/* The classical values: 100 / 320 / 330 / 500 / 950 scored 49% against
 * them over 300 node-limited games (30k nodes a move, paired openings), no
 * better, so the defaults stay the plain ones. */
void ch_params_default(ch_params_t *pp)
{
    pp->value[CH_NONE] = 0;
    pp->value[CH_PAWN] = 100;
    pp->value[CH_KNIGHT] = 300;
    pp->value[CH_BISHOP] = 300;
    pp->value[CH_ROOK] = 500;
    pp->value[CH_QUEEN] = 900;
    pp->value[CH_KING] = 0;
}

int32_t ch_evaluate(const ch_params_t *pp, const ch_pos_t *p)
{
    const int lim = VAL_PROVEN - 2;
    int npm[2], mat[2], pawns[2], phase = 0;
    for (int c = 0; c < 2; c++) {
        uint64_t mine = p->color[c];
        npm[c] = 0;
        for (int t = CH_KNIGHT; t <= CH_QUEEN; t++) npm[c] += ev_pop(p->type[t] & mine) * pp->value[t];
        pawns[c] = ev_pop(p->type[CH_PAWN] & mine);
        mat[c] = npm[c] + pawns[c] * pp->value[CH_PAWN];
    }
    phase = ev_pop(p->type[CH_KNIGHT] | p->type[CH_BISHOP]) + 2 * ev_pop(p->type[CH_ROOK])
            + 4 * ev_pop(p->type[CH_QUEEN]);
    if (phase > EV_PHASE_MAX) phase = EV_PHASE_MAX;

    /* a bare king against mating material */
    for (int c = 0; c < 2; c++) {
        uint64_t mine = p->color[c];
        if (ev_pop(p->color[!c]) != 1) continue; /* the other side has more than its king */
        uint64_t bishops = p->type[CH_BISHOP] & mine;
        int mating = (p->type[CH_QUEEN] & mine) || (p->type[CH_ROOK] & mine)
                     || (bishops && (p->type[CH_KNIGHT] & mine))
                     || ((bishops & DARK_SQUARES) && (bishops & ~DARK_SQUARES));
        if (!mating) continue;
        int sc = ev_mop_up(p, c, mat[c]);
        if (sc > lim) sc = lim;
        return p->side == c ? sc : -sc;
    }

    ev_view_t view;
    int mg[2], eg[2];
    for (int c = 0; c < 2; c++) {
        ev_make_view(p, c, &view);
        ev_side(&view, &mg[c], &eg[c]);
    }
    int pos = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (EV_PHASE_MAX - phase)) / EV_PHASE_MAX;
    int total = mat[0] - mat[1] + pos + (p->side == CH_WHITE ? EV_TEMPO : -EV_TEMPO);
    /* a king walking up the board while the enemy queen is on it, whatever
     * the phase says (the blended tables let it stroll from the middlegame
     * on); counted in its own frame */
    for (int c = 0; c < 2; c++) {
        if (!(p->type[CH_QUEEN] & p->color[!c])) continue;
        int rank = c == CH_WHITE ? p->king[c] >> 3 : 7 - (p->king[c] >> 3);
        if (rank > 1) total += (c == CH_WHITE ? -1 : 1) * EV_KING_EXPOSED * (rank - 1);
    }

    /* endgame scaling, for the side ahead */
    if (total) {
        int s = total > 0 ? CH_WHITE : CH_BLACK, w = !s;
        int minor = ev_max(pp->value[CH_KNIGHT], pp->value[CH_BISHOP]);
        if (!pawns[s] && npm[s] - npm[w] <= minor) {
            /* no pawns and at most a minor piece more: no mate to be forced */
            total /= npm[s] < pp->value[CH_ROOK] ? 32 : 4;
        } else if (!pawns[s] && !npm[w] && !pawns[w] && !(p->color[s] & ~(p->type[CH_KNIGHT] | p->type[CH_KING]))) {
            total /= 32; /* knights alone cannot force mate */
        } else {
            uint64_t wb = p->type[CH_BISHOP] & p->color[CH_WHITE], bb = p->type[CH_BISHOP] & p->color[CH_BLACK];
            uint64_t others = p->type[CH_KNIGHT] | p->type[CH_ROOK] | p->type[CH_QUEEN];
            if (!others && ev_pop(wb) == 1 && ev_pop(bb) == 1 && !(wb & DARK_SQUARES) != !(bb & DARK_SQUARES))
                total /= 2;
        }
    }
    if (total > lim) total = lim;
    if (total < -lim) total = -lim;
    return p->side == CH_WHITE ? total : -total;
}
