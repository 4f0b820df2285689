/* The TUI's text on the screen: messages, wrapping, clipping, colours (see
 * tui_text.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "workbench/tui_text.h"

void tui_say(tui_t *t, const char *text)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (t->nmsg == 8) { memmove(t->msg[0], t->msg[1], sizeof t->msg[0] * 7); t->nmsg = 7; }
        snprintf(t->msg[t->nmsg++], sizeof t->msg[0], "%s", line);
    }
}

void tui_say_out(tui_t *t, out_t *o)
{
    if (o->len) tui_say(t, o->buf);
    out_clear(o);
}

double tui_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Text laid out in lines at most w bytes wide, broken at spaces where it
 * can and at every '\n': line k is len[k] bytes from text + off[k] (the
 * first max lines are stored). Returns the number of lines. */
int tui_wrap_text(const char *text, int w, int *off, int *len, int max)
{
    int n = 0;
    const char *p = text;
    if (w < 1) w = 1;
    while (*p) {
        const char *nl = strchr(p, '\n');
        int rest = nl ? (int)(nl - p) : (int)strlen(p), l = rest;
        if (l > w) {
            int k = w;
            while (k > 0 && p[k] != ' ') k--;
            l = k > 0 ? k : w;
            while (l > 1 && ((unsigned char)p[l] & 0xC0) == 0x80) l--;   /* not inside a UTF-8 character */
        }
        if (n < max) { off[n] = (int)(p - text); len[n] = l; }
        n++;
        p += l;
        if (l == rest) { if (*p == '\n') p++; }
        else while (*p == ' ') p++;
    }
    return n;
}

int tui_value_pair(int cls) { return cls == 3 ? PAIR_WIN : cls == 2 ? PAIR_DRAW : cls == 1 ? PAIR_LOSS : 0; }

void tui_attr_pair(tui_t *t, int pair, int on)
{
    if (!t->colour || !pair) return;
    if (on) attron(COLOR_PAIR(pair));
    else attroff(COLOR_PAIR(pair));
}

void tui_put_clipped(int y, int x, int w, const char *text)
{
    if (w <= 0) return;
    int n = (int)strlen(text);
    if (n > w) {   /* cut at a word's end: a number cut short would read as another (31 as 3) */
        int k = w;
        while (k > 0 && text[k] != ' ') k--;
        while (k > 0 && text[k - 1] == ' ') k--;
        n = k > 0 ? k : w;
    }
    mvaddnstr(y, x, text, n);
}

/* Text word-wrapped into w columns from row y, at most rows lines ('\n'
 * breaks a line); the number of lines used. */
int tui_put_wrapped(int y, int x, int w, int rows, const char *text)
{
    enum { MAXL = 256 };
    int off[MAXL], len[MAXL];
    if (w <= 0 || rows <= 0) return 0;
    int n = tui_wrap_text(text, w, off, len, MAXL);
    if (n > rows) n = rows;
    if (n > MAXL) n = MAXL;
    for (int i = 0; i < n; i++)
        if (len[i]) mvaddnstr(y + i, x, text + off[i], len[i]);
    return n;
}
