/* Chess notation: FEN in and out (with Shredder-FEN and X-FEN castling
 * rights for Chess960), moves in UCI long algebraic and in SAN, and a
 * lenient move reader that takes either. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "games/chess/ch.h"

static const char ch_letters[] = " pnbrqk";

static int ch_piece_of(char c)
{
    const char *l = strchr("pnbrqk", tolower((unsigned char)c));
    if (!l || !c) return 0;
    return ch_pc(isupper((unsigned char)c) ? CH_WHITE : CH_BLACK, (int)(l - "pnbrqk") + 1);
}

static void ch_sq_name(int sq, char *out)
{
    out[0] = (char)('a' + sq % 8);
    out[1] = (char)('1' + sq / 8);
    out[2] = '\0';
}

/* The castling slot a FEN letter names for a king on ksq of colour c:
 * K/Q the outermost rook on that side, A-H a rook's file. Returns the
 * rook's square, or -1. */
static int ch_fen_castle(const ch_pos_t *p, int color, char letter, int *slot)
{
    int ksq = p->king[color], rank = color == CH_WHITE ? 0 : 7;
    if (ksq == CH_NOSQ || ksq / 8 != rank) return -1;
    int rook = ch_pc(color, CH_ROOK);
    char u = (char)toupper((unsigned char)letter);
    if (u == 'K' || u == 'Q') {
        int step = u == 'K' ? 1 : -1, found = -1;
        for (int f = ksq % 8 + step; f >= 0 && f < 8; f += step)
            if (p->sq[rank * 8 + f] == rook) found = rank * 8 + f;
        *slot = color * 2 + (u == 'Q');
        return found;
    }
    if (u < 'A' || u > 'H') return -1;
    int sq = rank * 8 + (u - 'A');
    if (p->sq[sq] != rook || sq == ksq) return -1;
    *slot = color * 2 + (sq < ksq);
    return sq;
}

