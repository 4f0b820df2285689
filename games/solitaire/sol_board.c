/* Peg solitaire boards: the built-in boards and text art ("o" peg, "." hole,
 * space off-board), the lattice (square or triangular, detected from the
 * art), hole names, jumps, symmetries, the variant options (start vacant
 * holes, goal) and the static arguments that prove a goal out of reach:
 * hole classes, position classes and a pagoda function. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/solitaire/sol.h"

static const char *const sol_art_english =
    "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
static const char *const sol_art_french =
    "  ooo\n ooooo\nooooooo\nooo.ooo\nooooooo\n ooooo\n  ooo\n";
static const char *const sol_art_wiegleb =
    "   ooo\n   ooo\n   ooo\nooooooooo\noooo.oooo\nooooooooo\n   ooo\n   ooo\n   ooo\n";
static const char *const sol_art_triangle =
    "    .\n   o o\n  o o o\n o o o o\no o o o o\n";

static const char *sol_builtin(const char *name)
{
    if (!strcmp(name, "english")) return sol_art_english;
    if (!strcmp(name, "french")) return sol_art_french;
    if (!strcmp(name, "wiegleb")) return sol_art_wiegleb;
    if (!strcmp(name, "triangle")) return sol_art_triangle;
    return NULL;
}

static int sol_find(const solv_t *d, int a, int b)
{
    for (int i = 0; i < d->n; i++)
        if (d->la[i] == a && d->lb[i] == b) return i;
    return -1;
}

/* Read the art into holes; fills n, tri, rows, cols, view cells, lattice
 * coordinates, names and the drawn pegs (*pegs). */
static int sol_art_read(solv_t *d, const char *art, const char *what, uint64_t *pegs, err_t *err)
{
    int r = 0, x = 0, minr = 1 << 20, minx = 1 << 20, maxr = -1, maxx = -1;
    int hr[SOL_MAX_HOLES + 1], hx[SOL_MAX_HOLES + 1];
    int peg[SOL_MAX_HOLES + 1];
    int n = 0;
    for (const char *p = art; *p; p++) {
        char c = *p;
        if (c == '\n') { r++; x = 0; continue; }
        if (c == '\r') continue;
        if (c == 'o' || c == 'O' || c == '.' || c == 'x' || c == 'X') {
            if (n == SOL_MAX_HOLES)
                return err_set(err, GSW_EINPUT, "%s: more than %d holes (not supported)", what, SOL_MAX_HOLES);
            hr[n] = r;
            hx[n] = x;
            peg[n] = c != '.';
            n++;
            if (r < minr) minr = r;
            if (r > maxr) maxr = r;
            if (x < minx) minx = x;
            if (x > maxx) maxx = x;
        } else if (c != ' ' && c != '\t' && c != '-' && c != '_') {
            return err_set(err, GSW_EINPUT, "%s: line %d: unexpected character '%c' (use o for a peg, . for a hole, "
                           "space for no hole)", what, r + 1, c);
        }
        x += c == '\t' ? 8 - x % 8 : 1;
    }
    if (n == 0) return err_set(err, GSW_EINPUT, "%s: the board has no holes", what);
    d->rows = maxr - minr + 1;
    d->cols = maxx - minx + 1;
    if (d->rows > GSW_VIEW_MAX_SIDE || d->cols > GSW_VIEW_MAX_SIDE || d->rows * d->cols > GSW_VIEW_MAX_CELLS)
        return err_set(err, GSW_EINPUT, "%s: the board spans %dx%d cells (too large)", what, d->rows, d->cols);
    /* triangular when no two holes touch in a row and all share the parity of row + column */
    int tri = d->rows > 1;
    for (int i = 0; i < n && tri; i++) {
        if (((hr[i] + hx[i]) & 1) != ((hr[0] + hx[0]) & 1)) tri = 0;
        for (int j = 0; j < n && tri; j++)
            if (hr[j] == hr[i] && hx[j] == hx[i] + 1) tri = 0;
    }
    d->tri = tri;
    d->n = n;
    *pegs = 0;
    int par = (hr[0] + hx[0]) & 1;
    for (int i = 0; i < n; i++) {
        d->vr[i] = hr[i] - minr;
        d->vc[i] = hx[i] - minx;
        d->la[i] = hr[i];
        d->lb[i] = tri ? (hx[i] + hr[i] + par) / 2 : hx[i];
        if (tri) snprintf(d->name[i], sizeof d->name[i], "%d", i + 1);
        else if (d->vc[i] < 26) snprintf(d->name[i], sizeof d->name[i], "%c%d", 'a' + d->vc[i], d->vr[i] + 1);
        else return err_set(err, GSW_EINPUT, "%s: more than 26 columns", what);
        if (peg[i]) *pegs |= 1ull << i;
    }
    return GSW_OK;
}

