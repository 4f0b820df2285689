/* Chess game records in PGN (Portable Game Notation): reading the first
 * game of a record (tag pairs, a [FEN] start, [Variant "Chess960"], move
 * numbers, SAN moves, comments, variations, NAGs, annotation glyphs and
 * results) and writing one game with the seven-tag roster, a FEN for
 * another start, numbered SAN moves and the result. The plugin's
 * record_read/record_write hooks (core/game.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "games/chess/ch.h"
#include "games/record_text.h"

/* ---- reading ---- */

/* A game's result: the four PGN writes; reading, also the draws some
 * programs write ("1/2", "\u00bd-\u00bd"). */
static int pgn_is_result(const char *t, int reading)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*", NULL };
    for (int i = 0; results[i]; i++)
        if (!strcmp(t, results[i])) return 1;
    return reading && (!strcmp(t, "1/2") || !strcmp(t, "\xC2\xBD-\xC2\xBD"));
}

/* The move number of ply i of a game that starts at FEN move number
 * fullmove with side0 to move: "12." or "12...". */
static void pgn_move_name(int i, int side0, int fullmove, char *buf, size_t n)
{
    long k = (long)i + side0;
    snprintf(buf, n, "%ld%s", (long)(fullmove > 0 ? fullmove : 1) + k / 2, k % 2 ? "..." : ".");
}

/* The variants whose games are standard chess moves from a position. */
static int pgn_variant(const char *name, int *c960)
{
    static const char *const std[] = { "", "standard", "chess", "normal", "from position", "fromposition", NULL };
    static const char *const fr[] = { "chess960", "chess 960", "fischerandom", "fischer random", "fischer-random",
                                      "chess960 (fischerandom)", "960", NULL };
    for (int i = 0; std[i]; i++)
        if (!strcasecmp(name, std[i])) { *c960 = 0; return 1; }
    for (int i = 0; fr[i]; i++)
        if (!strcasecmp(name, fr[i])) { *c960 = 1; return 1; }
    return 0;
}

static void pgn_start(const gv_t *v, ch_pos_t *p)
{
    if (v && v->ops && v->ops->pos_start) v->ops->pos_start(v, p);
    else ch_start(p);
}

int ch_record_read(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err)
{
    ch_init();
    ch_pos_t *p0 = start, pos;
    pgn_start(v, p0);
    *n = 0;
    rec_reader_t r;
    rec_reader_init(&r, text, "PGN");
    int tags = 0, fen = 0, c960 = -1, nm = 0;
    char name[32], val[512];
    /* the tag section */
    for (;;) {
        if (rec_skip(&r, err)) return err->code;
        if (*r.s != '[') break;
        int line = r.line, cut = 0;
        if (rec_tag(&r, name, sizeof name, val, sizeof val, &cut, err)) return err->code;
        tags++;
        if (!strcasecmp(name, "FEN")) {
            if (fen) return err_set(err, GSW_EINPUT, "PGN: line %d: a second FEN tag", line);
            if (cut) return err_set(err, GSW_EINPUT, "PGN: line %d: the value of tag FEN is too long", line);
            err_t e;
            if (ch_parse_fen(val, p0, &e)) return err_set(err, GSW_EINPUT, "PGN: line %d: tag FEN: %s", line, e.msg);
            fen = 1;
        } else if (!strcasecmp(name, "Variant")) {
            if (cut || !pgn_variant(val, &c960))
                return err_set(err, GSW_EINPUT, "PGN: line %d: variant \"%.40s\" is not one gsw plays (standard chess "
                                                "and Chess960 are)", line, val);
        }
    }
    if (c960 == 1) p0->chess960 = 1;
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
        char mname[24];
        pgn_move_name(nm, p0->side, p0->fullmove, mname, sizeof mname);
        if (!rec_token_char(*r.s)) {   /* '}', ')', ']' or '"' */
            if (!nm) return err_set(err, GSW_EINPUT, "PGN: line %d: unexpected '%c' before the first move", r.line, *r.s);
            pgn_move_name(nm - 1, p0->side, p0->fullmove, mname, sizeof mname);
            return err_set(err, GSW_EINPUT, "PGN: line %d: unexpected '%c' after move %s", r.line, *r.s, mname);
        }
        const char *t0 = r.s;
        while (rec_token_char(*r.s)) rec_advance(&r);
        char tok[64];
        size_t tl = (size_t)(r.s - t0);
        if (tl >= sizeof tok)
            return err_set(err, GSW_EINPUT, "PGN: line %d, move %s %.20s...: not a move (too long)", r.line, mname, t0);
        memcpy(tok, t0, tl);
        tok[tl] = 0;
        if (pgn_is_result(tok, 1)) { ended = 1; break; }
        char *t = tok;
        /* a move number: digits and dots ("12." "12..."), maybe joined to
         * the move; digits alone are taken as a move number too */
        char *d = t;
        while (isdigit((unsigned char)*d)) d++;
        if (d > t && (*d == '.' || !*d)) {
            while (*d == '.') d++;
            t = d;
        }
        while (*t == '.') t++;   /* "..." alone, or dots before a move */
        /* annotation glyphs after the move, or alone (! ? !! ?? !? ?!), and
         * check marks, right or not: the position says */
        char shown[sizeof tok];
        snprintf(shown, sizeof shown, "%s", t);
        size_t k = strlen(t);
        while (k && strchr("!?+#", t[k - 1])) t[--k] = 0;
        if (!*t) continue;
        if (!strcasecmp(t, "e.p.") || !strcasecmp(t, "ep")) continue;   /* "exd6 e.p." */
        if (nm >= max)
            return err_set(err, GSW_EINPUT, "PGN: move %s %s: the record has more than %d moves", mname, shown, max);
        move_t m;
        err_t e;
        if (ch_parse_move(&pos, t, &m, &e))
            return err_set(err, GSW_EINPUT, "PGN: line %d, move %s %s: %s", r.line, mname, shown, e.msg);
        moves[nm++] = m;
        ch_play(&pos, m);
    }
    if (!ended && !nm && !tags) return err_set(err, GSW_EINPUT, "PGN: no game in the record (no tags, no moves)");
    *n = nm;
    return GSW_OK;
}

