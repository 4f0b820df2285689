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
 * the squares around it, the squares there that only the king or queen
 * defends, and pawns storming it; threats on pieces, by pawns, minor
 * pieces, rooks, safe pawn pushes and safe checks, and on undefended pawns
 * (by the king too), and safe squares to attack the enemy queen from;
 * what knights and bishops, and rooks, attack, by the kind of victim (a
 * pawn only where no pawn defends it); pawns stopped by an enemy pawn on
 * the fifth and sixth ranks, and isolated or backward pawns no enemy pawn
 * faces; a queen in the enemy half where no enemy pawn can attack it;
 * pawns and pieces pinned to their king; squares of the enemy king's
 * flank in its camp attacked; rooks on files without own pawns next to
 * the enemy king; passers whose stop square is defended; knights a move
 * from an empty outpost;
 * squares both sides attack; a passer's free way, safe stop square, the
 * rook behind it and a passer beside it; space behind the pawns; minor
 * pieces behind a pawn and near their king, bishops on the long diagonals,
 * rooks on a queen's file or shut in by their king; knights worth more and
 * rooks less with more own pawns; the king's distance to the pawns and a
 * flank without them; and the move itself (tempo).
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
#include "games/chess/ch_nn.h"
#include "core/value.h"

#include <stdio.h>
#include <string.h>

#define EV_PHASE_MAX CH_EVAL_PHASE_MAX
#define EV_KING_ATTACK_CAP 300 /* the most the pressure on a king can score */
#define EV_KNOWN_WIN 1000      /* mating material against a bare king */

#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define DARK_SQUARES 0xAA55AA55AA55AA55ull
#define CENTRE 0x0000001818000000ull      /* d4, e4, d5, e5 */
#define SPACE_AREA 0x000000003C3C3C00ull  /* files c-f, ranks 2-4 */

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

#include "games/chess/ch_eval_weights.h"

_Static_assert(sizeof ch_eval_weights / sizeof *ch_eval_weights == CH_EW_N, "ch_eval_weights.h: a weight for every index");

/* Mobility: per attacked square, around a typical count. */
static const int8_t mob_mid[7] = {[CH_KNIGHT] = 4, [CH_BISHOP] = 6, [CH_ROOK] = 7, [CH_QUEEN] = 13};
/* Where each piece's row of the mobility table starts (CH_EW_MOB_TAB +). */
static const int8_t mob_tab_at[7] = {[CH_KNIGHT] = 0, [CH_BISHOP] = 9, [CH_ROOK] = 23, [CH_QUEEN] = 38};
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

/* A side's attacks (its own frame): all of them, and by piece type. */
typedef struct ev_att {
    uint64_t all, by[7];
    uint64_t passers;   /* the side's passed pawns */
    int kd_attackers[4];   /* (the king danger) pieces by kind attacking the enemy king's squares */
    int kd_hits;           /* and their attacks there */
} ev_att_t;

/* A term: n times weight i, into mg and eg, and into the trace when one is
 * kept (sgn: +1 for White, -1 for Black). */
#define EV_TERM(i, n)                              \
    do {                                           \
        int n_ = (n);                              \
        mg += W[i][0] * n_;                        \
        eg += W[i][1] * n_;                        \
        if (tr) tr->coef[i] += sgn * (float)n_;    \
    } while (0)

/* One side's positional terms (all but material, tempo and the exposed
 * king). Inlined twice: without a trace (tr NULL, folded away) and with. */
