/* Checkers and chess for the checker: see rules.h. What gsw writes is
 * what these write (checkers.c's and chess.c's hooks call the same
 * functions), and the end of the game is their terminal hooks' rule. */
#include "check/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/cert.h"
#include "core/retro.h"
#include "games/checkers/ck.h"
#include "games/chess/ch.h"

/* --- checkers --- */

static int ck_parse_r(const rules_t *r, const char *text, void *pos, err_t *err)
{
    (void)r;
    return ck_parse_fen(text, pos, err);
}

static void ck_format_r(const rules_t *r, const void *pos, char *buf, size_t n)
{
    (void)r;
    ck_format_fen(pos, buf, n);
}

static int ck_moves_r(const rules_t *r, const void *pos, move_t *out) { (void)r; return ck_moves(pos, out); }
static void ck_play_r(const rules_t *r, void *pos, move_t m) { (void)r; ck_play(pos, m); }

static int ck_move_parse_r(const rules_t *r, const void *pos, const char *text, move_t *m, err_t *err)
{
    (void)r;
    return ck_parse_move(pos, text, m, err);
}

static void ck_move_format_r(const rules_t *r, const void *pos, move_t m, char *buf, size_t n)
{
    (void)r;
    ck_format_move(pos, m, buf, n);
}

/* A side with no legal move has lost. */
static int ck_over_r(const rules_t *r, const void *pos, int32_t *v)
{
    (void)r;
    if (ck_count(pos)) return 0;
    *v = -CV_WIN;
    return 1;
}

static int ck_same_r(const void *a, const void *b)
{
    const ck_pos_t *p = a, *q = b;
    return p->p[0] == q->p[0] && p->p[1] == q->p[1] && p->k == q->k && p->side == q->side;
}

/* A capture or a man's move. */
static int ck_conversion_r(const void *pos, move_t m)
{
    const ck_pos_t *p = pos;
    return ck_mjumps(m) > 0 || !(p->k >> ck_mfrom(m) & 1);
}

/* --- chess --- */

static int ch_parse_r(const rules_t *r, const char *text, void *pos, err_t *err)
{
    (void)r;
    return ch_parse_fen(text, pos, err);
}

static void ch_format_r(const rules_t *r, const void *pos, char *buf, size_t n)
{
    (void)r;
    ch_format_fen(pos, buf, n);
}

static int ch_moves_r(const rules_t *r, const void *pos, move_t *out) { (void)r; return ch_moves(pos, out); }
static void ch_play_r(const rules_t *r, void *pos, move_t m) { (void)r; ch_play(pos, m); }

static int ch_move_parse_r(const rules_t *r, const void *pos, const char *text, move_t *m, err_t *err)
{
    (void)r;
    return ch_parse_move(pos, text, m, err);
}

static void ch_move_format_r(const rules_t *r, const void *pos, move_t m, char *buf, size_t n)
{
    (void)r;
    ch_format_san(pos, m, buf, n);
}

/* Mate is lost; stalemate and a position where neither side can mate are drawn. */
static int ch_over_r(const rules_t *r, const void *pos, int32_t *v)
{
    (void)r;
    if (!ch_count(pos)) {
        *v = ch_in_check(pos) ? -CV_WIN : 0;
        return 1;
    }
    if (ch_insufficient(pos)) {
        *v = 0;
        return 1;
    }
    return 0;
}

/* Pieces, side to move, castling rights and the en-passant square. */
static int ch_same_r(const void *a, const void *b)
{
    const ch_pos_t *p = a, *q = b;
    return !memcmp(p->sq, q->sq, sizeof p->sq) && p->side == q->side && !memcmp(p->rook, q->rook, sizeof p->rook)
           && p->ep == q->ep;
}

/* A capture or a pawn's move. */
static int ch_conversion_r(const void *pos, move_t m)
{
    const ch_pos_t *p = pos;
    return ch_captured(p, m) != 0 || ch_pc_type(p->sq[ch_from(m)]) == CH_PAWN;
}

int rules_open(const char *spec, rules_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", spec);
    if (!strcmp(spec, "checkers") || !strcmp(spec, "checkers:english")) {
        *r = (rules_t){ .game = "checkers", .repeat_draws = 1, .retro = &ck_retro, .parse = ck_parse_r,
                        .format = ck_format_r, .moves = ck_moves_r, .move_parse = ck_move_parse_r,
                        .move_format = ck_move_format_r, .play = ck_play_r, .over = ck_over_r, .same = ck_same_r,
                        .conversion = ck_conversion_r };
    } else if (!strcmp(spec, "chess") || !strncmp(spec, "chess:", 6)) {
        ch_init();
        *r = (rules_t){ .game = "chess", .repeat_draws = 1, .retro = &ch_retro, .parse = ch_parse_r,
                        .format = ch_format_r, .moves = ch_moves_r, .move_parse = ch_move_parse_r,
                        .move_format = ch_move_format_r, .play = ch_play_r, .over = ch_over_r, .same = ch_same_r,
                        .conversion = ch_conversion_r };
    } else if (!strncmp(spec, "connect4", 8)) {
        int w = 7, h = 6;
        char tail;
        if (spec[8] && (spec[8] != ':' || sscanf(spec + 9, "%dx%d%c", &w, &h, &tail) != 2))
            return err_set(err, GSW_EINPUT, "unknown connect4 variant \"%s\" (expected connect4:WxH)", spec);
        if (c4_open(w, h, r, err)) return err->code;
    } else
        return err_set(err, GSW_EINPUT, "the checker does not know the game \"%s\" (connect4:WxH, checkers, chess)",
                       spec);
    snprintf(r->name, sizeof r->name, "%s", spec);
    return GSW_OK;
}
