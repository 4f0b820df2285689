/* The TUI's game picker (see tui_picker.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "workbench/tui_picker.h"
#include "workbench/tui_text.h"

/* How to move, in the game's terms. */
void tui_say_welcome(tui_t *t)
{
    static board_view_t view;
    const gv_t *v = t->s.v;
    view.drop = 0;
    if (v->ops->view) v->ops->view(v, session_pos(&t->s), &view);
    char example[64] = "", line[200];
    move_t mv[GSW_MAX_MOVES];
    int k = view.drop ? 0 : v->ops->moves(v, session_pos(&t->s), mv);
    for (int i = 0; i < k; i++) {   /* the shortest move's text as the example, one no key waits on */
        char mt[64];
        v->ops->move_format(v, session_pos(&t->s), mv[i], mt, sizeof mt);
        int waits = strchr("abfgh", mt[0]) != NULL;
        if (!example[0] || (int)strlen(mt) + 8 * waits < (int)strlen(example) + 8 * (strchr("abfgh", example[0]) != NULL))
            snprintf(example, sizeof example, "%s", mt);
    }
    if (example[0]) snprintf(line, sizeof line, "Your move: a piece, then its target (arrows and Enter, or clicks), or type it (%s).  ? for help.", example);
    else snprintf(line, sizeof line, "Your move: a piece, then its target (arrows and Enter, or clicks).  ? for help.");
    tui_say(t, view.drop ? "Your move: arrows and Enter, a column number, or click.  ? for help." : line);
}

/* ---- the picker ---- */

void tui_picker_fill(tui_t *t)
{
    t->nitems = 0;
    for (int g = 0; gsw_games[g] && t->nitems < 100; g++) {
        const game_t *gm = gsw_games[g];
        const char *seen[32];
        int nseen = 0;
        seen[nseen++] = gm->default_variant;
        const char *const *list = gm->menu_variants ? gm->menu_variants : gm->test_variants;
        for (int k = 0; list && list[k] && nseen < 32; k++) {
            int dup = 0;
            for (int i = 0; i < nseen; i++) dup |= !strcmp(seen[i], list[k]);
            if (!dup) seen[nseen++] = list[k];
        }
        for (int i = 0; i < nseen && t->nitems < 100; i++) {
            pick_item_t *it = &t->items[t->nitems++];
            snprintf(it->spec, sizeof it->spec, "%s:%s", gm->name, seen[i]);
            snprintf(it->label, sizeof it->label, "%-14s %-8s %s", gm->title, seen[i],
                     i == 0 ? gm->summary : "");
            it->lesson[0] = 0;
        }
    }
    static char names[32][64], titles[32][128];
    int n = lesson_list(names, titles, 32);
    for (int i = 0; i < n && t->nitems < 128; i++) {
        pick_item_t *it = &t->items[t->nitems++];
        it->spec[0] = 0;
        snprintf(it->lesson, sizeof it->lesson, "%.63s", names[i]);
        snprintf(it->label, sizeof it->label, "Lesson         %.100s", titles[i]);
    }
}

void tui_draw_picker(tui_t *t)
{
    erase();
    attron(A_BOLD);
    tui_put_clipped(0, 1, COLS - 2, "gsw - a game-solving workbench.  Pick a game (arrows, Enter; q quits)");
    attroff(A_BOLD);
    int h = LINES - 5, first = t->pick >= h ? t->pick - h + 1 : 0;
    for (int i = first; i < t->nitems && i - first < h; i++) {
        if (i == t->pick) attron(A_REVERSE);
        tui_put_clipped(2 + i - first, 2, COLS - 3, t->items[i].label);
        if (i == t->pick) attroff(A_REVERSE);
    }
    char op[48], line[200];
    opponent_text(&t->s.opp, op, sizeof op);
    const char *side = t->s.human[0] && t->s.human[1] ? "both sides" : t->s.human[0] ? "first" : t->s.human[1] ? "second" : "neither (watch)";
    snprintf(line, sizeof line, "You play: %s (s to change)   Opponent: %s (o to change)   ? help", side, op);
    tui_put_clipped(LINES - 2, 1, COLS - 2, line);
    if (t->confirm_quit) {
        attron(A_BOLD);
        tui_put_clipped(LINES - 1, 1, COLS - 2, "quit? the game in progress is lost (y/n)");
        attroff(A_BOLD);
    } else if (t->have_game) {
        mvaddnstr(LINES - 1, 1, "Esc: back to the game", COLS - 2);
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