static inline __attribute__((always_inline)) void ev_side(const ev_view_t *v, const int16_t (*W)[2],
                                                           ch_eval_trace_t *tr, float sgn, int *mg_out, int *eg_out,
                                                           ev_att_t *A)
{
    int mg = 0, eg = 0;
    const uint64_t pawns = v->own[CH_PAWN], opp_pawns = v->opp[CH_PAWN];

    /* piece-square tables */
    for (int t = CH_PAWN; t <= CH_KING; t++)
        for (uint64_t b = v->own[t]; b; b &= b - 1) EV_TERM(CH_EW_PST + t * 64 + (ev_lsb(b) ^ 56), 1);

    /* pawn structure */
    uint64_t own_files = ev_south_fill(ev_north_fill(pawns));
    uint64_t behind_own = ev_south_fill(pawns >> 8);      /* squares behind own pawns */
    int doubled = ev_pop(pawns & behind_own);
    int isolated = ev_pop(pawns & ~ev_sideways(own_files));
    if (doubled) EV_TERM(CH_EW_DOUBLED, doubled);
    if (isolated) EV_TERM(CH_EW_ISOLATED, isolated);

    uint64_t opp_front = ev_south_fill(opp_pawns >> 8);   /* files ahead of us held by them */
    uint64_t blocked = opp_front | ev_sideways(opp_front) | behind_own;
    const int opp_has_pieces = (v->opp[CH_KNIGHT] | v->opp[CH_BISHOP] | v->opp[CH_ROOK] | v->opp[CH_QUEEN]) != 0;
    int unstoppable = 0;
    A->passers = pawns & ~blocked;
    for (uint64_t b = pawns & ~blocked; b; b &= b - 1) {
        int s = ev_lsb(b), r = s >> 3, f = s & 7;
        EV_TERM(CH_EW_PASSED + r, 1);
        if ((v->king >> 3) > r && ev_abs((v->king & 7) - f) <= 1) EV_TERM(CH_EW_KING_LEADS, 1);
        const uint64_t path = ev_north_fill(1ull << s) & ~(1ull << s);   /* its way to promotion */
        /* the first piece behind it on its file: a rook of either side */
        const uint64_t behind = ev_south_fill(1ull << s) & ~(1ull << s) & v->occ;
        if (behind) {
            const uint64_t first = 1ull << (63 - __builtin_clzll(behind));
            if (first & v->own[CH_ROOK]) EV_TERM(CH_EW_ROOK_BEHIND, 1);
            else if (first & v->opp[CH_ROOK]) EV_TERM(CH_EW_ROOK_BEHIND_OPP, 1);
        }
        if (r >= 3) {
            int stop = s + 8;
            if (!(path & v->occ)) EV_TERM(CH_EW_PASSER_FREE, r - 2);
            EV_TERM(CH_EW_PASSER_OPP_KING, ev_cheb(v->opp_king, stop) * (r - 2));
            EV_TERM(CH_EW_PASSER_OWN_KING, ev_cheb(v->king, stop) * (r - 2));
            if (v->occ >> stop & 1) EV_TERM(CH_EW_PASSER_BLOCKED, r - 2);
        }
        if (!opp_has_pieces) {
            /* the rule of the square: the lone king cannot reach the queening square */
            int dist = 7 - r - (r == 1);
            int king_dist = ev_cheb(v->opp_king, 56 + f) - !v->to_move;
            if (!(path & v->occ) && king_dist > dist) unstoppable = 1;
        }
    }
    if (unstoppable) EV_TERM(CH_EW_UNSTOPPABLE, 1);
    if (A->passers) {
        const uint64_t pf = ev_south_fill(ev_north_fill(A->passers));   /* the passers' files */
        int n = ev_pop(A->passers & ev_sideways(pf));
        if (n) EV_TERM(CH_EW_PASSERS_CONNECTED, n);
    }

    /* bishop pair */
    if ((v->own[CH_BISHOP] & DARK_SQUARES) && (v->own[CH_BISHOP] & ~DARK_SQUARES)) EV_TERM(CH_EW_BISHOP_PAIR, 1);

    /* rooks on open and half-open files, on an enemy queen's file, and on
     * the seventh rank */
    for (uint64_t b = v->own[CH_ROOK]; b; b &= b - 1) {
        uint64_t file = FILE_A << (ev_lsb(b) & 7);
        if (!(file & pawns)) EV_TERM(file & opp_pawns ? CH_EW_ROOK_HALF : CH_EW_ROOK_OPEN, 1);
        if (file & v->opp[CH_QUEEN]) EV_TERM(CH_EW_ROOK_QUEEN_FILE, 1);
    }
    int seventh = ev_pop(v->own[CH_ROOK] & 0x00FF000000000000ull);
    if (seventh) EV_TERM(CH_EW_ROOK_SEVENTH, seventh);
    /* outposts: ranks 4-6, defended by a pawn, out of every enemy pawn's
     * reach (none on the next files ahead) */
    uint64_t pawn_att = (pawns << 9 & ~FILE_A) | (pawns << 7 & ~FILE_H);
    uint64_t opp_reach = ev_sideways(opp_front);
    int outposts = ev_pop((v->own[CH_KNIGHT] | v->own[CH_BISHOP]) & 0x0000FFFFFF000000ull & pawn_att & ~opp_reach);
    if (outposts) EV_TERM(CH_EW_OUTPOST, outposts);
    {
        const uint64_t holes = 0x0000FFFFFF000000ull & pawn_att & ~opp_reach & ~v->occ;
        int reach = 0;
        for (uint64_t b = v->own[CH_KNIGHT]; b; b &= b - 1) reach += (ch_knight_att(ev_lsb(b)) & holes) != 0;
        if (reach) EV_TERM(CH_EW_OUTPOST_REACH, reach);
        /* rooks on files without own pawns beside (or on) the enemy king's */
        const uint64_t kfiles = FILE_A << (v->opp_king & 7) | ev_sideways(FILE_A << (v->opp_king & 7));
        int rk = 0;
        for (uint64_t b = v->own[CH_ROOK] & kfiles; b; b &= b - 1) rk += !(FILE_A << (ev_lsb(b) & 7) & pawns);
        if (rk) EV_TERM(CH_EW_ROOK_KING_FILE, rk);
        /* own pieces pinned to the king by an enemy slider: the one piece
         * between them (the rays from both ends, each stopped by the other,
         * meet on the squares between) */
        const uint64_t diag = v->opp[CH_BISHOP] | v->opp[CH_QUEEN], line = v->opp[CH_ROOK] | v->opp[CH_QUEEN];
        const uint64_t kb = 1ull << v->king, kdiag = ch_bishop_att(v->king, 0);
        uint64_t snipers = (kdiag & diag) | (ch_rook_att(v->king, 0) & line);
        for (; snipers; snipers &= snipers - 1) {
            const int sq = ev_lsb(snipers);
            const uint64_t sb = 1ull << sq;
            const uint64_t btw = kdiag >> sq & 1 ? ch_bishop_att(v->king, sb) & ch_bishop_att(sq, kb)
                                                                      : ch_rook_att(v->king, sb) & ch_rook_att(sq, kb);
            const uint64_t blk = btw & v->occ;
            if (blk && !(blk & (blk - 1)) && (blk & v->own[0]))
                for (int t = CH_PAWN; t <= CH_QUEEN; t++)
                    if (blk & v->own[t]) EV_TERM(CH_EW_PINNED + t - CH_PAWN, 1);
        }
    }
    /* minor pieces behind a pawn, and bishops on the long diagonals
     * (seeing two centre squares through the pawns) */
    const uint64_t all_pawns = pawns | opp_pawns;
    int shielded = ev_pop((v->own[CH_KNIGHT] | v->own[CH_BISHOP]) & all_pawns >> 8);
    if (shielded) EV_TERM(CH_EW_MINOR_SHIELDED, shielded);
    for (uint64_t b = v->own[CH_BISHOP]; b; b &= b - 1)
        if (ev_pop(ch_bishop_att(ev_lsb(b), all_pawns) & CENTRE) >= 2) EV_TERM(CH_EW_LONG_DIAGONAL, 1);
    /* the king: its distance to the nearest pawn, and a flank without pawns */
    if (all_pawns) {
        int d = 7;
        for (uint64_t b = all_pawns; b && d > 1; b &= b - 1) d = ev_min(d, ev_cheb(v->king, ev_lsb(b)));
        EV_TERM(CH_EW_KING_PAWN_DIST, d);
    }
    {
        static const uint64_t flank[8] = {
            0x0F0F0F0F0F0F0F0Full, 0x0F0F0F0F0F0F0F0Full, 0x0F0F0F0F0F0F0F0Full, 0x3C3C3C3C3C3C3C3Cull,
            0x3C3C3C3C3C3C3C3Cull, 0xF0F0F0F0F0F0F0F0ull, 0xF0F0F0F0F0F0F0F0ull, 0xF0F0F0F0F0F0F0F0ull,
        };
        if (!(all_pawns & flank[v->king & 7])) EV_TERM(CH_EW_PAWNLESS_FLANK, 1);
    }
    /* pieces' worth beyond the parameters' values; knights worth more with
     * more own pawns, rooks less */
    for (int t = CH_PAWN; t <= CH_QUEEN; t++) {
        int k = ev_pop(v->own[t]);
        if (k) EV_TERM(CH_EW_WORTH + t - CH_PAWN, k);
    }
    {
        const int np = ev_pop(pawns) - 5;
        int k;
        if (np && (k = ev_pop(v->own[CH_KNIGHT]))) EV_TERM(CH_EW_KNIGHT_PAWNS, k * np);
        if (np && (k = ev_pop(v->own[CH_ROOK]))) EV_TERM(CH_EW_ROOK_PAWNS, k * np);
    }

    /* mobility and the pressure on the enemy king */
    uint64_t opp_pawn_att = (opp_pawns >> 7 & ~FILE_A) | (opp_pawns >> 9 & ~FILE_H);
    uint64_t area = ~v->own[0] & ~opp_pawn_att;
    /* space: the squares on files c-f of ranks 2-4 that no pawn holds nor
     * an enemy pawn attacks, those behind an own pawn twice, by the pieces */
    {
        uint64_t safe = SPACE_AREA & ~pawns & ~opp_pawn_att;
        uint64_t behind = pawns >> 8 | pawns >> 16 | pawns >> 24;
        int pcs = ev_pop(v->own[CH_KNIGHT] | v->own[CH_BISHOP] | v->own[CH_ROOK] | v->own[CH_QUEEN]);
        int space = (ev_pop(safe) + ev_pop(safe & behind)) * pcs / 4;
        if (space) EV_TERM(CH_EW_SPACE, space);
    }
    uint64_t zone = ch_king_att(v->opp_king) | 1ull << v->opp_king;
    int attackers = 0, pressure = 0;
    A->by[CH_PAWN] = pawn_att;
    A->by[CH_KING] = ch_king_att(v->king);
    A->all = pawn_att | A->by[CH_KING];
    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++)
        for (uint64_t b = v->own[t]; b; b &= b - 1) {
            const int s = ev_lsb(b);
            uint64_t att = ev_attacks(t, s, v->occ);
            A->by[t] |= att;
            int k = ev_pop(att & area);
            EV_TERM(CH_EW_MOB + t, k - mob_mid[t]);
            EV_TERM(CH_EW_MOB_TAB + mob_tab_at[t] + k, 1);
            if (t <= CH_BISHOP) EV_TERM(CH_EW_PROTECTOR + t - CH_KNIGHT, ev_cheb(s, v->king));
            /* a rook of few squares shut in on the first rank between its king and the corner */
            if (t == CH_ROOK && k <= 3 && s < 8 && v->king < 8 && ((v->king & 7) < 4) == (s < v->king))
                EV_TERM(CH_EW_ROOK_TRAPPED, 1);
            uint64_t z = att & zone;
            if (z) {
                attackers++;
                pressure += ev_pop(z) * king_att_w[t];
                A->kd_attackers[t - CH_KNIGHT]++;
                A->kd_hits += ev_pop(z);
            }
        }
    if (attackers >= 2 && v->own[CH_QUEEN]) {
        int a = ev_min(pressure * pressure / 4, EV_KING_ATTACK_CAP);
        mg += a * W[CH_EW_KING_ATTACK][0] / 100;
        eg += a * W[CH_EW_KING_ATTACK][1] / 100;
        if (tr) tr->coef[CH_EW_KING_ATTACK] += sgn * (float)a / 100;
    }

    /* the king's pawn shelter, on its first two ranks */
    int kr = v->king >> 3, kf = v->king & 7;
    if (kr <= 1) {
        uint64_t ahead = ~0ull << (kr + 1) * 8;
        for (int f = ev_max(kf - 1, 0); f <= ev_min(kf + 1, 7); f++) {
            int near = (kr + 1) * 8 + f, far = (kr + 2) * 8 + f;
            if (pawns >> near & 1)
                EV_TERM(CH_EW_SHELTER_NEAR, 1);
            else if (pawns >> far & 1)
                EV_TERM(CH_EW_SHELTER_FAR, 1);
            else if (!(pawns & ahead & FILE_A << f))
                EV_TERM(CH_EW_SHELTER_OPEN, 1);
        }
    }

    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++) {
        A->all |= A->by[t];
        int z = ev_pop(A->by[t] & zone);
        if (z) EV_TERM(CH_EW_KING_ZONE + t - CH_KNIGHT, z);
    }
    /* pawns side by side, defended, and backward (isolated ones apart) */
    int n = ev_pop(pawns & ev_sideways(pawns));
    if (n) EV_TERM(CH_EW_PHALANX, n);
    if ((n = ev_pop(pawns & pawn_att))) EV_TERM(CH_EW_SUPPORTED, n);
    uint64_t backward = pawns & ~ev_sideways(ev_north_fill(pawns)) & ev_sideways(own_files) & opp_pawn_att >> 8;
    if ((n = ev_pop(backward))) EV_TERM(CH_EW_BACKWARD, n);
    {
        const uint64_t weak = (pawns & ~ev_sideways(own_files)) | backward;
        if ((n = ev_pop(weak & ~opp_front))) EV_TERM(CH_EW_WEAK_UNOPPOSED, n);
        const uint64_t stopped = pawns & opp_pawns >> 8;
        if ((n = ev_pop(stopped & 0x000000FF00000000ull))) EV_TERM(CH_EW_BLOCKED_PAWN, n);
        if ((n = ev_pop(stopped & 0x0000FF0000000000ull))) EV_TERM(CH_EW_BLOCKED_PAWN + 1, n);
        /* a queen in the enemy half where no enemy pawn can come to attack it */
        const uint64_t opp_span = ev_sideways(ev_south_fill(opp_pawns >> 8));
        if ((n = ev_pop(v->own[CH_QUEEN] & 0xFFFFFFFF00000000ull & ~opp_span))) EV_TERM(CH_EW_QUEEN_INFILTRATION, n);
    }
    /* bishops hemmed in by their own pawns */
    for (uint64_t b = v->own[CH_BISHOP]; b; b &= b - 1) {
        uint64_t colour = (1ull << ev_lsb(b)) & DARK_SQUARES ? DARK_SQUARES : ~DARK_SQUARES;
        if ((n = ev_pop(pawns & colour))) EV_TERM(CH_EW_BAD_BISHOP, n);
    }
    *mg_out = mg;
    *eg_out = eg;
}

