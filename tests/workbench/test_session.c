/* The workbench's model without a terminal: moves, undo/redo, clicks and the
 * cursor on the board view, opponents, the analysis and the value history,
 * hints, commands, saving and loading, the record, and lessons. Small boards
 * (4x4 and 5x4 Connect Four) keep every solve quick. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "workbench/complete.h"
#include "workbench/session.h"
#include "workbench/session_board.h"
#include "workbench/session_lesson.h"
#include "tests/workbench/session_lib.h"

static char dir[256];

static int setup(void **st)
{
    (void)st;
    snprintf(dir, sizeof dir, "/tmp/gsw-session-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void open_sync(session_t *s, const char *spec, const char *pos)
{
    err_t err;
    assert_int_equal(session_init(s, spec, pos, &err), GSW_OK);
    s->sync = 1;
}

static void close_sync(session_t *s)
{
    session_sync_close(s);
    if (s->cache) { err_t err; assert_int_equal(cache_close(s->cache, &err), GSW_OK); s->cache = NULL; }
    session_free(s);
}


static void test_moves_undo_redo(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:4x4", "");
    const char *t;
    assert_int_equal(run(&s, "move 2", &t), GSW_OK);
    assert_int_equal(run(&s, "3", &t), GSW_OK);   /* a bare move */
    assert_int_equal(s.ply, 2);
    assert_int_equal(run(&s, "undo", &t), GSW_OK);
    assert_int_equal(s.ply, 1);
    assert_int_equal(s.top, 2);
    assert_int_equal(run(&s, "redo", &t), GSW_OK);
    assert_int_equal(s.ply, 2);
    assert_int_equal(run(&s, "redo", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "nothing to redo"));
    assert_int_equal(run(&s, "undo 2", &t), GSW_OK);
    /* a huge or malformed count: a clear error or a quick stop, never a long loop */
    assert_int_equal(run(&s, "undo 2x", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "undo 99999999999999999999", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "redo 2000000000", &t), GSW_OK);   /* to the end of the line */
    assert_int_equal(s.ply, 2);
    assert_int_equal(run(&s, "undo 2000000000", &t), GSW_OK);
    assert_int_equal(s.ply, 0);
    assert_int_equal(run(&s, "undo", &t), GSW_EINPUT);
    /* a different move after undo drops the redo line */
    assert_int_equal(run(&s, "redo", &t), GSW_OK);
    assert_int_equal(run(&s, "4", &t), GSW_OK);
    assert_int_equal(s.top, 2);
    assert_int_equal(run(&s, "redo", &t), GSW_EINPUT);
    /* bad input names the problem */
    assert_int_equal(run(&s, "move 9", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "out of range"));
    assert_int_equal(run(&s, "frobnicate", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "frobnicate"));
    assert_int_equal(run(&s, "opponent wizard", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "wizard"));
    assert_int_equal(run(&s, "new nosuchgame", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "new connect4:4x4 55", &t), GSW_EINPUT);
    assert_int_equal(s.ply, 2);   /* a failed new keeps the game */
    close_sync(&s);
}

static void test_full_column_and_game_over(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:4x4", "1111");
    const char *t;
    assert_int_equal(run(&s, "1", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "full"));
    assert_int_equal(run(&s, "new connect4:4x4 1212121", &t), GSW_OK);
    assert_non_null(strstr(t, "wins"));
    assert_int_equal(run(&s, "2", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "over"));
    assert_int_equal(run(&s, "hint", &t), GSW_EINPUT);
    close_sync(&s);
}

