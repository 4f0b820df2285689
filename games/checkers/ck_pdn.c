/* Checkers game records in PDN (Portable Draughts Notation): reading the
 * first game of a record (tag pairs, a [FEN] start, move numbers, moves in
 * either form, comments, NAGs and results) and writing one game with its
 * tags, numbered moves and result. The plugin's record_read/record_write
 * hooks (core/game.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "games/checkers/ck.h"
#include "games/record_text.h"

/* ---- reading ---- */

static int pdn_is_result(const char *t)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0", NULL };
    for (int i = 0; results[i]; i++)
        if (!strcmp(t, results[i])) return 1;
    return 0;
}

/* "5." or "5..." for ply i of a game from start. */
static void pdn_move_name(const void *start, int i, char *buf, size_t n)
{
    int k = i + ((const ck_pos_t *)start)->side;
    snprintf(buf, n, "%d%s", k / 2 + 1, k % 2 ? "..." : ".");
}

static const rec_moves_fmt_t pdn_moves = {
    .tok_max = 96,
    .is_result = pdn_is_result,
    .move_name = pdn_move_name,
};

int ck_record_read(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err)
{
    ck_pos_t *p0 = start;
    v->ops->pos_start(v, p0);
    *n = 0;
    rec_reader_t r;
    rec_reader_init(&r, text, "PDN");
    int tags = 0, fen = 0;
    char name[32], val[512];
    /* the tag section */
    for (;;) {
        if (rec_skip(&r, err)) return err->code;
        if (*r.s != '[') break;
        int line = r.line;
        int cut;
        if (rec_tag(&r, name, sizeof name, val, sizeof val, &cut, err)) return err->code;
        if (cut) return err_set(err, GSW_EINPUT, "PDN: line %d: the value of tag %s is too long", line, name);
        tags++;
        if (!strcasecmp(name, "FEN")) {
            if (fen) return err_set(err, GSW_EINPUT, "PDN: line %d: a second FEN tag", line);
            err_t e;
            if (ck_parse_fen(val, p0, &e)) return err_set(err, GSW_EINPUT, "PDN: line %d: tag FEN: %s", line, e.msg);
            fen = 1;
        }
    }
    (void)fen;
    /* the moves, up to a result, the next game's tags, or the end */
    return rec_read_moves(&r, &pdn_moves, v, p0, tags, moves, max, n, err);
}

/* ---- writing ---- */

static int ck_is_initial(const gv_t *v, const ck_pos_t *p)
{
    ck_pos_t s;
    v->ops->pos_start(v, &s);
    return p->p[0] == s.p[0] && p->p[1] == s.p[1] && p->k == s.k && p->side == s.side;
}

size_t ck_record_write(const gv_t *v, const void *start, const move_t *moves, int n, const char *result, char *buf,
                       size_t len)
{
    rec_writer_t w = { buf, len, 0 };
    if (len) buf[0] = 0;
    const ck_pos_t *p0 = start;
    if (!result || !pdn_is_result(result)) result = "*";
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y.%m.%d", gmtime_r(&now, &tm));
    rec_put(&w, "[Event \"gsw game\"]\n[Date \"%s\"]\n[Black \"?\"]\n[White \"?\"]\n[Result \"%s\"]\n", date, result);
    char fen[256];
    ck_format_fen(p0, fen, sizeof fen);
    rec_write_moves(&w, &pdn_moves, v, p0, ck_is_initial(v, p0) ? NULL : fen, moves, n, result);
    return w.used;
}
