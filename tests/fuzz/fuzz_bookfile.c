/* Opening-book files (db/bookfile.c, solve/book.c): the input read as a
 * whole file, and the input as the payload of a file made valid around it
 * (magic, zstd frame, trailer checksum), so the checks of the columns are
 * reached; each also by its header alone (bookf_peek_mem), which must agree
 * with every file that reads whole. What reads has sorted keys that
 * bookf_find finds, writes back to a file that reads the same (its header
 * peeked as the same deepest ply), and, when it names a Connect Four board,
 * is opened as that board's book (each entry checked as a position) without
 * harm (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"
#include "db/bddfile.h"
#include "db/bookfile.h"
#include "solve/book.h"
#include "tests/fuzz/fuzz_frame.h"

static void check(const bookf_t *b)
{
    for (uint64_t i = 0; i < b->n; i++)
        if (bookf_find(b, b->keys + i * b->klen, b->klen) != (int64_t)i) abort();
    char path[256];
    fuzz_path(path, sizeof path, "bookfile", ".book");
    err_t err;
    uint64_t s1, s2;
    if (bookf_write(path, b, &s1, &err)) return;   /* a full disk is not the reader's fault */
    bookf_t again;
    if (bookf_read(path, &again, &s2, &err) || s1 != s2 || again.n != b->n || again.klen != b->klen
        || strcmp(again.spec, b->spec) || again.max_ply != b->max_ply
        || (b->n && (memcmp(again.keys, b->keys, b->n * b->klen) || memcmp(again.val, b->val, b->n * 2)
                     || memcmp(again.ply, b->ply, b->n))))
        abort();
    bookf_free(&again);
    if (book_file_depth(path) != (int)b->max_ply) abort();
    gv_t *v;
    if (!strncmp(b->spec, "connect4:", 9) && !game_open(b->spec, &v, &err)) {
        book_t *book;
        book_file_report_t r;
        if (!book_open_file(&book, v, path, &r, &err)) {
            if (r.positions != (int64_t)b->n) abort();
            book_free(book);
        } else if (!err.msg[0]) abort();
        game_close(v);
    }
    unlink(path);
}

static void try_read(const uint8_t *data, size_t size, const char *name)
{
    bookf_t b, h;
    err_t err, herr;
    int peeked = bookf_peek_mem(data, size, name, &h, &herr);
    if (peeked && !herr.msg[0]) abort();
    if (!bookf_read_mem(data, size, name, &b, &err)) {
        /* what reads whole has the header its peek saw */
        if (peeked || strcmp(h.spec, b.spec) || h.klen != b.klen || h.max_ply != b.max_ply || h.n != b.n) abort();
        check(&b);
        bookf_free(&b);
    } else if (!err.msg[0]) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try_read(data, size, "input");
    /* the input as the decompressed payload */
    size_t fn;
    uint8_t *file = fuzz_frame("GSWBOOK1", data, size, &fn);
    try_read(file, fn, "payload");
    free(file);
    return 0;
}