static void test_clicks_and_cursor(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:5x4", "");
    err_t err;
    board_view_t *v = calloc(1, sizeof *v);
    s.v->ops->view(s.v, session_pos(&s), v);
    assert_int_equal(v->rows, 4);
    assert_int_equal(v->cols, 5);
    assert_true(v->drop);
    /* the cursor walks the board and stops at its edges */
    s.cursor = 0;
    session_cursor_move(&s, 0, -1);
    assert_int_equal(s.cursor, 0);
    session_cursor_move(&s, 0, 1);
    session_cursor_move(&s, 0, 1);
    assert_int_equal(s.cursor, 2);
    session_cursor_move(&s, 1, 0);
    assert_int_equal(s.cursor, 7);
    /* a click anywhere in a column drops there */
    assert_int_equal(session_click(&s, 2, &err), 1);
    assert_int_equal(s.moves[0], 2);
    assert_int_equal(session_click(&s, 5 * 3 + 2, &err), 1);   /* the bottom row of column 3 */
    s.v->ops->view(s.v, session_pos(&s), v);
    assert_int_equal(v->cell[3 * 5 + 2].kind, VIEW_PIECE);
    assert_int_equal(v->cell[3 * 5 + 2].owner, 0);
    assert_int_equal(v->cell[2 * 5 + 2].owner, 1);
    assert_int_equal(v->cell[1 * 5 + 2].kind, VIEW_EMPTY);
    assert_int_equal(session_click(&s, 99, &err), 0);   /* off the board: nothing */
    free(v);
    close_sync(&s);
}

static void test_opponent_parse(void **st)
{
    (void)st;
    opponent_t o;
    err_t err;
    char t[48];
    assert_int_equal(opponent_parse("heuristic:4", &o, &err), GSW_OK);
    assert_int_equal(o.kind, OPP_HEURISTIC);
    assert_int_equal(o.level, 4);
    assert_int_equal(opponent_parse("imperfect:70%", &o, &err), GSW_OK);
    assert_int_equal(o.percent, 70);
    opponent_text(&o, t, sizeof t);
    assert_string_equal(t, "imperfect:70%");
    assert_int_equal(opponent_parse("giveback:2", &o, &err), GSW_OK);
    assert_int_equal(o.givebacks, 2);
    assert_int_equal(opponent_parse("heuristic:0", &o, &err), GSW_EINPUT);
    assert_int_equal(opponent_parse("heuristic:x", &o, &err), GSW_EINPUT);
    assert_int_equal(opponent_parse("imperfect:101", &o, &err), GSW_EINPUT);
    assert_int_equal(opponent_parse("perfect:0", &o, &err), GSW_EINPUT);
    assert_int_equal(opponent_parse("perfect:5000", &o, &err), GSW_OK);   /* its time per move */
    assert_int_equal(o.kind, OPP_PERFECT);
    assert_true(o.ms == 5000);
    opponent_text(&o, t, sizeof t);
    assert_string_equal(t, "perfect:5000");
    assert_int_equal(opponent_parse("perfect:3000", &o, &err), GSW_OK);   /* the default reads plainly */
    opponent_text(&o, t, sizeof t);
    assert_string_equal(t, "perfect");
}

/* The empty 4x4 board is a draw in 16 (FACTS.md): every proven analysis
 * must say so, and the perfect opponent never lets it slip. */
static void test_analysis_and_perfect_play(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:4x4", "");
    const char *t;
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    analysis_t *an = session_analysis(&s, 0);
    assert_non_null(an);
    assert_true(an->proven);
    assert_int_equal(an->n, 4);
    val_t best = -VAL_INF;
    for (int i = 0; i < an->n; i++) if (an->mv[i].lo > best) best = an->mv[i].lo;
    assert_int_equal(best, VAL_DRAW);
    assert_int_equal(run(&s, "solve", &t), GSW_OK);
    assert_non_null(strstr(t, "draw"));
    /* computer against computer, both perfect: a draw with a full board */
    assert_int_equal(run(&s, "side none", &t), GSW_OK);
    assert_int_equal(run(&s, "show", &t), GSW_OK);
    assert_int_equal(s.ply, 16);
    assert_non_null(strstr(t, "a draw"));
    /* the value history (the history command proves every position): nobody threw anything away */
    assert_int_equal(run(&s, "history", &t), GSW_OK);
    assert_null(strstr(t, "threw away"));
    for (int i = 0; i < 16; i++) {
        char got[48], bst[48];
        int cg, cb;
        assert_true(session_history_entry(&s, i, got, sizeof got, bst, sizeof bst, &cg, &cb));
        assert_int_equal(cg, cb);
    }
    close_sync(&s);
}

/* 6x4 is a second-player win (FACTS.md). A first player who starts in a
 * corner is shown losing; a perfect second player wins. */
