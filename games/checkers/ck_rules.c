/* Checkers rules: geometry, move generation (plain moves from bitboard
 * shifts, captures by a depth-first walk of the jumps), making moves, and
 * the notation (PDN FEN positions, 9-13 / 1x10x19 moves). */
#include "games/checkers/ck.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Generated from the board picture in the module header: rows alternate
 * between dark squares at columns 2,4,6,8 (even rows, from 0) and 1,3,5,7. */
const int8_t ck_nb[32][4] = {
    { 4,  5, -1, -1}, { 5,  6, -1, -1}, { 6,  7, -1, -1}, { 7, -1, -1, -1},
    {-1,  8, -1,  0}, { 8,  9,  0,  1}, { 9, 10,  1,  2}, {10, 11,  2,  3},
    {12, 13,  4,  5}, {13, 14,  5,  6}, {14, 15,  6,  7}, {15, -1,  7, -1},
    {-1, 16, -1,  8}, {16, 17,  8,  9}, {17, 18,  9, 10}, {18, 19, 10, 11},
    {20, 21, 12, 13}, {21, 22, 13, 14}, {22, 23, 14, 15}, {23, -1, 15, -1},
    {-1, 24, -1, 16}, {24, 25, 16, 17}, {25, 26, 17, 18}, {26, 27, 18, 19},
    {28, 29, 20, 21}, {29, 30, 21, 22}, {30, 31, 22, 23}, {31, -1, 23, -1},
    {-1, -1, -1, 24}, {-1, -1, 24, 25}, {-1, -1, 25, 26}, {-1, -1, 26, 27},
};
const int8_t ck_jp[32][4] = {
    {-1,  9, -1, -1}, { 8, 10, -1, -1}, { 9, 11, -1, -1}, {10, -1, -1, -1},
    {-1, 13, -1, -1}, {12, 14, -1, -1}, {13, 15, -1, -1}, {14, -1, -1, -1},
    {-1, 17, -1,  1}, {16, 18,  0,  2}, {17, 19,  1,  3}, {18, -1,  2, -1},
    {-1, 21, -1,  5}, {20, 22,  4,  6}, {21, 23,  5,  7}, {22, -1,  6, -1},
    {-1, 25, -1,  9}, {24, 26,  8, 10}, {25, 27,  9, 11}, {26, -1, 10, -1},
    {-1, 29, -1, 13}, {28, 30, 12, 14}, {29, 31, 13, 15}, {30, -1, 14, -1},
    {-1, -1, -1, 17}, {-1, -1, 16, 18}, {-1, -1, 17, 19}, {-1, -1, 18, -1},
    {-1, -1, -1, 21}, {-1, -1, 20, 22}, {-1, -1, 21, 23}, {-1, -1, 22, -1},
};

static inline uint32_t ck_step(uint32_t b, int dir)
{
    switch (dir) {
    case CK_DL: return ck_dl(b);
    case CK_DR: return ck_dr(b);
    case CK_UL: return ck_ul(b);
    default: return ck_ur(b);
    }
}

/* The pieces of the side to move that may step in dir: men forward only. */
static inline uint32_t ck_movers(const ck_pos_t *p, int dir)
{
    int fwd = p->side == 0 ? dir <= CK_DR : dir >= CK_UL;
    return fwd ? p->p[p->side] : p->p[p->side] & p->k;
}

/* The squares where a first jump lands, by direction (land[dir]); returns
 * their union. */
static inline uint32_t ck_first_jumps(const ck_pos_t *p, uint32_t land[4])
{
    uint32_t own = p->p[p->side], opp = p->p[!p->side], empty = ~(p->p[0] | p->p[1]);
    uint32_t down = p->side == 0 ? own : own & p->k, up = p->side == 0 ? own & p->k : own;
    land[CK_DL] = ck_dl(ck_dl(down) & opp) & empty;
    land[CK_DR] = ck_dr(ck_dr(down) & opp) & empty;
    land[CK_UL] = ck_ul(ck_ul(up) & opp) & empty;
    land[CK_UR] = ck_ur(ck_ur(up) & opp) & empty;
    return land[0] | land[1] | land[2] | land[3];
}

static inline int ck_popcount(uint32_t b) { return __builtin_popcount(b); }
static inline int ck_lsb(uint32_t b) { return __builtin_ctz(b); }

