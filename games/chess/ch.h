/* Chess: the position, the move encoding and the rules shared by the
 * plugin's files (ch_board.c: tables, legal moves, play; ch_notation.c:
 * FEN, SAN and UCI; ch_eval.c: evaluation; ch_pgn.c: game records).
 *
 * Squares are 0..63, a1 = 0, b1 = 1, ..., h8 = 63; bit s of a bitboard is
 * square s. White (player 0) moves first. A position is ch_pos_t, copied
 * to make a move: bitboards by colour and by piece type, a board of piece
 * codes, the side to move, the castling rooks, the en-passant square, the
 * clocks and a Zobrist hash.
 *
 * Castling rights are rook squares, so Chess960 (Shredder-FEN and X-FEN
 * rights) is the same code as standard chess: a castling move is encoded
 * as the king taking its own rook; it is named e1g1 / O-O when the king
 * starts on e1/e8 and the rook on a corner, else king-to-rook (e1h1).
 *
 * A move is 16 bits (it fits the transposition table): bits 0-5 from,
 * 6-11 to, 12-13 the promotion piece (0 knight, 1 bishop, 2 rook, 3 queen),
 * 14-15 the kind (CH_NORMAL, CH_PROMO, CH_EP, CH_CASTLE). */
#ifndef GSW_CH_H
#define GSW_CH_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

enum { CH_WHITE = 0, CH_BLACK = 1 };
enum { CH_NONE = 0, CH_PAWN = 1, CH_KNIGHT, CH_BISHOP, CH_ROOK, CH_QUEEN, CH_KING };
/* A piece code on the board: colour << 3 | type; 0 for an empty square. */
static inline int ch_pc(int color, int type) { return color << 3 | type; }
static inline int ch_pc_type(int pc) { return pc & 7; }
static inline int ch_pc_color(int pc) { return pc >> 3; }

enum { CH_NORMAL = 0, CH_PROMO = 1, CH_EP = 2, CH_CASTLE = 3 };
static inline move_t ch_move(int from, int to, int kind, int promo)
{
    return (move_t)(from | to << 6 | promo << 12 | kind << 14);
}
static inline int ch_from(move_t m) { return (int)(m & 63); }
static inline int ch_to(move_t m) { return (int)(m >> 6 & 63); }
static inline int ch_kind(move_t m) { return (int)(m >> 14 & 3); }
/* The piece type a promotion makes (CH_KNIGHT..CH_QUEEN). */
static inline int ch_promo(move_t m) { return (int)(m >> 12 & 3) + CH_KNIGHT; }

#define CH_NOSQ 64
/* Castling slots: White short (king side), White long, Black short, Black long. */
enum { CH_WK = 0, CH_WQ, CH_BK, CH_BQ };

typedef struct ch_pos {
    uint64_t type[7];       /* [t]: pieces of type t (1..6) of both colours; [0] all pieces */
    uint64_t color[2];
    uint64_t key;           /* Zobrist hash: pieces, side, castling rights, ep square */
    uint8_t sq[64];         /* piece code per square */
    uint8_t rook[4];        /* castling rook squares by slot; CH_NOSQ: no right */
    uint8_t side;
    uint8_t ep;             /* the square a pawn passed over, when an enemy pawn
                               could take it there; else CH_NOSQ */
    uint8_t king[2];        /* king squares */
    uint16_t halfmove;      /* plies since a capture or pawn move (50-move rule) */
    uint16_t fullmove;      /* FEN's move number */
    uint16_t ply;           /* plies played since the start (or the FEN) */
    uint8_t chess960;       /* castling named king-to-rook */
    uint8_t pad[5];
} ch_pos_t;

/* The tables (attacks, Zobrist keys); idempotent and thread-safe, called by
 * variant_open; ch_* functions need it once per process. */
void ch_init(void);

/* Attacks, inline: the search and the evaluation ask for them millions of
 * times a second, from every file of the plugin (a call each, across
 * files, cost chess about a tenth of its speed). Slider attacks come from
 * PEXT-indexed tables where the CPU has BMI2, else from rays with a bit
 * scan (forced with -DGSW_CH_NO_PEXT). */