static void test_history_shows_a_thrown_game(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:5x4", "");
    const char *t;
    /* 5x4 is a draw; a perfect reply to a corner start, then a blunder */
    assert_int_equal(run(&s, "1", &t), GSW_OK);
    assert_int_equal(run(&s, "history", &t), GSW_OK);
    analysis_t *an = session_analysis(&s, 0);
    assert_non_null(an);
    assert_true(an->proven);
    char got[48], best[48];
    int cg, cb;
    assert_true(session_history_entry(&s, 0, got, sizeof got, best, sizeof best, &cg, &cb));
    assert_string_equal(best, "draw");
    assert_int_equal(cb, 2);
    assert_int_equal(cg, 1);   /* a corner start loses on 5x4 */
    assert_non_null(strstr(t, "threw away a draw"));
    close_sync(&s);
}

static void test_opponents_play(void **st)
{
    (void)st;
    session_t s;
    const char *t;
    /* the perfect opponent takes the fastest win */
    open_sync(&s, "connect4:4x4", "");
    assert_int_equal(run(&s, "opponent perfect", &t), GSW_OK);
    assert_int_equal(s.human[0], 1);
    assert_int_equal(s.human[1], 0);
    assert_int_equal(run(&s, "1", &t), GSW_OK);
    assert_non_null(strstr(t, "perfect: "));   /* the mover named */
    assert_int_equal(s.ply, 2);
    /* undo goes back to the person's turn */
    assert_int_equal(run(&s, "undo", &t), GSW_OK);
    assert_int_equal(s.ply, 0);
    /* a giveback opponent throws the game once when it can */
    assert_int_equal(run(&s, "new connect4:5x4", &t), GSW_OK);
    assert_int_equal(run(&s, "opponent giveback:1", &t), GSW_OK);
    assert_int_equal(run(&s, "side second", &t), GSW_OK);
    assert_int_equal(s.ply, 1);   /* the computer opened */
    analysis_t *an = session_analysis(&s, 0);
    assert_non_null(an);
    val_t played = 0;
    for (int i = 0; i < an->n; i++) if (an->mv[i].move == s.moves[0]) played = an->mv[i].lo;
    assert_true(played < VAL_DRAW);   /* it gave the draw away */
    assert_int_equal(s.opp.givebacks, 0);
    /* a heuristic opponent plays a legal move */
    assert_int_equal(run(&s, "side first", &t), GSW_OK);
    assert_int_equal(run(&s, "new connect4:5x4", &t), GSW_OK);
    assert_int_equal(run(&s, "opponent heuristic:2", &t), GSW_OK);
    assert_int_equal(run(&s, "3", &t), GSW_OK);
    assert_int_equal(s.ply, 2);
    /* hint in a lost position: the slowest loss */
    assert_int_equal(run(&s, "new connect4:4x4 1212", &t), GSW_OK);
    assert_int_equal(run(&s, "opponent human", &t), GSW_OK);
    assert_int_equal(run(&s, "hint", &t), GSW_OK);
    assert_non_null(strstr(t, "hint: "));
    close_sync(&s);
}

static void test_save_load_export(void **st)
{
    (void)st;
    session_t s;
    const char *t;
    open_sync(&s, "connect4:5x4", "");
    char path[400];
    snprintf(path, sizeof path, "%s/cache.sqlite", dir);
    err_t err;
    assert_int_equal(cache_open(path, &s.cache, &err), GSW_OK);
    assert_int_equal(run(&s, "3", &t), GSW_OK);
    assert_int_equal(run(&s, "3", &t), GSW_OK);
    assert_int_equal(run(&s, "2", &t), GSW_OK);
    assert_int_equal(run(&s, "save mine", &t), GSW_OK);
    assert_int_equal(run(&s, "new connect4:4x4", &t), GSW_OK);
    assert_int_equal(run(&s, "load mine", &t), GSW_OK);
    assert_int_equal(s.top, 3);
    char spec[96];
    game_spec(s.v, spec, sizeof spec);
    assert_string_equal(spec, "connect4:5x4");
    assert_int_equal(run(&s, "load", &t), GSW_OK);
    assert_non_null(strstr(t, "mine"));
    assert_int_equal(run(&s, "load nosuch", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "export", &t), GSW_OK);
    assert_non_null(strstr(t, "[Game \"connect4:5x4\"]"));
    assert_non_null(strstr(t, "[Position \"332\"]"));
    assert_non_null(strstr(t, "1. 3 3 2. 2"));
    snprintf(path, sizeof path, "export %s/game.txt", dir);
    assert_int_equal(run(&s, path, &t), GSW_OK);
    assert_int_equal(run(&s, "export /nonexistent-dir/x.txt", &t), GSW_EINPUT);
    close_sync(&s);
}

