/* The workbench's annotate (see session_annotate.h). */
#include "workbench/session_annotate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void session_ply_label(const session_t *s, int i, char *buf, size_t n)
{
    if (s->v->game->players == 2) snprintf(buf, n, "%d%s", i / 2 + 1, i % 2 ? "..." : ".");
    else snprintf(buf, n, "%d.", i + 1);
}

int session_annot_ply(const session_t *s, int i, annot_ply_t *p)
{
    const analysis_t *an = i >= 0 && i < s->top ? s->an[i] : NULL;
    if (!an) return 0;
    annotate_read(s->v, s->pos[i].b, an, s->moves[i], p);
    return 1;
}

int session_annotate(session_t *s, double ms, out_t *out, err_t *err)
{
    if (s->top == 0) return err_set(err, GSW_EINPUT, "no moves to annotate");
    analyst_t *a = calloc(1, sizeof *a);
    annot_ply_t *p = calloc((size_t)s->top, sizeof *p);
    char (*label)[16] = calloc((size_t)s->top, sizeof *label);
    if (!a || !p || !label) { free(a); free(p); free(label); return err_set(err, GSW_EFAIL, "out of memory"); }
    int rc = analyst_open(a, s->v, s->hash_mb, s->threads, s->cache, session_egdb_dir(s), s->stop, err);
    int done = 0, stopped = 0;
    for (int i = 0; !rc && i <= s->top; i++) {
        analysis_t *an = session_analysis_open(s, i);
        if (!an) { rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
        int r = annotate_position(a, session_task(s, i), s->pos[i].b, an, ms, err);
        if (r == 0 && i > 0) {
            annotate_link(s->v, s->an[i - 1], s->moves[i - 1], an);
            r = annotate_only(a, session_task(s, i - 1), s->pos[i - 1].b, s->an[i - 1], s->moves[i - 1], ms, err);
        }
        if (r < 0) { rc = err->code ? err->code : GSW_EFAIL; break; }
        if (r > 0) { stopped = 1; break; }
        if (i == 0) continue;
        session_annot_ply(s, i - 1, &p[i - 1]);
        if (s->v->ops->record_write) session_ply_label(s, i - 1, label[i - 1], sizeof label[i - 1]);
        else snprintf(label[i - 1], sizeof label[i - 1], "%d.", i);   /* counted in plies */
        done = i;
    }
    if (a->ready) analyst_close(a);
    if (!rc) {
        for (int i = 0; i < done; i++) {
            char got[96], best[96];
            annotate_value_text(s->v, &p[i].after, got, sizeof got);
            out_printf(out, "%-6s %s%s  %s", label[i], p[i].text, p[i].mark, got);
            if (p[i].mark[0] == '?' && p[i].best != MOVE_NONE) {
                annotate_value_text(s->v, &p[i].best_value, best, sizeof best);
                out_printf(out, "; best %s: %s", p[i].best_text, best);
            }
            out_printf(out, "\n");
        }
        board_view_t view;
        memset(&view, 0, sizeof view);
        if (s->v->ops->view) s->v->ops->view(s->v, s->pos[0].b, &view);
        const char *names[2] = { view.side[0][0] ? view.side[0] : "Player 1", view.side[1][0] ? view.side[1] : "Player 2" };
        char summary[2048];
        annotate_summary(s->v, p, done, (const char (*)[16])label, !s->v->ops->record_write, names, summary,
                         sizeof summary);
        out_printf(out, "%s\n", summary);
        if (stopped) out_printf(out, "stopped: %d of %d moves annotated\n", done, s->top);
    }
    free(a);
    free(p);
    free(label);
    return rc;
}
