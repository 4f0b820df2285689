/* The commands about how the game is shown (see commands_view.h). */
#include "workbench/commands_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workbench/session_board.h"

/* The one word of an on/off command: 1 on, 0 off, -1 none (a toggle), -2 another. */
static int on_off(const char *args, char *word, size_t n)
{
    char w[32] = "";
    if (sscanf(args, "%31s", w) != 1) return -1;
    snprintf(word, n, "%s", w);
    return !strcmp(w, "on") ? 1 : !strcmp(w, "off") ? 0 : -2;
}

int cmd_show(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args; (void)err;
    session_show(s, out);
    return GSW_OK;
}

int cmd_numbers(session_t *s, char *args, out_t *out, err_t *err)
{
    char w[32];
    int on = on_off(args, w, sizeof w);
    if (on == -2) return err_set(err, GSW_EINPUT, "numbers [on|off]: unknown \"%s\"", w);
    s->numbers = on < 0 ? !s->numbers : on;
    int any = 0;
    if (s->v->ops->view) {
        static _Thread_local board_view_t view;
        s->v->ops->view(s->v, session_pos(s), &view);
        for (int i = 0; i < view.rows * view.cols && !any; i++) any = view.cell[i].name[0] != 0;
    }
    if (!any) out_printf(out, "square numbers: %s (this board has none to show: its rows and columns are labelled)\n",
                         s->numbers ? "on" : "off");
    else out_printf(out, "square numbers: %s\n", s->numbers ? "on" : "off");
    if (s->sync && any) session_show(s, out);
    return GSW_OK;
}

int cmd_flip(session_t *s, char *args, out_t *out, err_t *err)
{
    char w[32], why[128];
    int on = on_off(args, w, sizeof w);
    if (on == -2) return err_set(err, GSW_EINPUT, "flip [on|off]: unknown \"%s\"", w);
    if (!session_can_flip(s, why, sizeof why)) {   /* (the setting stays as it was, for the next board) */
        out_printf(out, "flip: not for this board (%s)\n", why);
        return GSW_OK;
    }
    s->flipped = on < 0 ? !s->flipped : on;
    out_printf(out, "flip: %s\n", s->flipped ? "on (the board turned round)" : "off (the board as the game draws it)");
    if (s->sync) session_show(s, out);
    return GSW_OK;
}

int cmd_lines(session_t *s, char *args, out_t *out, err_t *err)
{
    char w[32] = "", *end;
    if (sscanf(args, "%31s", w) == 1) {
        long n = strtol(w, &end, 10);
        if (*end || n < 0 || n > SESSION_LINES_MAX)
            return err_set(err, GSW_EINPUT, "lines N: N from 0 to %d (0 or 1: the best move's line alone), not \"%s\"",
                           SESSION_LINES_MAX, w);
        s->lines = (int)n;
    }
    if (s->lines >= 2) out_printf(out, "lines: the engine's best %d in the analysis (proven values stay in the list)\n", s->lines);
    else out_printf(out, "lines: the best move's line alone (lines N shows N, up to %d)\n", SESSION_LINES_MAX);
    if (s->sync && s->lines >= 2) session_lines_say(s, out);
    return GSW_OK;
}

int session_engine_line_text(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n)
{
    char value[64], line[400];
    if (!session_line_text(s, ply, mv, line, sizeof line)) return 0;
    session_value_text(s, ply, mv, value, sizeof value);
    snprintf(buf, n, "%s %s", value, line);
    return 1;
}

int session_lines_say(session_t *s, out_t *out)
{
    int which[SESSION_LINES_MAX], rank[SESSION_LINES_MAX], said = 0;
    if (s->lines < 2 || !s->an[s->ply]) return 0;
    int k = session_engine_lines(s, s->ply, s->lines, which, rank);
    for (int i = 0; i < k; i++) {   /* numbered by their place among all the moves: a proven one may come first */
        char text[480];
        if (!session_engine_line_text(s, s->ply, &s->an[s->ply]->mv[which[i]], text, sizeof text)) continue;
        out_printf(out, "line %d: %s\n", rank[i] + 1, text);
        said++;
    }
    return said;
}