static void write_file(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_lessons(void **st)
{
    (void)st;
    char path[400];
    lesson_t *l;
    err_t err;
    write_file("bad1.lesson", "title: x\ngame: connect4:4x4\nstep: a\nposition: 55\n", path, sizeof path);
    assert_int_equal(lesson_load(path, &l, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "bad1.lesson:3"));
    write_file("bad2.lesson", "game: connect4:4x4\nstep: a\nexpect: 9\n", path, sizeof path);
    assert_int_equal(lesson_load(path, &l, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "out of range"));
    write_file("bad3.lesson", "game: connect4:4x4\nstep: a\nvalues: 1=Q\n", path, sizeof path);
    assert_int_equal(lesson_load(path, &l, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "1=Q"));
    write_file("bad4.lesson", "step: a\n", path, sizeof path);
    assert_int_equal(lesson_load(path, &l, &err), GSW_EINPUT);
    /* a good lesson, with one published value deliberately wrong */
    write_file("small.lesson",
               "title: Small\ngame: connect4:5x4\n"
               "step: Start\nposition: startpos\nsay: Play the centre.\nvalues: 3=D 1=L20 2=W9\nexpect: 3\n"
               "right: Yes.\nstep: End\nsay: Done.\n",
               path, sizeof path);
    assert_int_equal(lesson_load(path, &l, &err), GSW_OK);
    assert_int_equal(l->nsteps, 2);
    assert_non_null(lesson_value(&l->steps[0], "1"));
    assert_int_equal(lesson_value(&l->steps[0], "1")->plies, 20);
    session_t s;
    open_sync(&s, "connect4:4x4", "");
    assert_int_equal(session_lesson_start(&s, l, &err), GSW_OK);
    const char *t;
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    assert_non_null(strstr(t, "DISAGREES: 2"));   /* 2 is a draw, not a win */
    assert_null(strstr(t, "DISAGREES: 1"));
    assert_int_equal(run(&s, "1", &t), GSW_OK);
    assert_non_null(strstr(t, "gives the value away"));
    assert_int_equal(run(&s, "undo", &t), GSW_OK);
    assert_int_equal(run(&s, "3", &t), GSW_OK);
    assert_non_null(strstr(t, "keeps the value"));
    assert_non_null(strstr(t, "Yes."));
    assert_int_equal(run(&s, "next", &t), GSW_OK);
    assert_non_null(strstr(t, "Done."));
    assert_int_equal(run(&s, "next", &t), GSW_OK);
    assert_non_null(strstr(t, "Lesson complete"));
    assert_null(s.lesson);
    close_sync(&s);
}

/* The proof browser: the tree's root at the current position, the
 * principal line followed, other children reached by playing them, off the
 * tree and back by undo. */
static void test_proof_browser(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:4x4", "");
    const char *t;
    assert_int_equal(run(&s, "side first", &t), GSW_OK);   /* against the computer */
    assert_int_equal(run(&s, "follow", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "proof", &t), GSW_OK);
    assert_true(s.human[0] && s.human[1]);   /* browsing: nobody moves on its own */
    assert_non_null(strstr(t, "Proof tree: at least a draw for the side to move"));
    assert_non_null(s.br);
    assert_int_equal(session_browse_node(&s), 0);
    assert_string_equal(s.br->node[0].label, ">=D");
    int first = s.br->node[0].first;
    assert_int_equal(run(&s, "follow", &t), GSW_OK);
    assert_int_equal(session_browse_node(&s), first);
    assert_string_equal(s.br->node[first].label, "<=D");
    /* the defender's node lists every move; each is a child */
    const browse_node_t *nd = &s.br->node[first];
    assert_int_equal(nd->nchildren, 4);
    int c2 = nd->first + 2;
    char mt[16];
    snprintf(mt, sizeof mt, "%u", s.br->node[c2].move + 1);
    assert_int_equal(run(&s, mt, &t), GSW_OK);
    assert_int_equal(session_browse_node(&s), c2);
    /* a move the proof does not choose leaves the tree */
    const browse_node_t *at = &s.br->node[c2];
    assert_int_equal(at->nchildren, 1);
    move_t mv[GSW_MAX_MOVES];
    int n = s.v->ops->moves(s.v, session_pos(&s), mv), off = -1;
    for (int i = 0; i < n && off < 0; i++)
        if (mv[i] != s.br->node[at->first].move) off = (int)mv[i];
    assert_true(off >= 0);
    snprintf(mt, sizeof mt, "%d", off % 10 + 1);
    assert_int_equal(run(&s, mt, &t), GSW_OK);
    assert_int_equal(session_browse_node(&s), -1);
    assert_int_equal(run(&s, "follow", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "undo", &t), GSW_OK);
    assert_int_equal(session_browse_node(&s), c2);
    /* sizes add up */
    for (int i = 0; i < s.br->n; i++) {
        int sum = 1;
        for (int c = s.br->node[i].first; c < s.br->node[i].first + s.br->node[i].nchildren; c++) sum += s.br->node[c].size;
        assert_int_equal(sum, s.br->node[i].size);
    }
    assert_int_equal(run(&s, "proof win", &t), GSW_OK);   /* one tree for another: the sides stay saved */
    assert_int_equal(run(&s, "proof off", &t), GSW_OK);
    assert_null(s.br);
    assert_true(s.human[0] && !s.human[1]);   /* the opponent is back, as it was */
    assert_int_equal(s.opp.kind, OPP_PERFECT);
    assert_int_equal(run(&s, "proof maybe", &t), GSW_EINPUT);
    assert_int_equal(run(&s, "proof manager", &t), GSW_EINPUT);   /* no cache, no stored tree */
    close_sync(&s);
}

/* The main line follows the best proven move at every node, as the
 * analysis pane shows it: never a move proven worse than another child. */
static void test_proof_main_line(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:5x4", "");
    const char *t;
    static const char *const starts[] = { "new connect4:5x4", "new connect4:5x4 1", "new connect4:6x4", "new connect4:6x4 2",
                                          "new connect4:5x5 3" };
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        assert_int_equal(run(&s, starts[k], &t), GSW_OK);
        assert_int_equal(run(&s, "proof", &t), GSW_OK);
        for (int step = 0; step < 30; step++) {
            int node = session_browse_node(&s);
            if (node < 0 || !s.br->node[node].nchildren) break;
            int ply = s.ply;
            assert_int_equal(run(&s, "follow", &t), GSW_OK);
            const analysis_t *an = s.an[ply];
            if (s.br->node[node].nchildren < 2 || !an) continue;
            val_t best = -VAL_INF, got = -VAL_INF;
            for (int i = 0; i < an->n; i++) {
                int child = 0;   /* only the tree's children count */
                for (int c = s.br->node[node].first; c < s.br->node[node].first + s.br->node[node].nchildren; c++)
                    child |= s.br->node[c].move == an->mv[i].move;
                if (!child || an->mv[i].state != MV_PROVEN) continue;
                if (an->mv[i].lo > best) best = an->mv[i].lo;
                if (an->mv[i].move == s.moves[ply]) got = an->mv[i].lo;
            }
            if (got != best) fail_msg("%s, ply %d: the main line took a move worth %d, the best is worth %d", starts[k], ply, (int)got, (int)best);
        }
    }
    /* a position its game settles (a win at once): the tree shows the winning move */
    assert_int_equal(run(&s, "new connect4:6x5 443322", &t), GSW_OK);
    assert_int_equal(run(&s, "proof", &t), GSW_OK);
    assert_non_null(strstr(t, "a win for the side to move (2 nodes)"));
    assert_int_equal(s.br->node[0].nchildren, 1);
    close_sync(&s);
}

