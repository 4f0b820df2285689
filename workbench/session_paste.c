/* A position or a game pasted, the position's text given back, OSC 52
 * (see session_paste.h). */
#include "workbench/session_paste.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/record_file.h"
#include "workbench/record.h"

/* The record format's name in capitals ("PGN"), from its extension; "" none. */
static void record_name(const gv_t *v, char *buf, size_t n)
{
    size_t k = 0;
    const char *ext = v->ops->record_read && v->ops->record_ext ? v->ops->record_ext : "";
    for (; ext[k] && k + 1 < n; k++) buf[k] = (char)toupper((unsigned char)ext[k]);
    buf[k] = 0;
}

/* text without the blanks around it, nor the quotes gsw prints a position
 * between ("position \"4453\""), into a heap copy; NULL out of memory. */
static char *paste_trim(const char *text)
{
    while (*text && isspace((unsigned char)*text)) text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1])) n--;
    if (n >= 2 && text[0] == '"' && text[n - 1] == '"' && !memchr(text + 1, '"', n - 2)) { text++; n -= 2; }
    char *t = malloc(n + 1);
    if (t) { memcpy(t, text, n); t[n] = 0; }
    return t;
}

/* The game's record (PGN, PDN) read from text and set up; 0 when it is one. */
static int paste_record(session_t *s, const char *text, const char *rec, out_t *out, err_t *err)
{
    static move_t moves[SESSION_MAX_PLY];   /* (too big for the TUI thread's stack frame) */
    GSW_POSBUF start[GSW_MAX_POS];
    int n = 0;
    if (s->v->ops->record_read(s->v, text, start, moves, SESSION_MAX_PLY, &n, err)) return err->code;
    gv_t *v;   /* (session_new closes s->v) */
    if (game_dup(s->v, &v, err)) return err->code;
    int rc = record_start_game(s, v, start, moves, n, rec, err);
    game_close(v);
    if (rc) return rc;
    out_printf(out, "pasted a game (%s) of %s%s\n", rec, session_plies(s->v->game->players, n).text,
               n ? ": undo (u) steps back through it" : "");
    return GSW_OK;
}

/* Moves from the game's start (Connect Four's "4453"), as history; 0 when they are. */
static int paste_moves(session_t *s, const char *text, out_t *out, err_t *err)
{
    static move_t moves[SESSION_MAX_PLY];
    GSW_POSBUF start[GSW_MAX_POS];
    int n = 0;
    if (record_read_moves(s->v, text, start, moves, SESSION_MAX_PLY, &n, err)) return err->code;
    if (!n) return err_set(err, GSW_EINPUT, "no moves");
    gv_t *v;
    if (game_dup(s->v, &v, err)) return err->code;
    int rc = record_start_game(s, v, start, moves, n, "the paste", err);
    game_close(v);
    if (rc) return rc;
    out_printf(out, "pasted %s from the start: undo (u) steps back through them\n", session_plies(s->v->game->players, n).text);
    return GSW_OK;
}

/* A position in the game's text (a FEN); 0 when it is one, said as
 * "VERB a position (WHAT)". */
static int paste_position(session_t *s, const char *text, const char *verb, const char *what, out_t *out, err_t *err)
{
    char spec[96];
    game_spec(s->v, spec, sizeof spec);
    if (session_new(s, spec, text, err)) return err->code;   /* (a bad position changes nothing) */
    lesson_free(s->lesson);
    s->lesson = NULL;
    out_printf(out, "%s a position (%s)\n", verb, what);
    return GSW_OK;
}

int session_paste(session_t *s, const char *text, out_t *out, err_t *err)
{
    char spec[96], rec[16];
    game_spec(s->v, spec, sizeof spec);
    record_name(s->v, rec, sizeof rec);
    const char *what = rec[0] ? "FEN" : "its position text";
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 32 && *p != '\n' && *p != '\r' && *p != '\t')
            return err_set(err, GSW_EINPUT, "paste: the text holds control characters (byte %d): not a %s position "
                           "nor a game", *p, spec);
    char *t = paste_trim(text);
    if (!t) return err_set(err, GSW_EFAIL, "out of memory");
    int rc = GSW_OK;
    err_t e1, e2;
    if (!t[0]) rc = err_set(err, GSW_EINPUT, "paste: nothing to set up (the text is empty)");
    else if (!rec[0] && !paste_moves(s, t, out, &e2)) rc = GSW_OK;   /* moves, as history, first */
    else if (!paste_position(s, t, "pasted", what, out, &e1)) rc = GSW_OK;
    else if (rec[0] && !paste_record(s, t, rec, out, &e2)) rc = GSW_OK;
    else if (rec[0])   /* the reason of the reading it looks more like: a line with a '/' a FEN */
        rc = err_set(err, GSW_EINPUT, "paste: neither a %s nor a %s of %s: %s", what, rec, spec,
                     strchr(t, '/') && !strchr(t, '\n') && !strchr(t, '[') ? e1.msg : e2.msg);
    else rc = err_set(err, GSW_EINPUT, "paste: not a %s position nor moves: %s", spec, e1.msg);
    free(t);
    return rc;
}

int cmd_paste(session_t *s, char *args, out_t *out, err_t *err)
{
    while (*args == ' ' || *args == '\t') args++;
    if (*args) return session_paste(s, args, out, err);
    s->paste_wait = 1;   /* the front end reads the text */
    return GSW_OK;
}

int session_paste_ends(const char *text)
{
    int tags = 0;
    for (const char *p = text; *p; p++) {
        p += strspn(p, " \t\r");
        if (*p && *p != '\n' && *p != '[') return 1;   /* a line of moves or a position */
        tags += *p == '[';
        p = strchr(p, '\n');
        if (!p) break;
    }
    return !tags;
}

/* fen: the position's text; fen TEXT sets that position up (as paste does
 * a FEN, but never read as moves or a record: a bad one is said as such). */
int cmd_fen(session_t *s, char *args, out_t *out, err_t *err)
{
    char text[4096], rec[16];
    while (*args == ' ' || *args == '\t') args++;
    if (*args) {
        record_name(s->v, rec, sizeof rec);
        if (paste_position(s, args, "set up", rec[0] ? "FEN" : "its position text", out, err)) return err->code;
        return GSW_OK;
    }
    s->v->ops->pos_format(s->v, session_pos(s), text, sizeof text);
    record_name(s->v, rec, sizeof rec);
    out_printf(out, "%s\n", text);
    if (s->clipboard && !s->clipboard(text))
        out_printf(out, "%s copied to the clipboard, where the terminal allows it (OSC 52; gsw cannot tell whether "
                   "it did)\n", rec[0] ? "FEN" : "the position");
    return GSW_OK;
}

size_t osc52_sequence(const char *text, char *buf, size_t n)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len = strlen(text), need = 7 + (len + 2) / 3 * 4 + 1, k = 0;
    if (n == 0) return 0;
    buf[0] = 0;
    if (need + 1 > n) return 0;
    k += (size_t)snprintf(buf, n, "\033]52;c;");
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < len ? p[i + 2] : 0);
        buf[k++] = b64[v >> 18 & 63];
        buf[k++] = b64[v >> 12 & 63];
        buf[k++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
        buf[k++] = i + 2 < len ? b64[v & 63] : '=';
    }
    buf[k++] = '\a';
    buf[k] = 0;
    return k;
}
