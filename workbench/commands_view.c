/* The commands about how the game is shown (see commands_view.h). */
#include "workbench/commands_view.h"

#include <stdio.h>
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
