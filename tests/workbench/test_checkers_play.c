/* Checkers in the workbench: the rules of play that look at the whole line
 * (threefold repetition, the 40-move rule) end a game as a draw with the
 * reason said, the computer stops there, undo brings the game back; the
 * board's square numbers; moves entered square by square and typed; the
 * note that a capture is compulsory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workbench/session.h"
#include "workbench/session_board.h"
#include "tests/workbench/session_lib.h"

static void open_session(session_t *s, const char *pos)
{
    err_t err;
    assert_int_equal(session_init(s, "checkers", pos, &err), GSW_OK);
    s->sync = 1;
}

static void close_session(session_t *s)
{
    session_sync_close(s);
    session_free(s);
}


static void play(session_t *s, const char *m)
{
    err_t err;
    if (session_play_text(s, m, &err)) fail_msg("%s: %s", m, err.msg);
}

static int over(const session_t *s, char *why, size_t n)
{
    val_t v;
    int o = session_over_why(s, &v, why, n);
    if (o) assert_true(v == VAL_DRAW);
    return o;
}

/* Two kings shuffle: the start position comes back a third time after
 * eight plies, and that ends the game. */
static void test_threefold_repetition(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "B:WK32:BK1");
    static const char *const shuffle[] = { "1-5", "32-28", "5-1", "28-32" };
    char why[64];
    for (int i = 0; i < 8; i++) {
        assert_false(over(&s, why, sizeof why));
        play(&s, shuffle[i % 4]);
    }
    assert_true(over(&s, why, sizeof why));
    assert_string_equal(why, "threefold repetition");
    const char *text;
    assert_int_not_equal(run(&s, "1-5", &text), GSW_OK);   /* no move after the end */
    assert_non_null(strstr(text, "threefold repetition"));
    assert_int_equal(run(&s, "show", &text), GSW_OK);
    assert_non_null(strstr(text, "Game over: a draw (threefold repetition)"));
    /* the computer does not move on after the end */
    s.human[1] = s.human[0] = 0;
    s.opp.kind = OPP_HEURISTIC;
    assert_false(session_computer_to_move(&s));
    s.human[0] = s.human[1] = 1;
    out_t rec = { 0 };
    session_record(&s, &rec);
    assert_non_null(strstr(rec.buf, "1/2-1/2"));
    out_free(&rec);
    /* undo takes the end back; redo brings it again */
    assert_true(session_undo(&s));
    assert_false(over(&s, why, sizeof why));
    assert_true(session_redo(&s));
    assert_true(over(&s, why, sizeof why));
    close_session(&s);
}

/* The third occurrence counts however the line came back to it: here by
 * one white king's shuffle, then by the other's. */
static void test_repetition_by_other_paths(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "B:WK32,K31:BK1");
    char why[64];
    static const char *const moves[] = { "1-5", "32-28", "5-1", "28-32", "1-5", "31-27", "5-1", "27-31" };
    for (int i = 0; i < 8; i++) {
        assert_false(over(&s, why, sizeof why));
        play(&s, moves[i]);
    }
    assert_true(over(&s, why, sizeof why));
    assert_string_equal(why, "threefold repetition");
    close_session(&s);
}

/* Is there a capture for the side to move in pos? */
static int capture_pending(const gv_t *v, const void *pos)
{
    move_t mv[GSW_MAX_MOVES];
    char t[32];
    if (v->ops->moves(v, pos, mv) == 0) return 0;
    v->ops->move_format(v, pos, mv[0], t, sizeof t);
    return strchr(t, 'x') != NULL;   /* captures are compulsory: all moves are, or none */
}

/* Plays a quiet ply (no capture): the move after which the opponent has
 * no capture and whose position has been seen least often; with give set,
 * a move that offers the opponent a capture instead. Returns 0 when there
 * is no such move. */