#if defined(__BMI2__) && !defined(GSW_CH_NO_PEXT)
#include <immintrin.h>
#define CH_PEXT 1
#endif
typedef struct ch_att_tables {
    uint64_t knight[64], king[64], pawn[2][64];
    uint64_t ray[8][64];   /* N, S, E, W, NE, SW, NW, SE: opposites pair as d, d ^ 1 */
#ifdef CH_PEXT
    uint64_t rmask[64], bmask[64];   /* a slider's relevant occupancy */
    uint32_t roff[64], boff[64];     /* its first entry below */
    uint64_t ratt[102400], batt[5248];
#endif
} ch_att_tables_t;
extern ch_att_tables_t ch_att_tab;   /* (ch_board.c; built by ch_init) */

static inline uint64_t ch_knight_att(int sq) { return ch_att_tab.knight[sq]; }
static inline uint64_t ch_king_att(int sq) { return ch_att_tab.king[sq]; }
static inline uint64_t ch_pawn_att(int color, int sq) { return ch_att_tab.pawn[color][sq]; }
#ifndef CH_PEXT
/* rays toward higher squares (N, E, NE, NW) stop at their lowest blocker,
 * the others at their highest */
static inline uint64_t ch_ray_up(int d, int sq, uint64_t occ)
{
    uint64_t a = ch_att_tab.ray[d][sq], b = a & occ;
    return b ? a ^ ch_att_tab.ray[d][__builtin_ctzll(b)] : a;
}
static inline uint64_t ch_ray_down(int d, int sq, uint64_t occ)
{
    uint64_t a = ch_att_tab.ray[d][sq], b = a & occ;
    return b ? a ^ ch_att_tab.ray[d][63 - __builtin_clzll(b)] : a;
}
#endif
static inline uint64_t ch_bishop_att(int sq, uint64_t occ)
{
#ifdef CH_PEXT
    return ch_att_tab.batt[ch_att_tab.boff[sq] + _pext_u64(occ, ch_att_tab.bmask[sq])];
#else
    return ch_ray_up(4, sq, occ) | ch_ray_down(5, sq, occ) | ch_ray_up(6, sq, occ) | ch_ray_down(7, sq, occ);
#endif
}
static inline uint64_t ch_rook_att(int sq, uint64_t occ)
{
#ifdef CH_PEXT
    return ch_att_tab.ratt[ch_att_tab.roff[sq] + _pext_u64(occ, ch_att_tab.rmask[sq])];
#else
    return ch_ray_up(0, sq, occ) | ch_ray_down(1, sq, occ) | ch_ray_up(2, sq, occ) | ch_ray_down(3, sq, occ);
#endif
}
/* Pieces of colour by attacking square sq with occupancy occ. */
static inline uint64_t ch_attackers(const ch_pos_t *p, int sq, int by, uint64_t occ)
{
    uint64_t c = p->color[by];
    uint64_t rq = p->type[CH_ROOK] | p->type[CH_QUEEN], bq = p->type[CH_BISHOP] | p->type[CH_QUEEN];
    return c & ((ch_att_tab.pawn[by ^ 1][sq] & p->type[CH_PAWN]) | (ch_att_tab.knight[sq] & p->type[CH_KNIGHT])
                | (ch_att_tab.king[sq] & p->type[CH_KING]) | (ch_bishop_att(sq, occ) & bq) | (ch_rook_att(sq, occ) & rq));
}
/* 1 if the side to move is in check. */
static inline int ch_in_check(const ch_pos_t *p)
{
    return ch_attackers(p, p->king[p->side], p->side ^ 1, p->type[0]) != 0;
}

/* Positions. */
void ch_start(ch_pos_t *p);
/* Rebuild the derived fields (bitboards, kings, hash) from sq[], side,
 * rook[] and ep; the setup code calls it. */
void ch_refresh(ch_pos_t *p);
/* Legal moves; returns the count (0: mate or stalemate). */
int ch_moves(const ch_pos_t *p, move_t *out);
/* The number of legal moves, without listing them. */
int ch_count(const ch_pos_t *p);
/* The legal captures (en passant too) and promotions; their count. */
int ch_captures(const ch_pos_t *p, move_t *out);
/* 1 if the side to move has a legal move (cheaper than counting them). */
int ch_has_move(const ch_pos_t *p);
/* Play a legal move (or a null move: MOVE_NONE passes the turn). */
void ch_play(ch_pos_t *p, move_t m);
/* 1 if m is among p's legal moves. */
int ch_legal(const ch_pos_t *p, move_t m);
/* The piece a move takes (a piece code; 0 when none; en passant a pawn). */
int ch_captured(const ch_pos_t *p, move_t m);
/* Neither side has mating material (K v K, K+minor v K, bishops all on
 * one colour). */