static const int sol_dir_sq[4][2] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };
static const int sol_dir_tri[6][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, -1 }, { -1, 0 }, { -1, -1 } };

static int sol_connect(solv_t *d, const char *what, err_t *err)
{
    int nd = d->tri ? 6 : 4;
    const int(*dir)[2] = d->tri ? sol_dir_tri : sol_dir_sq;
    d->nj = 0;
    for (int i = 0; i < d->n; i++)
        for (int k = 0; k < nd; k++) {
            int o = sol_find(d, d->la[i] + dir[k][0], d->lb[i] + dir[k][1]);
            int t = sol_find(d, d->la[i] + 2 * dir[k][0], d->lb[i] + 2 * dir[k][1]);
            if (o < 0 || t < 0) continue;
            d->jf[d->nj] = (uint8_t)i;
            d->jo[d->nj] = (uint8_t)o;
            d->jt[d->nj] = (uint8_t)t;
            d->nj++;
        }
    d->ng = 0;
    for (int j = 0; j < d->nj; j++) {
        int a = d->jo[j] - d->jf[j], b = d->jt[j] - d->jf[j], g = 0;
        while (g < d->ng && (d->gdo[g] != a || d->gdt[g] != b)) g++;
        if (g == d->ng) { d->gdo[g] = a; d->gdt[g] = b; d->gmask[g] = 0; d->ng++; }
        d->gmask[g] |= 1ull << d->jf[j];
    }
    /* connected through neighbouring holes */
    uint64_t seen = 1, frontier = 1;
    while (frontier) {
        int i = __builtin_ctzll(frontier);
        frontier &= frontier - 1;
        for (int k = 0; k < nd; k++) {
            int o = sol_find(d, d->la[i] + dir[k][0], d->lb[i] + dir[k][1]);
            if (o >= 0 && !(seen >> o & 1)) { seen |= 1ull << o; frontier |= 1ull << o; }
        }
    }
    d->all = d->n == 64 ? ~0ull : (1ull << d->n) - 1;
    if (seen != d->all) {
        int lost = __builtin_ctzll(d->all & ~seen);
        return err_set(err, GSW_EINPUT, "%s: the board is disconnected (hole %s is not connected to hole %s)", what,
                       d->name[lost], d->name[0]);
    }
    return GSW_OK;
}

/* The lattice's symmetries that map the board onto itself. */
static void sol_symmetries(solv_t *d)
{
    int mats[SOL_MAX_SYM][4], nm = 0;
    if (d->tri) {
        int m[4] = { 1, 0, 0, 1 };   /* rotation R: (a,b) -> (a-b, a); reflection F: (a,b) -> (b,a) */
        for (int k = 0; k < 6; k++) {
            memcpy(mats[nm++], m, sizeof m);
            int f[4] = { m[2], m[3], m[0], m[1] };
            memcpy(mats[nm++], f, sizeof f);
            int r[4] = { m[0] - m[2], m[1] - m[3], m[0], m[1] };
            memcpy(m, r, sizeof m);
        }
    } else {
        static const int sq[8][4] = { { 1, 0, 0, 1 }, { -1, 0, 0, 1 }, { 1, 0, 0, -1 }, { -1, 0, 0, -1 },
                                      { 0, 1, 1, 0 }, { 0, -1, 1, 0 }, { 0, 1, -1, 0 }, { 0, -1, -1, 0 } };
        memcpy(mats, sq, sizeof sq);
        nm = 8;
    }
    int amin = 0, bmin = 0;   /* the original's least hole (lexicographic) */
    for (int i = 0; i < d->n; i++)
        if (i == 0 || d->la[i] < amin || (d->la[i] == amin && d->lb[i] < bmin)) { amin = d->la[i]; bmin = d->lb[i]; }
    d->nsym_all = 0;
    for (int s = 0; s < nm; s++) {
        int *m = mats[s], ia[SOL_MAX_HOLES], ib[SOL_MAX_HOLES], a0 = 0, b0 = 0;
        for (int i = 0; i < d->n; i++) {
            ia[i] = m[0] * d->la[i] + m[1] * d->lb[i];
            ib[i] = m[2] * d->la[i] + m[3] * d->lb[i];
            if (i == 0 || ia[i] < a0 || (ia[i] == a0 && ib[i] < b0)) { a0 = ia[i]; b0 = ib[i]; }
        }
        uint8_t perm[SOL_MAX_HOLES];
        int ok = 1;
        for (int i = 0; i < d->n && ok; i++) {
            int h = sol_find(d, ia[i] - a0 + amin, ib[i] - b0 + bmin);
            if (h < 0) ok = 0;
            else perm[i] = (uint8_t)h;
        }
        for (int t = 0; t < d->nsym_all && ok; t++)
            if (!memcmp(d->perm[t], perm, (size_t)d->n)) ok = 0;
        if (ok) memcpy(d->perm[d->nsym_all++], perm, (size_t)d->n);
    }
}