int ck_mto(move_t m)
{
    int sq = ck_mfrom(m), n = ck_mjumps(m);
    if (n == 0) return ck_nb[sq][ck_mdir(m, 0)];
    for (int i = 0; i < n; i++) sq = ck_jp[sq][ck_mdir(m, i)];
    return sq;
}

int ck_can_capture(const ck_pos_t *p)
{
    uint32_t land[4];
    return ck_first_jumps(p, land) != 0;
}

/* Depth-first over the jumps of the piece now on sq: `opp` holds the
 * opponent's pieces not yet taken, `empty` the free squares (the mover's
 * start square included). A man that reaches the far row stops there. */
typedef struct ck_walk {
    uint32_t empty;
    int king, side;
    move_t *out;
    int n;
} ck_walk_t;

static void ck_jump_walk(ck_walk_t *w, int sq, uint32_t opp, move_t m, int depth)
{
    int found = 0;
    if (depth < CK_MAX_JUMPS) {
        int d0 = w->king ? 0 : w->side == 0 ? CK_DL : CK_UL;
        int d1 = w->king ? 3 : w->side == 0 ? CK_DR : CK_UR;
        for (int d = d0; d <= d1; d++) {
            int mid = ck_nb[sq][d], land = ck_jp[sq][d];
            if (land < 0 || !(opp >> mid & 1) || !(w->empty >> land & 1)) continue;
            found = 1;
            move_t m2 = (m & ~(15u << 5)) | (move_t)(depth + 1) << 5 | (move_t)d << (9 + 2 * depth);
            uint32_t crown = w->side == 0 ? CK_BLACK_CROWN : CK_WHITE_CROWN;
            if (!w->king && (crown >> land & 1)) {   /* crowned: the move ends */
                if (w->out) w->out[w->n] = m2;
                w->n++;
            }
            else ck_jump_walk(w, land, opp & ~(1u << mid), m2, depth + 1);
        }
    }
    if (!found && depth > 0) {
        if (w->out) w->out[w->n] = m;
        w->n++;
    }
}

/* The captures into out (NULL: only count them), given the first jumps'
 * landing squares by direction. */
static int ck_captures_from(const ck_pos_t *p, const uint32_t land[4], move_t *out)
{
    ck_walk_t w = { .side = p->side, .out = out };
    uint32_t opp = p->p[!p->side], empty = ~(p->p[0] | p->p[1]);
    /* the pieces with a first jump: two steps back from where they land */
    uint32_t can = ck_ur(ck_ur(land[CK_DL])) | ck_ul(ck_ul(land[CK_DR])) | ck_dr(ck_dr(land[CK_UL]))
                 | ck_dl(ck_dl(land[CK_UR]));
    for (uint32_t b = can; b; b &= b - 1) {
        int sq = ck_lsb(b);
        w.king = p->k >> sq & 1;
        w.empty = empty | 1u << sq;
        ck_jump_walk(&w, sq, opp, (move_t)sq, 0);
    }
    return w.n;
}

static int ck_captures(const ck_pos_t *p, move_t *out)
{
    uint32_t land[4];
    return ck_first_jumps(p, land) ? ck_captures_from(p, land, out) : 0;
}

int ck_moves(const ck_pos_t *p, move_t *out)
{
    int n = ck_captures(p, out);
    if (n) return n;
    uint32_t empty = ~(p->p[0] | p->p[1]);
    for (int d = 0; d < 4; d++) {
        uint32_t to = ck_step(ck_movers(p, d), d) & empty;
        for (; to; to &= to - 1) {
            int from = ck_nb[ck_lsb(to)][3 - d];
            out[n++] = (move_t)from | (move_t)d << 9;
        }
    }
    return n;
}

int ck_count(const ck_pos_t *p)
{
    uint32_t land[4];
    if (ck_first_jumps(p, land)) return ck_captures_from(p, land, NULL);
    uint32_t empty = ~(p->p[0] | p->p[1]);
    int n = 0;
    for (int d = 0; d < 4; d++) n += ck_popcount(ck_step(ck_movers(p, d), d) & empty);
    return n;
}

