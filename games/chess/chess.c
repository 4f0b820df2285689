/* The chess plugin: binds the rules (ch_board.c), notation
 * (ch_notation.c), evaluation (ch_eval.c) and records (ch_pgn.c) to the
 * plugin interface. One game, "chess"; its variant carries the
 * evaluation's piece values ("standard", or "values=P,N,B,R,Q"), so a
 * match or a tuning run can set them per engine. Positions with
 * Chess960 castling rights come from FEN in any variant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/chess/ch.h"

static const ch_pos_t *chp(const void *pos) { return (const ch_pos_t *)pos; }
static const ch_params_t *ch_params(const gv_t *v) { return &((const ch_variant_t *)v->data)->params; }

static void ch_start_hook(const gv_t *v, void *pos)
{
    (void)v;
    ch_start(pos);
}

static int ch_parse_hook(const gv_t *v, const char *text, void *pos, err_t *err)
{
    (void)v;
    return ch_parse_fen(text, pos, err);
}

static void ch_format_hook(const gv_t *v, const void *pos, char *buf, size_t n)
{
    (void)v;
    ch_format_fen(pos, buf, n);
}

/* The key: 32 bytes of board (a piece code per half byte), the side, the
 * four castling rook squares and the en-passant square (38 bytes). The
 * clocks are not part of it; no symmetry is folded (castling rights and
 * pawns break them). */
#define CH_KEY_LEN 38
static size_t ch_key(const gv_t *v, const void *pos, uint8_t *key, int *sym)
{
    (void)v;
    const ch_pos_t *p = pos;
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(p->sq[2 * i] | p->sq[2 * i + 1] << 4);
    key[32] = p->side;
    memcpy(key + 33, p->rook, 4);
    key[37] = p->ep;
    if (sym) *sym = 0;
    return CH_KEY_LEN;
}

/* A key back into a position: read through FEN, so every rule of a legal
 * setup is checked, and accepted only if it keys back to the same bytes. */
static int ch_from_key(const gv_t *v, const uint8_t *key, size_t klen, void *pos)
{
    if (klen != CH_KEY_LEN || key[32] > 1) return 0;
    ch_pos_t q;
    memset(&q, 0, sizeof q);
    for (int i = 0; i < 32; i++) {
        q.sq[2 * i] = key[i] & 15;
        q.sq[2 * i + 1] = key[i] >> 4;
    }
    for (int sq = 0; sq < 64; sq++) {   /* a code is 0, or a type 1..6 with the colour bit */
        int t = ch_pc_type(q.sq[sq]);
        if (q.sq[sq] && (t == CH_NONE || t > CH_KING)) return 0;
    }
    q.side = key[32];
    for (int s = 0; s < 4; s++) {
        if (key[33 + s] > CH_NOSQ) return 0;
        q.rook[s] = key[33 + s];
    }
    if (key[37] > CH_NOSQ) return 0;
    q.ep = key[37];
    q.chess960 = 1;   /* rights by rook file: any rook square reads back */
    int kings[2] = { 0, 0 };
    for (int sq = 0; sq < 64; sq++)
        if (ch_pc_type(q.sq[sq]) == CH_KING) kings[ch_pc_color(q.sq[sq])]++;
    if (kings[0] != 1 || kings[1] != 1) return 0;
    ch_refresh(&q);
    char fen[128];
    ch_format_fen(&q, fen, sizeof fen);
    err_t err;
    ch_pos_t r;
    if (ch_parse_fen(fen, &r, &err)) return 0;
    uint8_t k2[GSW_MAX_KEY];
    if (ch_key(v, &r, k2, NULL) != CH_KEY_LEN || memcmp(k2, key, CH_KEY_LEN)) return 0;
    memcpy(pos, &r, sizeof r);
    return 1;
}

