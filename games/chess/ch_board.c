/* Chess rules: attack tables, legal move generation (pins and check masks,
 * no make-and-test), move counting for perft's last ply, and playing a
 * move. The attack tables are built here and read by ch.h's inline
 * functions. */
#include <pthread.h>
#include <string.h>

#include "games/chess/ch.h"

/* ---- tables (built once, read-only after) ---- */

ch_att_tables_t ch_att_tab;   /* (ch.h: the attacks, read inline) */
static uint64_t ch_between[64][64];   /* squares strictly between two aligned squares */
static uint64_t ch_line[64][64];      /* the whole line through two aligned squares */
/* Zobrist keys */
static uint64_t ch_zpiece[16][64], ch_zside, ch_zcastle[16], ch_zep[8];
static pthread_once_t ch_once = PTHREAD_ONCE_INIT;

static const int ch_dr[8] = { 1, -1, 0, 0, 1, -1, 1, -1 };
static const int ch_df[8] = { 0, 0, 1, -1, 1, -1, -1, 1 };

static uint64_t ch_slide(int sq, uint64_t occ, int d0, int d1)
{
    uint64_t a = 0;
    for (int d = d0; d < d1; d++) {
        int r = sq / 8 + ch_dr[d], f = sq % 8 + ch_df[d];
        while (r >= 0 && r < 8 && f >= 0 && f < 8) {
            a |= 1ull << (r * 8 + f);
            if (occ >> (r * 8 + f) & 1) break;
            r += ch_dr[d];
            f += ch_df[d];
        }
    }
    return a;
}

static uint64_t ch_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ z >> 27) * 0x94d049bb133111ebull;
    return z ^ z >> 31;
}

#ifdef CH_PEXT
/* The relevant occupancy of a slider: its rays without their last square. */
static uint64_t ch_relevant(int sq, int d0, int d1)
{
    uint64_t m = 0;
    for (int d = d0; d < d1; d++) {
        int r = sq / 8 + ch_dr[d], f = sq % 8 + ch_df[d];
        while (r + ch_dr[d] >= 0 && r + ch_dr[d] < 8 && f + ch_df[d] >= 0 && f + ch_df[d] < 8) {
            m |= 1ull << (r * 8 + f);
            r += ch_dr[d];
            f += ch_df[d];
        }
    }
    return m;
}

static void ch_fill(uint64_t *mask, uint32_t *off, uint64_t *att, int d0, int d1)
{
    uint32_t at = 0;
    for (int sq = 0; sq < 64; sq++) {
        mask[sq] = ch_relevant(sq, d0, d1);
        off[sq] = at;
        uint64_t sub = 0;
        do {   /* every subset of the mask (Carry-Rippler) */
            att[at + _pext_u64(sub, mask[sq])] = ch_slide(sq, sub, d0, d1);
            sub = (sub - mask[sq]) & mask[sq];
        } while (sub);
        at += 1u << __builtin_popcountll(mask[sq]);
    }
}
#endif

