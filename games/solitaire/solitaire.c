/* The peg solitaire plugin: positions as text (holes row by row, "/"
 * between rows, or a list of vacant holes), jumps ("d2-d4"; chains
 * "d2-d4-f4"), symmetry-folded keys, the board view with hole classes as
 * tags, and the puzzle hooks the core's single-agent search calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/puzzle.h"
#include "games/solitaire/sol.h"

static void sol_start(const gv_t *v, void *pos)
{
    *(uint64_t *)pos = sol_data(v)->start;
}

static int sol_parse(const gv_t *v, const char *text, void *pos, err_t *err)
{
    const solv_t *d = sol_data(v);
    int rows = strspn(text, "o.xX/") == strlen(text);
    uint64_t p = 0;
    if (rows) {   /* holes row by row */
        int i = 0, row = 0;
        for (const char *c = text; *c; c++) {
            if (*c == '/') {
                if (i < d->n && d->vr[i] == row)
                    return err_set(err, GSW_EINPUT, "position \"%s\": row %d has too few holes", text, row + 1);
                row++;
                continue;
            }
            if (i >= d->n || d->vr[i] != row)
                return err_set(err, GSW_EINPUT, "position \"%s\": row %d has too many holes", text, row + 1);
            if (*c != '.') p |= 1ull << i;
            i++;
        }
        if (i != d->n)
            return err_set(err, GSW_EINPUT, "position \"%s\": %d holes given, the board has %d", text, i, d->n);
    } else {   /* vacant holes on a full board */
        p = d->all;
        const char *s = text;
        while (*s) {
            size_t len = strcspn(s, "+, ");
            int h = sol_hole_parse(d, s, len);
            if (h < 0)
                return err_set(err, GSW_EINPUT, "position \"%s\": unknown hole \"%.*s\" (expected rows of o and ., "
                               "or vacant holes such as %s)", text, (int)len, s, d->name[d->n / 2]);
            p &= ~(1ull << h);
            s += len;
            if (*s) s++;
        }
    }
    if (!p) return err_set(err, GSW_EINPUT, "position \"%s\": no pegs", text);
    *(uint64_t *)pos = p;
    return GSW_OK;
}

static void sol_format(const gv_t *v, const void *pos, char *buf, size_t n)
{
    const solv_t *d = sol_data(v);
    uint64_t p = sol_pos(pos);
    size_t k = 0;
    for (int i = 0; i < d->n && k + 2 < n; i++) {
        if (i && d->vr[i] != d->vr[i - 1]) buf[k++] = '/';
        buf[k++] = p >> i & 1 ? 'o' : '.';
    }
    buf[k] = 0;
}

static size_t sol_key(const gv_t *v, const void *pos, uint8_t *key, int *sym)
{
    const solv_t *d = sol_data(v);
    uint64_t c = sol_canon(d, d->nsym, sol_pos(pos), sym);
    for (int i = 0; i < 8; i++) key[i] = (uint8_t)(c >> (8 * i));
    return 8;
}

static int sol_from_key(const gv_t *v, const uint8_t *key, size_t klen, void *pos)
{
    const solv_t *d = sol_data(v);
    if (klen != 8) return 0;
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) c |= (uint64_t)key[i] << (8 * i);
    if (c & ~d->all) return 0;   /* a peg off the board */
    int sym;
    if (sol_canon(d, d->nsym, c, &sym) != c) return 0;   /* not the canonical image */
    *(uint64_t *)pos = c;
    return 1;
}