uint32_t ck_taken(const ck_pos_t *p, move_t m)
{
    (void)p;
    uint32_t t = 0;
    int sq = ck_mfrom(m);
    for (int i = 0; i < ck_mjumps(m); i++) {
        int d = ck_mdir(m, i);
        t |= 1u << ck_nb[sq][d];
        sq = ck_jp[sq][d];
    }
    return t;
}

void ck_play(ck_pos_t *p, move_t m)
{
    int s = p->side, from = ck_mfrom(m), n = ck_mjumps(m);
    int king = p->k >> from & 1, to = from;
    if (n == 0) {
        to = ck_nb[from][ck_mdir(m, 0)];
    } else {
        for (int i = 0; i < n; i++) {
            int d = ck_mdir(m, i);
            uint32_t mid = 1u << ck_nb[to][d];
            p->p[!s] &= ~mid;
            p->k &= ~mid;
            to = ck_jp[to][d];
        }
    }
    p->p[s] = (p->p[s] & ~(1u << from)) | 1u << to;
    p->k &= ~(1u << from);
    if (king || ((s == 0 ? CK_BLACK_CROWN : CK_WHITE_CROWN) >> to & 1)) p->k |= 1u << to;
    p->quiet = (n || !king) ? 0 : p->quiet < 255 ? p->quiet + 1 : 255;
    p->ply++;
    p->side = (uint8_t)!s;
}

/* ---- notation ---- */

/* One piece list of a FEN ("W21,22,K30" after the colour letter): sets the
 * squares into *men and *kings. */
static int ck_fen_list(const char *s, const char *end, int colour, uint32_t *seen, uint32_t *men, uint32_t *kings,
                       err_t *err)
{
    const char *name = colour == 0 ? "black" : "white";
    while (s < end) {
        const char *item = s;
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *stop = comma ? comma : end;
        while (item < stop && isspace((unsigned char)*item)) item++;
        const char *iend = stop;
        while (iend > item && isspace((unsigned char)iend[-1])) iend--;
        int king = 0;
        if (item < iend && (*item == 'K' || *item == 'k')) { king = 1; item++; }
        if (item == iend)
            return err_set(err, GSW_EINPUT, king ? "FEN: \"K\" with no square after it"
                                                 : "FEN: an empty entry in the %s list (a comma with no square)", name);
        /* a square or a range a-b */
        long a = 0, b = 0;
        const char *q = item;
        int ok = 1, digits = 0;
        while (q < iend && isdigit((unsigned char)*q) && digits < 6) { a = a * 10 + (*q++ - '0'); digits++; }
        if (!digits) ok = 0;
        b = a;
        if (ok && q < iend && *q == '-') {
            q++;
            int d2 = 0;
            b = 0;
            while (q < iend && isdigit((unsigned char)*q) && d2 < 6) { b = b * 10 + (*q++ - '0'); d2++; }
            if (!d2) ok = 0;
        }
        if (!ok || q != iend)
            return err_set(err, GSW_EINPUT, "FEN: \"%.*s\" is not a square number", (int)(iend - item), item);
        if (a < 1 || a > 32) return err_set(err, GSW_EINPUT, "FEN: square %ld is outside 1-32", a);
        if (b < 1 || b > 32) return err_set(err, GSW_EINPUT, "FEN: square %ld is outside 1-32", b);
        if (b < a) return err_set(err, GSW_EINPUT, "FEN: the range %ld-%ld runs backwards", a, b);
        for (long sq = a; sq <= b; sq++) {
            uint32_t bit = 1u << (sq - 1);
            if (*seen & bit) return err_set(err, GSW_EINPUT, "FEN: square %ld is given twice", sq);
            *seen |= bit;
            if (!king && (colour == 0 ? sq >= 29 : sq <= 4))
                return err_set(err, GSW_EINPUT, "FEN: a %s man on %ld, its own crowning row (a king there is K%ld)",
                               name, sq, sq);
            if (king) *kings |= bit;
            else *men |= bit;
        }
        s = comma ? comma + 1 : end;
        if (comma && s == end)
            return err_set(err, GSW_EINPUT, "FEN: an empty entry in the %s list (a comma with no square)", name);
    }
    return GSW_OK;
}

static int ck_colour(char c)
{
    return c == 'B' || c == 'b' ? 0 : c == 'W' || c == 'w' ? 1 : -1;
}