static void ch_build(void)
{
    for (int sq = 0; sq < 64; sq++) {
        int r = sq / 8, f = sq % 8;
        static const int kn[8][2] = { { 1, 2 }, { 2, 1 }, { -1, 2 }, { -2, 1 }, { 1, -2 }, { 2, -1 }, { -1, -2 }, { -2, -1 } };
        for (int i = 0; i < 8; i++) {
            int rr = r + kn[i][0], ff = f + kn[i][1];
            if (rr >= 0 && rr < 8 && ff >= 0 && ff < 8) ch_att_tab.knight[sq] |= 1ull << (rr * 8 + ff);
            rr = r + ch_dr[i];
            ff = f + ch_df[i];
            if (rr >= 0 && rr < 8 && ff >= 0 && ff < 8) ch_att_tab.king[sq] |= 1ull << (rr * 8 + ff);
        }
        if (r < 7) {
            if (f > 0) ch_att_tab.pawn[CH_WHITE][sq] |= 1ull << (sq + 7);
            if (f < 7) ch_att_tab.pawn[CH_WHITE][sq] |= 1ull << (sq + 9);
        }
        if (r > 0) {
            if (f > 0) ch_att_tab.pawn[CH_BLACK][sq] |= 1ull << (sq - 9);
            if (f < 7) ch_att_tab.pawn[CH_BLACK][sq] |= 1ull << (sq - 7);
        }
        for (int d = 0; d < 8; d++) ch_att_tab.ray[d][sq] = ch_slide(sq, 0, d, d + 1);
    }
    for (int a = 0; a < 64; a++)
        for (int d = 0; d < 8; d++) {
            uint64_t ray = ch_att_tab.ray[d][a];
            while (ray) {
                int b = __builtin_ctzll(ray);
                ray &= ray - 1;
                ch_between[a][b] = ch_att_tab.ray[d][a] & ~ch_att_tab.ray[d][b] & ~(1ull << b);
                int opp = d ^ 1;   /* directions come in opposite pairs */
                ch_line[a][b] = ch_att_tab.ray[d][a] | ch_att_tab.ray[opp][a] | 1ull << a;
            }
        }
#ifdef CH_PEXT
    ch_fill(ch_att_tab.rmask, ch_att_tab.roff, ch_att_tab.ratt, 0, 4);
    ch_fill(ch_att_tab.bmask, ch_att_tab.boff, ch_att_tab.batt, 4, 8);
#endif
    uint64_t s = 0x63686573732d6777ull;   /* fixed: hashes are the same in every run */
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < 64; sq++) ch_zpiece[p][sq] = ch_splitmix(&s);
    ch_zside = ch_splitmix(&s);
    for (int i = 0; i < 16; i++) ch_zcastle[i] = i ? ch_splitmix(&s) : 0;
    for (int i = 0; i < 8; i++) ch_zep[i] = ch_splitmix(&s);
}

void ch_init(void) { pthread_once(&ch_once, ch_build); }

/* ---- positions ---- */

static inline int ch_castle_mask(const ch_pos_t *p)
{
    return (p->rook[0] != CH_NOSQ) | (p->rook[1] != CH_NOSQ) << 1 | (p->rook[2] != CH_NOSQ) << 2
         | (p->rook[3] != CH_NOSQ) << 3;
}

void ch_refresh(ch_pos_t *p)
{
    ch_init();
    memset(p->type, 0, sizeof p->type);
    memset(p->color, 0, sizeof p->color);
    p->key = 0;
    p->king[0] = p->king[1] = CH_NOSQ;
    /* the board's occupied squares, eight at a time: a word of empty squares
       is skipped whole (the tablebases' builder refreshes positions of four
       pieces by the hundred million) */
    for (int base = 0; base < 64; base += 8) {
        uint64_t w;
        memcpy(&w, p->sq + base, 8);
        while (w) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            int b = __builtin_ctzll(w) >> 3;   /* the lowest square with a piece */
#else
            int b = 0;
            while (!((unsigned char *)&w)[b]) b++;
#endif
            int sq = base + b, pc = p->sq[sq];
            ((unsigned char *)&w)[b] = 0;
            p->type[ch_pc_type(pc)] |= 1ull << sq;
            p->type[0] |= 1ull << sq;
            p->color[ch_pc_color(pc)] |= 1ull << sq;
            p->key ^= ch_zpiece[pc][sq];
            if (ch_pc_type(pc) == CH_KING) p->king[ch_pc_color(pc)] = (uint8_t)sq;
        }
    }
    if (p->side) p->key ^= ch_zside;
    p->key ^= ch_zcastle[ch_castle_mask(p)];
    if (p->ep != CH_NOSQ) p->key ^= ch_zep[p->ep & 7];
}

void ch_start(ch_pos_t *p)
{
    static const uint8_t back[8] = { CH_ROOK, CH_KNIGHT, CH_BISHOP, CH_QUEEN, CH_KING, CH_BISHOP, CH_KNIGHT, CH_ROOK };
    memset(p, 0, sizeof *p);
    for (int f = 0; f < 8; f++) {
        p->sq[f] = (uint8_t)ch_pc(CH_WHITE, back[f]);
        p->sq[8 + f] = (uint8_t)ch_pc(CH_WHITE, CH_PAWN);
        p->sq[48 + f] = (uint8_t)ch_pc(CH_BLACK, CH_PAWN);
        p->sq[56 + f] = (uint8_t)ch_pc(CH_BLACK, back[f]);
    }
    p->rook[CH_WK] = 7;
    p->rook[CH_WQ] = 0;
    p->rook[CH_BK] = 63;
    p->rook[CH_BQ] = 56;
    p->ep = CH_NOSQ;
    p->fullmove = 1;
    ch_refresh(p);
}