/* The manager's tree, stored by a run, browsed with its numbers. */
static void test_manager_browser(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:5x4", "");
    char path[400];
    snprintf(path, sizeof path, "%s/mg.sqlite", dir);
    err_t err;
    assert_int_equal(cache_open(path, &s.cache, &err), GSW_OK);
    const char *t;
    assert_int_equal(run(&s, "proof manager", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "no manager tree"));
    manager_t m;
    assert_int_equal(manager_init(&m, DFPN_GOAL_DRAW, &err), GSW_OK);
    manager_options_t o = { .workers = 1, .hash_mb = 4, .dfpn_budget = 500, .ab_depth = 2 };
    int done;
    dfpn_status_t res;
    assert_int_equal(manager_run(&m, s.v, session_pos(&s), &o, &done, &res, &err), GSW_OK);
    assert_true(done);
    assert_int_equal(res, DFPN_PROVEN);
    assert_true(m.n > 1);
    uint8_t key[GSW_MAX_KEY];
    size_t klen = s.v->ops->pos_key(s.v, session_pos(&s), key, NULL);
    int proofs_manager_put(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
                           const char *text, const manager_t *m, const char *state, err_t *err);
    assert_int_equal(proofs_manager_put(s.cache, "connect4", "5x4", key, klen, "", &m, "proven", &err), GSW_OK);
    int n = m.n;
    manager_free(&m);
    assert_int_equal(run(&s, "proof manager", &t), GSW_OK);
    assert_non_null(strstr(t, "Manager's tree"));
    assert_int_equal(s.br->n, n);
    assert_int_equal(s.br->node[0].pn, 0);
    assert_string_equal(s.br->node[0].label, ">=D");
    int principal = session_browse_principal(&s, 0);
    assert_int_equal(s.br->node[principal].pn, 0);   /* the root's side follows a proven child */
    /* a bound the analysis holds for an unproven child does not outrank the
       tree's proof: give one such child a proven interval, leave the rest */
    const browse_node_t *root = &s.br->node[0];
    int other = -1;
    for (int c = root->first; c < root->first + root->nchildren; c++)
        if (s.br->node[c].pn) other = c;
    assert_true(other >= 0);
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    assert_non_null(s.an[s.ply]);
    {
        analysis_t *an = s.an[s.ply];
        for (int i = 0; i < an->n; i++) {
            if (an->mv[i].move == s.br->node[other].move) {
                an->mv[i].state = MV_PROVEN;
                an->mv[i].lo = VAL_DRAW;
                an->mv[i].hi = val_win(3);
            } else an->mv[i].state = MV_UNKNOWN;
        }
        assert_int_equal(s.br->node[session_browse_principal(&s, 0)].pn, 0);
    }
    assert_int_equal(run(&s, "follow", &t), GSW_OK);
    assert_int_equal(session_browse_node(&s), principal);
    close_sync(&s);
}