static uint64_t ch_hash(const gv_t *v, const void *pos) { (void)v; return chp(pos)->key; }
static int ch_ply(const gv_t *v, const void *pos) { (void)v; return chp(pos)->ply; }
static int ch_turn(const gv_t *v, const void *pos) { (void)v; return chp(pos)->side; }
static int ch_moves_hook(const gv_t *v, const void *pos, move_t *out) { (void)v; return ch_moves(pos, out); }
static int ch_count_hook(const gv_t *v, const void *pos) { (void)v; return ch_count(pos); }
static void ch_play_hook(const gv_t *v, void *pos, move_t m) { (void)v; ch_play(pos, m); }
static int ch_check_hook(const gv_t *v, const void *pos) { (void)v; return ch_in_check(pos); }

static int ch_move_parse_hook(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err)
{
    (void)v;
    return ch_parse_move(pos, text, m, err);
}

static void ch_move_format_hook(const gv_t *v, const void *pos, move_t m, char *buf, size_t n)
{
    (void)v;
    ch_format_san(pos, m, buf, n);
}

/* Mate, stalemate and dead positions (no mate possible) end a game. The
 * 50-move rule and threefold repetition are rules of play (ch_line_over):
 * the clock is not part of the key, so searches and stored values ignore it. */
static int ch_terminal(const gv_t *v, const void *pos, val_t *value)
{
    (void)v;
    const ch_pos_t *p = pos;
    if (!ch_has_move(p)) {
        *value = ch_in_check(p) ? val_loss(0) : VAL_DRAW;
        return 1;
    }
    if (ch_insufficient(p)) {
        *value = VAL_DRAW;
        return 1;
    }
    return 0;
}

static void ch_terminal_why(const gv_t *v, const void *pos, char *why, size_t n)
{
    (void)v;
    const ch_pos_t *p = pos;
    snprintf(why, n, "%s", ch_count(p) ? "insufficient material" : ch_in_check(p) ? "checkmate" : "stalemate");
}

/* A flag that falls against a side whose opponent cannot mate is a draw
 * (FIDE 6.9): the opponent has a lone king, or no mate is possible at all.
 * (A king and a minor piece can still mate with the other side's help.) */
static int ch_cannot_win(const gv_t *v, const void *pos, int side)
{
    (void)v;
    const ch_pos_t *p = pos;
    return ch_insufficient(p) || !(p->color[side] & ~p->type[CH_KING]);
}

/* Same position by the repetition rule: pieces, side, castling rights,
 * en-passant square. */
static int ch_same(const void *a, const void *b)
{
    const ch_pos_t *p = a, *q = b;
    return p->key == q->key && !memcmp(p->sq, q->sq, 64) && p->side == q->side;
}

/* In play: the same position (pieces, side, castling rights, en-passant
 * square) for the third time is a draw. Only positions since the last
 * capture or pawn move can repeat. (In a search a position met again on
 * the line is a draw: game_repetition_draw.) */
static int ch_line_over(const gv_t *v, const void *const *line, int n, val_t *value, char *why, size_t wn)
{
    (void)v;
    if (n < 1) return 0;
    const ch_pos_t *cur = line[n - 1];
    if (game_line_threefold(line, n, cur->halfmove, ch_same, value, why, wn)) return 1;
    if (cur->halfmove >= 100 && ch_has_move(cur)) {
        *value = VAL_DRAW;
        snprintf(why, wn, "50-move rule");
        return 1;
    }
    return 0;
}

/* The plies since a capture or a pawn's move, and those left before the
 * 50-move rule (100 of them) draws the game. */
static int ch_reversible(const gv_t *v, const void *pos, int *left)
{
    (void)v;
    const ch_pos_t *p = pos;
    if (left) *left = 100 - p->halfmove;
    return p->halfmove;
}

static int32_t ch_evaluate_hook(const gv_t *v, const void *pos) { return ch_evaluate(ch_params(v), pos); }

/* Static exchange evaluation: what the side to move wins on m's target
 * square if both sides go on taking there with their least valuable
 * piece (x-rays through the square included; pins ignored). */