int ch_parse_fen(const char *text, ch_pos_t *p, err_t *err)
{
    ch_init();
    memset(p, 0, sizeof *p);
    memset(p->rook, CH_NOSQ, sizeof p->rook);
    p->ep = CH_NOSQ;
    p->fullmove = 1;
    const char *s = text;
    while (*s == ' ') s++;
    /* the board, rank 8 first */
    int rank = 7, file = 0;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (file != 8) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": rank %d has %d squares, not 8", text, rank + 1, file);
            if (--rank < 0) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": more than 8 ranks", text);
            file = 0;
        } else if (*s >= '1' && *s <= '8') {
            file += *s - '0';
            if (file > 8) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": rank %d has more than 8 squares", text, rank + 1);
        } else {
            int pc = ch_piece_of(*s);
            if (!pc) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": '%c' is not a piece", text, *s);
            if (file >= 8) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": rank %d has more than 8 squares", text, rank + 1);
            p->sq[rank * 8 + file++] = (uint8_t)pc;
        }
    }
    if (rank != 0 || file != 8) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": the board needs 8 ranks of 8 squares", text);
    int kings[2] = { 0, 0 };
    for (int sq = 0; sq < 64; sq++) {
        int pc = p->sq[sq];
        if (ch_pc_type(pc) == CH_KING) kings[ch_pc_color(pc)]++;
        if (ch_pc_type(pc) == CH_PAWN && (sq < 8 || sq >= 56))
            return err_set(err, GSW_EINPUT, "bad FEN \"%s\": a pawn on the first or last rank", text);
    }
    if (kings[0] != 1 || kings[1] != 1)
        return err_set(err, GSW_EINPUT, "bad FEN \"%s\": each side needs exactly one king", text);
    ch_refresh(p);
    /* side to move */
    while (*s == ' ') s++;
    if (*s == 'w' || *s == 'b') p->side = *s++ == 'b';
    else if (*s) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": the side to move must be w or b", text);
    if (*s && *s != ' ') return err_set(err, GSW_EINPUT, "bad FEN \"%s\": the side to move must be w or b", text);
    /* castling */
    while (*s == ' ') s++;
    if (*s == '-') s++;
    else
        for (; *s && *s != ' '; s++) {
            int color = isupper((unsigned char)*s) ? CH_WHITE : CH_BLACK, slot = 0;
            int rsq = ch_fen_castle(p, color, *s, &slot);
            if (rsq < 0) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": castling right '%c' has no king and rook for it", text, *s);
            if (p->rook[slot] != CH_NOSQ && p->rook[slot] != rsq)
                return err_set(err, GSW_EINPUT, "bad FEN \"%s\": two castling rights on one side", text);
            p->rook[slot] = (uint8_t)rsq;
            if (!strchr("KQkq", *s)) p->chess960 = 1;
        }
    for (int slot = 0; slot < 4; slot++) {   /* a king or rook off the standard squares: Chess960 */
        if (p->rook[slot] == CH_NOSQ) continue;
        int c = slot / 2, home = c ? 60 : 4, corner = (c ? 56 : 0) + (slot & 1 ? 0 : 7);
        if (p->king[c] != home || p->rook[slot] != corner) p->chess960 = 1;
    }
    if (*s && *s != ' ') return err_set(err, GSW_EINPUT, "bad FEN \"%s\": bad castling field", text);
    /* en passant: kept only when a pawn can take there */
    while (*s == ' ') s++;
    if (*s == '-') s++;
    else if (*s) {
        if (s[0] < 'a' || s[0] > 'h' || (s[1] != '3' && s[1] != '6'))
            return err_set(err, GSW_EINPUT, "bad FEN \"%s\": bad en-passant square", text);
        int sq = (s[1] - '1') * 8 + (s[0] - 'a');
        int mover = p->side, pawn_sq = mover == CH_WHITE ? sq - 8 : sq + 8;
        if ((mover == CH_WHITE) != (s[1] == '6'))
            return err_set(err, GSW_EINPUT, "bad FEN \"%s\": en-passant square on the wrong rank", text);
        if (p->sq[pawn_sq] != ch_pc(mover ^ 1, CH_PAWN) || p->sq[sq])
            return err_set(err, GSW_EINPUT, "bad FEN \"%s\": no pawn just passed the en-passant square", text);
        if (ch_pawn_att(mover ^ 1, sq) & p->color[mover] & p->type[CH_PAWN]) p->ep = (uint8_t)sq;
        s += 2;
    }
    if (*s && *s != ' ') return err_set(err, GSW_EINPUT, "bad FEN \"%s\": bad en-passant square", text);
    /* the clocks (optional) */
    int nums[2] = { 0, 1 };
    for (int i = 0; i < 2; i++) {
        while (*s == ' ') s++;
        if (!*s) break;
        long x = 0;
        int digits = 0;
        for (; *s >= '0' && *s <= '9'; s++, digits++) x = x < 100000 ? x * 10 + (*s - '0') : x;
        if (!digits || (*s && *s != ' ') || x > 65535)
            return err_set(err, GSW_EINPUT, "bad FEN \"%s\": the %s must be a number", text, i ? "move number" : "halfmove clock");
        nums[i] = (int)x;
    }
    while (*s == ' ') s++;
    if (*s) return err_set(err, GSW_EINPUT, "bad FEN \"%s\": unexpected text after the move number", text);
    p->halfmove = (uint16_t)nums[0];
    p->fullmove = (uint16_t)(nums[1] ? nums[1] : 1);
    ch_refresh(p);
    /* the side that just moved cannot be in check */
    if (ch_attackers(p, p->king[p->side ^ 1], p->side, p->type[0]))
        return err_set(err, GSW_EINPUT, "bad FEN \"%s\": the side not to move is in check", text);
    return GSW_OK;
}

void ch_format_fen(const ch_pos_t *p, char *buf, size_t n)
{
    char out[128];
    int k = 0;
    for (int r = 7; r >= 0; r--) {
        int gap = 0;
        for (int f = 0; f < 8; f++) {
            int pc = p->sq[r * 8 + f];
            if (!pc) { gap++; continue; }
            if (gap) out[k++] = (char)('0' + gap);
            gap = 0;
            char c = ch_letters[ch_pc_type(pc)];
            out[k++] = ch_pc_color(pc) == CH_WHITE ? (char)toupper((unsigned char)c) : c;
        }
        if (gap) out[k++] = (char)('0' + gap);
        if (r) out[k++] = '/';
    }
    out[k++] = ' ';
    out[k++] = p->side ? 'b' : 'w';
    out[k++] = ' ';
    int any = 0;
    static const char std_letter[4] = { 'K', 'Q', 'k', 'q' };
    for (int slot = 0; slot < 4; slot++) {
        if (p->rook[slot] == CH_NOSQ) continue;
        char c = std_letter[slot];
        if (p->chess960) {   /* Shredder-FEN: the rook's file */
            c = (char)('A' + p->rook[slot] % 8);
            if (slot >= 2) c = (char)tolower((unsigned char)c);
        }
        out[k++] = c;
        any = 1;
    }
    if (!any) out[k++] = '-';
    out[k++] = ' ';
    if (p->ep != CH_NOSQ) {
        ch_sq_name(p->ep, out + k);
        k += 2;
    } else {
        out[k++] = '-';
    }
    out[k] = '\0';
    snprintf(buf, n, "%s %d %d", out, p->halfmove, p->fullmove);
}