/* ---- legal moves ---- */

static inline uint64_t ch_fwd(uint64_t b, int us) { return us == CH_WHITE ? b << 8 : b >> 8; }

#define RANK(r) (0xFFull << (8 * (r)))
#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull

/* Squares the enemy attacks, with the king of the side to move lifted off
 * the board (so it cannot hide behind itself from a slider). */
static inline uint64_t ch_danger(const ch_pos_t *p, int them, uint64_t occ)
{
    uint64_t e = p->color[them], d;
    uint64_t pw = e & p->type[CH_PAWN];
    d = them == CH_WHITE ? ((pw & ~FILE_A) << 7) | ((pw & ~FILE_H) << 9) : ((pw & ~FILE_A) >> 9) | ((pw & ~FILE_H) >> 7);
    d |= ch_att_tab.king[p->king[them]];
    for (uint64_t b = e & p->type[CH_KNIGHT]; b; b &= b - 1) d |= ch_att_tab.knight[__builtin_ctzll(b)];
    for (uint64_t b = e & (p->type[CH_BISHOP] | p->type[CH_QUEEN]); b; b &= b - 1) d |= ch_bishop_att(__builtin_ctzll(b), occ);
    for (uint64_t b = e & (p->type[CH_ROOK] | p->type[CH_QUEEN]); b; b &= b - 1) d |= ch_rook_att(__builtin_ctzll(b), occ);
    return d;
}

/* The king's and rook's squares after castling by slot. */
static inline int ch_castle_kto(int slot) { return (slot & 2 ? 56 : 0) + (slot & 1 ? 2 : 6); }
static inline int ch_castle_rto(int slot) { return (slot & 2 ? 56 : 0) + (slot & 1 ? 3 : 5); }

/* Emits the moves from..to for each to in set (or counts them). */
#define EMIT_SET(set, from_expr, kind)                                                          \
    do {                                                                                        \
        uint64_t s_ = (set);                                                                    \
        if (count) n += __builtin_popcountll(s_);                                               \
        else                                                                                    \
            for (; s_; s_ &= s_ - 1) {                                                          \
                int to_ = __builtin_ctzll(s_);                                                  \
                out[n++] = ch_move((from_expr), to_, kind, 0);                                  \
            }                                                                                   \
    } while (0)
#define EMIT_PROMO(set, delta)                                                                  \
    do {                                                                                        \
        uint64_t s_ = (set);                                                                    \
        if (count) n += 4 * __builtin_popcountll(s_);                                           \
        else                                                                                    \
            for (; s_; s_ &= s_ - 1) {                                                          \
                int to_ = __builtin_ctzll(s_);                                                  \
                for (int pr_ = 3; pr_ >= 0; pr_--) out[n++] = ch_move(to_ - (delta), to_, CH_PROMO, pr_); \
            }                                                                                   \
    } while (0)

/* Own pieces pinned to the king on ksq: each alone between it and an
 * enemy slider. */
static inline uint64_t ch_pinned(const ch_pos_t *p, int ksq, uint64_t own, uint64_t enemy, uint64_t occ)
{
    uint64_t pinned = 0;
    uint64_t snipers = enemy & ((ch_rook_att(ksq, 0) & (p->type[CH_ROOK] | p->type[CH_QUEEN]))
                                | (ch_bishop_att(ksq, 0) & (p->type[CH_BISHOP] | p->type[CH_QUEEN])));
    for (; snipers; snipers &= snipers - 1) {
        uint64_t b = ch_between[ksq][__builtin_ctzll(snipers)] & occ;
        if (b && !(b & (b - 1)) && (b & own)) pinned |= b;
    }
    return pinned;
}

/* The legal moves (count: their number only); caps: only captures (en
 * passant too) and promotions, the moves quiescence searches. */