/* Tab completion: commands, game names, opponents, legal moves. */
static void test_completion(void **st)
{
    (void)st;
    session_t s;
    open_sync(&s, "connect4:4x4", "1111");
    assert_true(has_candidate(complete_candidates(&s, "mo", 0, "mo"), "move"));
    assert_true(has_candidate(complete_candidates(&s, "new con", 1, "con"), "connect4:7x6"));
    assert_true(has_candidate(complete_candidates(&s, "opponent he", 1, "he"), "heuristic:"));
    assert_true(has_candidate(complete_candidates(&s, "move ", 1, ""), "2"));
    assert_false(has_candidate(complete_candidates(&s, "move ", 1, ""), "1"));   /* column 1 is full */
    assert_true(has_candidate(complete_candidates(&s, "lesson ", 1, ""), "connect4-centre"));
    close_sync(&s);
}

/* The lessons shipped in lessons/ all load. */
static void test_shipped_lessons_load(void **st)
{
    (void)st;
    static char names[64][64], titles[64][128];
    int n = lesson_list(names, titles, 64);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        char path[1200];
        lesson_t *l;
        err_t err;
        assert_int_equal(lesson_find(names[i], path, sizeof path, &err), GSW_OK);
        if (lesson_load(path, &l, &err)) fail_msg("%s", err.msg);
        lesson_free(l);
    }
}

/* Peg solitaire in the workbench: the hint is the next move of a solution
 * or the reason no finish exists (a class argument, or the search); every
 * jump is solvable or a dead end; a peg and a target make a move;
 * autoplay plays a solution to the goal. */
