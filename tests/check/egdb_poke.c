/* egdb_poke FILE: change one stored value of a database file and write it
 * again through db/egdb.h's writer, so its checksums are good and only
 * the retrograde check (gsw-check --deep) can tell. The value changed is
 * the first decisive one: a win/draw/loss file's win becomes a loss (and
 * a loss a win), a distance file's distance grows by two plies. Prints
 * the index changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/egdb.h"

int main(int argc, char **argv)
{
    err_t err;
    egdb_file_t *f;
    if (argc != 2 || egdb_open(argv[1], &f, &err)) return fprintf(stderr, "egdb_poke: %s\n", argc == 2 ? err.msg : "FILE"), 2;
    egdb_info_t info = *egdb_file_info(f);
    uint8_t *codes = malloc(info.n + EGDB_BLOCK);
    uint64_t *xi = malloc((info.nexc + 1) * sizeof *xi);
    uint16_t *xv = malloc((info.nexc + 1) * sizeof *xv);
    uint64_t nx = 0, at = info.n;
    for (uint64_t b = 0; b * EGDB_BLOCK < info.n; b++)
        if (egdb_read_block(f, b, codes + b * EGDB_BLOCK, &err)) return fprintf(stderr, "egdb_poke: %s\n", err.msg), 2;
    for (uint64_t i = 0; i < info.n; i++) {
        if (codes[i] == 255 && nx < info.nexc && egdb_exception(f, i, &xv[nx])) xi[nx++] = i;
        if (at == info.n && codes[i] && codes[i] != 255) at = i;
    }
    egdb_close(f);
    if (at == info.n) return fprintf(stderr, "egdb_poke: no decisive value in %s\n", argv[1]), 2;
    if (info.bits == 2) codes[at] = codes[at] == 1 ? 2 : 1;
    else codes[at] = (uint8_t)(codes[at] + 2 < 255 ? codes[at] + 2 : codes[at] - 2);
    info.nexc = nx;
    if (egdb_write(argv[1], &info, codes, xi, xv, &err)) return fprintf(stderr, "egdb_poke: %s\n", err.msg), 2;
    printf("%llu\n", (unsigned long long)at);
    free(codes), free(xi), free(xv);
    return 0;
}