int ck_parse_fen(const char *text, ck_pos_t *p, err_t *err)
{
    memset(p, 0, sizeof *p);
    const char *s = text, *end = text + strlen(text);
    while (s < end && isspace((unsigned char)*s)) s++;
    if (s < end && *s == '"') s++;
    while (end > s && (isspace((unsigned char)end[-1]) || end[-1] == '"' || end[-1] == '.')) end--;
    if (s == end) return err_set(err, GSW_EINPUT, "FEN: empty");
    const char *colon = memchr(s, ':', (size_t)(end - s));
    const char *tok_end = colon ? colon : end;
    while (tok_end > s && isspace((unsigned char)tok_end[-1])) tok_end--;
    if (tok_end - s != 1 || ck_colour(*s) < 0)
        return err_set(err, GSW_EINPUT, "FEN: unknown side to move \"%.*s\" (expected B or W)",
                       (int)(tok_end - s > 16 ? 16 : tok_end - s), s);
    p->side = (uint8_t)ck_colour(*s);
    if (!colon) return err_set(err, GSW_EINPUT, "FEN: no piece lists (expected B:W21,22:B1,2)");
    uint32_t seen = 0, men[2] = { 0, 0 }, kings[2] = { 0, 0 };
    int have[2] = { 0, 0 };
    s = colon + 1;
    while (s <= end) {
        const char *next = memchr(s, ':', (size_t)(end - s));
        const char *lend = next ? next : end;
        while (s < lend && isspace((unsigned char)*s)) s++;
        if (s == lend) return err_set(err, GSW_EINPUT, "FEN: an empty piece list (expected W... or B...)");
        int c = ck_colour(*s);
        if (c < 0) return err_set(err, GSW_EINPUT, "FEN: unknown side letter '%c' (expected B or W)", *s);
        if (have[c]) return err_set(err, GSW_EINPUT, "FEN: two %s piece lists", c == 0 ? "black" : "white");
        have[c] = 1;
        int rc = ck_fen_list(s + 1, lend, c, &seen, &men[c], &kings[c], err);
        if (rc) return rc;
        if (!next) break;
        s = next + 1;
    }
    if (!have[0] || !have[1])
        return err_set(err, GSW_EINPUT, "FEN: the %s piece list is missing", have[0] ? "white" : "black");
    for (int c = 0; c < 2; c++) p->p[c] = men[c] | kings[c];
    p->k = kings[0] | kings[1];
    p->ply = p->side;
    return GSW_OK;
}

void ck_format_fen(const ck_pos_t *p, char *buf, size_t n)
{
    size_t len = 0;
    len += (size_t)snprintf(buf, n, "%c", p->side ? 'W' : 'B');
    static const int order[2] = { 1, 0 };   /* White's list first, as PDN writes it */
    for (int i = 0; i < 2; i++) {
        int c = order[i];
        if (len < n) len += (size_t)snprintf(buf + len, n - len, ":%c", c ? 'W' : 'B');
        int first = 1;
        for (int sq = 0; sq < 32; sq++) {
            if (!(p->p[c] >> sq & 1)) continue;
            if (len < n)
                len += (size_t)snprintf(buf + len, n - len, "%s%s%d", first ? "" : ",", (p->k >> sq & 1) ? "K" : "",
                                        sq + 1);
            first = 0;
        }
    }
}

void ck_format_move(const ck_pos_t *p, move_t m, char *buf, size_t n)
{
    (void)p;
    int sq = ck_mfrom(m), k = ck_mjumps(m);
    if (k == 0) {
        snprintf(buf, n, "%d-%d", sq + 1, ck_nb[sq][ck_mdir(m, 0)] + 1);
        return;
    }
    size_t len = (size_t)snprintf(buf, n, "%d", sq + 1);
    for (int i = 0; i < k && len < n; i++) {
        sq = ck_jp[sq][ck_mdir(m, i)];
        len += (size_t)snprintf(buf + len, n - len, "x%d", sq + 1);
    }
}

/* The squares a move visits, from first to last (1-based). */
static int ck_path(move_t m, int *sq)
{
    int s = ck_mfrom(m), k = ck_mjumps(m), n = 0;
    sq[n++] = s + 1;
    if (k == 0) { sq[n++] = ck_nb[s][ck_mdir(m, 0)] + 1; return n; }
    for (int i = 0; i < k; i++) { s = ck_jp[s][ck_mdir(m, i)]; sq[n++] = s + 1; }
    return n;
}

