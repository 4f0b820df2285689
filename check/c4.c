/* Connect Four's rules for the checker, on any board gsw plays (width up
 * to 64, width * (height + 1) up to 128): a grid of cells, not gsw's
 * bitboards. A position's text is the columns played (1-based; joined by
 * commas when the board is wider than 9), in the order gsw writes it:
 * taken back stone by stone from the top, trying the columns in gsw's
 * order from the last (its centre-first order reversed), never through a
 * position with four in a row (games/connect4/c4_engine.h's pos_format). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/cert.h"
#include "check/rules.h"

typedef struct c4p {
    int8_t cell[128];          /* cell[c * h + r]: 0, 1 (the first player's), 2 */
    uint8_t height[64];
    int moves, over;           /* discs played; the last made four */
} c4p_t;

/* The four directions, as (dc, dr). */
static const int dirs[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };

static int at(const rules_t *r, const c4p_t *p, int c, int row)
{
    if (c < 0 || c >= r->w || row < 0 || row >= r->h) return 0;
    return p->cell[c * r->h + row];
}

/* Does the disc at (c, row) make four in a row? */
static int four_at(const rules_t *r, const c4p_t *p, int c, int row)
{
    int x = at(r, p, c, row);
    for (int d = 0; x && d < 4; d++) {
        int n = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int k = 1; k < 4 && at(r, p, c + s * k * dirs[d][0], row + s * k * dirs[d][1]) == x; k++) n++;
        if (n >= 4) return 1;
    }
    return 0;
}

static int any_four(const rules_t *r, const c4p_t *p)
{
    for (int c = 0; c < r->w; c++)
        for (int row = 0; row < p->height[c]; row++)
            if (four_at(r, p, c, row)) return 1;
    return 0;
}

static int c4_moves(const rules_t *r, const void *pos, move_t *out)
{
    const c4p_t *p = pos;
    int n = 0;
    if (p->over) return 0;
    for (int c = 0; c < r->w; c++)
        if (p->height[c] < r->h) out[n++] = (move_t)c;
    return n;
}

static void c4_play(const rules_t *r, void *pos, move_t m)
{
    c4p_t *p = pos;
    int c = (int)m, row = p->height[c]++;
    p->cell[c * r->h + row] = (int8_t)(1 + (p->moves++ & 1));
    p->over = four_at(r, p, c, row);
}

static int c4_parse(const rules_t *r, const char *text, void *pos, err_t *err)
{
    c4p_t *p = pos;
    memset(p, 0, sizeof *p);
    for (const char *s = text; *s;) {
        if (*s < '0' || *s > '9') return err_set(err, GSW_EINPUT, "bad character '%c' in \"%s\" (expected columns)", *s, text);
        int c = 0;
        if (r->w <= 9) c = *s++ - '0';   /* a digit a move */
        else {                          /* comma-separated */
            for (int digits = 0; *s >= '0' && *s <= '9' && digits < 4; digits++) c = c * 10 + (*s++ - '0');
            if (*s == ',') s++;
            else if (*s) return err_set(err, GSW_EINPUT, "bad character '%c' in \"%s\"", *s, text);
        }
        if (c < 1 || c > r->w) return err_set(err, GSW_EINPUT, "column %d is out of range 1-%d in \"%s\"", c, r->w, text);
        if (p->over) return err_set(err, GSW_EINPUT, "\"%s\" plays on after four in a row", text);
        if (p->height[c - 1] >= r->h) return err_set(err, GSW_EINPUT, "column %d is full in \"%s\"", c, text);
        c4_play(r, p, (move_t)(c - 1));
    }
    return GSW_OK;
}

/* gsw's column order: centre first, then outwards. */
static int order(const rules_t *r, int i)
{
    int w = r->w;
    return w % 2 ? w / 2 + (i % 2 ? -(i + 1) / 2 : i / 2) : (w - 1) / 2 + (i % 2 ? (i + 1) / 2 : -(i / 2));
}

/* A move order that makes p (its first `moves` discs), into seq. */
static int unplay(const rules_t *r, c4p_t *p, int moves, int *seq)
{
    if (moves == 0) return 1;
    int mover = 1 + ((moves - 1) & 1);
    for (int i = r->w - 1; i >= 0; i--) {
        int c = order(r, i), row = p->height[c] - 1;
        if (row < 0 || p->cell[c * r->h + row] != mover) continue;
        p->cell[c * r->h + row] = 0;
        p->height[c]--;
        int ok = !any_four(r, p) && unplay(r, p, moves - 1, seq);
        p->cell[c * r->h + row] = (int8_t)mover;
        p->height[c]++;
        if (ok) {
            seq[moves - 1] = c;
            return 1;
        }
    }
    return 0;
}

static void c4_format(const rules_t *r, const void *pos, char *buf, size_t n)
{
    c4p_t q = *(const c4p_t *)pos;
    int seq[128];
    size_t o = 0;
    buf[0] = 0;
    if (!unplay(r, &q, q.moves, seq)) {
        snprintf(buf, n, "?");
        return;
    }
    for (int i = 0; i < q.moves && o + 4 < n; i++)
        o += (size_t)snprintf(buf + o, n - o, r->w <= 9 ? "%d" : (i ? ",%d" : "%d"), seq[i] + 1);
}

static int c4_move_parse(const rules_t *r, const void *pos, const char *text, move_t *m, err_t *err)
{
    const c4p_t *p = pos;
    char *end;
    long c = strtol(text, &end, 10);
    if (end == text || *end || c < 1 || c > r->w)
        return err_set(err, GSW_EINPUT, "bad move \"%s\": expected a column number 1-%d", text, r->w);
    if (p->over || p->height[c - 1] >= r->h) return err_set(err, GSW_EINPUT, "column %ld cannot be played", c);
    *m = (move_t)(c - 1);
    return GSW_OK;
}

static void c4_move_format(const rules_t *r, const void *pos, move_t m, char *buf, size_t n)
{
    (void)r;
    (void)pos;
    snprintf(buf, n, "%u", m + 1);
}

/* Four in a row: the player to move has lost; a full board is a draw. */
static int c4_over(const rules_t *r, const void *pos, int32_t *v)
{
    const c4p_t *p = pos;
    if (p->over) *v = -CV_WIN;
    else if (p->moves >= r->w * r->h) *v = 0;
    else return 0;
    return 1;
}

int c4_cells(const rules_t *r, const void *pos, int8_t *cells)
{
    const c4p_t *p = pos;
    memcpy(cells, p->cell, (size_t)(r->w * r->h));
    return p->moves;
}

int c4_open(int w, int h, rules_t *r, err_t *err)
{
    if (w < 1 || h < 1 || w > 64 || h > 63 || w * (h + 1) > 128)
        return err_set(err, GSW_EINPUT, "connect4 board %dx%d is not one gsw plays", w, h);
    _Static_assert(sizeof(c4p_t) <= GSW_MAX_POS, "a position fits a position buffer");
    *r = (rules_t){ .game = "connect4", .w = w, .h = h, .parse = c4_parse, .format = c4_format, .moves = c4_moves,
                    .move_parse = c4_move_parse, .move_format = c4_move_format, .play = c4_play, .over = c4_over };
    return GSW_OK;
}