/* ---- writing ---- */

/* 1 if p is the standard start (FEN's clocks included). */
static int ch_is_initial(const ch_pos_t *p)
{
    ch_pos_t s;
    ch_start(&s);
    char a[128], b[128];
    ch_format_fen(p, a, sizeof a);
    ch_format_fen(&s, b, sizeof b);
    return !strcmp(a, b) && !p->chess960;
}

size_t ch_record_write(const gv_t *v, const void *start, const move_t *moves, int n, const char *result, char *buf,
                       size_t len)
{
    (void)v;
    ch_init();
    rec_writer_t w = { buf, len, 0 };
    if (len) buf[0] = 0;
    const ch_pos_t *p0 = start;
    if (!result || !pgn_is_result(result, 0)) result = "*";
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(date, sizeof date, "%Y.%m.%d", &tm)) snprintf(date, sizeof date, "????.??.??");
    rec_put(&w,
            "[Event \"gsw game\"]\n[Site \"?\"]\n[Date \"%s\"]\n[Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n"
            "[Result \"%s\"]\n",
            date, result);
    if (p0->chess960) rec_put(&w, "[Variant \"Chess960\"]\n");
    if (!ch_is_initial(p0)) {
        char fen[128];
        ch_format_fen(p0, fen, sizeof fen);
        rec_put(&w, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
    }
    rec_put(&w, "\n");
    ch_pos_t pos = *p0;
    int col = 0;
    for (int i = 0; i < n; i++) {
        /* only legal moves are written: a record that reads back */
        if (moves[i] == MOVE_NONE || !ch_legal(&pos, moves[i])) break;
        char item[64], mt[32], num[24] = "";
        ch_format_san(&pos, moves[i], mt, sizeof mt);
        if (pos.side == CH_WHITE || i == 0) pgn_move_name(i, p0->side, p0->fullmove, num, sizeof num);
        int k = snprintf(item, sizeof item, "%s%s%s", num, *num ? " " : "", mt);
        if (col && col + 1 + k > 79) { rec_put(&w, "\n"); col = 0; }
        rec_put(&w, "%s%s", col ? " " : "", item);
        col += (col ? 1 : 0) + k;
        ch_play(&pos, moves[i]);
    }
    if (col && col + 1 + (int)strlen(result) > 79) { rec_put(&w, "\n"); col = 0; }
    rec_put(&w, "%s%s\n", col ? " " : "", result);
    return w.used;
}
