/* A position or a game pasted into the workbench without a terminal
 * (workbench/session_paste.h): a chess FEN, a PGN whose moves become the
 * game's history, Connect Four's moves as history, a checkers FEN; text
 * that is none of them (garbage, empty, control characters, an illegal
 * move) refused in one line with the game as it was; where a blank line
 * ends a paste read line by line; fen's text and the clipboard hook; the
 * OSC 52 sequence; the commands offered by completion and help. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workbench/complete.h"
#include "workbench/session.h"
#include "workbench/session_paste.h"
#include "tests/workbench/session_lib.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

static void open_game(session_t *s, const char *spec, const char *pos)
{
    err_t err;
    assert_int_equal(session_init(s, spec, pos, &err), GSW_OK);
}

/* The position's text. */
static const char *fen(session_t *s)
{
    static char buf[512];
    s->v->ops->pos_format(s->v, session_pos(s), buf, sizeof buf);
    return buf;
}

/* Paste text: its status, the message in *msg (static). */
static int paste(session_t *s, const char *text, const char **msg)
{
    static out_t out;
    static err_t err;
    out_clear(&out);
    int rc = session_exec_paste(s, text, &out, &err);
    *msg = rc ? err.msg : out.buf ? out.buf : "";
    return rc;
}

static void test_chess_fen_and_pgn(void **st)
{
    (void)st;
    session_t s;
    const char *m;
    open_game(&s, "chess", "");
    const char *f = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    char quoted[128];
    snprintf(quoted, sizeof quoted, "  \"%s\"\n", f);   /* as gsw prints one, with blanks about it */
    assert_int_equal(paste(&s, quoted, &m), GSW_OK);
    assert_string_equal(m, "pasted a position (FEN)\n");
    assert_string_equal(fen(&s), f);
    assert_int_equal(s.ply, 0);
    /* a PGN: tags, a blank line, moves over lines, CR LF line ends */
    assert_int_equal(paste(&s, "[Event \"x\"]\r\n[White \"a\"]\r\n\r\n1. e4 e5 2. Nf3\r\nNc6 *\r\n", &m), GSW_OK);
    assert_non_null(strstr(m, "pasted a game (PGN) of 4 plies"));
    assert_int_equal(s.ply, 4);
    assert_int_equal(s.top, 4);
    assert_string_equal(fen(&s), f);
    assert_int_equal(run(&s, "undo 4", NULL), GSW_OK);
    assert_string_equal(fen(&s), START_FEN);
    /* a PGN from a FEN tag */
    assert_int_equal(paste(&s, "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *", &m), GSW_OK);
    assert_string_equal(fen(&s), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
    assert_int_equal(run(&s, "undo 2", NULL), GSW_OK);
    assert_string_equal(fen(&s), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    session_free(&s);
}

/* Whatever is neither: one line saying why, and the game as it was. */
static void test_bad_pastes_change_nothing(void **st)
{
    (void)st;
    session_t s;
    const char *m;
    open_game(&s, "chess", "");
    assert_int_equal(run(&s, "e4", NULL), GSW_OK);
    char was[512];
    snprintf(was, sizeof was, "%s", fen(&s));
    static const char *const bad[] = {
        "hello world", "", "  \n\t ", "rnbqkbnr/pppppppp/8/8 x KQkq - 0 1", "1. e4 e5 2. Ke3 *",
        "[Event \"x\"\n1. e4", "8/8/8/8/8/8/8/8 w - - 0 1", "e4\033[A", "[FEN \"junk\"]\n\n1. e4 *",
        "[Event \"x\"]\n\n1. e4 {never closed", "1. e4 (1. d4 d5", "[\"\"]", "\"\"", NULL,
    };
    for (int i = 0; bad[i]; i++) {
        assert_int_equal(paste(&s, bad[i], &m), GSW_EINPUT);
        assert_non_null(strstr(m, "paste: "));
        assert_null(strchr(m, '\n'));   /* one line */
        assert_string_equal(fen(&s), was);
        assert_int_equal(s.ply, 1);
        assert_int_equal(s.top, 1);
    }
    size_t big = 300000;   /* a long paste of junk, and of moves, each illegal somewhere */
    char *junk = malloc(big + 1);
    assert_non_null(junk);
    for (size_t i = 0; i < big; i++) junk[i] = "x/1 [\"{("[i % 7];
    junk[big] = 0;
    assert_int_equal(paste(&s, junk, &m), GSW_EINPUT);
    assert_null(strchr(m, '\n'));
    for (size_t i = 0; i < big; i++) junk[i] = "Nf3 Nf6 "[i % 8];
    assert_int_equal(paste(&s, junk, &m), GSW_EINPUT);
    assert_null(strchr(m, '\n'));
    free(junk);
    assert_string_equal(fen(&s), was);
    assert_int_equal(paste(&s, "rnbqkbnr/pppppppp/8/8 x KQkq - 0 1", &m), GSW_EINPUT);
    assert_non_null(strstr(m, "bad FEN"));   /* a FEN's line: the FEN's reason */
    assert_int_equal(paste(&s, "1. e4 e5 2. Ke3 *", &m), GSW_EINPUT);
    assert_non_null(strstr(m, "Ke3"));   /* moves: the record's reason, naming the move */
    assert_int_equal(run(&s, "paste", NULL), GSW_OK);   /* alone: the front end reads the text */
    assert_int_equal(s.paste_wait, 1);
    assert_int_equal(paste(&s, "nothing", &m), GSW_EINPUT);
    assert_int_equal(s.paste_wait, 0);
    session_free(&s);
}

/* Other games: Connect Four's moves as history, a checkers FEN and PDN. */
static void test_other_games(void **st)
{
    (void)st;
    session_t s;
    const char *m;
    open_game(&s, "connect4", "");
    assert_int_equal(paste(&s, "4453\n", &m), GSW_OK);
    assert_non_null(strstr(m, "pasted 4 plies"));
    assert_int_equal(s.ply, 4);
    assert_int_equal(run(&s, "undo", NULL), GSW_OK);
    assert_string_equal(fen(&s), "445");
    assert_int_equal(paste(&s, "44444444", &m), GSW_EINPUT);   /* column 4 is full */
    assert_string_equal(fen(&s), "445");
    assert_int_equal(run(&s, "new checkers", NULL), GSW_OK);
    assert_int_equal(paste(&s, "B:W21,22:B1,K2", &m), GSW_OK);
    assert_string_equal(m, "pasted a position (FEN)\n");
    assert_int_equal(paste(&s, "1. 11-15 23-19 *", &m), GSW_OK);
    assert_non_null(strstr(m, "pasted a game (PDN) of 2 plies"));
    assert_int_equal(s.ply, 2);
    session_free(&s);
}

/* A blank line ends a paste read line by line, but not a PGN's after its tags. */
static void test_paste_ends(void **st)
{
    (void)st;
    assert_true(session_paste_ends(""));
    assert_true(session_paste_ends("4453\n"));
    assert_true(session_paste_ends("[Event \"x\"]\n\n1. e4 *\n"));
    assert_false(session_paste_ends("[Event \"x\"]\n[White \"a\"]\n"));
    assert_false(session_paste_ends("  [Event \"x\"]\r\n"));
}

static int clip_calls;
static char clip_text[512];
static int clip(const char *text)
{
    clip_calls++;
    snprintf(clip_text, sizeof clip_text, "%s", text);
    return 0;
}

/* fen: the text; handed to the clipboard where the front end has one. */
static void test_fen_and_clipboard(void **st)
{
    (void)st;
    session_t s;
    const char *t;
    open_game(&s, "chess", "");
    assert_int_equal(run(&s, "fen", &t), GSW_OK);
    assert_string_equal(t, START_FEN "\n");   /* the shell: the FEN alone */
    s.clipboard = clip;
    assert_int_equal(run(&s, "e4", NULL), GSW_OK);
    assert_int_equal(run(&s, "fen", &t), GSW_OK);
    assert_int_equal(clip_calls, 1);
    assert_string_equal(clip_text, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_non_null(strstr(t, "FEN copied to the clipboard, where the terminal allows it"));
    /* fen FEN: that position set up (not handed to the clipboard); a bad
       one refused, the position left as it was */
    assert_int_equal(run(&s, "fen 8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1", &t), GSW_OK);
    assert_string_equal(t, "set up a position (FEN)\n");
    assert_int_equal(clip_calls, 1);
    assert_int_equal(run(&s, "fen", &t), GSW_OK);
    assert_string_equal(clip_text, "8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1");
    assert_int_equal(run(&s, "fen 8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1 x", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "fen 8/8/8/8/8/8/8/KQ6 w - - 0 1", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "fen", &t), GSW_OK);
    assert_string_equal(clip_text, "8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1");
    assert_int_equal(run(&s, "new connect4 4453", NULL), GSW_OK);
    assert_int_equal(run(&s, "fen", &t), GSW_OK);
    assert_string_equal(t, "4453\nthe position copied to the clipboard, where the terminal allows it (OSC 52; gsw "
                           "cannot tell whether it did)\n");
    session_free(&s);
}

/* OSC 52: ESC ] 52 ; c ; base64 BEL, each padding. */
static void test_osc52(void **st)
{
    (void)st;
    char buf[64];
    assert_int_equal(osc52_sequence("hello", buf, sizeof buf), 16);
    assert_string_equal(buf, "\033]52;c;aGVsbG8=\a");
    osc52_sequence("hell", buf, sizeof buf);
    assert_string_equal(buf, "\033]52;c;aGVsbA==\a");
    osc52_sequence("hel", buf, sizeof buf);
    assert_string_equal(buf, "\033]52;c;aGVs\a");
    osc52_sequence("", buf, sizeof buf);
    assert_string_equal(buf, "\033]52;c;\a");
    osc52_sequence("\xff\xfe", buf, sizeof buf);
    assert_string_equal(buf, "\033]52;c;//4=\a");
    assert_int_equal(osc52_sequence("hello", buf, 16), 0);   /* no room for its end */
    assert_string_equal(buf, "");
}

/* Completion and help name the commands. */
static void test_commands_offered(void **st)
{
    (void)st;
    session_t s;
    open_game(&s, "chess", "");
    assert_true(has_candidate(complete_candidates(&s, "pa", 0, "pa"), "paste"));
    assert_true(has_candidate(complete_candidates(&s, "fe", 0, "fe"), "fen"));
    assert_true(has_candidate(complete_candidates(&s, "help f", 1, "f"), "fen"));
    assert_non_null(strstr(session_help(), "paste    [TEXT]"));
    assert_non_null(strstr(session_help(), "\nfen "));
    session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chess_fen_and_pgn),
        cmocka_unit_test(test_bad_pastes_change_nothing),
        cmocka_unit_test(test_other_games),
        cmocka_unit_test(test_paste_ends),
        cmocka_unit_test(test_fen_and_clipboard),
        cmocka_unit_test(test_osc52),
        cmocka_unit_test(test_commands_offered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
