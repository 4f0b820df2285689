/* Checkers game records in PDN (Portable Draughts Notation): reading the
 * first game of a record (tag pairs, a [FEN] start, move numbers, moves in
 * either form, comments, NAGs and results) and writing one game with its
 * tags, numbered moves and result. The plugin's record_read/record_write
 * hooks (core/game.h). */
#include <ctype.h>
#include <stdarg.h>
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

/* "5." or "5..." for the ply index i of a game whose first mover is side0. */
static void pdn_move_name(int i, int side0, char *buf, size_t n)
{
    int k = i + side0;
    snprintf(buf, n, "%d%s", k / 2 + 1, k % 2 ? "..." : ".");
}

int ck_record_read(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err)
{
    ck_pos_t *p0 = start, pos;
    v->ops->pos_start(v, p0);
    *n = 0;
    rec_reader_t r;
    rec_reader_init(&r, text, "PDN");
    int tags = 0, fen = 0, nm = 0;
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
    pos = *p0;
    /* the moves, up to a result, the next game's tags, or the end */
    int ended = 0;
    for (;;) {
        if (rec_skip(&r, err)) return err->code;
        if (!*r.s || *r.s == '[') break;
        if (*r.s == '$') {   /* a NAG: $ and digits */
            rec_skip_nag(&r);
            continue;
        }
        if (!rec_token_char(*r.s)) {
            return err_set(err, GSW_EINPUT, "PDN: line %d: unexpected '%c' after move %d", r.line, *r.s, nm);
        }
        const char *t0 = r.s;
        while (rec_token_char(*r.s)) rec_advance(&r);
        char tok[96];
        size_t tl = (size_t)(r.s - t0);
        if (tl >= sizeof tok)
            return err_set(err, GSW_EINPUT, "PDN: line %d: \"%.20s...\" is not a move", r.line, t0);
        memcpy(tok, t0, tl);
        tok[tl] = 0;
        if (pdn_is_result(tok)) { ended = 1; break; }
        char *t = tok;
        /* a move number: digits and one or more dots, maybe joined to the move */
        char *d = t;
        while (isdigit((unsigned char)*d)) d++;
        if (d > t && *d == '.') {
            while (*d == '.') d++;
            t = d;
        }
        /* annotations: ! ? and the like after the move, or alone */
        size_t k = strlen(t);
        while (k && strchr("!?+#", t[k - 1])) t[--k] = 0;
        if (!*t) continue;
        char mname[24];
        pdn_move_name(nm, p0->side, mname, sizeof mname);
        if (nm >= max)
            return err_set(err, GSW_EINPUT, "PDN: move %s %s: the record has more than %d moves", mname, t, max);
        move_t m;
        err_t e;
        if (ck_parse_move(&pos, t, &m, &e))
            return err_set(err, GSW_EINPUT, "PDN: line %d, move %s %s: %s", r.line, mname, t, e.msg);
        moves[nm++] = m;
        ck_play(&pos, m);
    }
    if (!ended && !nm && !tags) return err_set(err, GSW_EINPUT, "PDN: no game in the record (no tags, no moves)");
    (void)fen;
    *n = nm;
    return GSW_OK;
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
    if (!ck_is_initial(v, p0)) {
        char fen[256];
        ck_format_fen(p0, fen, sizeof fen);
        rec_put(&w, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
    }
    rec_put(&w, "\n");
    ck_pos_t pos = *p0;
    int col = 0;
    for (int i = 0; i < n; i++) {
        /* only legal moves are written: a record that reads back */
        move_t mv[GSW_MAX_MOVES];
        int nl = ck_moves(&pos, mv), ok = 0;
        for (int j = 0; j < nl && !ok; j++) ok = mv[j] == moves[i];
        if (!ok) break;
        char item[96], mt[64], num[24] = "";
        ck_format_move(&pos, moves[i], mt, sizeof mt);
        if (pos.side == 0 || i == 0) pdn_move_name(i, p0->side, num, sizeof num);
        int k = snprintf(item, sizeof item, "%s%s%s", num, *num ? " " : "", mt);
        if (col && col + 1 + k > 79) { rec_put(&w, "\n"); col = 0; }
        rec_put(&w, "%s%s", col ? " " : "", item);
        col += (col ? 1 : 0) + k;
        ck_play(&pos, moves[i]);
    }
    if (col && col + 1 + (int)strlen(result) > 79) { rec_put(&w, "\n"); col = 0; }
    rec_put(&w, "%s%s\n", col ? " " : "", result);
    return w.used;
}
