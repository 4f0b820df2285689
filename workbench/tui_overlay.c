/* What the TUI draws over its screen, and the frame (see tui_overlay.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/readline.h>

#include "workbench/tui_keys.h"
#include "workbench/tui_overlay.h"
#include "workbench/tui_panes.h"
#include "workbench/tui_picker.h"
#include "workbench/tui_text.h"

/* ---- the pager: output longer than the message area, scrolled ---- */

void tui_pager_close(tui_t *t)
{
    free(t->pager);
    t->pager = NULL;
    t->pager_top = 0;
    t->pager_passive = 0;
}

void tui_pager_open(tui_t *t, const char *title, const char *text, int passive)
{
    tui_pager_close(t);
    t->pager = strdup(text);
    if (!t->pager) { tui_say(t, text); return; }
    snprintf(t->pager_title, sizeof t->pager_title, "%s", title);
    t->pager_passive = passive;
}

static int pager_rows(void) { return LINES - 4; }   /* between its title and footer rows */

static void draw_pager(tui_t *t)
{
    int rows = pager_rows(), w = COLS - 2;
    if (rows < 1 || w < 1) return;
    int n = tui_wrap_text(t->pager, w, NULL, NULL, 0);
    int *off = malloc(sizeof *off * (size_t)(n + 1)), *len = malloc(sizeof *len * (size_t)(n + 1));
    if (!off || !len) { free(off); free(len); return; }
    tui_wrap_text(t->pager, w, off, len, n);
    if (t->pager_top > n - rows) t->pager_top = n - rows;
    if (t->pager_top < 0) t->pager_top = 0;
    for (int y = 1; y <= LINES - 2; y++) { move(y, 0); clrtoeol(); }
    attron(A_REVERSE);
    move(1, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    mvaddnstr(1, 1, t->pager_title, w);
    attroff(A_REVERSE);
    for (int i = 0; i < rows && t->pager_top + i < n; i++)
        mvaddnstr(2 + i, 1, t->pager + off[t->pager_top + i], len[t->pager_top + i]);
    char foot[200];
    int last = t->pager_top + rows < n ? t->pager_top + rows : n;
    snprintf(foot, sizeof foot, "lines %d-%d of %d   %s", n ? t->pager_top + 1 : 0, last, n,
             t->pager_passive ? "PgUp/PgDn: scroll   Esc: close" : "arrows, PgUp/PgDn: scroll   q or Esc: close");
    attron(A_REVERSE);
    move(LINES - 2, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    mvaddnstr(LINES - 2, 1, foot, w);
    attroff(A_REVERSE);
    free(off);
    free(len);
}

/* Scroll keys: 1 if ch was one. */
int tui_pager_scroll(tui_t *t, int ch)
{
    int page = pager_rows() > 2 ? pager_rows() - 1 : 1;
    switch (ch) {
    case KEY_UP: t->pager_top--; break;
    case KEY_DOWN: t->pager_top++; break;
    case KEY_PPAGE: t->pager_top -= page; break;
    case KEY_NPAGE: t->pager_top += page; break;
    case KEY_HOME: t->pager_top = 0; break;
    case KEY_END: t->pager_top = 1 << 20; break;   /* the draw clamps it */
    default: return 0;
    }
    if (t->pager_top < 0) t->pager_top = 0;
    return 1;
}

/* The keys' lines; a line with games applies to those games only (by
 * name, spaces between), and is left out of another game's help (the
 * picker's help, with no game, has them all). */
typedef struct help_line {
    const char *games;
    const char *text;
} help_line_t;
static const help_line_t help_lines[] = {
    { NULL, "Keys" },
    { NULL, "  arrows      move the cursor          Enter/space  play or select there" },
    { "chess", "  q r b n     a promotion (moves sharing their squares): pick one; Enter the first" },
    { NULL, "  mouse       click a cell or column" },
    { "connect4 checkers solitaire", "  1-9         play that move (if it is one)" },
    { "connect4 checkers solitaire", "  10, 11 ...  type both digits: Enter or a short pause ends a number" },
    { "checkers", "  11-15, 1x10x19  type a move (a capture: every square, or from and last square)" },
    { "chess solitaire", "  e4 Nf3 O-O  type the move (p2 on a board of lettered columns)" },
    { "chess", "  a b f g h   a command key that begins a move: the move if its next key follows in 1 s" },
    { "checkers", "  #           squares' numbers (1-32)" },
    { "chess checkers", "  F           the board turned round" },
    { NULL, "  u / r       undo / redo              h            hint (best move; losing: slowest loss)" },
    { NULL, "  a           analysis pane on/off     v            value history chart (:annotate)" },
    { NULL, "  m           more: the whole lesson step and the messages, where the screen cut them" },
    { NULL, "  o           change the opponent      s            change your side" },
    { NULL, "  n           new game (lesson: next step)   b      lesson: previous step" },
    { NULL, "  g           game picker (Esc: back)  t            show the board's classes (if any)" },
    { NULL, "  PgUp/PgDn   scroll the analysis pane when it does not fit" },
    { NULL, "  w           the solver plays on for you, a move every 0.7 s (:autoplay pace MS; any key stops)" },
    { NULL, "  p           browse the proof tree    f / x        proof: follow its main line / close" },
    { NULL, "              :certificate FILE   what the tree proves, for gsw-check to verify without gsw" },
    { NULL, "  :           command line: a command (help lists them) or a move, as typed at the board" },
    { "chess", "  paste       a FEN or a PGN pasted sets it up (:paste [TEXT])   :fen  the FEN, to the clipboard" },
    { "checkers", "  paste       a FEN or a PDN pasted sets it up (:paste [TEXT])   :fen  the FEN, to the clipboard" },
    { "connect4 solitaire", "  paste       a position or moves pasted set it up (:paste [TEXT])   :fen  the position, as text" },
    { NULL, "  Ctrl-C      stop the analysis or the computer's move (a goes on)" },
    { NULL, "  q           quit (asks first in a game in progress)" },
    { NULL, "Values are for the player making the move: win/loss in N plies (score), draw." },
    { NULL, "Green wins, yellow draws, red loses; ~ marks a heuristic guess, not a proof." },
    { NULL, "" },
    { NULL, "Press any key." },
};
enum { HELP_LINES = (int)(sizeof help_lines / sizeof help_lines[0]) };
enum { HELP_GAME_LINES = 4, HELP_W = 86 };   /* the game's own lines first (at most); their width */

/* Whether line l is for the game named game (NULL: none chosen, all are). */
static int help_for(const help_line_t *l, const char *game)
{
    if (!l->games || !game) return 1;
    size_t n = strlen(game);
    for (const char *p = l->games; (p = strstr(p, game)); p += n)
        if ((p == l->games || p[-1] == ' ') && (p[n] == ' ' || !p[n])) return 1;
    return 0;
}

/* The help's lines into lines (HELP_GAME_LINES + HELP_LINES): on the game
 * screen, how this game's moves are made and the variants it offers
 * (game_variants, and variants_help over as many lines as it takes), then
 * the keys. Returns the count. */
static int help_build(tui_t *t, const char **lines, char game[HELP_GAME_LINES][HELP_W + 1])
{
    int n = 0;
    const gv_t *v = t->s.v;
    if (v && t->screen == SCREEN_GAME) {
        const game_t *g = v->game;
        const char *names[32];
        int nv = game_variants(g, names, 32), k;
        snprintf(game[n++], HELP_W + 1, "%s: %s", g->title, tui_move_kind_words(game_move_kind(v, session_pos(&t->s))));
        k = snprintf(game[n], HELP_W + 1, "  variants:");
        for (int i = 0; i < nv && k > 0 && k < HELP_W; i++)
            k += snprintf(game[n] + k, HELP_W + 1 - (size_t)k, " %s", names[i]);
        n++;
        const char *rest = g->variants_help ? g->variants_help : "";
        while (*rest && n < HELP_GAME_LINES) {   /* the variants in words, cut at spaces */
            int room = HELP_W - 4, len = (int)strlen(rest);
            if (len > room) {
                len = room;
                while (len > 0 && rest[len] != ' ') len--;
                if (len == 0) len = room;
            }
            snprintf(game[n++], HELP_W + 1, "    %.*s", len, rest);
            rest += len;
            while (*rest == ' ') rest++;
        }
        for (int i = 0; i < n; i++) lines[i] = game[i];
    }
    const char *name = v && t->screen == SCREEN_GAME ? v->game->name : NULL;
    static char tagged[HELP_LINES][HELP_W + 48];   /* (the TUI's one thread) */
    for (int i = 0; i < HELP_LINES; i++) {
        const help_line_t *l = &help_lines[i];
        if (!help_for(l, name)) continue;
        if (name || !l->games || l->text[2] == ' ') {   /* (a line that goes on the one before: untagged) */
            lines[n++] = l->text;
            continue;
        }
        /* no game chosen: the line says which games it is for */
        int k = snprintf(tagged[i], sizeof tagged[i], "%s (", l->text);
        for (const char *g = l->games; *g && k > 0 && k < (int)sizeof tagged[i]; g++)
            k += snprintf(tagged[i] + k, sizeof tagged[i] - (size_t)k, *g == ' ' ? ", " : "%c", *g);
        if (k > 0 && k < (int)sizeof tagged[i]) snprintf(tagged[i] + k, sizeof tagged[i] - (size_t)k, ")");
        lines[n++] = tagged[i];
    }
    return n;
}

static void draw_help(tui_t *t)
{
    const char *lines[HELP_GAME_LINES + HELP_LINES];
    char game[HELP_GAME_LINES][HELP_W + 1];
    int n = help_build(t, lines, game), w = 0;
    for (int i = 0; i < n; i++) if ((int)strlen(lines[i]) > w) w = (int)strlen(lines[i]);
    int y0 = (LINES - n - 2) / 2, x0 = (COLS - w - 4) / 2;
    if (y0 < 0) y0 = 0;
    if (x0 < 0) x0 = 0;
    for (int i = -1; i <= n; i++) {
        move(y0 + 1 + i, x0);
        for (int k = 0; k < w + 4 && x0 + k < COLS; k++) addch(' ');
    }
    for (int i = 0; i < n; i++) {
        const int bold = i == 0 || lines[i] == help_lines[0].text;   /* the game's name, "Keys" */
        if (bold) attron(A_BOLD);
        mvaddnstr(y0 + 1 + i, x0 + 2, lines[i], COLS - x0 - 2);
        if (bold) attroff(A_BOLD);
    }
}

/* ?: the keys over the screen, or in the pager when they do not fit. */
void tui_help_open(tui_t *t)
{
    const char *lines[HELP_GAME_LINES + HELP_LINES];
    char game[HELP_GAME_LINES][HELP_W + 1];
    int n = help_build(t, lines, game), w = 0;
    for (int i = 0; i < n; i++) if ((int)strlen(lines[i]) > w) w = (int)strlen(lines[i]);
    if (n + 2 <= LINES && w + 4 <= COLS) { t->show_help = 1; return; }
    char text[6144];
    size_t used = 0;
    for (int i = 0; i < n - 2 && used < sizeof text; i++)   /* not "Press any key" */
        if (lines[i] != help_lines[0].text)   /* (the pager's title says "Keys") */
            used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", lines[i]);
    tui_pager_open(t, "Keys", text, 0);
}

void tui_draw(tui_t *t)
{
    if (t->screen == SCREEN_PICKER) tui_draw_picker(t);
    else tui_draw_game(t);
    if (t->pager && !(t->screen == SCREEN_GAME && t->too_small)) draw_pager(t);
    if (t->show_help) draw_help(t);
    if (t->cmdline) {   /* readline's line at the bottom */
        move(LINES - 1, 0);
        clrtoeol();
        mvaddnstr(LINES - 1, 0, rl_display_prompt ? rl_display_prompt : ":", COLS);
        addnstr(rl_line_buffer, COLS - 2);
        move(LINES - 1, (int)strlen(rl_display_prompt ? rl_display_prompt : ":") + rl_point);
        curs_set(1);
    } else {
        curs_set(0);
    }
    refresh();
}