/* Where castling puts the king (slot from the rook's side of the king). */
static int ch_castle_king_to(move_t m)
{
    int from = ch_from(m), to = ch_to(m);
    return (from / 8) * 8 + (to < from ? 2 : 6);
}

void ch_format_uci(const ch_pos_t *p, move_t m, char *buf, size_t n)
{
    if (m == MOVE_NONE) { snprintf(buf, n, "0000"); return; }
    char a[3], b[3];
    int to = ch_to(m);
    if (ch_kind(m) == CH_CASTLE && !p->chess960) to = ch_castle_king_to(m);
    ch_sq_name(ch_from(m), a);
    ch_sq_name(to, b);
    if (ch_kind(m) == CH_PROMO) snprintf(buf, n, "%s%s%c", a, b, ch_letters[ch_promo(m)]);
    else snprintf(buf, n, "%s%s", a, b);
}

/* SAN without the check mark. */
static void ch_san_core(const ch_pos_t *p, move_t m, const move_t *mv, int nmv, char *out)
{
    int from = ch_from(m), to = ch_to(m), type = ch_pc_type(p->sq[from]), k = 0;
    if (ch_kind(m) == CH_CASTLE) {
        strcpy(out, to < from ? "O-O-O" : "O-O");
        return;
    }
    int capture = ch_captured(p, m) != 0;
    if (type == CH_PAWN) {
        if (capture) {
            out[k++] = (char)('a' + from % 8);
            out[k++] = 'x';
        }
    } else {
        out[k++] = (char)toupper((unsigned char)ch_letters[type]);
        int same = 0, same_file = 0, same_rank = 0;
        for (int i = 0; i < nmv; i++) {
            int f2 = ch_from(mv[i]);
            if (mv[i] == m || ch_to(mv[i]) != to || f2 == from || ch_kind(mv[i]) == CH_CASTLE) continue;
            if (ch_pc_type(p->sq[f2]) != type) continue;
            same = 1;
            same_file |= f2 % 8 == from % 8;
            same_rank |= f2 / 8 == from / 8;
        }
        if (same) {
            if (!same_file) out[k++] = (char)('a' + from % 8);
            else if (!same_rank) out[k++] = (char)('1' + from / 8);
            else {
                out[k++] = (char)('a' + from % 8);
                out[k++] = (char)('1' + from / 8);
            }
        }
        if (capture) out[k++] = 'x';
    }
    out[k++] = (char)('a' + to % 8);
    out[k++] = (char)('1' + to / 8);
    if (ch_kind(m) == CH_PROMO) {
        out[k++] = '=';
        out[k++] = (char)toupper((unsigned char)ch_letters[ch_promo(m)]);
    }
    out[k] = '\0';
}

void ch_format_san(const ch_pos_t *p, move_t m, char *buf, size_t n)
{
    if (m == MOVE_NONE) { snprintf(buf, n, "--"); return; }
    move_t mv[GSW_MAX_MOVES];
    int nmv = ch_moves(p, mv);
    char core[16];
    ch_san_core(p, m, mv, nmv, core);
    ch_pos_t q = *p;
    ch_play(&q, m);
    const char *mark = "";
    if (ch_in_check(&q)) mark = ch_count(&q) ? "+" : "#";
    snprintf(buf, n, "%s%s", core, mark);
}

