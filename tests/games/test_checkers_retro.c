/* Checkers endgame-database indexing (games/checkers/ck_retro.c): slice sizes
 * against Table 1 of the checkers proof and per material, slice names, index
 * round trips (all up to 3 pieces, random ones to 10), the colour flip,
 * children against ck_moves, parents as their inverse, slice_succ. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/retro.h"
#include "games/checkers/ck.h"
#include "tests/test_rng.h"

static gv_t *open_ck(const retro_game_t **rg)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("checkers", &v, &err), GSW_OK);
    assert_non_null(v->ops->retro);
    *rg = v->ops->retro;
    return v;
}

/* The slices of n pieces (heap). */
static uint64_t *list_slices(const gv_t *v, const retro_game_t *rg, int n, int *count)
{
    int c = rg->slices(v, n, NULL, 0);
    assert_true(c > 0);
    uint64_t *s = malloc((size_t)c * sizeof *s);
    assert_non_null(s);
    assert_int_equal(rg->slices(v, n, s, c), c);
    *count = c;
    return s;
}

static uint32_t rev32(uint32_t x)
{
    uint32_t r = 0;
    for (int b = 0; b < 32; b++)
        if (x >> b & 1) r |= 1u << (31 - b);
    return r;
}

/* The colour-reversed image, as the test sees it. */
static ck_pos_t flip(const ck_pos_t *p)
{
    ck_pos_t q = *p;
    q.p[0] = rev32(p->p[1]);
    q.p[1] = rev32(p->p[0]);
    q.k = rev32(p->k);
    q.side = (uint8_t)!p->side;
    return q;
}

static void name_of(const gv_t *v, const retro_game_t *rg, uint64_t s, char *buf, size_t n)
{
    rg->slice_name(v, s, buf, n);
}

static void fen_of(const ck_pos_t *p, char *buf, size_t n) { ck_format_fen(p, buf, n); }

/* The position agrees with its slice: no square twice, men off their
 * crowning rows, the counts and the leading men's rows. */
static void check_valid(const gv_t *v, const retro_game_t *rg, uint64_t s, const ck_pos_t *p)
{
    char name[64], fen[160];
    name_of(v, rg, s, name, sizeof name);
    fen_of(p, fen, sizeof fen);
    int cnt[RETRO_MAX_COUNTS];
    assert_int_equal(rg->slice_material(v, s, cnt), 4);
    uint32_t bm = p->p[0] & ~p->k, wm = p->p[1] & ~p->k;
    int ok = !(p->p[0] & p->p[1]) && !(p->k & ~(p->p[0] | p->p[1])) && !(bm & CK_BLACK_CROWN)
          && !(wm & CK_WHITE_CROWN) && p->side == 0 && __builtin_popcount(p->p[0] & p->k) == cnt[0]
          && __builtin_popcount(bm) == cnt[1] && __builtin_popcount(p->p[1] & p->k) == cnt[2]
          && __builtin_popcount(wm) == cnt[3];
    if (ok && bm) {
        char want[8];
        snprintf(want, sizeof want, ".b%d", (31 - __builtin_clz(bm)) / 4);
        ok = strstr(name, want) != NULL;
    }
    if (ok && wm) {
        char want[8];
        snprintf(want, sizeof want, "w%d", 7 - __builtin_ctz(wm) / 4);
        ok = strstr(name, want) != NULL;
    }
    if (!ok) fail_msg("slice %s: position %s does not fit", name, fen);
}

static void round_trip(const gv_t *v, const retro_game_t *rg, uint64_t s, uint64_t i, ck_pos_t *p)
{
    rg->position(v, s, i, p);
    check_valid(v, rg, s, p);
    uint64_t s2, i2;
    int fl = -1;
    assert_int_equal(rg->locate(v, p, &s2, &i2, &fl), 1);
    if (s2 != s || i2 != i || fl != 0) {
        char a[64], b[64], fen[160];
        name_of(v, rg, s, a, sizeof a);
        name_of(v, rg, s2, b, sizeof b);
        fen_of(p, fen, sizeof fen);
        fail_msg("%s #%llu is %s, located as %s #%llu (flipped %d)", a, (unsigned long long)i, fen, b,
                 (unsigned long long)i2, fl);
    }
}