static int ch_see(const ch_pos_t *p, move_t m)
{
    static const int worth[8] = { 0, 100, 300, 300, 500, 900, 20000, 0 };
    int from = ch_from(m), to = ch_to(m);
    int gain[32], d = 0;
    uint64_t occ = p->type[0] ^ (1ull << from);
    if (ch_kind(m) == CH_EP) occ ^= 1ull << (to ^ 8);
    gain[0] = worth[ch_pc_type(ch_captured(p, m))];
    int last = worth[ch_pc_type(p->sq[from])];
    uint64_t rq = p->type[CH_ROOK] | p->type[CH_QUEEN], bq = p->type[CH_BISHOP] | p->type[CH_QUEEN];
    uint64_t att = (ch_attackers(p, to, CH_WHITE, occ) | ch_attackers(p, to, CH_BLACK, occ)) & occ;
    int side = p->side ^ 1;
    while (d < 31) {
        uint64_t mine = att & p->color[side];
        if (!mine) break;
        int t = CH_PAWN;
        while (!(mine & p->type[t])) t++;
        uint64_t b = mine & p->type[t];
        b &= -b;
        d++;
        gain[d] = last - gain[d - 1];
        last = worth[t];
        occ ^= b;
        att |= (ch_bishop_att(to, occ) & bq) | (ch_rook_att(to, occ) & rq);
        att &= occ;
        side ^= 1;
    }
    /* back from the last capture: each side stops where going on is worse */
    for (; d > 0; d--)
        if (-gain[d] < gain[d - 1]) gain[d - 1] = -gain[d];
    return gain[0];
}

/* Captures that do not lose material (by exchange evaluation) and queen
 * promotions first: the most valuable victim, then the least valuable
 * attacker. Losing captures and under-promotions stay with the quiet
 * moves (searched later, never in quiescence). */
static int ch_captures_hook(const gv_t *v, const void *pos, move_t *mv)
{
    (void)v;
    return ch_captures(pos, mv);
}

static int32_t ch_see_hook(const gv_t *v, const void *pos, move_t m)
{
    (void)v;
    return ch_see(pos, m);
}

static int32_t ch_gain(const gv_t *v, const void *pos, move_t m)
{
    const ch_params_t *pp = ch_params(v);
    const ch_pos_t *p = pos;
    int32_t g = pp->value[ch_pc_type(ch_captured(p, m))];
    if (ch_kind(m) == CH_PROMO) g += pp->value[ch_promo(m)] - pp->value[CH_PAWN];
    return g;
}

static int ch_tactical(const gv_t *v, const void *pos, move_t *mv, int n)
{
    (void)v;
    static const int worth[8] = { 0, 1, 3, 3, 5, 9, 0, 0 };
    const ch_pos_t *p = pos;
    int k = 0, sc[GSW_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        move_t m = mv[i];
        int victim = ch_captured(p, m), s;
        int queen = ch_kind(m) == CH_PROMO && ch_promo(m) == CH_QUEEN;
        if (!victim && !queen) continue;
        int attacker = ch_pc_type(p->sq[ch_from(m)]);
        /* a capture by a piece worth less than its victim always wins */
        if (victim && worth[attacker] > worth[ch_pc_type(victim)] && attacker != CH_KING && ch_see(p, m) < 0) continue;
        s = worth[ch_pc_type(victim)] * 16 - attacker;
        if (queen) s += 9 * 16;
        /* insertion into the front part, best first */
        int j = k++;
        mv[i] = mv[j];
        for (; j > 0 && sc[j - 1] < s; j--) { sc[j] = sc[j - 1]; mv[j] = mv[j - 1]; }
        sc[j] = s;
        mv[j] = m;
    }
    return k;
}

/* A move's class for the continuation history: the piece that moves
 * (colour and type) and where it goes. */
static int ch_move_class(const gv_t *v, const void *pos, move_t m)
{
    (void)v;
    const ch_pos_t *p = pos;
    return p->sq[ch_from(m)] << 6 | ch_to(m);
}

/* The correction history's keys (the evaluation's errors follow the pawn
 * structure and the balance of material): the pawns of both sides, and
 * each kind's count on each side, both with the side to move. */