static int walk(session_t *s, int give)
{
    const game_ops_t *O = s->v->ops;
    move_t mv[GSW_MAX_MOVES];
    if (capture_pending(s->v, session_pos(s))) return 0;
    int n = O->moves(s->v, session_pos(s), mv), best = -1, best_seen = 1 << 30;
    for (int i = 0; i < n; i++) {
        GSW_POSBUF child[GSW_MAX_POS];
        memcpy(child, session_pos(s), O->pos_size);
        O->play(s->v, child, mv[i]);
        if (capture_pending(s->v, child) != give) continue;
        int seen = 0;
        uint8_t a[GSW_MAX_KEY], b[GSW_MAX_KEY];
        size_t la = O->pos_key(s->v, child, a, NULL);
        for (int p = 0; p <= s->ply; p++)
            seen += O->pos_key(s->v, s->pos[p].b, b, NULL) == la && !memcmp(a, b, la);
        if (seen < best_seen) { best = i; best_seen = seen; }
    }
    if (best < 0) return 0;
    err_t err;
    assert_int_equal(session_play(s, mv[best], &err), GSW_OK);
    return 1;
}

/* walk(s, 0), failing with the position when there is no quiet move. */
static void quiet_ply(session_t *s)
{
    if (walk(s, 0)) return;
    char t[160];
    s->v->ops->pos_format(s->v, session_pos(s), t, sizeof t);
    fail_msg("no quiet move at ply %d: %s", s->ply, t);
}

/* 80 plies of king moves with no capture end the game; 79 do not. */
static void test_forty_move_rule(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "B:WK31,K32:BK1,K2");
    char why[64];
    for (int i = 0; i < 80; i++) {
        assert_false(over(&s, why, sizeof why));
        quiet_ply(&s);
    }
    assert_int_equal(s.ply, 80);
    assert_true(over(&s, why, sizeof why));
    assert_string_equal(why, "40-move rule");
    const char *text;
    assert_int_equal(run(&s, "show", &text), GSW_OK);
    assert_non_null(strstr(text, "Game over: a draw (40-move rule)"));
    assert_true(session_undo(&s));   /* 79 quiet plies: the game goes on */
    assert_false(over(&s, why, sizeof why));
    close_session(&s);
}

/* A capture starts the count again: after 40 quiet plies, a capture, then
 * 79 quiet plies do not end the game (119 without the capture would). */
static void test_capture_resets_the_count(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "B:WK25,K32,K27:BK1,K2,K8");
    char why[64];
    for (int i = 0; i < 40; i++) quiet_ply(&s);
    int gave = 0;
    for (int i = 0; i < 30 && !gave; i++) {
        gave = walk(&s, 1);
        if (!gave) quiet_ply(&s);
    }
    assert_true(gave);
    move_t mv[GSW_MAX_MOVES];
    assert_true(capture_pending(s.v, session_pos(&s)));
    assert_true(s.v->ops->moves(s.v, session_pos(&s), mv) > 0);
    err_t err;
    while (capture_pending(s.v, session_pos(&s))) {   /* the capture (and any capture back) */
        assert_true(s.v->ops->moves(s.v, session_pos(&s), mv) > 0);
        assert_int_equal(session_play(&s, mv[0], &err), GSW_OK);
    }
    int from = s.ply;
    for (int i = 0; i < 79; i++) {
        assert_false(over(&s, why, sizeof why));
        quiet_ply(&s);
    }
    assert_int_equal(s.ply - from, 79);
    assert_false(over(&s, why, sizeof why));
    quiet_ply(&s);   /* the 80th: over */
    assert_true(over(&s, why, sizeof why));
    assert_string_equal(why, "40-move rule");
    close_session(&s);
}

/* The view cell of checkers square sq (1-32): dark squares, row by row. */
static int cell_of(int sq)
{
    int r = (sq - 1) / 4;
    return r * 8 + (r % 2 == 0 ? 2 * ((sq - 1) % 4) + 1 : 2 * ((sq - 1) % 4));
}

/* A double jump with a choice after the first: entered square by square,
 * with the next squares marked, the pieces that must capture marked and
 * the rule said; and from the piece straight to the last square. */
