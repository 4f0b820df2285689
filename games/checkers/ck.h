/* Checkers (8x8 English draughts): the position, the move encoding and the
 * rules shared by the plugin's files.
 *
 * Squares are numbered 1..32 as in PDN (row by row from Black's side, the
 * top); square s is bit s-1 of a 32-bit board. Black (player 0) moves
 * first, downward (toward 29..32); White (player 1) upward. A position is
 * ck_pos_t: each side's pieces, the kings of both, the side to move, the
 * plies since the last capture or man move (the 40-move rule, a rule of
 * play: searches ignore it) and the plies played. Neither counter is part
 * of the hash or the key.
 *
 * A move is one 32-bit word: bits 0-4 the from square's index, bits 5-8 the
 * number of jumps (0: a plain move), then two bits per step, the direction
 * (CK_DL, CK_DR, CK_UL, CK_UR): one step for a plain move, one per jump for
 * a capture, in order. Two capture sequences that take the same pieces by
 * different paths are two moves. */
#ifndef GSW_CK_H
#define GSW_CK_H

#include <stdint.h>

#include "core/game.h"

enum { CK_DL = 0, CK_DR, CK_UL, CK_UR };   /* down = toward White's side (rows 29..32) */
#define CK_MAX_JUMPS 11                      /* 2 bits each above bit 9: 9 + 22 = 31 bits */

typedef struct ck_pos {
    uint32_t p[2];      /* pieces of Black (0) and White (1) */
    uint32_t k;         /* kings of either side */
    uint8_t side;       /* to move: 0 Black, 1 White */
    uint8_t quiet;      /* plies since a capture or a man's move (saturates at 255) */
    uint16_t ply;       /* plies played */
} ck_pos_t;

/* Board geometry: the square index one step (nb) and two steps (jp) in each
 * direction, -1 off the board. */
extern const int8_t ck_nb[32][4];
extern const int8_t ck_jp[32][4];

/* Board masks and whole-board steps (shared by the rules and the evaluation). */
#define CK_EVEN 0x0F0F0F0Fu   /* rows 0,2,4,6 (squares 1-4, 9-12, ...) */
#define CK_ODD 0xF0F0F0F0u
#define CK_J0 0x11111111u     /* first square of each row */
#define CK_J3 0x88888888u     /* last square of each row */
#define CK_BLACK_CROWN 0xF0000000u   /* squares 29-32 */
#define CK_WHITE_CROWN 0x0000000Fu   /* squares 1-4 */

/* Every square one step in a direction from each square of b. */
static inline uint32_t ck_dl(uint32_t b) { return ((b & CK_EVEN) << 4) | ((b & CK_ODD & ~CK_J0) << 3); }
static inline uint32_t ck_dr(uint32_t b) { return ((b & CK_EVEN & ~CK_J3) << 5) | ((b & CK_ODD) << 4); }
static inline uint32_t ck_ul(uint32_t b) { return ((b & CK_EVEN) >> 4) | ((b & CK_ODD & ~CK_J0) >> 5); }
static inline uint32_t ck_ur(uint32_t b) { return ((b & CK_EVEN & ~CK_J3) >> 3) | ((b & CK_ODD) >> 4); }

/* The board turned half a turn: square s to 33 - s (bit i to bit 31 - i);
 * the evaluation scores White this way, the databases index White to move. */
static inline uint32_t ck_rot180(uint32_t b)
{
    b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
    b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
    b = ((b >> 4) & 0x0F0F0F0Fu) | ((b & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(b);
}

static inline int ck_mfrom(move_t m) { return (int)(m & 31); }
static inline int ck_mjumps(move_t m) { return (int)(m >> 5 & 15); }
static inline int ck_mdir(move_t m, int i) { return (int)(m >> (9 + 2 * i) & 3); }
/* The square index a move ends on. */
int ck_mto(move_t m);

/* Legal moves (captures when any, else plain moves); returns the count. */
int ck_moves(const ck_pos_t *p, move_t *out);
/* Number of legal moves, without listing them when there is no capture. */
int ck_count(const ck_pos_t *p);
/* 1 if the side to move has a capture. */
int ck_can_capture(const ck_pos_t *p);
void ck_play(ck_pos_t *p, move_t m);
/* The pieces a capture takes (a bit per square). */
uint32_t ck_taken(const ck_pos_t *p, move_t m);

int ck_parse_fen(const char *text, ck_pos_t *p, err_t *err);
void ck_format_fen(const ck_pos_t *p, char *buf, size_t n);
/* "9-13", "1x10x19" (every landing square). */
void ck_format_move(const ck_pos_t *p, move_t m, char *buf, size_t n);
/* A move in either form (a capture's landing squares all, or from and final
 * square when that names one capture); checks legality. */
int ck_parse_move(const ck_pos_t *p, const char *text, move_t *m, err_t *err);

int32_t ck_evaluate(const ck_pos_t *p);

/* PDN game records (ck_pdn.c): the record_read / record_write hooks. */
int ck_record_read(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err);
size_t ck_record_write(const gv_t *v, const void *start, const move_t *moves, int n, const char *result, char *buf,
                       size_t len);

/* Endgame-database indexing (ck_retro.c, core/retro.h): Black-to-move
 * slices by material and leading-man rows, up to 10 pieces. */
extern const struct retro_game ck_retro;

extern const game_t checkers_game;

#endif
