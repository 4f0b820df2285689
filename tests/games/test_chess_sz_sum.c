/* Syzygy tables' checksums (games/chess/ch_sz_sum.c): CityHash's 128- and
 * 256-bit hashes at lengths that take each of their paths, against values
 * from the table generator's own CityHash (syzygy1/tb, src/city-c.c, built
 * outside the repository: tests/data/README.md); every committed table
 * carrying the sum it should; and a table changed by one byte, or cut,
 * refused with a one-line reason naming it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>

#include "games/chess/ch_sz_sum.h"
#include "tests/test_tmpdir.h"

static const struct {
    size_t len;
    uint64_t h256[4], h128[2];
} vec[] = {
    {0, {0x889f555a0f5b2dc0ull, 0x7767800902c8a8ceull, 0xbcd2a808f4cb4a44ull, 0xe9024dba8f94f2f3ull}, {0x3df09dfc64c09a2bull, 0x3cb540c392e51e29ull}},
    {3, {0xb8139adb5d00648full, 0xec71e7a2cf33afd7ull, 0xd29be248d429e72full, 0x9fcb627ab89b8158ull}, {0x81f8a30c2450dbc8ull, 0x798dcec04e1d1d1bull}},
    {15, {0x67d10ef73b8d6398ull, 0xef0e9ac0683ff520ull, 0x10dcb83c9c574f91ull, 0x753b42d3dcd53085ull}, {0x398ca25a1e11bf9dull, 0x83fdf9f4bf176613ull}},
    {100, {0x9c7cc68fc2acbe57ull, 0xac0abce2b7e6505dull, 0x035a0e7a6a1610efull, 0xb44e201c6705542eull}, {0x143d89a7ff6baa3eull, 0x31ddd461dd59ef93ull}},
    {239, {0xa7415aa85e0386b8ull, 0x8ea152ab27ee4c99ull, 0x842fc86ab1166d12ull, 0xd9f91aaba31db423ull}, {0xbb45e2cd0984487bull, 0x00b4b7348dd0112eull}},
    {240, {0x5320d2282419e485ull, 0x20d52887534618d4ull, 0xcec3117880ff07f9ull, 0xe9cf688a5226aec2ull}, {0xfaf7190da6524580ull, 0xe564f3f0202c9c94ull}},
    {300, {0x716cb644505f8d53ull, 0x93d2936ef052aa5full, 0xe264f35c1dbde2c8ull, 0x03b0548e19bfab83ull}, {0x76106e31f437c04bull, 0x68108c5dff2df843ull}},
    {900, {0xfaccd1ada78c8db8ull, 0xe20511cd5de00577ull, 0x7bc27052200d66b7ull, 0x20171bf0cfe27269ull}, {0xaafc58c2d766ad7eull, 0x8181cb58d68684eaull}},
    {901, {0x751a47da0512b138ull, 0xf014f93ec6a53a2eull, 0xbd314b6d2704c303ull, 0xc1f149d62efb4412ull}, {0xbd314b6d2704c303ull, 0xc1f149d62efb4412ull}},
    {5000, {0x076b3c351f553befull, 0x493f6fc86f3f4f7full, 0x8e6ff07bb4bd8fe1ull, 0x9cc63fc3f695783aull}, {0x8e6ff07bb4bd8fe1ull, 0x9cc63fc3f695783aull}},
    {20000, {0x619ccc84558fbf02ull, 0xdb9ca86b9fc04166ull, 0xa7a75839822e5fc7ull, 0xf90e4a9ea1fa1af4ull}, {0xa7a75839822e5fc7ull, 0xf90e4a9ea1fa1af4ull}},
};

static void test_city(void **s)
{
    (void)s;
    static uint8_t b[20000];
    uint64_t x = 0x9e3779b97f4a7c15ull;   /* the bytes the reference values were made of */
    for (size_t i = 0; i < sizeof b; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b[i] = (uint8_t)(x >> 56);
    }
    for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++) {
        uint64_t h256[4], h128[2];
        ch_sz_city_crc256(b, vec[k].len, h256);
        ch_sz_city_crc128(b, vec[k].len, h128);
        for (int i = 0; i < 4; i++) assert_true(h256[i] == vec[k].h256[i]);
        for (int i = 0; i < 2; i++) assert_true(h128[i] == vec[k].h128[i]);
    }
}

static void test_tables(void **s)
{
    (void)s;
    const char *data = getenv("GSW_TEST_DATA");
    assert_non_null(data);
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/syzygy", data);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".rtb")) continue;
        char path[2400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        err_t err;
        if (ch_sz_check_file(path, &err)) fail_msg("%s", err.msg);
        n++;
    }
    closedir(d);
    assert_true(n >= 20);
}

static int setup(void **s)
{
    (void)s;
    return test_tmpdir_make("gsw-szsum");
}

static int teardown(void **s)
{
    (void)s;
    return test_tmpdir_remove();
}

static void test_damaged(void **s)
{
    (void)s;
    char src[1200];
    snprintf(src, sizeof src, "%s/syzygy/KQvKR.rtbw", getenv("GSW_TEST_DATA"));
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    static uint8_t b[1 << 16];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    assert_true(n > 10000 && n < sizeof b);
    const char *p = tmp_path("KQvKR.rtbw");
    err_t err;
    for (size_t at = 0; at < n; at += n / 7) {   /* one bit changed: anywhere, the sum too */
        b[at] ^= 0x10;
        f = fopen(p, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(b, 1, n, f), n);
        fclose(f);
        assert_int_equal(ch_sz_check_file(p, &err), GSW_EINPUT);
        assert_non_null(strstr(err.msg, "KQvKR.rtbw is damaged (its checksum differs"));
        assert_null(strchr(err.msg, '\n'));
        b[at] ^= 0x10;
    }
    f = fopen(p, "wb");   /* cut short: 64 bytes less */
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n - 64, f), n - 64);
    fclose(f);
    assert_int_equal(ch_sz_check_file(p, &err), GSW_EINPUT);
    assert_int_not_equal(ch_sz_check_file(tmp_path("missing.rtbw"), &err), GSW_OK);
    f = fopen(p, "wb");   /* as it was */
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
    assert_int_equal(ch_sz_check_file(p, &err), GSW_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_city),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_damaged),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