/* Order the symmetries: preserving start and goal, then goal only, then the rest. */
static void sol_order_syms(solv_t *d)
{
    uint8_t tmp[SOL_MAX_SYM][SOL_MAX_HOLES];
    int rank[SOL_MAX_SYM], k = 0;
    for (int s = 0; s < d->nsym_all; s++) {
        uint64_t img = 0;
        for (int i = 0; i < d->n; i++)
            if (d->start >> i & 1) img |= 1ull << d->perm[s][i];
        int goal_ok = d->goal != SOL_GOAL_HOLE || d->perm[s][d->goal_hole] == d->goal_hole;
        rank[s] = !goal_ok ? 2 : img == d->start ? 0 : 1;
    }
    d->nsym = d->nsym_start = 0;
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < d->nsym_all; s++)
            if (rank[s] == r) {
                memcpy(tmp[k++], d->perm[s], SOL_MAX_HOLES);
                if (r == 0) d->nsym_start++;
                if (r <= 1) d->nsym++;
            }
    memcpy(d->perm, tmp, sizeof tmp);
    for (int s = 0; s < d->nsym_all; s++) {
        for (int i = 0; i < d->n; i++) d->inv[s][d->perm[s][i]] = (uint8_t)i;
        for (int b = 0; b < 8; b++)
            for (int v = 0; v < 256; v++) {
                uint64_t img = 0;
                for (int i = 0; i < 8; i++)
                    if (v >> i & 1 && b * 8 + i < d->n) img |= 1ull << d->perm[s][b * 8 + i];
                d->symtab[s][b][v] = img;
            }
    }
}

int sol_class(const solv_t *d, uint64_t p)
{
    int c = 0;
    for (int k = 0; k < d->ncol3; k++) {
        int n0 = __builtin_popcountll(p & d->col3[k][0]), n1 = __builtin_popcountll(p & d->col3[k][1]),
            n2 = __builtin_popcountll(p & d->col3[k][2]);
        c |= (((n0 + n1) & 1) | ((n1 + n2) & 1) << 1) << (2 * k);
    }
    return c;
}