/* The threats of side v (its frame) on the other's pieces, given both
 * sides' attacks (the other's, att_them, already in v's frame). */
static inline __attribute__((always_inline)) void ev_threats(const ev_view_t *v, const int16_t (*W)[2],
                                                              ch_eval_trace_t *tr, float sgn, const ev_att_t *A,
                                                              uint64_t att_them, uint64_t guard_them, int *mg_io,
                                                              int *eg_io)
{
    int mg = *mg_io, eg = *eg_io;
    const uint64_t pieces = v->opp[CH_KNIGHT] | v->opp[CH_BISHOP] | v->opp[CH_ROOK] | v->opp[CH_QUEEN];
    const uint64_t heavy = v->opp[CH_ROOK] | v->opp[CH_QUEEN];
    int n = ev_pop(A->by[CH_PAWN] & pieces);
    if (n) EV_TERM(CH_EW_THREAT_PAWN, n);
    if ((n = ev_pop((A->by[CH_KNIGHT] | A->by[CH_BISHOP]) & heavy))) EV_TERM(CH_EW_THREAT_MINOR, n);
    if ((n = ev_pop(A->by[CH_ROOK] & v->opp[CH_QUEEN]))) EV_TERM(CH_EW_THREAT_ROOK, n);
    const uint64_t opp_pawns = v->opp[CH_PAWN];
    const uint64_t opp_pawn_att = (opp_pawns >> 7 & ~FILE_A) | (opp_pawns >> 9 & ~FILE_H);
    {
        /* by victim: anything but a pawn its pawns defend */
        const uint64_t minor = A->by[CH_KNIGHT] | A->by[CH_BISHOP];
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) {
            const uint64_t victims = t == CH_PAWN ? v->opp[t] & ~opp_pawn_att : v->opp[t];
            if ((n = ev_pop(minor & victims))) EV_TERM(CH_EW_BY_MINOR + t - CH_PAWN, n);
            if ((n = ev_pop(A->by[CH_ROOK] & victims))) EV_TERM(CH_EW_BY_ROOK + t - CH_PAWN, n);
        }
    }
    if ((n = ev_pop(A->all & pieces & ~att_them))) EV_TERM(CH_EW_HANGING, n);
    if ((n = ev_pop(A->all & v->opp[CH_PAWN] & ~att_them))) EV_TERM(CH_EW_HANGING_PAWN, n);
    if ((n = ev_pop(A->by[CH_KING] & (v->opp[CH_PAWN] | pieces) & ~att_them))) EV_TERM(CH_EW_THREAT_KING, n);
    /* safe checks: squares a piece could give check from, attacked by one
     * of its kind, neither held by an own piece nor attacked by the other side */
    const uint64_t safe = ~v->own[0] & ~att_them;
    const uint64_t bch = ch_bishop_att(v->opp_king, v->occ), rch = ch_rook_att(v->opp_king, v->occ);
    const uint64_t from[4] = { ch_knight_att(v->opp_king), bch, rch, bch | rch };
    int kd[CH_KD_N] = { [CH_KD_ONE] = 1, [CH_KD_HITS] = A->kd_hits, [CH_KD_NO_QUEEN] = !v->own[CH_QUEEN] };
    uint64_t unsafe = 0;
    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++) {
        const uint64_t c = A->by[t] & from[t - CH_KNIGHT];
        kd[CH_KD_ATTACKER + t - CH_KNIGHT] = A->kd_attackers[t - CH_KNIGHT];
        if ((n = ev_pop(c & safe))) {
            EV_TERM(CH_EW_SAFE_CHECK + t - CH_KNIGHT, n);
            kd[CH_KD_SAFE_CHECK + t - CH_KNIGHT] = 1;
        }
        unsafe |= c & ~safe;
    }
    kd[CH_KD_UNSAFE_CHECK] = ev_pop(unsafe);
    /* pawns storming the enemy king, while it stays on its first two ranks */
    const uint64_t pawns = v->own[CH_PAWN];
    if ((v->opp_king >> 3) >= 6) {
        int kf = v->opp_king & 7;
        uint64_t files = FILE_A << kf;
        files |= ev_sideways(files);
        for (int r = 3; r <= 5; r++)
            if ((n = ev_pop(pawns & files & 0xFFull << 8 * r))) EV_TERM(CH_EW_STORM + r - 3, n);
    }
    /* squares around the enemy king it can only hold with the king or queen */
    const uint64_t zone = ch_king_att(v->opp_king);
    if ((n = ev_pop(zone & A->all & ~guard_them))) EV_TERM(CH_EW_WEAK_ZONE, n);
    kd[CH_KD_WEAK] = n;
    /* a pawn push to a square the enemy does not attack (or we defend) that
     * attacks an enemy piece */
    uint64_t push = pawns << 8 & ~v->occ;
    push |= (push & 0xFF0000ull) << 8 & ~v->occ;
    push &= ~att_them | A->all;
    uint64_t push_att = (push << 9 & ~FILE_A) | (push << 7 & ~FILE_H);
    if ((n = ev_pop(push_att & pieces))) EV_TERM(CH_EW_PUSH_THREAT, n);
    /* squares both sides attack that no enemy pawn defends */
    if ((n = ev_pop(A->all & att_them & ~opp_pawn_att))) EV_TERM(CH_EW_RESTRICTED, n);
    /* squares from which a piece would attack the enemy's one queen, safe
     * (no own piece there, not attacked by the enemy, or attacked and defended) */
    if (v->opp[CH_QUEEN] && !(v->opp[CH_QUEEN] & (v->opp[CH_QUEEN] - 1))) {
        const int q = ev_lsb(v->opp[CH_QUEEN]);
        const uint64_t ok = ~v->own[0] & ~opp_pawn_att & (~att_them | A->all);
        if ((n = ev_pop(ok & ((A->by[CH_BISHOP] & ch_bishop_att(q, v->occ)) | (A->by[CH_ROOK] & ch_rook_att(q, v->occ))))))
            EV_TERM(CH_EW_SLIDER_ON_QUEEN, n);
        if ((n = ev_pop(ok & A->by[CH_KNIGHT] & ch_knight_att(q)))) EV_TERM(CH_EW_KNIGHT_ON_QUEEN, n);
    }
    /* passers with a stop square out of the enemy's reach (their free way:
     * ev_side) */
    for (uint64_t b = A->passers & ~0xFFFFFFull; b; b &= b - 1) {
        int s = ev_lsb(b);
        if (!(att_them >> (s + 8) & 1)) EV_TERM(CH_EW_PASSER_SAFE, (s >> 3) - 2);
        if (A->all >> (s + 8) & 1) EV_TERM(CH_EW_PASSER_DEFENDED, (s >> 3) - 2);
    }
    /* the enemy king's flank in its camp (its first five ranks) */
    {
        static const uint64_t flank[8] = {
            0x0707070707070707ull, 0x0F0F0F0F0F0F0F0Full, 0x1E1E1E1E1E1E1E1Eull, 0x3C3C3C3C3C3C3C3Cull,
            0x3C3C3C3C3C3C3C3Cull, 0x7878787878787878ull, 0xF0F0F0F0F0F0F0F0ull, 0xE0E0E0E0E0E0E0E0ull,
        };
        if ((n = ev_pop(A->all & flank[v->opp_king & 7] & 0xFFFFFFFFFF000000ull))) EV_TERM(CH_EW_KING_FLANK, n);
        kd[CH_KD_FLANK] = n;
    }
    /* the king danger, from what is counted above */
    {
        int d = 0;
        for (int j = 0; j < CH_KD_N; j++) d += W[CH_EW_KD + j][0] * kd[j];
        if (d > 0) {
            d = ev_min(d, CH_KD_MAX);
            mg += d * d / 4096;
            eg += d / 16;
        }
        if (tr)
            for (int j = 0; j < CH_KD_N; j++) tr->kd[sgn > 0 ? 0 : 1][j] = (float)kd[j];
    }
    *mg_io = mg;
    *eg_io = eg;
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
    pp->net = 1;
}