static inline int ch_gen(const ch_pos_t *p, move_t *out, const int count, const int caps)
{
    const int us = p->side, them = us ^ 1;
    const uint64_t occ = p->type[0], own = p->color[us], enemy = p->color[them];
    const int ksq = p->king[us];
    const uint64_t kbit = 1ull << ksq;
    int n = 0;

    uint64_t checkers = ch_attackers(p, ksq, them, occ);
    const uint64_t kdest = ch_att_tab.king[ksq] & (caps ? enemy : ~own);
    /* (the enemy's attacks: for the king's moves, and castling's path) */
    uint64_t danger = caps && !kdest ? 0 : ch_danger(p, them, occ ^ kbit);
    EMIT_SET(kdest & ~danger, ksq, CH_NORMAL);
    if (checkers & (checkers - 1)) return n;   /* double check: the king alone moves */

    /* pinned pieces: own pieces alone between the king and an enemy slider */
    const uint64_t pinned = ch_pinned(p, ksq, own, enemy, occ);
    uint64_t target = checkers ? (ch_between[ksq][__builtin_ctzll(checkers)] | checkers) : ~own;
    const uint64_t promo_rank = us == CH_WHITE ? RANK(7) : RANK(0);
    const uint64_t pushes = target & (caps ? promo_rank : ~0ull);   /* where pawns may advance to */
    if (caps) target &= enemy;

    /* knights (a pinned knight never moves) */
    for (uint64_t b = own & p->type[CH_KNIGHT] & ~pinned; b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        EMIT_SET(ch_att_tab.knight[from] & target, from, CH_NORMAL);
    }
    /* sliders */
    for (uint64_t b = own & (p->type[CH_BISHOP] | p->type[CH_QUEEN]); b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        uint64_t a = ch_bishop_att(from, occ) & target;
        if (pinned >> from & 1) a &= ch_line[ksq][from];
        EMIT_SET(a, from, CH_NORMAL);
    }
    for (uint64_t b = own & (p->type[CH_ROOK] | p->type[CH_QUEEN]); b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        uint64_t a = ch_rook_att(from, occ) & target;
        if (pinned >> from & 1) a &= ch_line[ksq][from];
        EMIT_SET(a, from, CH_NORMAL);
    }

    /* pawns: the unpinned ones set-wise, pinned ones one by one */
    const uint64_t pawns = own & p->type[CH_PAWN];
    const uint64_t empty = ~occ;
    const uint64_t rank7 = us == CH_WHITE ? RANK(6) : RANK(1), rank3 = us == CH_WHITE ? RANK(2) : RANK(5);
    const int up = us == CH_WHITE ? 8 : -8;
    const int left = us == CH_WHITE ? 7 : -9, right = us == CH_WHITE ? 9 : -7;   /* toward files a / h */
    uint64_t free_p = pawns & ~pinned;
    {
        uint64_t one = ch_fwd(free_p, us) & empty;
        uint64_t two = ch_fwd(one & rank3, us) & empty & pushes;
        one &= pushes;
        EMIT_SET(one & ~promo_rank, to_ - up, CH_NORMAL);
        EMIT_PROMO(one & promo_rank, up);
        EMIT_SET(two, to_ - 2 * up, CH_NORMAL);
        uint64_t capl = us == CH_WHITE ? (free_p & ~FILE_A) << 7 : (free_p & ~FILE_A) >> 9;
        uint64_t capr = us == CH_WHITE ? (free_p & ~FILE_H) << 9 : (free_p & ~FILE_H) >> 7;
        capl &= enemy & target;
        capr &= enemy & target;
        EMIT_SET(capl & ~promo_rank, to_ - left, CH_NORMAL);
        EMIT_PROMO(capl & promo_rank, left);
        EMIT_SET(capr & ~promo_rank, to_ - right, CH_NORMAL);
        EMIT_PROMO(capr & promo_rank, right);
    }
    for (uint64_t b = pawns & pinned; b; b &= b - 1) {   /* along the pin line only */
        int from = __builtin_ctzll(b);
        uint64_t fb = 1ull << from, line = ch_line[ksq][from];
        uint64_t one = ch_fwd(fb, us) & empty;
        uint64_t two = ch_fwd(one & rank3, us) & empty;
        uint64_t caps_ = ch_att_tab.pawn[us][from] & enemy;
        uint64_t all = (((one | two) & pushes) | (caps_ & target)) & line;
        if (fb & rank7) {
            for (uint64_t s = all; s; s &= s - 1) {
                int to = __builtin_ctzll(s);
                if (count) n += 4;
                else
                    for (int pr = 3; pr >= 0; pr--) out[n++] = ch_move(from, to, CH_PROMO, pr);
            }
        } else {
            EMIT_SET(all, from, CH_NORMAL);
        }
    }
    /* en passant: tried on a board with both pawns moved (rare, so exact) */
    if (p->ep != CH_NOSQ) {
        int capsq = p->ep - up;
        for (uint64_t b = ch_att_tab.pawn[them][p->ep] & pawns; b; b &= b - 1) {
            int from = __builtin_ctzll(b);
            uint64_t o2 = (occ ^ (1ull << from) ^ (1ull << capsq)) | 1ull << p->ep;
            uint64_t att = enemy & ~(1ull << capsq)
                         & ((ch_rook_att(ksq, o2) & (p->type[CH_ROOK] | p->type[CH_QUEEN]))
                            | (ch_bishop_att(ksq, o2) & (p->type[CH_BISHOP] | p->type[CH_QUEEN]))
                            | (ch_att_tab.knight[ksq] & p->type[CH_KNIGHT]) | (ch_att_tab.pawn[us][ksq] & p->type[CH_PAWN]));
            if (att) continue;
            if (count) n++;
            else out[n++] = ch_move(from, p->ep, CH_EP, 0);
        }
    }
    /* castling: the king takes its own rook */
    if (!checkers && !caps) {
        for (int slot = us * 2; slot < us * 2 + 2; slot++) {
            int rsq = p->rook[slot];
            if (rsq == CH_NOSQ) continue;
            int kto = ch_castle_kto(slot), rto = ch_castle_rto(slot);
            uint64_t span = ch_between[ksq][kto] | ch_between[rsq][rto] | 1ull << kto | 1ull << rto;
            span &= ~(kbit | 1ull << rsq);
            if (span & occ) continue;
            uint64_t path = ch_between[ksq][kto] | 1ull << kto;
            if (path & danger) continue;
            /* the rook leaving its square must not uncover the king's new square */
            if (ch_attackers(p, kto, them, occ ^ (1ull << rsq)) & (p->type[CH_ROOK] | p->type[CH_QUEEN]))
                continue;
            if (count) n++;
            else out[n++] = ch_move(ksq, rsq, CH_CASTLE, 0);
        }
    }
    return n;
}