int ch_insufficient(const ch_pos_t *p);

/* Notation (ch_notation.c). Parsers return GSW_OK or GSW_EINPUT with the reason. */
int ch_parse_fen(const char *text, ch_pos_t *p, err_t *err);
void ch_format_fen(const ch_pos_t *p, char *buf, size_t n);
/* A move in UCI long algebraic (e2e4, e7e8q; castling e1g1, or e1h1 in Chess960). */
void ch_format_uci(const ch_pos_t *p, move_t m, char *buf, size_t n);
/* A move in SAN (Nf3, exd6, O-O, e8=Q+, Qxf7#). */
void ch_format_san(const ch_pos_t *p, move_t m, char *buf, size_t n);
/* A move in SAN or UCI (lenient: annotations, 0-0, e8Q, e1h1 castling);
 * checks legality. */
int ch_parse_move(const ch_pos_t *p, const char *text, move_t *m, err_t *err);

/* Game records (ch_pgn.c): one PGN game read (its start, from a FEN tag
 * when present, and its moves) and written. Same contract as game_ops_t's
 * record_read and record_write. */
int ch_record_read(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err);
size_t ch_record_write(const gv_t *v, const void *start, const move_t *moves, int n, const char *result,
                       char *buf, size_t len);

/* Evaluation (ch_eval.c): the piece values, in centipawns, index CH_PAWN..CH_QUEEN. */
typedef struct ch_params {
    int value[7];
    int net;   /* 1: the evaluation network (ch_nn.h); 0: the evaluation by terms */
} ch_params_t;
/* Default values: 100 / 300 / 300 / 500 / 900 -- or the tuned defaults. */
void ch_params_default(ch_params_t *pp);
/* Static evaluation for the side to move, in centipawns. */
int32_t ch_evaluate(const ch_params_t *pp, const ch_pos_t *p);

/* The king danger: for each side, D = the sum of the CH_EW_KD weights
 * times these features of its attack on the enemy king; where D > 0 the
 * attacker gains D * D / 4096 in the middlegame and D / 16 in the endgame,
 * so that attacks that come together count for more than each alone. */
enum {
    CH_KD_ONE,          /* 1 (a threshold) */
    CH_KD_ATTACKER,     /* + type - CH_KNIGHT: a piece of the kind attacking a square around the king */
    CH_KD_HITS = CH_KD_ATTACKER + 4, /* the attacks on squares around the king, all pieces' */
    CH_KD_SAFE_CHECK,   /* + type - CH_KNIGHT: a safe check of the kind (0 or 1) */
    CH_KD_UNSAFE_CHECK = CH_KD_SAFE_CHECK + 4, /* squares a check could come from, not safe */
    CH_KD_WEAK,         /* squares around the king only its king or queen holds, attacked */
    CH_KD_NO_QUEEN,     /* 1 when the attacker has no queen */
    CH_KD_FLANK,        /* the attacks on the king's flank in its camp */
    CH_KD_N
};
#define CH_KD_MAX 3000   /* D's cap (about 22 pawns in the middlegame) */
/* A side's king danger D in the blend, times CH_EVAL_PHASE_MAX, at phase
 * (what the model below adds for it), and its slope by D into *slope
 * (NULL: not wanted). */
double ch_kd_blend(double d, int phase, double *slope);

/* The evaluation's tunable weights (ch_eval_weights.h), each a middlegame
 * and an endgame value in centipawns, blended by the phase. */