static void test_puzzle_workbench(void **st)
{
    (void)st;
    session_t s;
    const char *t;
    err_t err;
    open_sync(&s, "solitaire:triangle", "");
    assert_int_equal(run(&s, "hint", &t), GSW_OK);
    assert_non_null(strstr(t, "hint: "));
    assert_non_null(strstr(t, "the goal can still be reached: 13 more jumps"));
    assert_true(s.selected >= 0);   /* the hinted peg is selected */
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    assert_non_null(strstr(t, "4-1    solvable"));
    assert_non_null(strstr(t, "6-1    solvable"));
    assert_null(strstr(t, "dead end"));
    assert_int_equal(s.an[0]->twins, 1);   /* 6-1 is 4-1's mirror image: valued without a second search */
    assert_int_equal(run(&s, "solve", &t), GSW_OK);
    assert_non_null(strstr(t, "solvable: a solution of 13 jumps from here: "));
    /* a click on a peg selects it, a click on its target jumps */
    move_t mv[GSW_MAX_MOVES];
    assert_true(s.v->ops->moves(s.v, session_pos(&s), mv) > 0);
    int from, to;
    s.v->ops->move_cells(s.v, session_pos(&s), mv[0], &from, &to);
    s.selected = -1;
    assert_int_equal(session_click(&s, from, &err), 0);
    assert_int_equal(s.selected, from);
    assert_int_equal(session_click(&s, to, &err), 1);
    assert_int_equal(s.ply, 1);
    assert_int_equal(s.moves[0], mv[0]);
    /* autoplay: a solution to the end */
    assert_int_equal(run(&s, "autoplay", &t), GSW_OK);
    assert_non_null(strstr(t, "Game over: solved."));
    val_t v;
    assert_true(session_over(&s, &v));
    assert_true(v > VAL_DRAW);
    assert_int_equal(s.ply, 13);
    assert_int_equal(s.autoplay, 0);
    /* the French board from the centre: no finish, with the class argument */
    assert_int_equal(run(&s, "new solitaire:french", &t), GSW_OK);
    assert_int_equal(run(&s, "hint", &t), GSW_OK);
    assert_non_null(strstr(t, "hint: no finish with one peg on d4 is possible from here: position class"));
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    int dead = 0;
    for (const char *p = t; (p = strstr(p, "dead end")); p++) dead++;
    assert_int_equal(dead, 4);
    assert_int_equal(run(&s, "autoplay", &t), GSW_OK);
    assert_non_null(strstr(t, "no finish with one peg on d4"));
    assert_int_equal(s.ply, 0);   /* nothing to play */
    /* English: a position whose goal class is empty, and one where two jumps give the finish away */
    assert_int_equal(run(&s, "new solitaire:english o.o/.../ooooooo/o...o../o.ooo../.../..o", &t), GSW_OK);
    assert_int_equal(run(&s, "hint", &t), GSW_OK);
    assert_non_null(strstr(t, "hole classes: no peg is left in d4's class"));
    assert_int_equal(run(&s, "new solitaire:english o.o/.../ooooooo/o.ooo../o.ooo../ooo/ooo", &t), GSW_OK);
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    assert_non_null(strstr(t, "d4-f4  dead end"));
    assert_non_null(strstr(t, "d4-b4  dead end"));
    assert_non_null(strstr(t, "c4-c2  solvable"));
    assert_int_equal(run(&s, "autoplay 3", &t), GSW_OK);
    assert_int_equal(s.ply, 3);
    assert_int_equal(run(&s, "autoplay 0", &t), GSW_EINPUT);
    close_sync(&s);
}

/* Autoplay in a two-player game: both sides play best moves to the end. */
static void test_autoplay_two_players(void **st)
{
    (void)st;
    session_t s;
    const char *t;
    open_sync(&s, "connect4:4x4", "");
    assert_int_equal(run(&s, "autoplay 2", &t), GSW_OK);
    assert_int_equal(s.ply, 2);
    assert_int_equal(run(&s, "autoplay", &t), GSW_OK);
    assert_non_null(strstr(t, "Game over: a draw."));   /* 4x4 is a draw */
    assert_int_equal(s.ply, 16);
    close_sync(&s);
    /* the TUI's way (no sync): no hint on the computer's turn (it would move the person's cursor) */
    err_t err;
    assert_int_equal(session_init(&s, "connect4:4x4", "", &err), GSW_OK);
    assert_int_equal(run(&s, "side second", &t), GSW_OK);
    assert_true(session_computer_to_move(&s));
    assert_int_equal(run(&s, "hint", &t), GSW_EINPUT);
    assert_non_null(strstr(t, "wait: the computer is to move"));
    session_free(&s);
}

