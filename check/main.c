/* gsw-check: the separate checker of proof certificates and database
 * files (docs/CERTIFICATE.md). It links the games' rules and the file
 * readers only: none of gsw's searches, its solver door or its cache.
 *
 *   gsw-check FILE               check a certificate
 *   gsw-check --deep FILE        ... and the database files its leaves name
 *   gsw-check --deep DIR|X.egdb  check database files by retrograde consistency
 *   gsw-check --perft GAME DEPTH [POSITION]   count the rules' move paths
 *                                (the tests compare them with gsw perft's)
 * Exit status: 0 everything holds, 1 a check failed, 2 unreadable input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "check/deep.h"
#include "check/rules.h"

static uint64_t perft(const rules_t *r, const void *pos, int depth)
{
    if (depth == 0) return 1;
    move_t mv[GSW_MAX_MOVES];
    int n = r->moves(r, pos, mv);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        GSW_POSBUF q[GSW_MAX_POS];
        memcpy(q, pos, GSW_MAX_POS);
        r->play(r, q, mv[i]);
        total += perft(r, q, depth - 1);
    }
    return total;
}

static int run_perft(const char *game, const char *depth, const char *text)
{
    rules_t r;
    err_t err;
    GSW_POSBUF pos[GSW_MAX_POS];
    char *end;
    long d = strtol(depth, &end, 10);
    if (*end || d < 0 || d > 64) return fprintf(stderr, "gsw-check: perft: bad depth \"%s\"\n", depth), 2;
    if (!rules_open(game, &r, &err) && !*text && !strcmp(r.game, "checkers"))
        text = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    if (!rules_open(game, &r, &err) && !*text && !strcmp(r.game, "chess"))
        text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    if (rules_open(game, &r, &err) || r.parse(&r, text, pos, &err))
        return fprintf(stderr, "gsw-check: %s\n", err.msg), 2;
    printf("%llu\n", (unsigned long long)perft(&r, pos, (int)d));
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: gsw-check [--deep] CERTIFICATE | gsw-check --deep DIR|FILE.egdb\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && argc <= 5 && !strcmp(argv[1], "--perft"))
        return run_perft(argv[2], argv[3], argc == 5 ? argv[4] : "");
    int deep = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--deep")) deep = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: gsw-check [--deep] CERTIFICATE | gsw-check --deep DIR|FILE.egdb\n");
            return 0;
        } else if (argv[i][0] == '-' || path)
            return usage();
        else
            path = argv[i];
    }
    if (!path) return usage();
    struct stat st;
    size_t len = strlen(path);
    if (deep && ((!stat(path, &st) && S_ISDIR(st.st_mode)) || (len > 5 && !strcmp(path + len - 5, ".egdb"))))
        return check_deep(path);
    return check_certificate(path, deep);
}
