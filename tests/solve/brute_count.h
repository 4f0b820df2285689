/* An independent brute-force solver of small endings under the move-count
 * rule, written from the rules of the games (nothing of games/, core/ or
 * solve/ is used), to cross-check gsw.
 *
 * Each game's positions are first solved without the rule (a retrograde
 * pass over an explicit graph: distance to the end, the winner fastest and
 * the loser slowest; what nothing forces is a draw), then a position with a
 * clock is valued by a memoised recursion over (position, clock): a move
 * that is no conversion leads to the clock plus one, a conversion to clock
 * 0, whose value is the one without the rule provided every decisive value
 * of the material is within the rule's length (checked: a query fails
 * otherwise). A position whose value without the rule is a draw, or a win
 * or loss in d plies with d no more than the plies the clock leaves, has
 * that value under the rule too; only the others are searched.
 *
 * The tables are built on first use and kept (static) until brute_free. */
#ifndef GSW_TESTS_BRUTE_COUNT_H
#define GSW_TESTS_BRUTE_COUNT_H

/* outcome: 1 the side to move wins, 0 draw, -1 it loses; plies: plies to
 * the end of the game with the winner fastest and the loser slowest (0 when
 * the game is over: checkmated / no move), -1 for a draw */
typedef struct brute_value { int outcome; int plies; } brute_value_t;

/* Chess, standard rules, positions of 2 or 3 pieces: the two kings and at
 * most one more piece (Q, R, B, N or P, either colour), given as a FEN with
 * all six fields ("7k/8/5K2/8/8/8/8/Q7 w - - 98 80"): no castling rights,
 * en passant '-'. Its value under the 50-move rule: the halfmove clock
 * counts plies since the last capture or pawn move; when it reaches 100 the
 * game is drawn unless the move that reached 100 gave checkmate; stalemate
 * is a draw; insufficient material (K v K, K+B v K, K+N v K) is a draw at
 * once. Promotion to Q, R, B or N. Returns 0, or -1 when the FEN is outside
 * what it covers (more pieces, a clock above 100, an illegal position) or
 * malformed. */
int brute_chess(const char *fen, brute_value_t *out);

/* English draughts, positions of at most 3 pieces in gsw's FEN
 * ("B:WK10:BK1,K2": the side to move, then each side's list of squares
 * 1-32, K for a king, a-b for a range; Black's men move toward 29-32, White's
 * toward 1-4) with `quiet` plies (0..80) played since the last capture or
 * man's move: its value under the 40-move rule: at 80 such plies the game is
 * drawn unless the side to move has no legal move (then it has lost).
 * Captures are compulsory, a jump goes on while it can, a man that reaches
 * the last row is crowned and the move ends, a side with no legal move
 * loses. Returns 0, or -1 when outside what it covers or malformed. */
int brute_checkers(const char *fen, int quiet, brute_value_t *out);

/* Frees the tables (they are built again on the next query). */
void brute_free(void);

/* --- the checkers rules, for tests that count from them -------------------
 * A board is 32 bytes, square 0-31 being 1-32 of the standard numbering,
 * each byte one of the BRUTE_CK_ codes. */
enum { BRUTE_CK_NONE, BRUTE_CK_BM, BRUTE_CK_BK, BRUTE_CK_WM, BRUTE_CK_WK };

typedef struct brute_ck_moves {
    unsigned char out[64][32];   /* each move as the board it leads to */
    unsigned char conv[64];      /* the move is a capture or a man's move */
    int n;
} brute_ck_moves_t;

/* Every legal move of side (0 Black, 1 White) from board b; *capture: they
 * are captures (then they are all, a jump going on while it can). Two
 * capture paths to the same board are two moves. */
void brute_ck_moves(const unsigned char b[32], int side, brute_ck_moves_t *m, int *capture);

/* Calls fn for every position of 0 to 3 pieces (no man on its own
 * crowning row), either side to move, with its value without the 40-move
 * rule (cycles are draws) and whether its side to move must capture.
 * Returns 0, or -1 when the table cannot be built. */
typedef void brute_ck_visit_fn(void *ctx, const unsigned char board[32], int side, int capture, brute_value_t v);
int brute_checkers_each(brute_ck_visit_fn *fn, void *ctx);

#endif