/* Hole classes, colourings, the pagoda toward the goal. */
static void sol_invariants(solv_t *d)
{
    memset(d->hclass, 0, sizeof d->hclass);
    for (int i = 0; i < d->n; i++) d->hclass[(d->la[i] & 1) * 2 + (d->lb[i] & 1)] |= 1ull << i;
    static const int sq[2][2] = { { 1, 1 }, { 1, 2 } }, tr[1][2] = { { 1, 1 } };
    d->ncol3 = d->tri ? 1 : 2;
    memset(d->col3, 0, sizeof d->col3);
    for (int k = 0; k < d->ncol3; k++)
        for (int i = 0; i < d->n; i++) {
            const int *c = d->tri ? tr[k] : sq[k];
            int col = ((c[0] * d->la[i] + c[1] * d->lb[i]) % 3 + 3) % 3;
            d->col3[k][col] |= 1ull << i;
        }
    d->goal_class = -1;
    d->single_class_ok = 0;
    for (int i = 0; i < d->n; i++) d->single_class_ok |= (uint16_t)(1u << sol_class(d, 1ull << i));
    if (d->goal == SOL_GOAL_HOLE) d->goal_class = sol_class(d, 1ull << d->goal_hole);
    int sa = 0, sb = 0;
    for (int k = 0; k < d->n; k++) { sa += d->la[k]; sb += d->lb[k]; }
    for (int i = 0; i < d->n; i++) {
        int da = abs(2 * d->la[i] * d->n - 2 * sa) / d->n, db = abs(2 * d->lb[i] * d->n - 2 * sb) / d->n;
        d->dcen[i] = d->tri ? (da > db ? da : db) : da + db;
    }
    /* weights r^distance toward the goal hole, r = 0.62 > (sqrt 5 - 1) / 2 */
    for (int i = 0; i < d->n; i++) {
        int da = d->la[i] - (d->goal == SOL_GOAL_HOLE ? d->la[d->goal_hole] : 0);
        int db = d->lb[i] - (d->goal == SOL_GOAL_HOLE ? d->lb[d->goal_hole] : 0);
        int dist = d->tri ? ((da * db > 0) ? (abs(da) > abs(db) ? abs(da) : abs(db)) : abs(da) + abs(db))
                          : abs(da) + abs(db);
        d->pag[i] = (int64_t)(pow(0.62, dist) * (double)(1ll << 40));
    }
    d->pagoda = d->goal == SOL_GOAL_HOLE;
    for (int j = 0; j < d->nj; j++)
        if (d->pag[d->jf[j]] + d->pag[d->jo[j]] < d->pag[d->jt[j]]) d->pagoda = 0;
}

int sol_goal_met(const solv_t *d, uint64_t p)
{
    switch (d->goal) {
    case SOL_GOAL_HOLE: return p == 1ull << d->goal_hole;
    case SOL_GOAL_ANY: return p && !(p & (p - 1));
    default: return __builtin_popcountll(p) <= d->goal_left;
    }
}

int sol_prune(const solv_t *d, uint64_t p, char *reason, size_t n)
{
    if (d->goal == SOL_GOAL_LEFT) return 0;
    if (!p) {
        if (reason) snprintf(reason, n, "no pegs on the board");
        return 1;
    }
    int c = sol_class(d, p);
    if (d->goal == SOL_GOAL_ANY) {
        if (!(d->single_class_ok >> c & 1)) {
            if (reason) snprintf(reason, n, "position class: no single peg anywhere has this position's class "
                                             "(peg-count parities of the three-colourings never change)");
            return 1;
        }
        return 0;
    }
    int g = d->goal_hole;
    if (c != d->goal_class) {
        if (reason) snprintf(reason, n, "position class: a single peg on %s is in another class "
                                         "(peg-count parities of the three-colourings never change)", d->name[g]);
        return 1;
    }
    for (int k = 0; k < 4; k++)
        if (d->hclass[k] >> g & 1 && !(p & d->hclass[k])) {
            if (reason) snprintf(reason, n, "hole classes: no peg is left in %s's class (pegs never leave their class)",
                                 d->name[g]);
            return 1;
        }
    if (!d->pagoda) return 0;
    int64_t w = 0;
    for (uint64_t q = p; q; q &= q - 1) w += d->pag[__builtin_ctzll(q)];
    if (w < d->pag[g]) {
        if (reason) snprintf(reason, n, "pagoda: the pegs weigh %.3f < 1 toward %s (weight 0.62^distance never grows)",
                             (double)w / (double)d->pag[g], d->name[g]);
        return 1;
    }
    return 0;
}

int sol_hole_parse(const solv_t *d, const char *s, size_t len)
{
    for (int i = 0; i < d->n; i++)
        if (strlen(d->name[i]) == len && !strncmp(d->name[i], s, len)) return i;
    return -1;
}

/* "d4+c3" into a set of holes. */
static int sol_holes_parse(const solv_t *d, const char *s, const char *opt, uint64_t *set, err_t *err)
{
    *set = 0;
    while (*s) {
        size_t len = strcspn(s, "+ ");
        int h = sol_hole_parse(d, s, len);
        if (h < 0)
            return err_set(err, GSW_EINPUT, "%s: unknown hole \"%.*s\" (holes are named like %s)", opt, (int)len, s,
                           d->name[d->n / 2]);
        *set |= 1ull << h;
        s += len;
        if (*s) s++;
    }
    return GSW_OK;
}

