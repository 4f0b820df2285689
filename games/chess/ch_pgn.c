/* Chess game records in PGN (Portable Game Notation): reading the first
 * game of a record (tag pairs, a [FEN] start, [Variant "Chess960"], move
 * numbers, SAN moves, comments, variations, NAGs, annotation glyphs and
 * results) and writing one game with the seven-tag roster, a FEN for
 * another start, numbered SAN moves and the result. The plugin's
 * record_read/record_write hooks (core/game.h). */
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

/* The move number of ply i of a game from start (its FEN move number,
 * its side to move): "12." or "12...". */
static void pgn_move_name(const void *start, int i, char *buf, size_t n)
{
    const ch_pos_t *p0 = start;
    long k = (long)i + p0->side;
    snprintf(buf, n, "%ld%s", (long)(p0->fullmove > 0 ? p0->fullmove : 1) + k / 2, k % 2 ? "..." : ".");
}

static int pgn_read_result(const char *t) { return pgn_is_result(t, 1); }

/* "exd6 e.p.": the capture's note, no move */
static int pgn_no_move(const char *t) { return !strcasecmp(t, "e.p.") || !strcasecmp(t, "ep"); }

static const rec_moves_fmt_t pgn_moves = {
    .tok_max = 64,
    .pgn_numbers = 1,
    .is_result = pgn_read_result,
    .no_move = pgn_no_move,
    .move_name = pgn_move_name,
};

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
    ch_pos_t *p0 = start;
    pgn_start(v, p0);
    *n = 0;
    rec_reader_t r;
    rec_reader_init(&r, text, "PGN");
    int tags = 0, fen = 0, c960 = -1;
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
    /* the moves, up to a result, the next game's tags, or the end */
    return rec_read_moves(&r, &pgn_moves, v, p0, tags, moves, max, n, err);
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
    char fen[128];
    ch_format_fen(p0, fen, sizeof fen);
    rec_write_moves(&w, &pgn_moves, v, p0, ch_is_initial(p0) ? NULL : fen, moves, n, result);
    return w.used;
}