int ch_moves(const ch_pos_t *p, move_t *out) { return ch_gen(p, out, 0, 0); }
int ch_count(const ch_pos_t *p) { return ch_gen(p, NULL, 1, 0); }
int ch_captures(const ch_pos_t *p, move_t *out) { return ch_gen(p, out, 0, 1); }

/* 1 if the side to move has a legal move. Out of check, an unpinned
 * knight, pawn or slider with somewhere to go settles it without the
 * enemy's attacks, which ch_gen computes first for the king; anything
 * rarer (check, only pinned pieces or the king to move) is counted. */
int ch_has_move(const ch_pos_t *p)
{
    const int us = p->side, them = us ^ 1;
    const uint64_t occ = p->type[0], own = p->color[us], enemy = p->color[them];
    const int ksq = p->king[us];
    if (ch_attackers(p, ksq, them, occ)) return ch_gen(p, NULL, 1, 0) > 0;
    const uint64_t pinned = ch_pinned(p, ksq, own, enemy, occ);
    const uint64_t free = own & ~pinned;
    for (uint64_t b = free & p->type[CH_KNIGHT]; b; b &= b - 1)
        if (ch_att_tab.knight[__builtin_ctzll(b)] & ~own) return 1;
    const uint64_t pawns = free & p->type[CH_PAWN];
    uint64_t caps = us == CH_WHITE ? ((pawns & ~FILE_A) << 7) | ((pawns & ~FILE_H) << 9)
                                   : ((pawns & ~FILE_A) >> 9) | ((pawns & ~FILE_H) >> 7);
    if ((ch_fwd(pawns, us) & ~occ) | (caps & enemy)) return 1;
    for (uint64_t b = free & (p->type[CH_BISHOP] | p->type[CH_QUEEN]); b; b &= b - 1)
        if (ch_bishop_att(__builtin_ctzll(b), occ) & ~own) return 1;
    for (uint64_t b = free & (p->type[CH_ROOK] | p->type[CH_QUEEN]); b; b &= b - 1)
        if (ch_rook_att(__builtin_ctzll(b), occ) & ~own) return 1;
    return ch_gen(p, NULL, 1, 0) > 0;
}