/* A random indexed position of n pieces. */
static void random_pos(const gv_t *v, const retro_game_t *rg, const uint64_t *sl, int ns, uint64_t *seed,
                       uint64_t *s, uint64_t *i, ck_pos_t *p)
{
    *s = sl[test_splitmix(seed) % (uint64_t)ns];
    *i = test_splitmix(seed) % rg->slice_size(v, *s);
    rg->position(v, *s, *i, p);
}

/* ---- sizes ---- */

static void test_table1(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    static const uint64_t table1[11] = { 0, 120ull, 6972ull, 261224ull, 7092774ull, 148688232ull,
                                         2503611964ull, 34779531480ull, 406309208481ull, 4048627642976ull,
                                         34778882769216ull };
    assert_int_equal(rg->max_pieces, 10);
    for (int n = 1; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns), sum = 0;
        for (int j = 0; j < ns; j++) {
            uint64_t z = rg->slice_size(v, sl[j]);
            assert_true(z > 0);
            assert_int_equal(rg->slice_pieces(v, sl[j]), n);
            sum += z;
        }
        if (sum != table1[n])
            fail_msg("%d pieces: %llu positions, Table 1 says %llu", n, (unsigned long long)sum,
                     (unsigned long long)table1[n]);
        free(sl);
    }
    assert_int_equal(rg->slices(v, 0, NULL, 0), 0);
    assert_int_equal(rg->slices(v, 11, NULL, 0), 0);
    game_close(v);
}

static uint64_t material_total(const gv_t *v, const retro_game_t *rg, int bk, int bm, int wk, int wm)
{
    int ns;
    uint64_t *sl = list_slices(v, rg, bk + bm + wk + wm, &ns), sum = 0;
    for (int j = 0; j < ns; j++) {
        int c[RETRO_MAX_COUNTS];
        rg->slice_material(v, sl[j], c);
        if (c[0] == bk && c[1] == bm && c[2] == wk && c[3] == wm) sum += rg->slice_size(v, sl[j]);
    }
    free(sl);
    return sum;
}

static void test_material(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    assert_string_equal(rg->material_names[0], "black_kings");
    assert_string_equal(rg->material_names[3], "white_men");
    assert_null(rg->material_names[4]);
    assert_int_equal(material_total(v, rg, 1, 0, 1, 0), 992);
    assert_int_equal(material_total(v, rg, 1, 0, 0, 1), 868);
    assert_int_equal(material_total(v, rg, 0, 1, 1, 0), 868);
    assert_int_equal(material_total(v, rg, 0, 1, 0, 1), 760);
    assert_int_equal(material_total(v, rg, 2, 0, 1, 0), 14880);
    assert_int_equal(material_total(v, rg, 0, 2, 0, 2), 125664);
    assert_int_equal(material_total(v, rg, 3, 0, 3, 0), 18123840);
    assert_int_equal(material_total(v, rg, 1, 2, 2, 0), 4604040);
    game_close(v);
}

/* Names read back; bad names are refused. */
static void test_names(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    for (int n = 1; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int j = 0; j < ns; j++) {
            char name[64];
            rg->slice_name(v, sl[j], name, sizeof name);
            assert_true(strlen(name) < 48);
            for (const char *c = name; *c; c++) assert_non_null(strchr("0123456789KCbwx.-", *c));
            uint64_t back = 0;
            err_t err;
            if (rg->slice_parse(v, name, &back, &err)) fail_msg("%s: %s", name, err.msg);
            assert_true(back == sl[j]);
        }
        free(sl);
    }
    static const char *const bad[] = { "", "1K0C-1K0C", "1K0C-1K0C.bxwx.", "1K0C-1K0C.b0wx", "1K1C-1K0C.bxwx",
                                       "01K0C-1K0C.bxwx", "1K0C-1K0C.b7wx", "0K5C-0K0C.b0wx", "6K0C-5K0C.bxwx",
                                       "0K0C-0K0C.bxwx", " 1K0C-1K0C.bxwx", "1K0C-1K1C.bxw8" };
    for (size_t j = 0; j < sizeof bad / sizeof *bad; j++) {
        uint64_t s;
        err_t err;
        if (rg->slice_parse(v, bad[j], &s, &err) != GSW_EINPUT) fail_msg("\"%s\" parsed", bad[j]);
    }
    uint64_t s;
    err_t err;
    assert_int_equal(rg->slice_parse(v, "0K2C-0K0C.b1wx", &s, &err), GSW_OK);
    assert_int_equal(rg->slice_size(v, s), 22);   /* C(8,2) - C(4,2): the leader on row 1 */
    game_close(v);
}