static void test_jumps_square_by_square(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "B:W6,14,15:B1");
    char note[64], mark[64], part[32];
    assert_true(session_note(&s, note, sizeof note));
    assert_string_equal(note, "a capture is compulsory");
    session_marks(&s, mark, 64);
    assert_int_equal(mark[cell_of(1)], 4);   /* the piece that must capture */
    assert_int_equal(mark[cell_of(6)], 0);
    err_t err;
    assert_int_equal(session_click(&s, cell_of(1), &err), 0);   /* select */
    session_marks(&s, mark, 64);
    assert_true(mark[cell_of(10)] & 1);
    assert_false(mark[cell_of(17)] & 1);
    assert_int_equal(session_click(&s, cell_of(10), &err), 2);   /* one step: two ways on */
    assert_true(session_partial(&s, part, sizeof part));
    assert_string_equal(part, "1x10");
    session_marks(&s, mark, 64);
    assert_true(mark[cell_of(10)] & 2);
    assert_true(mark[cell_of(17)] & 1);
    assert_true(mark[cell_of(19)] & 1);
    assert_int_equal(session_click(&s, cell_of(19), &err), 1);   /* played */
    char t[32];
    s.v->ops->move_format(s.v, s.pos[0].b, s.moves[0], t, sizeof t);
    assert_string_equal(t, "1x10x19");
    assert_false(session_note(&s, note, sizeof note));
    assert_true(session_undo(&s));
    assert_int_equal(session_click(&s, cell_of(1), &err), 0);
    assert_int_equal(session_click(&s, cell_of(17), &err), 1);   /* straight to the last square */
    s.v->ops->move_format(s.v, s.pos[0].b, s.moves[0], t, sizeof t);
    assert_string_equal(t, "1x10x17");
    assert_true(session_undo(&s));
    const char *text;
    assert_int_not_equal(run(&s, "1-5", &text), GSW_OK);   /* a plain move while a capture is there */
    assert_non_null(strstr(text, "compulsory"));
    assert_int_equal(run(&s, "show", &text), GSW_OK);
    assert_non_null(strstr(text, "a capture is compulsory"));
    close_session(&s);
}

/* A click on one's own piece that cannot move says why. */
static void test_stuck_piece_click(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "B:W14:B1,9,10");
    err_t err;
    assert_int_equal(session_click(&s, cell_of(1), &err), -1);
    assert_string_equal(err.msg, "that piece cannot move: a capture is compulsory");
    assert_int_equal(s.selected, -1);
    assert_int_equal(session_click(&s, cell_of(14), &err), 0);   /* the opponent's piece: nothing */
    assert_int_equal(session_click(&s, cell_of(9), &err), 0);
    assert_int_equal(s.selected, cell_of(9));
    assert_int_equal(session_new(&s, "checkers", "", &err), GSW_OK);
    assert_int_equal(session_click(&s, cell_of(1), &err), -1);   /* blocked in by its own men */
    assert_string_equal(err.msg, "that piece has no legal move");
    close_session(&s);
}

/* numbers: the squares' names on the board, and off again. */
static void test_square_numbers(void **st)
{
    (void)st;
    session_t s;
    open_session(&s, "");
    const char *text;
    assert_int_equal(run(&s, "show", &text), GSW_OK);
    assert_null(strstr(text, "32 w"));
    assert_int_equal(run(&s, "numbers on", &text), GSW_OK);
    assert_non_null(strstr(text, " 1 b"));
    assert_non_null(strstr(text, "32 w"));
    assert_int_equal(run(&s, "numbers", &text), GSW_OK);   /* toggles: off */
    assert_non_null(strstr(text, "square numbers: off"));
    assert_int_equal(run(&s, "show", &text), GSW_OK);
    assert_null(strstr(text, "32 w"));
    assert_int_not_equal(run(&s, "numbers maybe", &text), GSW_OK);
    close_session(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threefold_repetition),
        cmocka_unit_test(test_repetition_by_other_paths),
        cmocka_unit_test(test_forty_move_rule),
        cmocka_unit_test(test_capture_resets_the_count),
        cmocka_unit_test(test_jumps_square_by_square),
        cmocka_unit_test(test_stuck_piece_click),
        cmocka_unit_test(test_square_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