int ch_parse_move(const ch_pos_t *p, const char *text, move_t *m, err_t *err)
{
    char t[24];
    size_t len = 0;
    const char *s = text;
    while (*s == ' ' || *s == '\t') s++;
    for (; *s && len < sizeof t - 1; s++) {
        if (strchr("+#!? \t\r\n", *s)) continue;
        t[len++] = *s == '0' ? 'O' : *s;   /* 0-0 castles as O-O */
    }
    t[len] = '\0';
    if (*s || !len) return err_set(err, GSW_EINPUT, "bad move \"%.40s\"", text);
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(p, mv);
    /* UCI long algebraic: e2e4, e7e8q; castling as the king's two-step or king-takes-rook */
    if (len >= 4 && len <= 5 && t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8' && t[2] >= 'a' && t[2] <= 'h'
        && t[3] >= '1' && t[3] <= '8') {
        int from = (t[1] - '1') * 8 + (t[0] - 'a'), to = (t[3] - '1') * 8 + (t[2] - 'a');
        int promo = len == 5 ? tolower((unsigned char)t[4]) : 0;
        for (int i = 0; i < n; i++) {
            if (ch_from(mv[i]) != from) continue;
            int ok = ch_to(mv[i]) == to;
            if (ch_kind(mv[i]) == CH_CASTLE) ok = (ok || ch_castle_king_to(mv[i]) == to) && !promo;
            else if (ch_kind(mv[i]) == CH_PROMO) ok = ok && promo == ch_letters[ch_promo(mv[i])];
            else ok = ok && !promo;
            if (ok) { *m = mv[i]; return GSW_OK; }
        }
    }
    /* SAN, read by its parts: piece, disambiguation, capture, square, promotion */
    if (!strcmp(t, "O-O") || !strcmp(t, "O-O-O")) {
        int lng = len == 5;
        for (int i = 0; i < n; i++)
            if (ch_kind(mv[i]) == CH_CASTLE && (ch_to(mv[i]) < ch_from(mv[i])) == lng) { *m = mv[i]; return GSW_OK; }
        return err_set(err, GSW_EINPUT, "illegal move \"%s\": castling %s is not possible here", text,
                       lng ? "queen side" : "king side");
    }
    const char *q = t;
    int type = CH_PAWN;
    if (strchr("NBRQK", *q) && *q) type = ch_pc_type(ch_piece_of(*q++));
    int promo = 0;
    char *eq = strchr(q, '=');
    size_t ql = strlen(q);
    if (eq) {
        if (eq[1] == '\0' || eq[2] != '\0') return err_set(err, GSW_EINPUT, "bad move \"%.40s\"", text);
        promo = ch_pc_type(ch_piece_of((char)tolower((unsigned char)eq[1])));
        ql = (size_t)(eq - q);
    } else if (type == CH_PAWN && ql >= 3 && strchr("NBRQnbrq", q[ql - 1]) && q[ql - 2] >= '1' && q[ql - 2] <= '8') {
        promo = ch_pc_type(ch_piece_of((char)tolower((unsigned char)q[ql - 1])));
        ql--;
    }
    if (promo && (promo < CH_KNIGHT || promo > CH_QUEEN)) return err_set(err, GSW_EINPUT, "bad move \"%.40s\": bad promotion", text);
    if (ql < 2 || q[ql - 2] < 'a' || q[ql - 2] > 'h' || q[ql - 1] < '1' || q[ql - 1] > '8')
        return err_set(err, GSW_EINPUT, "bad move \"%.40s\" (expected SAN like Nf3, exd5, O-O, e8=Q or UCI like e2e4)", text);
    int to = (q[ql - 1] - '1') * 8 + (q[ql - 2] - 'a');
    int dfile = -1, drank = -1;
    for (size_t i = 0; i + 2 < ql; i++) {
        char c = q[i];
        if (c >= 'a' && c <= 'h' && dfile < 0) dfile = c - 'a';
        else if (c >= '1' && c <= '8' && drank < 0) drank = c - '1';
        else if (c == 'x' || c == ':' || c == '-') continue;
        else return err_set(err, GSW_EINPUT, "bad move \"%.40s\"", text);
    }
    int found = -1, count = 0;
    for (int i = 0; i < n; i++) {
        int from = ch_from(mv[i]);
        if (ch_kind(mv[i]) == CH_CASTLE || ch_to(mv[i]) != to || ch_pc_type(p->sq[from]) != type) continue;
        if (dfile >= 0 && from % 8 != dfile) continue;
        if (drank >= 0 && from / 8 != drank) continue;
        if (ch_kind(mv[i]) == CH_PROMO ? ch_promo(mv[i]) != promo : promo != 0) continue;
        found = i;
        count++;
    }
    if (count == 1) { *m = mv[found]; return GSW_OK; }
    if (count > 1) return err_set(err, GSW_EINPUT, "ambiguous move \"%.40s\": say which piece (e.g. with its file)", text);
    if (type == CH_PAWN && !promo && (to / 8 == 7 || to / 8 == 0))
        for (int i = 0; i < n; i++)
            if (ch_kind(mv[i]) == CH_PROMO && ch_to(mv[i]) == to)
                return err_set(err, GSW_EINPUT, "illegal move \"%.40s\": a promotion needs a piece (e.g. %c8=Q)", text, q[ql - 2]);
    return err_set(err, GSW_EINPUT, "illegal move \"%.40s\" in this position", text);
}