/* ---- indexing ---- */

static int cmp_key(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (int j = 0; j < 3; j++)
        if (x[j] != y[j]) return x[j] < y[j] ? -1 : 1;
    return 0;
}

/* Every index of every slice of up to 3 pieces: valid, located back, all
 * distinct within the slice. */
static void test_round_trip_small(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    uint64_t total = 0;
    for (int n = 1; n <= 3; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int j = 0; j < ns; j++) {
            uint64_t z = rg->slice_size(v, sl[j]);
            uint32_t *keys = malloc((size_t)z * 3 * sizeof *keys);
            assert_non_null(keys);
            for (uint64_t i = 0; i < z; i++) {
                ck_pos_t p;
                round_trip(v, rg, sl[j], i, &p);
                keys[3 * i] = p.p[0];
                keys[3 * i + 1] = p.p[1];
                keys[3 * i + 2] = p.k;
            }
            qsort(keys, (size_t)z, 3 * sizeof *keys, cmp_key);
            for (uint64_t i = 1; i < z; i++)
                if (!cmp_key(&keys[3 * (i - 1)], &keys[3 * i])) {
                    char name[64];
                    name_of(v, rg, sl[j], name, sizeof name);
                    fail_msg("slice %s holds a position twice", name);
                }
            free(keys);
            total += z;
        }
        free(sl);
    }
    assert_int_equal(total, 120 + 6972 + 261224);
    game_close(v);
}

static void test_round_trip_random(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    uint64_t seed = 4;
    for (int n = 4; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int t = 0; t < 3000; t++) {
            uint64_t s = sl[test_splitmix(&seed) % (uint64_t)ns], z = rg->slice_size(v, s);
            /* the ends of the slice too */
            uint64_t i = t == 0 ? 0 : t == 1 ? z - 1 : test_splitmix(&seed) % z;
            ck_pos_t p;
            round_trip(v, rg, s, i, &p);
        }
        free(sl);
    }
    /* more pieces than the indexing covers, none at all, a man on its
     * crowning row: no slice */
    ck_pos_t p;
    err_t err;
    uint64_t s, i;
    int fl;
    assert_int_equal(ck_parse_fen("B:W21,22,23,24,25,26:B1,2,3,4,5", &p, &err), GSW_OK);
    assert_int_equal(rg->locate(v, &p, &s, &i, &fl), 0);
    memset(&p, 0, sizeof p);
    assert_int_equal(rg->locate(v, &p, &s, &i, &fl), 0);
    p.p[0] = 1u << 30;
    assert_int_equal(rg->locate(v, &p, &s, &i, &fl), 0);
    game_close(v);
}

/* A White-to-move position is located as its reversed image, the one
 * the mirror hook makes. */
static void test_flip(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    uint64_t seed = 5;
    for (int n = 1; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int t = 0; t < 500; t++) {
            uint64_t s, i, s2, i2;
            ck_pos_t p;
            random_pos(v, rg, sl, ns, &seed, &s, &i, &p);
            ck_pos_t w = flip(&p), m = p;
            assert_int_equal(w.side, 1);
            rg->mirror(v, &m);
            assert_true(m.p[0] == w.p[0] && m.p[1] == w.p[1] && m.k == w.k && m.side == 1);
            int fl = 0;
            assert_int_equal(rg->locate(v, &w, &s2, &i2, &fl), 1);
            assert_int_equal(fl, 1);
            assert_true(s2 == s && i2 == i);
        }
        free(sl);
    }
    /* one by hand: White's man on 21, Black's king on 1, White to move is
     * Black's man on 12 against White's king on 32, Black to move */
    ck_pos_t p, q;
    err_t err;
    assert_int_equal(ck_parse_fen("W:W21:BK1", &p, &err), GSW_OK);
    assert_int_equal(ck_parse_fen("B:WK32:B12", &q, &err), GSW_OK);
    uint64_t s1, i1, s2, i2;
    int f1, f2;
    assert_int_equal(rg->locate(v, &p, &s1, &i1, &f1), 1);
    assert_int_equal(rg->locate(v, &q, &s2, &i2, &f2), 1);
    assert_int_equal(f1, 1);
    assert_int_equal(f2, 0);
    assert_true(s1 == s2 && i1 == i2);
    char name[64];
    rg->slice_name(v, s1, name, sizeof name);
    assert_string_equal(name, "0K1C-1K0C.b2wx");
    game_close(v);
}