enum {
    CH_EW_PST = 0,                     /* + type * 64 + square as drawn (rank 8 first) */
    CH_EW_PASSED = CH_EW_PST + 7 * 64, /* + rank in the mover's frame (0..7) */
    CH_EW_MOB = CH_EW_PASSED + 8,      /* + type: per attacked square around a typical count */
    CH_EW_DOUBLED = CH_EW_MOB + 7,
    CH_EW_ISOLATED,
    CH_EW_BISHOP_PAIR,
    CH_EW_ROOK_OPEN,
    CH_EW_ROOK_HALF,
    CH_EW_SHELTER_NEAR,
    CH_EW_SHELTER_FAR,
    CH_EW_SHELTER_OPEN,
    CH_EW_KING_LEADS,
    CH_EW_PASSER_OPP_KING,
    CH_EW_PASSER_OWN_KING,
    CH_EW_UNSTOPPABLE,
    CH_EW_KING_ATTACK,
    CH_EW_KING_EXPOSED,
    CH_EW_TEMPO,
    CH_EW_WORTH,                       /* + type - CH_PAWN: a piece's worth beyond ch_params_t's value */
    CH_EW_THREAT_PAWN = CH_EW_WORTH + 5, /* an enemy piece (not a pawn) attacked by a pawn */
    CH_EW_THREAT_MINOR,                /* an enemy rook or queen attacked by a knight or bishop */
    CH_EW_THREAT_ROOK,                 /* an enemy queen attacked by a rook */
    CH_EW_HANGING,                     /* an enemy piece (not a pawn) attacked and not defended */
    CH_EW_PASSER_BLOCKED,              /* a passer's stop square occupied, per rank past the third */
    CH_EW_ROOK_SEVENTH,                /* a rook on the seventh rank */
    CH_EW_OUTPOST,                     /* a knight or bishop on ranks 4-6, defended by a pawn,
                                          that no enemy pawn can attack */
    CH_EW_KING_ZONE,                   /* + type - CH_KNIGHT: a square around the enemy king attacked */
    CH_EW_SAFE_CHECK = CH_EW_KING_ZONE + 4, /* + type - CH_KNIGHT: a square it could check from,
                                          neither held by an own piece nor attacked */
    CH_EW_PHALANX = CH_EW_SAFE_CHECK + 4, /* a pawn with a pawn beside it */
    CH_EW_SUPPORTED,                   /* a pawn defended by a pawn */
    CH_EW_BACKWARD,                    /* a pawn no pawn beside can come to defend, its stop
                                          square attacked by an enemy pawn */
    CH_EW_BAD_BISHOP,                  /* per own pawn on the bishop's colour */
    CH_EW_MOB_TAB,                     /* mobility by count, on top of CH_EW_MOB: knight 0-8,
                                          bishop 0-13, rook 0-14, queen 0-27 squares */
    CH_EW_STORM = CH_EW_MOB_TAB + 9 + 14 + 15 + 28, /* + rank - 3 (ranks 4-6): an own pawn on or beside
                                          the file of the enemy king, on its first two ranks */
    CH_EW_WEAK_ZONE = CH_EW_STORM + 3, /* a square around the enemy king attacked and defended by
                                          no enemy pawn, knight, bishop nor rook */
    CH_EW_PUSH_THREAT,                 /* an enemy piece a safe pawn push would attack */
    CH_EW_PASSER_FREE,                 /* a passer with nothing on its way to promotion, per rank
                                          past the third */
    CH_EW_PASSER_SAFE,                 /* a passer whose stop square the enemy does not attack, per
                                          rank past the third */
    CH_EW_ROOK_BEHIND,                 /* an own rook the first piece behind an own passer */
    CH_EW_ROOK_BEHIND_OPP,             /* an enemy rook the first piece behind an own passer */
    CH_EW_KING_PAWN_DIST,              /* the king's distance to the nearest pawn, either side's */
    CH_EW_SPACE,                       /* safe squares on files c-f, ranks 2-4 (those behind an own
                                          pawn twice), times the own pieces, over 4 */
    CH_EW_MINOR_SHIELDED,              /* a knight or bishop with a pawn on the square in front */
    CH_EW_PROTECTOR,                   /* + type - CH_KNIGHT (knight, bishop): its distance to the
                                          own king */
    CH_EW_THREAT_KING = CH_EW_PROTECTOR + 2, /* an enemy pawn or piece the king attacks, undefended */
    CH_EW_HANGING_PAWN,                /* an enemy pawn attacked and not defended */
    CH_EW_PAWNLESS_FLANK,              /* the king on a flank with no pawn of either side */
    CH_EW_ROOK_QUEEN_FILE,             /* a rook on the file of an enemy queen */
    CH_EW_LONG_DIAGONAL,               /* a bishop that sees two centre squares through pawns */
    CH_EW_ROOK_TRAPPED,                /* a rook of 3 squares or fewer, on the king's first rank,
                                          between the king and the corner */
    CH_EW_KNIGHT_PAWNS,                /* a knight, per own pawn above five (below: negative) */
    CH_EW_ROOK_PAWNS,                  /* a rook, per own pawn above five */
    CH_EW_RESTRICTED,                  /* a square both sides attack that no enemy pawn defends */
    CH_EW_SLIDER_ON_QUEEN,             /* a safe square from which an own bishop or rook would
                                          attack the enemy queen */
    CH_EW_KNIGHT_ON_QUEEN,             /* a safe square from which an own knight would attack it */
    CH_EW_PASSERS_CONNECTED,           /* a passer with an own passer on a next file */
    CH_EW_BY_MINOR,                    /* + type - CH_PAWN: an enemy pawn or piece a knight or
                                        * bishop attacks, not a pawn a pawn defends */
    CH_EW_BY_ROOK = CH_EW_BY_MINOR + 5, /* + type - CH_PAWN: the same attacked by a rook */
    CH_EW_BLOCKED_PAWN = CH_EW_BY_ROOK + 5, /* + rank - 4 (ranks 5, 6): a pawn an enemy pawn stops */
    CH_EW_WEAK_UNOPPOSED = CH_EW_BLOCKED_PAWN + 2, /* an isolated or backward pawn no enemy pawn faces */
    CH_EW_QUEEN_INFILTRATION,          /* a queen past the middle no enemy pawn can attack */
    CH_EW_PINNED,                      /* + type - CH_PAWN: an own pawn or piece pinned to the king */
    CH_EW_KING_FLANK = CH_EW_PINNED + 5, /* a square of the enemy king's flank in its camp attacked */
    CH_EW_ROOK_KING_FILE,              /* a rook on a file without own pawns next to the enemy king */
    CH_EW_PASSER_DEFENDED,             /* a passer whose stop square is defended, per rank past the third */
    CH_EW_OUTPOST_REACH,               /* a knight a move from an empty outpost */
    CH_EW_KD,                          /* + CH_KD_*: the king danger's features, one weight each
                                          ([0]; [1] is 0), not a term of their own (below) */
    CH_EW_N = CH_EW_KD + CH_KD_N
};
#define CH_EVAL_PHASE_MAX 24
/* The built-in weights (ch_eval_weights.h): CH_EW_N of them, which
 * ch_eval.c asserts where the table is defined. */