static char *sol_read_file(const char *path, err_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f) { err_set(err, GSW_EINPUT, "cannot open board file %s", path); return NULL; }
    char *buf = malloc(65536);
    size_t n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    if (!buf) { err_set(err, GSW_EFAIL, "out of memory"); return NULL; }
    buf[n] = 0;
    return buf;
}

/* spec: [BOARD][,start=HOLES][,goal=HOLE|any][,left=K][,board=FILE] */
int sol_board_open(const char *spec, solv_t **out, err_t *err)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec && *spec ? spec : "english");
    solv_t *d = calloc(1, sizeof *d);
    if (!d) return err_set(err, GSW_EFAIL, "out of memory");
    char *opts[16];
    int nopt = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t && nopt < 16; t = strtok_r(NULL, ",", &save)) opts[nopt++] = t;
    const char *board = "english", *file = NULL, *start = NULL, *goal = NULL, *left = NULL;
    for (int i = 0; i < nopt; i++) {
        char *eq = strchr(opts[i], '=');
        if (!eq) {
            if (i) { free(d); return err_set(err, GSW_EINPUT, "solitaire variant: \"%s\" is not OPTION=VALUE", opts[i]); }
            board = opts[i];
            continue;
        }
        *eq = 0;
        if (!strcmp(opts[i], "start")) start = eq + 1;
        else if (!strcmp(opts[i], "goal")) goal = eq + 1;
        else if (!strcmp(opts[i], "left")) left = eq + 1;
        else if (!strcmp(opts[i], "board")) file = eq + 1;
        else {
            *eq = '=';
            free(d);
            return err_set(err, GSW_EINPUT, "solitaire variant: unknown option \"%s\" (start=, goal=, left=, board=)",
                           opts[i]);
        }
    }
    const char *art = file ? NULL : sol_builtin(board);
    char *owned = NULL;
    if (file) {
        if (!(owned = sol_read_file(file, err))) { free(d); return err->code; }
        art = owned;
    } else if (!art) {
        free(d);
        return err_set(err, GSW_EINPUT, "unknown solitaire board \"%s\" (english, french, wiegleb, triangle, "
                       "or --board FILE)", board);
    }
    uint64_t pegs = 0;
    const char *what = file ? file : board;
    int rc = sol_art_read(d, art, what, &pegs, err);
    free(owned);
    if (!rc) rc = sol_connect(d, what, err);
    if (rc) { free(d); return rc; }
    sol_symmetries(d);
    /* the centre: a hole every symmetry fixes */
    int centre = -1;
    for (int i = 0; i < d->n && centre < 0; i++) {
        int fixed = 1;
        for (int s = 0; s < d->nsym_all; s++) fixed &= d->perm[s][i] == i;
        if (fixed) centre = i;
    }
    d->start = pegs;
    if (start && (rc = sol_holes_parse(d, start, "start", &d->start, err))) { free(d); return rc; }
    if (start) d->start = d->all & ~d->start;
    if (!d->start) { free(d); return err_set(err, GSW_EINPUT, "%s: the start has no pegs", what); }
    d->goal = centre >= 0 ? SOL_GOAL_HOLE : SOL_GOAL_ANY;
    d->goal_hole = centre >= 0 ? centre : 0;
    if (goal && !strcmp(goal, "any")) d->goal = SOL_GOAL_ANY;
    else if (goal) {
        int h = sol_hole_parse(d, goal, strlen(goal));
        if (h < 0) {
            err_set(err, GSW_EINPUT, "goal: unknown hole \"%s\" (a hole name such as %s, or any)", goal,
                    d->name[centre >= 0 ? centre : 0]);
            free(d);
            return GSW_EINPUT;
        }
        d->goal = SOL_GOAL_HOLE;
        d->goal_hole = h;
    }
    if (left) {
        char *end;
        long k = strtol(left, &end, 10);
        if (!*left || *end || k < 1 || k > d->n) {
            err_set(err, GSW_EINPUT, "left: bad peg count \"%s\" (1-%d)", left, d->n);
            free(d);
            return GSW_EINPUT;
        }
        d->goal = SOL_GOAL_LEFT;
        d->goal_left = (int)k;
    }
    d->start_pegs = __builtin_popcountll(d->start);
    sol_order_syms(d);
    sol_invariants(d);
    *out = d;
    return GSW_OK;
}