static uint64_t sol_hash(const gv_t *v, const void *pos)
{
    (void)v;
    uint64_t x = sol_pos(pos) + 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t sol_tt_key(const gv_t *v, const void *pos, int *sym)
{
    const solv_t *d = sol_data(v);
    if (!*sym) return sol_pos(pos);
    return sol_canon(d, d->nsym, sol_pos(pos), sym);
}

static int sol_ply(const gv_t *v, const void *pos)
{
    int k = sol_data(v)->start_pegs - __builtin_popcountll(sol_pos(pos));
    return k > 0 ? k : 0;
}

static int sol_turn(const gv_t *v, const void *pos)
{
    (void)v;
    (void)pos;
    return 0;
}

static int sol_moves(const gv_t *v, const void *pos, move_t *out)
{
    return sol_gen(sol_data(v), sol_pos(pos), out);
}

static void sol_play(const gv_t *v, void *pos, move_t m)
{
    (void)v;
    *(uint64_t *)pos = sol_apply(*(uint64_t *)pos, m);
}

static int sol_move_parse(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err)
{
    const solv_t *d = sol_data(v);
    size_t a = strcspn(text, "-x");
    int f = sol_hole_parse(d, text, a);
    int t = text[a] ? sol_hole_parse(d, text + a + 1, strlen(text + a + 1)) : -1;
    if (f < 0 || t < 0)
        return err_set(err, GSW_EINPUT, "move \"%s\": expected FROM-TO with hole names (e.g. %s-%s)", text,
                       d->name[d->jf[0]], d->name[d->jt[0]]);
    move_t mv[GSW_MAX_MOVES];
    int n = sol_gen(d, sol_pos(pos), mv);
    for (int i = 0; i < n; i++)
        if (sol_mf(mv[i]) == f && sol_mt(mv[i]) == t) { *m = mv[i]; return GSW_OK; }
    return err_set(err, GSW_EINPUT, "move \"%s\" is not a legal jump here", text);
}

static void sol_move_format(const gv_t *v, const void *pos, move_t m, char *buf, size_t n)
{
    (void)pos;
    const solv_t *d = sol_data(v);
    snprintf(buf, n, "%s-%s", d->name[sol_mf(m)], d->name[sol_mt(m)]);
}

static int sol_nsym(const gv_t *v) { return sol_data(v)->nsym; }

static void sol_chain_format(const gv_t *v, const void *pos, const move_t *mv, int n, char *buf, size_t len)
{
    (void)pos;
    const solv_t *d = sol_data(v);
    size_t k = (size_t)snprintf(buf, len, "%s", d->name[sol_mf(mv[0])]);
    for (int i = 0; i < n && k < len; i++) k += (size_t)snprintf(buf + k, len - k, "-%s", d->name[sol_mt(mv[i])]);
}

static int sol_continues(const gv_t *v, move_t a, move_t b)
{
    (void)v;
    return sol_mt(a) == sol_mf(b);
}

static int sol_terminal(const gv_t *v, const void *pos, val_t *value)
{
    const solv_t *d = sol_data(v);
    move_t mv[GSW_MAX_MOVES];
    if (sol_gen(d, sol_pos(pos), mv)) return 0;
    *value = sol_goal_met(d, sol_pos(pos)) ? val_win(0) : val_loss(0);
    return 1;
}

static int32_t sol_evaluate(const gv_t *v, const void *pos)
{
    (void)v;
    return -100 * __builtin_popcountll(sol_pos(pos));
}

static move_t sol_move_sym(const gv_t *v, move_t m, int sym, int inverse)
{
    const solv_t *d = sol_data(v);
    const uint8_t *p = inverse ? d->inv[sym] : d->perm[sym];
    return sol_move(p[sol_mf(m)], p[sol_mo(m)], p[sol_mt(m)]);
}

static int sol_symmetric(const gv_t *v, const void *pos)
{
    const solv_t *d = sol_data(v);
    for (int s = 1; s < d->nsym; s++)
        if (sol_map(d, s, sol_pos(pos)) == sol_pos(pos)) return 1;
    return 0;
}

static void sol_view(const gv_t *v, const void *pos, board_view_t *out)
{
    const solv_t *d = sol_data(v);
    uint64_t p = sol_pos(pos);
    memset(out, 0, sizeof *out);
    out->rows = d->rows;
    out->cols = d->cols;
    snprintf(out->side[0], sizeof out->side[0], "Player");
    snprintf(out->tag_name, sizeof out->tag_name, "piece classes");
    if (!d->tri) {
        for (int c = 0; c < d->cols; c++) snprintf(out->col_label[c], sizeof out->col_label[c], "%c", 'a' + c);
        for (int r = 0; r < d->rows && r < 99; r++) snprintf(out->row_label[r], sizeof out->row_label[r], "%d", (r + 1) % 100);
    }
    for (int i = 0; i < d->n; i++) {
        view_cell_t *c = &out->cell[d->vr[i] * d->cols + d->vc[i]];
        int peg = p >> i & 1;
        c->kind = peg ? VIEW_PIECE : VIEW_EMPTY;
        c->owner = 2;
        c->ascii = peg ? 'o' : '.';
        snprintf(c->glyph, sizeof c->glyph, "%s", peg ? "●" : "·");
        c->tag = (uint8_t)(1 + (d->la[i] & 1) * 2 + (d->lb[i] & 1));
    }
}

static void sol_move_cells(const gv_t *v, const void *pos, move_t m, int *from, int *to)
{
    (void)pos;
    const solv_t *d = sol_data(v);
    *from = d->vr[sol_mf(m)] * d->cols + d->vc[sol_mf(m)];
    *to = d->vr[sol_mt(m)] * d->cols + d->vc[sol_mt(m)];
}

static int sol_goal(const gv_t *v, const void *pos)
{
    return sol_goal_met(sol_data(v), sol_pos(pos));
}

static void sol_goal_text(const gv_t *v, char *buf, size_t n)
{
    const solv_t *d = sol_data(v);
    if (d->goal == SOL_GOAL_HOLE) snprintf(buf, n, "one peg on %s", d->name[d->goal_hole]);
    else if (d->goal == SOL_GOAL_ANY) snprintf(buf, n, "one peg");
    else snprintf(buf, n, "at most %d peg%s", d->goal_left, d->goal_left == 1 ? "" : "s");
}

static int sol_prune_hook(const gv_t *v, const void *pos, char *reason, size_t n)
{
    return sol_prune(sol_data(v), sol_pos(pos), reason, n) || sol_endgame_prune(sol_data(v), sol_pos(pos), reason, n);
}

static void sol_prepare(const gv_t *v)
{
    sol_endgame_prepare(sol_data(v));
}

const game_ops_t sol_ops_template = {
    .pos_size = sizeof(uint64_t),
    .pos_start = sol_start,
    .pos_parse = sol_parse,
    .pos_format = sol_format,
    .pos_key = sol_key,
    .pos_from_key = sol_from_key,
    .pos_hash = sol_hash,
    .pos_ply = sol_ply,
    .pos_turn = sol_turn,
    .moves = sol_moves,
    .play = sol_play,
    .undo = sol_play,   /* a jump is its own inverse on the bits */
    .move_parse = sol_move_parse,
    .move_format = sol_move_format,
    .terminal = sol_terminal,
    .evaluate = sol_evaluate,
    .tt_key = sol_tt_key,
    .pos_symmetric = sol_symmetric,
    .nsym_of = sol_nsym,   /* those keeping the goal: they differ by variant */
    .move_sym = sol_move_sym,
    .view = sol_view,
    .move_cells = sol_move_cells,
    .puzzle_goal = sol_goal,
    .puzzle_goal_text = sol_goal_text,
    .puzzle_prune = sol_prune_hook,
    .puzzle_prepare = sol_prepare,
    .puzzle_order = sol_order,
    .puzzle_orders = 4,
    .puzzle_sweep = sol_sweep,
    .puzzle_players = sol_player_names,
    .puzzle_play = sol_play_heuristic,
    .chain_format = sol_chain_format,
    .move_continues = sol_continues,
    .move_kind = GAME_MOVE_FROM_TO,   /* a peg's jump: from one hole over a peg into another */
};

static int sol_variant_open(const char *spec, gv_t **out, err_t *err)
{
    solv_t *d;
    int rc = sol_board_open(spec, &d, err);
    if (rc) return rc;
    struct sol_variant { gv_t v; } *both = calloc(1, sizeof *both);
    if (!both) { free(d); return err_set(err, GSW_EFAIL, "out of memory"); }
    d->ops = sol_ops_template;
    pthread_mutex_init(&d->endgame_lock, NULL);
    gv_t *v = &both->v;
    v->game = &solitaire_game;
    v->ops = &d->ops;
    snprintf(v->name, sizeof v->name, "%s", spec && *spec ? spec : "english");
    v->data = d;
    *out = v;
    return GSW_OK;
}

static void sol_variant_close(gv_t *v)
{
    if (!v) return;
    solv_t *d = (solv_t *)v->data;
    sol_endgame_free(d);
    pthread_mutex_destroy(&d->endgame_lock);
    free(d);
    free(v);
}

static const char *const sol_test_variants[] = {
    "english", "french", "wiegleb", "triangle,start=5+8+9", "english,start=c4,goal=c4", "triangle,goal=any,start=5+8+9",
    "english,left=3", NULL,
};

const game_t solitaire_game = {
    .name = "solitaire",
    .title = "Peg solitaire",
    .summary = "Jump pegs over pegs into holes, removing the jumped peg; finish with one peg.",
    .players = 1,
    .default_variant = "english",
    .variants_help = "english, french, wiegleb, triangle; options ,start=HOLES (vacant, a+b) ,goal=HOLE|any ,left=K "
                     ",board=FILE (text art)",
    .test_variants = sol_test_variants,
    .variant_open = sol_variant_open,
    .variant_close = sol_variant_close,
};