/* Where no proof comes within the opponent's time (checkers and chess
 * from the start) the perfect opponent plays the engine's move and says
 * so, rather than waiting for ever (issue 33); autoplay does the same for
 * the person. */
static void engine_move_check(const char *spec, const char *move)
{
    session_t s;
    const char *t;
    open_sync(&s, spec, "");
    assert_int_equal(run(&s, "opponent perfect:300", &t), GSW_OK);
    assert_non_null(strstr(t, "perfect:300"));
    time_t t0 = time(NULL);
    assert_int_equal(run(&s, move, &t), GSW_OK);
    assert_int_equal(s.ply, 2);   /* the computer answered */
    assert_non_null(strstr(t, "perfect:300: "));
    assert_non_null(strstr(t, "perfect where proven; engine move: no proof within 0.3 s"));
    assert_int_equal(run(&s, "autoplay 1", &t), GSW_OK);
    assert_int_equal(s.ply, 4);   /* the person's move by the engine, then the computer's */
    assert_non_null(strstr(t, "engine move"));
    assert_null(strstr(t, "stopped"));
    assert_true(time(NULL) - t0 < 30);   /* a few seconds (a loaded machine: a wide margin) */
    close_sync(&s);
}

static void test_perfect_engine_move(void **st)
{
    (void)st;
    engine_move_check("checkers", "11-15");
    engine_move_check("chess", "e4");
}

/* The solitaire lesson: its steps (one on another board), judgements by
 * the solver, and its published values agree with the solver's. */
static void test_solitaire_lesson(void **st)
{
    (void)st;
    session_t s;
    const char *t;
    open_sync(&s, "solitaire", "");
    assert_int_equal(run(&s, "lesson solitaire-classes", &t), GSW_OK);
    assert_int_equal(run(&s, "d2-d4", &t), GSW_OK);
    assert_non_null(strstr(t, "d2-d4 keeps the value: solvable"));   /* by the published values */
    assert_int_equal(run(&s, "next", &t), GSW_OK);
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    assert_non_null(strstr(t, "The published values agree with the solver (7 checked)"));
    assert_int_equal(run(&s, "d4-f4", &t), GSW_OK);
    assert_non_null(strstr(t, "d4-f4 gives the value away: dead end, where c4-c2 gives solvable (solver)"));
    assert_int_equal(run(&s, "next", &t), GSW_OK);
    assert_int_equal(run(&s, "next", &t), GSW_OK);
    assert_string_equal(s.v->name, "french");
    assert_int_equal(run(&s, "analyze", &t), GSW_OK);
    assert_non_null(strstr(t, "The published values agree with the solver (4 checked)"));
    assert_int_equal(run(&s, "next", &t), GSW_OK);
    assert_non_null(strstr(t, "Lesson complete"));
    close_sync(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_undo_redo),
        cmocka_unit_test(test_full_column_and_game_over),
        cmocka_unit_test(test_clicks_and_cursor),
        cmocka_unit_test(test_opponent_parse),
        cmocka_unit_test(test_analysis_and_perfect_play),
        cmocka_unit_test(test_history_shows_a_thrown_game),
        cmocka_unit_test(test_opponents_play),
        cmocka_unit_test(test_save_load_export),
        cmocka_unit_test(test_lessons),
        cmocka_unit_test(test_proof_browser),
        cmocka_unit_test(test_proof_main_line),
        cmocka_unit_test(test_manager_browser),
        cmocka_unit_test(test_completion),
        cmocka_unit_test(test_shipped_lessons_load),
        cmocka_unit_test(test_puzzle_workbench),
        cmocka_unit_test(test_autoplay_two_players),
        cmocka_unit_test(test_perfect_engine_move),
        cmocka_unit_test(test_solitaire_lesson),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
