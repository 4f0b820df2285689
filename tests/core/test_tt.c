/* The transposition table's growth: a table starts on its first buckets,
 * opens the whole table once a search's stores evict enough current
 * entries, and keeps the entries it held (moved to their new buckets). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/tt.h"

static uint64_t key_of(uint64_t i) { return (i + 1) * 0xd6e8feb86659fd93ull ^ (i << 7); }

/* Is key i's entry there, with the bounds it was stored with? */
static int found(const tt_t *t, uint64_t i)
{
    tt_hit_t h;
    return tt_probe(t, key_of(i), &h) && h.lo == (val_t)(i % 100) && h.hi == (val_t)(i % 100 + 5);
}

static void test_grows_and_keeps(void **state)
{
    (void)state;
    tt_t t;
    err_t err;
    assert_int_equal(tt_init(&t, 64, &err), GSW_OK);
    assert_true(t.mask < t.full);                       /* 64 MB: starts on 8 MB */
    const uint64_t first = t.mask + 1;
    assert_int_equal(first * TT_BUCKET * sizeof(tt_entry_t), 8u << 20);
    tt_new_search(&t);
    /* a few entries (of more work than those to come, so that they stay
     * in their buckets): no growth */
    for (uint64_t i = 0; i < 1000; i++) tt_store(&t, key_of(i), (val_t)(i % 100), (val_t)(i % 100 + 5), 3, 10);
    assert_int_equal(t.mask, first - 1);
    for (uint64_t i = 0; i < 1000; i++) assert_true(found(&t, i));
    /* as many as the first buckets hold: most land in full buckets,
     * evicting this search's entries, and the whole table opens */
    uint64_t n = first * TT_BUCKET * 3 / 2;
    for (uint64_t i = 1000; i < n; i++) tt_store(&t, key_of(i), (val_t)(i % 100), (val_t)(i % 100 + 5), 3, 1);
    assert_int_equal(t.mask, t.full);
    /* the first thousand were moved to their buckets in the whole table,
     * not lost */
    int kept = 0;
    for (uint64_t i = 0; i < 1000; i++) kept += found(&t, i);
    assert_int_equal(kept, 1000);
    /* a new generation starts on the first buckets again, empty */
    tt_clear(&t);
    assert_int_equal(t.mask, first - 1);
    for (uint64_t i = 0; i < 1000; i++) assert_false(found(&t, i));
    tt_free(&t);
}

static void test_batch_stays_small(void **state)
{
    (void)state;
    tt_t t;
    err_t err;
    assert_int_equal(tt_init(&t, 64, &err), GSW_OK);
    const uint64_t first = t.mask + 1;
    /* many small searches, none evicting much of its own: the table keeps
     * to its first buckets, earlier searches' entries going first */
    for (uint64_t s = 0; s < 64; s++) {
        tt_new_search(&t);
        for (uint64_t i = 0; i < first / 4; i++) {
            uint64_t k = s * first + i;
            tt_store(&t, key_of(k), (val_t)(k % 100), (val_t)(k % 100 + 5), 3, 1);
        }
    }
    assert_int_equal(t.mask, first - 1);
    /* the last search's entries are there (but where a bucket is full of
     * entries of searches 8, 16, ... before it, which look as new) */
    uint64_t kept = 0;
    for (uint64_t i = 0; i < first / 4; i++) kept += (uint64_t)found(&t, 63 * first + i);
    assert_true(kept * 100 >= first / 4 * 99);
    tt_free(&t);
}

static void test_small_table(void **state)
{
    (void)state;
    tt_t t;
    err_t err;
    assert_int_equal(tt_init(&t, 4, &err), GSW_OK);   /* below the first 8 MB: all of it */
    assert_int_equal(t.mask, t.full);
    tt_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_and_keeps),
        cmocka_unit_test(test_batch_stays_small),
        cmocka_unit_test(test_small_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
