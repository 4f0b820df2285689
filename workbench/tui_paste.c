/* Text pasted into the workbench, the clipboard (see tui_paste.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workbench/session_board.h"
#include "workbench/session_paste.h"
#include "workbench/tui_input.h"
#include "workbench/tui_keys.h"
#include "workbench/tui_overlay.h"
#include "workbench/tui_paste.h"
#include "workbench/tui_text.h"

/* how long the keys after an Esc may take to say it begins a paste (they
 * come in the same write as the Esc: curses has waited ESCDELAY already) */
#define PASTE_PEEK_MS 30
/* a paste whose end mark never comes ends after this long with no key */
#define PASTE_IDLE_MS 1000
#define PASTE_KEYS_CTRL_D 4

static const char paste_open[] = "[200~", paste_close[] = "\033[201~";

/* Write all of buf to the terminal, past curses (which has nothing of it
 * to redraw: a mode or an OSC moves no cursor). 0 when written. */
static int term_write(const char *buf, size_t n)
{
    while (n) {
        ssize_t w = write(STDOUT_FILENO, buf, n);
        if (w <= 0) return -1;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

void tui_paste_mode(int on)
{
    static int is_on;
    if (on == is_on) return;
    is_on = on;
    const char *seq = on ? "\033[?2004h" : "\033[?2004l";
    term_write(seq, strlen(seq));
}

int tui_clipboard(const char *text)
{
    size_t n = strlen(text) / 3 * 4 + 16;
    char *buf = malloc(n);
    if (!buf) return -1;
    size_t k = osc52_sequence(text, buf, n);
    int rc = k ? term_write(buf, k) : -1;
    free(buf);
    return rc;
}

/* A growing text: ch appended (n its length, *cap its room); 0 when it
 * would pass SESSION_PASTE_MAX (or memory ran out). */
static int text_add(char **text, size_t *n, size_t *cap, int ch)
{
    if (*n + 2 > *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        char *more = nc <= SESSION_PASTE_MAX ? realloc(*text, nc) : NULL;
        if (!more) return 0;
        *text = more;
        *cap = nc;
    }
    (*text)[(*n)++] = (char)ch;
    (*text)[*n] = 0;
    return 1;
}

int tui_paste_read(tui_t *t)
{
    int got[sizeof paste_open], n = 0;
    timeout(PASTE_PEEK_MS);
    int match = 1;
    while (match && n < (int)sizeof paste_open - 1) {
        int ch = getch();
        if (ch == ERR) break;
        got[n] = ch;
        match = ch == paste_open[n++];
    }
    if (!match || n < (int)sizeof paste_open - 1) {   /* a plain Esc */
        while (n > 0) ungetch(got[--n]);   /* (given back in order) */
        return 0;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, end = strlen(paste_close);
    int ok = 1, cr = 0;
    size_t mark = 0;   /* how much of the end mark came last */
    timeout(PASTE_IDLE_MS);
    for (;;) {
        int ch = getch();
        if (ch == ERR) break;             /* no end mark: what came is the paste */
        if (ch < 0 || ch > 255) continue; /* a key curses made of a sequence in the text */
        mark = ch == paste_close[mark] ? mark + 1 : ch == paste_close[0];
        if (mark == end) {
            if (ok) text[len -= end - 1] = 0;   /* (the mark's last character is not in) */
            break;
        }
        if (ch == '\n' && cr) { cr = 0; continue; }   /* (CR LF: one line break) */
        cr = ch == '\r';
        if (ok) ok = text_add(&text, &len, &cap, cr ? '\n' : ch);
    }
    if (!ok) {   /* read to its end all the same, so none of it is taken for keys */
        char msg[96];
        snprintf(msg, sizeof msg, "paste: over %u KB, too long: nothing set up", SESSION_PASTE_MAX >> 10);
        tui_say(t, msg);
    } else {
        tui_paste_text(t, text ? text : "");
    }
    free(text);
    return 1;
}

/* A paste on the picker: into the game behind it, where there is one (the
 * screen goes back to it), else into the game highlighted (no game is lost:
 * none was in progress). 0 for a lesson's line: nothing to paste into. */
static int picker_game(tui_t *t)
{
    const pick_item_t *it = &t->items[t->pick];
    if (t->have_game) { t->screen = SCREEN_GAME; return 1; }
    if (!it->spec[0]) { tui_say(t, "paste: a lesson sets up its own positions; pick a game first"); return 0; }
    char line[128];
    out_t o = { 0 };
    err_t err;
    snprintf(line, sizeof line, "new %s", it->spec);
    int rc = session_exec(&t->s, line, &o, &err);
    out_free(&o);
    if (rc) tui_say(t, err.msg);
    return !rc;
}

/* Set up text as a position or a game (session_exec_paste), said; 0 when set up. */
static int paste_apply(tui_t *t, const char *text)
{
    out_t o = { 0 };
    err_t err;
    int rc = session_exec_paste(&t->s, text, &o, &err);
    if (rc) {
        tui_say(t, err.msg);
    } else {
        t->nmsg = 0;   /* (about the game that was) */
        t->paused = 0;
        t->digits[0] = 0;
        t->pend_key = 0;
        tui_say_out(t, &o);
    }
    out_free(&o);
    return rc;
}

/* The message that says what :paste has read so far. */
static void collect_say(tui_t *t, int first)
{
    char msg[200];
    int lines = 0;
    for (size_t i = 0; i < t->collect_len; i++) lines += t->collect[i] == '\n';
    const char *last = t->collect_len ? t->collect : "";
    for (const char *p = last; (p = strchr(p, '\n')) && p[1]; p++) last = p + 1;
    snprintf(msg, sizeof msg, "paste: type or paste the text; a blank line or Ctrl-D ends it, Esc cancels (%d line%s "
             "so far) %.60s", lines, lines == 1 ? "" : "s", last);
    if (first || !t->nmsg) tui_say(t, msg);
    else snprintf(t->msg[t->nmsg - 1], sizeof t->msg[0], "%s", msg);
}

/* :paste's text is complete: set up, or cancelled (text NULL). */
static void collect_end(tui_t *t, const char *text)
{
    char *buf = t->collect;
    t->collect = NULL;
    t->collect_len = t->collect_cap = 0;
    if (t->nmsg && !strncmp(t->msg[t->nmsg - 1], "paste: type", 11)) t->nmsg--;
    if (text) (void)paste_apply(t, text);
    else tui_say(t, "paste cancelled: nothing changed");
    free(buf);
}

void tui_paste_text(tui_t *t, const char *text)
{
    if (t->cmdline) {   /* the ':' line's own text, as typed */
        tui_cmdline_insert(t, text);
        return;
    }
    if (t->collect) {   /* :paste's text, whole */
        size_t n = strlen(t->collect) + strlen(text) + 2;
        char *all = malloc(n);
        if (all) snprintf(all, n, "%s%s", t->collect, text);
        collect_end(t, all ? all : text);
        free(all);
        return;
    }
    if (t->screen == SCREEN_GAME && t->too_small) { t->small_ignored++; return; }   /* no board to show it on */
    t->show_help = t->confirm_quit = t->confirm_new = 0;   /* a paste answers no question */
    if (t->pager) tui_pager_close(t);
    if (t->screen != SCREEN_GAME && !picker_game(t)) return;
    session_choice_cancel(&t->s);
    if (paste_apply(t, text) || t->screen == SCREEN_GAME) return;
    t->screen = SCREEN_GAME;   /* (set up in the game picked) */
    t->have_game = 1;
}

int tui_paste_key(tui_t *t, int ch)
{
    if (!t->collect && t->s.paste_wait) {   /* :paste alone: its text follows */
        t->s.paste_wait = 0;
        t->collect = calloc(1, 1024);
        t->collect_len = 0;
        t->collect_cap = 1024;
        if (t->collect) collect_say(t, 1);
    }
    if (!t->collect || ch == ERR) return 0;
    int enter = ch == '\n' || ch == '\r' || ch == KEY_ENTER;
    const char *line = t->collect_len ? t->collect + t->collect_len : t->collect;
    while (line > t->collect && line[-1] != '\n') line--;
    if (ch == PASTE_KEYS_CTRL_D || (enter && !line[strspn(line, " \t")] && session_paste_ends(t->collect))) {
        char *text = strdup(t->collect);
        collect_end(t, text ? text : "");
        free(text);
        return 1;
    }
    if (ch == TUI_KEY_ESC || ch == TUI_KEY_CTRL_C) { collect_end(t, NULL); return 1; }
    if (ch == KEY_BACKSPACE || ch == TUI_KEY_DEL || ch == TUI_KEY_BS) {
        if (t->collect_len) t->collect[--t->collect_len] = 0;
    } else if (enter || (ch >= ' ' && ch <= 255)) {
        if (!text_add(&t->collect, &t->collect_len, &t->collect_cap, enter ? '\n' : ch)) {
            collect_end(t, NULL);
            tui_say(t, "paste: too long: nothing set up");
            return 1;
        }
    }
    collect_say(t, 0);
    return 1;
}