static int ch_eval_keys(const gv_t *v, const void *pos, uint64_t *key)
{
    (void)v;
    const ch_pos_t *p = pos;
    uint64_t w = p->type[CH_PAWN] & p->color[0], b = p->type[CH_PAWN] & p->color[1];
    uint64_t k = (w * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ p->side;
    key[0] = k ^ k >> 29 ^ k >> 47;
    k = p->side;
    for (int c = 0; c < 2; c++)
        for (int t = CH_PAWN; t <= CH_QUEEN; t++) k = k << 4 | (uint64_t)__builtin_popcountll(p->type[t] & p->color[c]);
    k *= 0xD6E8FEB86659FD93ull;
    key[1] = k ^ k >> 29 ^ k >> 47;
    return 2;
}

/* A null move, except in check or with a king and pawns alone (zugzwang). */
static int ch_null(const gv_t *v, void *pos)
{
    (void)v;
    ch_pos_t *p = pos;
    uint64_t own = p->color[p->side];
    if (!(own & ~(p->type[CH_PAWN] | p->type[CH_KING])) || ch_in_check(p)) return 0;
    ch_play(p, MOVE_NONE);
    return 1;
}

/* ---- the view ---- */

static int ch_cell(int sq) { return (7 - sq / 8) * 8 + sq % 8; }

static void ch_view(const gv_t *v, const void *pos, board_view_t *out)
{
    (void)v;
    static const char *const glyph[2][7] = { { "", "♙", "♘", "♗", "♖", "♕", "♔" }, { "", "♟", "♞", "♝", "♜", "♛", "♚" } };
    static const char ascii[] = " PNBRQK";
    const ch_pos_t *p = pos;
    memset(out, 0, sizeof *out);
    out->rows = out->cols = 8;
    snprintf(out->side[0], sizeof out->side[0], "White");
    snprintf(out->side[1], sizeof out->side[1], "Black");
    for (int i = 0; i < 8; i++) {
        snprintf(out->col_label[i], sizeof out->col_label[i], "%c", 'a' + i);
        snprintf(out->row_label[i], sizeof out->row_label[i], "%d", 8 - i);
    }
    for (int sq = 0; sq < 64; sq++) {
        view_cell_t *c = &out->cell[ch_cell(sq)];
        c->shade = (sq / 8 + sq % 8) % 2 == 0;
        snprintf(c->name, sizeof c->name, "%c%d", 'a' + sq % 8, 1 + sq / 8);
        int pc = p->sq[sq];
        if (!pc) {
            c->kind = VIEW_EMPTY;
            c->ascii = '.';
            continue;
        }
        int col = ch_pc_color(pc), t = ch_pc_type(pc);
        c->kind = VIEW_PIECE;
        c->owner = (uint8_t)col;
        c->ascii = col == CH_WHITE ? ascii[t] : (char)(ascii[t] + ('a' - 'A'));
        snprintf(c->glyph, sizeof c->glyph, "%s", glyph[col][t]);
    }
}

static void ch_move_cells(const gv_t *v, const void *pos, move_t m, int *from, int *to)
{
    (void)v;
    (void)pos;
    int t = ch_to(m);
    if (ch_kind(m) == CH_CASTLE) t = (ch_from(m) / 8) * 8 + (t < ch_from(m) ? 2 : 6);
    *from = ch_cell(ch_from(m));
    *to = ch_cell(t);
}

static int ch_move_note(const gv_t *v, const void *pos, char *buf, size_t n)
{
    (void)v;
    if (!ch_in_check(pos)) return 0;
    snprintf(buf, n, "check: the king must be saved");
    return 1;
}

static const game_ops_t ch_ops = {
    .pos_size = sizeof(ch_pos_t),
    .pos_start = ch_start_hook,
    .pos_parse = ch_parse_hook,
    .pos_format = ch_format_hook,
    .pos_key = ch_key,
    .pos_from_key = ch_from_key,
    .pos_hash = ch_hash,
    .pos_ply = ch_ply,
    .pos_turn = ch_turn,
    .moves = ch_moves_hook,
    .count_moves = ch_count_hook,
    .play = ch_play_hook,
    .move_parse = ch_move_parse_hook,
    .move_format = ch_move_format_hook,
    .terminal = ch_terminal,
    .terminal_why = ch_terminal_why,
    .evaluate = ch_evaluate_hook,
    .repetition = game_repetition_draw,
    .line_over = ch_line_over,
    .pos_reversible = ch_reversible,
    .count_rule = "50-move rule",
    .ab_tactical = ch_tactical,
    .ab_captures = ch_captures_hook,
    .ab_gain = ch_gain,
    .pos_in_check = ch_check_hook,
    .play_null = ch_null,
    .ab_move_class = ch_move_class,
    .ab_see = ch_see_hook,
    .ab_eval_keys = ch_eval_keys,
    .ab_futility = 120,
    .ab_window = 25,
    .nsym = 1,
    .view = ch_view,
    .move_cells = ch_move_cells,
    .move_note = ch_move_note,
    .move_kind = GAME_MOVE_FROM_TO,
    /* SAN (e4, Nf3, exd5, e8=Q, O-O or 0-0) and UCI (e2e4, e7e8q) */
    .move_chars = "abcdefgh12345678NBRQKnbrqxO0-=+#",
    .record_read = ch_record_read,
    .record_write = ch_record_write,
    .record_ext = "pgn",
    .retro = &ch_retro,
    .cannot_win = ch_cannot_win,
};

typedef struct ch_gv {
    gv_t v;
    ch_variant_t data;
} ch_gv_t;

static int ch_variant_open(const char *spec, gv_t **out, err_t *err)
{
    ch_init();
    ch_params_t pp;
    ch_params_default(&pp);
    int custom = 0;
    if (spec && *spec && strcmp(spec, "standard")) {
        int vals[5], used = 0;
        if (strncmp(spec, "values=", 7)
            || sscanf(spec + 7, "%d,%d,%d,%d,%d%n", &vals[0], &vals[1], &vals[2], &vals[3], &vals[4], &used) != 5
            || spec[7 + used])
            return err_set(err, GSW_EINPUT,
                           "unknown chess variant \"%s\" (known: standard; values=P,N,B,R,Q sets the piece values)", spec);
        for (int i = 0; i < 5; i++) {
            if (vals[i] < 1 || vals[i] > 10000)
                return err_set(err, GSW_EINPUT, "chess variant \"%s\": piece values must be 1..10000 centipawns", spec);
            pp.value[CH_PAWN + i] = vals[i];
        }
        pp.net = 0;   /* (the network knows no piece values: the terms' evaluation, which does) */
        custom = 1;
    }
    ch_gv_t *g = calloc(1, sizeof *g);
    if (!g) return err_set(err, GSW_EFAIL, "out of memory");
    g->data.params = pp;
    g->v.game = &chess_game;
    g->v.ops = &ch_ops;
    g->v.data = &g->data;
    if (custom)
        snprintf(g->v.name, sizeof g->v.name, "values=%d,%d,%d,%d,%d", pp.value[CH_PAWN], pp.value[CH_KNIGHT],
                 pp.value[CH_BISHOP], pp.value[CH_ROOK], pp.value[CH_QUEEN]);
    else snprintf(g->v.name, sizeof g->v.name, "standard");
    *out = &g->v;
    return GSW_OK;
}

static void ch_variant_close(gv_t *v)
{
    free(v);   /* the gv_t is the first member of its ch_gv_t */
}

static const char *const ch_variants[] = { "standard", NULL };

const game_t chess_game = {
    .name = "chess",
    .title = "Chess",
    .summary = "Chess: FEN positions (Chess960 castling too), SAN and UCI moves, PGN records.",
    .players = 2,
    .default_variant = "standard",
    .variants_help = "standard; values=P,N,B,R,Q (the engine's piece values in centipawns)",
    .test_variants = ch_variants,
    .menu_variants = ch_variants,
    .play_opponent = "heuristic:3",
    .eval_unit = "pawns",
    .variant_open = ch_variant_open,
    .variant_close = ch_variant_close,
};