int ch_legal(const ch_pos_t *p, move_t m)
{
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(p, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == m) return 1;
    return 0;
}

int ch_captured(const ch_pos_t *p, move_t m)
{
    if (m == MOVE_NONE) return 0;
    if (ch_kind(m) == CH_EP) return ch_pc(p->side ^ 1, CH_PAWN);
    if (ch_kind(m) == CH_CASTLE) return 0;
    return p->sq[ch_to(m)];
}

int ch_insufficient(const ch_pos_t *p)
{
    if (p->type[CH_PAWN] | p->type[CH_ROOK] | p->type[CH_QUEEN]) return 0;
    uint64_t minors = p->type[CH_KNIGHT] | p->type[CH_BISHOP];
    if (!(minors & (minors - 1))) return 1;   /* at most one minor piece */
    if (p->type[CH_KNIGHT]) return 0;
    const uint64_t dark = 0xAA55AA55AA55AA55ull;   /* a1 is dark */
    return !(minors & dark) || !(minors & ~dark);
}

/* ---- playing a move ---- */

static inline void ch_put(ch_pos_t *p, int pc, int sq)
{
    uint64_t b = 1ull << sq;
    p->sq[sq] = (uint8_t)pc;
    p->type[ch_pc_type(pc)] |= b;
    p->type[0] |= b;
    p->color[ch_pc_color(pc)] |= b;
    p->key ^= ch_zpiece[pc][sq];
}
static inline void ch_lift(ch_pos_t *p, int sq)
{
    uint64_t b = 1ull << sq;
    int pc = p->sq[sq];
    p->sq[sq] = 0;
    p->type[ch_pc_type(pc)] &= ~b;
    p->type[0] &= ~b;
    p->color[ch_pc_color(pc)] &= ~b;
    p->key ^= ch_zpiece[pc][sq];
}

void ch_play(ch_pos_t *p, move_t m)
{
    const int us = p->side, them = us ^ 1;
    p->key ^= ch_zside;
    if (p->ep != CH_NOSQ) {
        p->key ^= ch_zep[p->ep & 7];
        p->ep = CH_NOSQ;
    }
    p->side = (uint8_t)them;
    p->ply++;
    if (us == CH_BLACK && p->fullmove < 0xffff) p->fullmove++;
    if (p->halfmove < 0xffff) p->halfmove++;
    if (m == MOVE_NONE) return;

    int from = ch_from(m), to = ch_to(m), kind = ch_kind(m);
    int pc = p->sq[from], type = ch_pc_type(pc);
    int cmask = ch_castle_mask(p);
    if (kind == CH_CASTLE) {
        int slot = us * 2 + (to < from), rpc = p->sq[to];
        ch_lift(p, from);
        ch_lift(p, to);
        ch_put(p, pc, ch_castle_kto(slot));
        ch_put(p, rpc, ch_castle_rto(slot));
        p->king[us] = (uint8_t)ch_castle_kto(slot);
    } else {
        if (kind == CH_EP) {
            ch_lift(p, us == CH_WHITE ? to - 8 : to + 8);
            p->halfmove = 0;
        } else if (p->sq[to]) {
            ch_lift(p, to);
            p->halfmove = 0;
        }
        ch_lift(p, from);
        ch_put(p, kind == CH_PROMO ? ch_pc(us, ch_promo(m)) : pc, to);
        if (type == CH_PAWN) {
            p->halfmove = 0;
            if ((to ^ from) == 16) {   /* a double step: en passant only if a pawn can take */
                int mid = (from + to) / 2;
                if (ch_att_tab.pawn[us][mid] & p->color[them] & p->type[CH_PAWN]) {
                    p->ep = (uint8_t)mid;
                    p->key ^= ch_zep[mid & 7];
                }
            }
        } else if (type == CH_KING) {
            p->king[us] = (uint8_t)to;
        }
    }
    if (cmask) {
        if (type == CH_KING) p->rook[us * 2] = p->rook[us * 2 + 1] = CH_NOSQ;
        for (int s = 0; s < 4; s++)
            if (p->rook[s] == from || p->rook[s] == to) p->rook[s] = CH_NOSQ;
        int nm = ch_castle_mask(p);
        if (nm != cmask) p->key ^= ch_zcastle[cmask] ^ ch_zcastle[nm];
    }
}