extern const int16_t ch_eval_weights[][2];
/* A weight's name for people ("piece-square knight e4", "tempo"). */
void ch_eval_weight_name(int i, char *buf, size_t n);
/* The evaluation as a linear model, for tuning: White's score is
 *   scale * (offset + sum_i coef[i] * (w[i][0] * phase + w[i][1] * (24 - phase)) / 24)
 * plus, for each side (+ White's, - Black's), ch_kd_blend(D) / 24 of its
 * king danger D = sum_j kd[side][j] * w[CH_EW_KD + j][0] (the CH_EW_KD
 * coef are 0), up to rounding and the final clamp. linear is 0 where the evaluation
 * leaves the model (a bare king against mating material). Returns
 * ch_evaluate's value. */
typedef struct ch_eval_trace {
    float coef[CH_EW_N];   /* White's count minus Black's (the CH_EW_KD ones 0: kd) */
    float kd[2][CH_KD_N];  /* the king danger's features of each side's attack (White's, Black's) */
    float offset;          /* the untuned part (material), White's view */
    float scale;           /* the endgame scaling; 1 where none */
    int phase;             /* 0 (bare kings and pawns) .. 24 */
    int linear;
} ch_eval_trace_t;
int32_t ch_eval_trace(const ch_params_t *pp, const ch_pos_t *p, ch_eval_trace_t *tr);

/* The plugin's variant data: the evaluation's parameters. */
typedef struct ch_variant {
    ch_params_t params;
} ch_variant_t;

extern const game_t chess_game;
/* The tablebases' indexing (ch_retro.c). */
extern const struct retro_game ch_retro;

#endif