int ck_parse_move(const ck_pos_t *p, const char *text, move_t *m, err_t *err)
{
    int want[CK_MAX_JUMPS + 2], nw = 0;
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    int capture_sep = 0;
    for (;;) {
        if (!isdigit((unsigned char)*s))
            return err_set(err, GSW_EINPUT, "bad move \"%s\" (expected squares 1-32 as 9-13 or 13x22)", text);
        long v = 0;
        int digits = 0;
        while (isdigit((unsigned char)*s) && digits < 4) { v = v * 10 + (*s++ - '0'); digits++; }
        if (isdigit((unsigned char)*s) || v < 1 || v > 32)
            return err_set(err, GSW_EINPUT, "bad move \"%s\": square %ld is outside 1-32", text, v);
        if (nw == CK_MAX_JUMPS + 2)
            return err_set(err, GSW_EINPUT, "bad move \"%s\": too many squares", text);
        want[nw++] = (int)v;
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        if (*s == 'x' || *s == 'X' || *s == ':') capture_sep = 1;
        else if (*s != '-')
            return err_set(err, GSW_EINPUT, "bad move \"%s\" (expected squares 1-32 as 9-13 or 13x22)", text);
        s++;
        while (isspace((unsigned char)*s)) s++;
    }
    (void)capture_sep;
    if (nw < 2) return err_set(err, GSW_EINPUT, "bad move \"%s\" (a move names at least two squares)", text);
    move_t mv[GSW_MAX_MOVES];
    int n = ck_moves(p, mv), exact = -1, ends = 0, endi = -1;
    for (int i = 0; i < n; i++) {
        int path[CK_MAX_JUMPS + 2];
        int np = ck_path(mv[i], path);
        if (np == nw && !memcmp(path, want, (size_t)nw * sizeof *want)) { exact = i; break; }
        if (nw == 2 && path[0] == want[0] && path[np - 1] == want[1]) { ends++; endi = i; }
    }
    if (exact >= 0) { *m = mv[exact]; return GSW_OK; }
    if (ends == 1) { *m = mv[endi]; return GSW_OK; }
    if (ends > 1) {
        char a[64], b[64];
        int k = 0;
        for (int i = 0; i < n && k < 2; i++) {
            int path[CK_MAX_JUMPS + 2];
            int np = ck_path(mv[i], path);
            if (path[0] == want[0] && path[np - 1] == want[1]) ck_format_move(p, mv[i], k++ ? b : a, sizeof a);
        }
        return err_set(err, GSW_EINPUT, "ambiguous move \"%s\": %s and %s both fit; give every landing square", text,
                       a, b);
    }
    if (n == 0) return err_set(err, GSW_EINPUT, "illegal move \"%s\": the game is over", text);
    {   /* the first jumps of a capture that must go on: say how it goes on */
        char cont[200] = "";
        size_t cl = 0;
        int nc = 0;
        for (int i = 0; i < n; i++) {
            int path[CK_MAX_JUMPS + 2];
            int np = ck_path(mv[i], path);
            if (np <= nw || memcmp(path, want, (size_t)nw * sizeof *want)) continue;
            char mbuf[64];
            ck_format_move(p, mv[i], mbuf, sizeof mbuf);
            if (cl < sizeof cont - 70) cl += (size_t)snprintf(cont + cl, sizeof cont - cl, "%s%s", nc ? " or " : "", mbuf);
            nc++;
        }
        if (nc) return err_set(err, GSW_EINPUT, "illegal move \"%s\": the capture must continue (%s)", text, cont);
    }
    char list[160] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list - 24; i++) {
        char mbuf[64];
        ck_format_move(p, mv[i], mbuf, sizeof mbuf);
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? " " : "", mbuf);
        if (i == n - 1) break;
        if (len >= sizeof list - 24) { snprintf(list + len, sizeof list - len, " ..."); break; }
    }
    if (ck_mjumps(mv[0]))
        return err_set(err, GSW_EINPUT, "illegal move \"%s\": a capture is compulsory (%s)", text, list);
    return err_set(err, GSW_EINPUT, "illegal move \"%s\" (legal: %s)", text, list);
}