/* The evaluation, with a trace (tr) or without (NULL, folded away). */
static inline __attribute__((always_inline)) int32_t ev_eval(const ch_params_t *pp, const ch_pos_t *p,
                                                              ch_eval_trace_t *tr)
{
    const int16_t (*W)[2] = ch_eval_weights;
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
    if (tr) {
        memset(tr, 0, sizeof *tr);
        tr->phase = phase;
        tr->scale = 1;
        tr->offset = (float)(mat[0] - mat[1]);
    }

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
        return p->side == c ? sc : -sc;   /* (tr->linear stays 0) */
    }
    if (tr) tr->linear = 1;

    ev_view_t view[2];
    int mg[2], eg[2];
    ev_att_t att[2];
    memset(att, 0, sizeof att);
    for (int c = 0; c < 2; c++) {
        ev_make_view(p, c, &view[c]);
        ev_side(&view[c], W, tr, c == CH_WHITE ? 1.0f : -1.0f, &mg[c], &eg[c], &att[c]);
    }
    /* threats: each side's attacks on the other's pieces (the other's
     * attacks turned into this side's frame: the frames differ by a flip) */
    for (int c = 0; c < 2; c++) {
        const ev_att_t *o = &att[!c];
        uint64_t guard = o->by[CH_PAWN] | o->by[CH_KNIGHT] | o->by[CH_BISHOP] | o->by[CH_ROOK];
        ev_threats(&view[c], W, tr, c == CH_WHITE ? 1.0f : -1.0f, &att[c], ev_flip(o->all), ev_flip(guard), &mg[c],
                   &eg[c]);
    }
    /* a king walking up the board while the enemy queen is on it, whatever
     * the phase says (the blended tables let it stroll from the middlegame
     * on); counted in its own frame */
    for (int c = 0; c < 2; c++) {
        if (!(p->type[CH_QUEEN] & p->color[!c])) continue;
        int rank = c == CH_WHITE ? p->king[c] >> 3 : 7 - (p->king[c] >> 3);
        if (rank > 1) {
            mg[c] += W[CH_EW_KING_EXPOSED][0] * (rank - 1);
            eg[c] += W[CH_EW_KING_EXPOSED][1] * (rank - 1);
            if (tr) tr->coef[CH_EW_KING_EXPOSED] += (c == CH_WHITE ? 1.0f : -1.0f) * (float)(rank - 1);
        }
    }
    /* the move */
    mg[p->side] += W[CH_EW_TEMPO][0];
    eg[p->side] += W[CH_EW_TEMPO][1];
    if (tr) tr->coef[CH_EW_TEMPO] += p->side == CH_WHITE ? 1.0f : -1.0f;

    int pos = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (EV_PHASE_MAX - phase)) / EV_PHASE_MAX;
    int total = mat[0] - mat[1] + pos;

    /* endgame scaling, for the side ahead */
    if (total) {
        int s = total > 0 ? CH_WHITE : CH_BLACK, w = !s, div = 1;
        int minor = ev_max(pp->value[CH_KNIGHT], pp->value[CH_BISHOP]);
        if (!pawns[s] && npm[s] - npm[w] <= minor) {
            /* no pawns and at most a minor piece more: no mate to be forced */
            div = npm[s] < pp->value[CH_ROOK] ? 32 : 4;
        } else if (!pawns[s] && !npm[w] && !pawns[w] && !(p->color[s] & ~(p->type[CH_KNIGHT] | p->type[CH_KING]))) {
            div = 32; /* knights alone cannot force mate */
        } else {
            uint64_t wb = p->type[CH_BISHOP] & p->color[CH_WHITE], bb = p->type[CH_BISHOP] & p->color[CH_BLACK];
            uint64_t others = p->type[CH_KNIGHT] | p->type[CH_ROOK] | p->type[CH_QUEEN];
            if (!others && ev_pop(wb) == 1 && ev_pop(bb) == 1 && !(wb & DARK_SQUARES) != !(bb & DARK_SQUARES))
                div = 2;
        }
        total /= div;
        if (tr) tr->scale = 1.0f / (float)div;
    }
    if (total > lim) total = lim;
    if (total < -lim) total = -lim;
    return p->side == CH_WHITE ? total : -total;
}