/* ---- moves ---- */

/* The children are ck_moves' moves, each played, reversed and located. */
static void test_children(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    uint64_t seed = 6;
    int terminals = 0, captures = 0;
    for (int n = 1; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int t = 0; t < 400; t++) {
            uint64_t s, i;
            ck_pos_t p;
            random_pos(v, rg, sl, ns, &seed, &s, &i, &p);
            move_t mv[GSW_MAX_MOVES];
            int nm = ck_moves(&p, mv);
            retro_move_t ch[RETRO_MAX_MOVES];
            val_t term = 1;
            int nc = rg->children(v, s, i, ch, &term);
            assert_int_equal(nc, nm);
            if (nm == 0) {
                assert_int_equal(term, val_loss(0));
                terminals++;
            }
            for (int a = 0; a < nm; a++) {
                ck_pos_t q = p;
                ck_play(&q, mv[a]);
                uint64_t s2, i2;
                int fl;
                assert_int_equal(rg->locate(v, &q, &s2, &i2, &fl), 1);
                assert_int_equal(fl, 1);
                int conv = ck_mjumps(mv[a]) || !(p.k >> ck_mfrom(mv[a]) & 1), found = 0;
                captures += ck_mjumps(mv[a]) > 0;
                for (int b = 0; b < nc; b++)
                    if (ch[b].move == mv[a]) {
                        found++;
                        assert_true(ch[b].slice == s2 && ch[b].index == i2);
                        assert_int_equal(ch[b].conv, conv);
                    }
                assert_int_equal(found, 1);
            }
        }
        free(sl);
    }
    assert_true(terminals > 0);
    assert_true(captures > 100);
    /* a position with no piece of Black's, and one with every piece blocked */
    const char *lost[] = { "B:W21,K5:B", "B:W8,11:B4" };
    for (int j = 0; j < 2; j++) {
        ck_pos_t p;
        err_t err;
        uint64_t s, i;
        int fl;
        assert_int_equal(ck_parse_fen(lost[j], &p, &err), GSW_OK);
        assert_int_equal(ck_count(&p), 0);
        assert_int_equal(rg->locate(v, &p, &s, &i, &fl), 1);
        retro_move_t ch[RETRO_MAX_MOVES];
        val_t term = 0;
        assert_int_equal(rg->children(v, s, i, ch, &term), 0);
        assert_int_equal(term, val_loss(0));
    }
    game_close(v);
}

static int count_moves_to(const retro_move_t *m, int n, uint64_t s, uint64_t i, move_t mv, int conv)
{
    int c = 0;
    for (int j = 0; j < n; j++)
        c += m[j].slice == s && m[j].index == i && m[j].move == mv && m[j].conv == conv;
    return c;
}

/* Parents and non-capture children are inverse relations, with
 * multiplicity: X lists P (by move m) among its parents exactly as often
 * as P lists X among its children by the plain move m. */
