/* The TUI's game picker (see tui_picker.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "workbench/tui_keys.h"
#include "workbench/tui_picker.h"
#include "workbench/tui_text.h"

#define PICK_GAMES_MAX 100     /* the games' items at most (the lessons' follow, to 128) */
#define PICK_VARIANTS_MAX 32   /* a game's variants listed at most */
#define PICK_LESSONS_MAX 32    /* lessons listed at most */

/* How to move, in the game's terms (its kind of move, tui_move_how). */
void tui_say_welcome(tui_t *t)
{
    char line[300];
    tui_move_how(t->s.v, session_pos(&t->s), line, sizeof line);
    tui_say(t, line);
}

/* ---- the picker ---- */

void tui_picker_fill(tui_t *t)
{
    t->nitems = 0;
    for (int g = 0; gsw_games[g] && t->nitems < PICK_GAMES_MAX; g++) {
        const game_t *gm = gsw_games[g];
        const char *names[PICK_VARIANTS_MAX];
        int n = game_variants(gm, names, PICK_VARIANTS_MAX);
        for (int i = 0; i < n && t->nitems < PICK_GAMES_MAX; i++) {
            pick_item_t *it = &t->items[t->nitems++];
            snprintf(it->spec, sizeof it->spec, "%s:%s", gm->name, names[i]);
            snprintf(it->label, sizeof it->label, "%-14s %-8s %s", gm->title, names[i],
                     i == 0 ? gm->summary : "");
            it->lesson[0] = 0;
        }
    }
    static char names[PICK_LESSONS_MAX][64], titles[PICK_LESSONS_MAX][128];
    int n = lesson_list(names, titles, PICK_LESSONS_MAX);
    for (int i = 0; i < n && t->nitems < (int)(sizeof t->items / sizeof t->items[0]); i++) {
        pick_item_t *it = &t->items[t->nitems++];
        it->spec[0] = 0;
        snprintf(it->lesson, sizeof it->lesson, "%.63s", names[i]);
        snprintf(it->label, sizeof it->label, "Lesson         %.100s", titles[i]);
    }
}

/* The opponent the item starts with: the one chosen (o), else the game's
 * own first (game_t.play_opponent: heuristic:5 in checkers), else perfect. */
static void pick_opponent(const tui_t *t, const pick_item_t *it, char *buf, size_t n)
{
    char name[64];
    opponent_t o = t->s.opp;
    err_t e;
    if (!it->spec[0]) { snprintf(buf, n, "the lesson's"); return; }
    snprintf(name, sizeof name, "%.*s", (int)strcspn(it->spec, ":"), it->spec);
    const game_t *g = game_find(name);
    if (g && g->players == 1) { snprintf(buf, n, "none (a puzzle)"); return; }
    if (!t->s.opp_chosen) {
        o = (opponent_t){ .kind = OPP_PERFECT };
        if (g && g->play_opponent && opponent_parse(g->play_opponent, &o, &e)) o = (opponent_t){ .kind = OPP_PERFECT };
    }
    opponent_text(&o, buf, n);
}

void tui_draw_picker(tui_t *t)
{
    erase();
    attron(A_BOLD);
    tui_put_clipped(0, 1, COLS - 2, "gsw - a game-solving workbench.  Pick a game (arrows, Enter; q quits)");
    attroff(A_BOLD);
    int h = LINES - TUI_PICK_ROWS_LESS, first = t->pick >= h ? t->pick - h + 1 : 0;
    for (int i = first; i < t->nitems && i - first < h; i++) {
        if (i == t->pick) attron(A_REVERSE);
        tui_put_clipped(TUI_PICK_TOP + i - first, 2, COLS - 3, t->items[i].label);
        if (i == t->pick) attroff(A_REVERSE);
    }
    char op[48], line[200];
    pick_opponent(t, &t->items[t->pick], op, sizeof op);
    const char *side = t->s.human[0] && t->s.human[1] ? "both sides" : t->s.human[0] ? "first" : t->s.human[1] ? "second" : "neither (watch)";
    snprintf(line, sizeof line, "You play: %s (s to change)   Opponent: %s (o to change)   ? help", side, op);
    tui_put_clipped(LINES - 2, 1, COLS - 2, line);
    if (t->confirm_quit) {
        attron(A_BOLD);
        tui_put_clipped(LINES - 1, 1, COLS - 2, "quit? the game in progress is lost (y/n)");
        attroff(A_BOLD);
    } else if (t->have_game) {
        mvaddnstr(LINES - 1, 1, "Esc: back to the game", COLS - 2);
    } else if (t->nmsg) {   /* (no game yet: what the picker's keys or a paste said) */
        tui_put_clipped(LINES - 1, 1, COLS - 2, t->msg[t->nmsg - 1]);
    }
}

void tui_picker_start(tui_t *t)
{
    pick_item_t *it = &t->items[t->pick];
    char line[256];
    if (it->spec[0]) snprintf(line, sizeof line, "new %s", it->spec);
    else snprintf(line, sizeof line, "lesson %s", it->lesson);
    out_t o = { 0 };
    err_t err;
    if (session_exec(&t->s, line, &o, &err)) tui_say(t, err.msg);
    else {
        t->screen = SCREEN_GAME;
        t->have_game = 1;
        t->paused = 0;
        t->nmsg = 0;
        if (t->s.lesson) { out_clear(&o); session_lesson_say(&t->s, &o); }
        else tui_say_welcome(t);
        if (t->s.lesson) tui_say_out(t, &o);
    }
    out_free(&o);
}