int32_t ch_evaluate(const ch_params_t *pp, const ch_pos_t *p)
{
    /* (a bare king: the terms drive it to the edge, as a network of
       positions from games has rarely seen) */
    if (!pp->net || ev_pop(p->color[CH_WHITE]) == 1 || ev_pop(p->color[CH_BLACK]) == 1) return ev_eval(pp, p, NULL);
    const int32_t lim = VAL_PROVEN - 2, v = ch_nn_eval(ch_nn_builtin(), p);
    return v > lim ? lim : v < -lim ? -lim : v;
}

int32_t ch_eval_trace(const ch_params_t *pp, const ch_pos_t *p, ch_eval_trace_t *tr) { return ev_eval(pp, p, tr); }

double ch_kd_blend(double d, int phase, double *slope)
{
    if (d <= 0 || d > CH_KD_MAX) {   /* (beyond the cap: flat) */
        if (slope) *slope = 0;
        if (d <= 0) return 0;
        d = CH_KD_MAX;
    } else if (slope) {
        *slope = phase * 2 * d / 4096 + (CH_EVAL_PHASE_MAX - phase) / 16.0;
    }
    return phase * d * d / 4096 + (CH_EVAL_PHASE_MAX - phase) * d / 16;
}

void ch_eval_weight_name(int i, char *buf, size_t n)
{
    static const char *const types[7] = { "-", "pawn", "knight", "bishop", "rook", "queen", "king" };
    static const char *const single[] = {
        "doubled pawn", "isolated pawn", "bishop pair", "rook on an open file", "rook on a half-open file",
        "shelter: a pawn one rank ahead", "shelter: a pawn two ranks ahead", "shelter: no pawn ahead",
        "own king ahead of a passer", "passer: enemy king to its stop, per rank", "passer: own king to its stop, per rank",
        "unstoppable passer", "king attack, per 100 of pressure", "king exposed to a queen, per rank", "tempo",
        "pawn's worth beyond its value", "knight's worth beyond its value", "bishop's worth beyond its value",
        "rook's worth beyond its value", "queen's worth beyond its value", "threat: a pawn attacks a piece",
        "threat: a minor piece attacks a rook or queen", "threat: a rook attacks a queen",
        "threat: a piece attacked and not defended", "passer: its stop square occupied, per rank",
        "rook on the seventh rank", "outpost for a knight or bishop",
        "king zone: a square attacked by a knight",
        "king zone: a square attacked by a bishop",
        "king zone: a square attacked by a rook",
        "king zone: a square attacked by a queen",
        "safe check by a knight",
        "safe check by a bishop",
        "safe check by a rook",
        "safe check by a queen",
        "pawn with a pawn beside it",
        "pawn defended by a pawn",
        "backward pawn",
        "bad bishop: per own pawn on its colour",
    };
    static const char *const late[] = {
        "king zone: a square held by no pawn or piece but the king or queen",
        "threat: a safe pawn push attacks a piece",
        "passer: a free way to promotion, per rank",
        "passer: its stop square not attacked, per rank",
        "passer: an own rook behind it",
        "passer: an enemy rook behind it",
        "king: distance to the nearest pawn",
        "space, by the pieces",
        "knight or bishop behind a pawn",
        "knight: distance to the own king",
        "bishop: distance to the own king",
        "threat: the king attacks an undefended pawn or piece",
        "threat: a pawn attacked and not defended",
        "king on a flank without pawns",
        "rook on the file of an enemy queen",
        "bishop on a long diagonal",
        "rook trapped by its own king",
        "knight, per own pawn above five",
        "rook, per own pawn above five",
        "a square both sides attack, no enemy pawn defends",
        "threat: a safe square a bishop or rook attacks the enemy queen from",
        "threat: a safe square a knight attacks the enemy queen from",
        "passer with an own passer on a next file",
        "threat: a knight or bishop attacks a pawn", "threat: a knight or bishop attacks a knight",
        "threat: a knight or bishop attacks a bishop", "threat: a knight or bishop attacks a rook",
        "threat: a knight or bishop attacks a queen",
        "threat: a rook attacks a pawn", "threat: a rook attacks a knight", "threat: a rook attacks a bishop",
        "threat: a rook attacks a rook", "threat: a rook attacks a queen",
        "pawn blocked by an enemy pawn, rank 5", "pawn blocked by an enemy pawn, rank 6",
        "isolated or backward pawn no enemy pawn faces",
        "queen past the middle, out of the enemy pawns' reach",
        "pinned to the king: a pawn", "pinned to the king: a knight", "pinned to the king: a bishop",
        "pinned to the king: a rook", "pinned to the king: a queen",
        "king flank: a square of the enemy king's camp attacked",
        "rook on a file without own pawns next to the enemy king",
        "passer: its stop square defended, per rank",
        "knight a move from an empty outpost",
        "king danger: one", "king danger: a knight attacking", "king danger: a bishop attacking",
        "king danger: a rook attacking", "king danger: a queen attacking", "king danger: an attack on its squares",
        "king danger: a safe knight check", "king danger: a safe bishop check", "king danger: a safe rook check",
        "king danger: a safe queen check", "king danger: an unsafe check square", "king danger: a weak square",
        "king danger: no queen", "king danger: an attack on its flank",
    };
    _Static_assert(sizeof single / sizeof *single == CH_EW_MOB_TAB - CH_EW_DOUBLED, "a name for each single weight");
    _Static_assert(sizeof late / sizeof *late == CH_EW_N - CH_EW_STORM - 3, "a name for each late weight");
    if (i < 0 || i >= CH_EW_N) snprintf(buf, n, "?");
    else if (i < CH_EW_PASSED) {
        int sq = (i - CH_EW_PST) % 64;   /* as drawn: rank 8 first */
        snprintf(buf, n, "piece-square %s %c%d", types[(i - CH_EW_PST) / 64], 'a' + sq % 8, 8 - sq / 8);
    } else if (i < CH_EW_MOB) snprintf(buf, n, "passed pawn, rank %d", i - CH_EW_PASSED + 1);
    else if (i < CH_EW_DOUBLED) snprintf(buf, n, "mobility %s", types[i - CH_EW_MOB]);
    else if (i < CH_EW_MOB_TAB) snprintf(buf, n, "%s", single[i - CH_EW_DOUBLED]);
    else if (i >= CH_EW_STORM + 3) snprintf(buf, n, "%s", late[i - CH_EW_STORM - 3]);
    else if (i >= CH_EW_STORM) snprintf(buf, n, "pawn storm, rank %d", i - CH_EW_STORM + 4);
    else {
        int t = CH_QUEEN, k = i - CH_EW_MOB_TAB;
        while (k < mob_tab_at[t]) t--;
        snprintf(buf, n, "mobility %s, %d square%s", types[t], k - mob_tab_at[t], k - mob_tab_at[t] == 1 ? "" : "s");
    }
}