static void test_parents(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    uint64_t seed = 7;
    int nparents = 0, uncrown = 0, nplain = 0;
    for (int n = 2; n <= 6; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int t = 0; t < (n >= 3 && n <= 5 ? 1500 : 300); t++) {
            uint64_t s, i;
            ck_pos_t x;
            random_pos(v, rg, sl, ns, &seed, &s, &i, &x);
            retro_move_t par[RETRO_MAX_MOVES], ch[RETRO_MAX_MOVES];
            int np = rg->parents(v, s, i, par);
            assert_true(np >= 0 && np <= RETRO_MAX_MOVES);
            for (int a = 0; a < np; a++) {
                assert_int_equal(ck_mjumps(par[a].move), 0);
                val_t term;
                int nc = rg->children(v, par[a].slice, par[a].index, ch, &term);
                int want = count_moves_to(par, np, par[a].slice, par[a].index, par[a].move, par[a].conv);
                int got = count_moves_to(ch, nc, s, i, par[a].move, par[a].conv);
                if (want != got) {
                    char fx[160], fp[160];
                    ck_pos_t pp;
                    rg->position(v, par[a].slice, par[a].index, &pp);
                    fen_of(&x, fx, sizeof fx);
                    fen_of(&pp, fp, sizeof fp);
                    fail_msg("%s has parent %s (move %u) %d times, the parent's children hold it %d times", fx, fp,
                             par[a].move, want, got);
                }
                nparents++;
                if (rg->slice_pieces(v, par[a].slice) == n) {
                    int c1[RETRO_MAX_COUNTS], c2[RETRO_MAX_COUNTS];
                    rg->slice_material(v, s, c1);
                    rg->slice_material(v, par[a].slice, c2);
                    uncrown += c2[1] == c1[3] + 1;
                }
            }
            val_t term;
            int nc = rg->children(v, s, i, ch, &term);
            for (int a = 0; a < nc; a++) {
                if (ck_mjumps(ch[a].move)) continue;
                nplain++;
                int np2 = rg->parents(v, ch[a].slice, ch[a].index, par);
                int want = count_moves_to(ch, nc, ch[a].slice, ch[a].index, ch[a].move, ch[a].conv);
                int got = count_moves_to(par, np2, s, i, ch[a].move, ch[a].conv);
                if (want != got) {
                    char fx[160];
                    fen_of(&x, fx, sizeof fx);
                    fail_msg("%s's plain move %u: its child lists it as a parent %d times, not %d", fx, ch[a].move,
                             got, want);
                }
            }
        }
        free(sl);
    }
    assert_true(nparents > 10000);
    assert_true(uncrown > 10);
    assert_true(nplain > 10000);
    game_close(v);
}

/* Hand-checked cases. Black to move with White's king on 32 and Black's
 * on 1: White's king stepped to 32 from 27 or 28; reversed (Black to
 * move), those parents are Black's king on 6 or 5 stepping to 1 with
 * White's king on 32. */
static void test_parents_by_hand(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    ck_pos_t x, par;
    err_t err;
    uint64_t s, i, ps, pi;
    int fl;
    assert_int_equal(ck_parse_fen("B:WK32:BK1", &x, &err), GSW_OK);
    assert_int_equal(rg->locate(v, &x, &s, &i, &fl), 1);
    retro_move_t out[RETRO_MAX_MOVES];
    assert_int_equal(rg->parents(v, s, i, out), 2);
    for (int a = 0; a < 2; a++) {
        char fen[32];
        snprintf(fen, sizeof fen, "B:WK32:BK%d", 5 + a);
        assert_int_equal(ck_parse_fen(fen, &par, &err), GSW_OK);
        assert_int_equal(rg->locate(v, &par, &ps, &pi, &fl), 1);
        int j = out[0].index == pi ? 0 : 1;
        assert_true(out[j].slice == ps && out[j].index == pi);
        assert_int_equal(ck_mfrom(out[j].move), 4 + a);
        assert_int_equal(ck_mto(out[j].move), 0);
        assert_int_equal(out[j].conv, 0);
    }
    /* Black to move, White's king on 3, Black's man on 20: White's king
     * stepped to 3 from 7 or 8, or a White man there crowned (conv, and a
     * man more in the parent's material) */
    assert_int_equal(ck_parse_fen("B:WK3:B20", &x, &err), GSW_OK);
    assert_int_equal(rg->locate(v, &x, &s, &i, &fl), 1);
    int n = rg->parents(v, s, i, out), men = 0;
    assert_int_equal(n, 4);
    for (int a = 0; a < n; a++) {
        int c[RETRO_MAX_COUNTS];
        rg->slice_material(v, out[a].slice, c);
        assert_int_equal(c[0] + c[1], 1);
        assert_int_equal(c[1], out[a].conv);
        assert_int_equal(c[3], 1);
        men += out[a].conv;
        ck_pos_t pp;
        rg->position(v, out[a].slice, out[a].index, &pp);
        ck_pos_t real = flip(&pp);   /* White to move */
        assert_true(real.p[1] == (1u << 6) || real.p[1] == (1u << 7));
        assert_true(real.p[0] == 1u << 19);
        assert_int_equal(!!(real.k & real.p[1]), !out[a].conv);
    }
    assert_int_equal(men, 2);
    /* no parent with a capture for its side: White's king on 32 with
     * Black's man on 23 (Black to move) came from 28, not from 27, where
     * the capture 27x18 was due */
    assert_int_equal(ck_parse_fen("B:WK32:B23", &x, &err), GSW_OK);
    assert_int_equal(rg->locate(v, &x, &s, &i, &fl), 1);
    assert_int_equal(rg->parents(v, s, i, out), 1);
    rg->position(v, out[0].slice, out[0].index, &par);
    ck_pos_t real = flip(&par);
    assert_true(real.p[1] == 1u << 27 && real.k == 1u << 27);
    game_close(v);
}

/* slice_succ lists every child's slice (other than the slice itself). */
static void test_succ(void **state)
{
    (void)state;
    const retro_game_t *rg;
    gv_t *v = open_ck(&rg);
    uint64_t seed = 8;
    int checked = 0;
    for (int n = 1; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int t = 0; t < 400; t++) {
            uint64_t s, i;
            ck_pos_t p;
            random_pos(v, rg, sl, ns, &seed, &s, &i, &p);
            int nsucc = rg->slice_succ(v, s, NULL, 0);
            uint64_t *succ = malloc((size_t)(nsucc ? nsucc : 1) * sizeof *succ);
            assert_non_null(succ);
            assert_int_equal(rg->slice_succ(v, s, succ, nsucc), nsucc);
            for (int a = 0; a < nsucc; a++) {
                assert_true(succ[a] != s);
                assert_true(rg->slice_size(v, succ[a]) > 0);
                for (int b = 0; b < a; b++) assert_true(succ[a] != succ[b]);
            }
            retro_move_t ch[RETRO_MAX_MOVES];
            val_t term;
            int nc = rg->children(v, s, i, ch, &term);
            for (int a = 0; a < nc; a++) {
                if (ch[a].slice == s) continue;
                int found = 0;
                for (int b = 0; b < nsucc && !found; b++) found = succ[b] == ch[a].slice;
                if (!found) {
                    char n1[64], n2[64];
                    name_of(v, rg, s, n1, sizeof n1);
                    name_of(v, rg, ch[a].slice, n2, sizeof n2);
                    fail_msg("slice %s moves into %s, which slice_succ leaves out", n1, n2);
                }
                checked++;
            }
            free(succ);
        }
        free(sl);
    }
    assert_true(checked > 1000);
    /* the builder (solve/egdb_build.c) takes at most 512 successors a
     * slice; the most for 10 pieces is 414 */
    int most = 0;
    for (int n = 1; n <= 10; n++) {
        int ns;
        uint64_t *sl = list_slices(v, rg, n, &ns);
        for (int j = 0; j < ns; j++) {
            int k = rg->slice_succ(v, sl[j], NULL, 0);
            if (k > most) most = k;
        }
        free(sl);
    }
    assert_true(most <= 512);
    /* a man jumping twice and crowning: 13x22x29 takes White's men on 17
     * and 25, leaving Black's king alone (White to move, reversed: Black
     * to move with no man and White's king on 4) */
    ck_pos_t p;
    err_t err;
    uint64_t s, i, want;
    int fl;
    assert_int_equal(ck_parse_fen("B:W17,25:B13", &p, &err), GSW_OK);
    assert_int_equal(rg->locate(v, &p, &s, &i, &fl), 1);
    retro_move_t ch[RETRO_MAX_MOVES];
    val_t term;
    assert_int_equal(rg->children(v, s, i, ch, &term), 1);
    assert_int_equal(ck_mjumps(ch[0].move), 2);
    assert_int_equal(rg->slice_parse(v, "0K0C-1K0C.bxwx", &want, &err), GSW_OK);
    assert_true(ch[0].slice == want);
    ck_pos_t after;
    rg->position(v, ch[0].slice, ch[0].index, &after);
    assert_true(after.p[1] == 1u << 3 && after.k == 1u << 3 && after.p[0] == 0);
    uint64_t succ[4096];
    int nsucc = rg->slice_succ(v, s, succ, 4096), found = 0;
    assert_true(nsucc <= 4096);
    for (int a = 0; a < nsucc; a++) found += succ[a] == want;
    assert_int_equal(found, 1);
    game_close(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table1),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_round_trip_small),
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_flip),
        cmocka_unit_test(test_children),
        cmocka_unit_test(test_parents),
        cmocka_unit_test(test_parents_by_hand),
        cmocka_unit_test(test_succ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
