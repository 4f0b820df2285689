/* gsw tune chess --eval --rescore (see protocol/tune.h): the positions of
 * a run's games scored again by another UCI engine, kept in rescored.txt
 * in games.txt's form, a game at a time, so that Ctrl-C loses nothing and
 * the same command goes on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts.h"
#include "core/ab.h"
#include "games/chess/ch.h"
#include "protocol/match.h"
#include "protocol/tune.h"

#define TE_RESCORE_MS 120000.0   /* the most one position's search may take */

/* White's view of an engine's score for the side to move of p (cp, or
 * mate in moves: the bound), within +-TUNE_SCORE_MAX. */
static int te_white(const ch_pos_t *p, int cp, int mate)
{
    int x = mate > 0 ? TUNE_SCORE_MAX : mate < 0 ? -TUNE_SCORE_MAX : cp;
    x = x > TUNE_SCORE_MAX ? TUNE_SCORE_MAX : x < -TUNE_SCORE_MAX ? -TUNE_SCORE_MAX : x;
    return p->side == CH_WHITE ? x : -x;
}

/* Is game gi in s? */
static int te_has(const tune_games_t *s, int gi) { return gi < s->done_cap && s->done[gi]; }

int tune_rescore(const char *cmd, uint64_t nodes, const char *rpath, tune_games_t *g, FILE *say, err_t *err)
{
    if (strchr(cmd, '\n') || strlen(cmd) >= sizeof g->rescored_by)
        return err_set(err, GSW_EINPUT, "--rescore: the command must be one line of fewer than %zu characters",
                       sizeof g->rescored_by);
    char *text;
    size_t len, good = 0;
    tune_games_t r;
    memset(&r, 0, sizeof r);
    int rc = tune_read_file(rpath, &text, &len, err);
    if (rc) return rc;
    if (text) {
        rc = tune_games_parse(text, len, &r, &good, err);
        free(text);
        if (rc) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err->msg);
            return err_set(err, rc, "%s: %s", rpath, m);
        }
        if (!r.rescored_nodes || r.nodes != g->nodes || r.seed != g->seed || r.random != g->random)
            rc = err_set(err, GSW_EINPUT, "%s does not hold this folder's games scored again (delete it to score them anew)",
                         rpath);
        else if (r.rescored_nodes != nodes || strcmp(r.rescored_by, cmd))
            rc = err_set(err, GSW_EINPUT, "%s holds the scores of \"%s\" at %llu nodes: give the same --rescore and "
                         "--rescore-nodes, or delete it", rpath, r.rescored_by, (unsigned long long)r.rescored_nodes);
        else if (good < len) {
            if (truncate(rpath, (off_t)good)) rc = err_set(err, GSW_EFAIL, "cannot mend %s (%s)", rpath, strerror(errno));
            else fprintf(stderr, "gsw: %s: a last game cut short (%zu bytes) was dropped\n", rpath, len - good);
        }
        if (rc) { tune_games_free(&r); return rc; }
    }   /* (none yet: made once the engine has started) */
    /* the games of g not there yet, a block at a time (a game's positions follow each other) */
    int todo = 0;
    for (size_t i = 0; i < g->n; i++) {
        int gi = g->game[i];
        if ((i == 0 || g->game[i - 1] != gi) && !te_has(&r, gi)) todo++;
    }
    if (todo) {
        match_engine_t e;
        memset(&e, 0, sizeof e);
        FILE *f = NULL;
        rc = engine_start(&e, cmd, NULL, 0, &opts_stop, err);
        if (!rc && (!(f = fopen(rpath, "ab"))
                    || (!r.rescored_nodes
                        && (fprintf(f, "# gsw tune chess --eval: nodes %llu seed %llu random %d rescored %llu by %s\n",
                                    (unsigned long long)g->nodes, (unsigned long long)g->seed, g->random,
                                    (unsigned long long)nodes, cmd) < 0 || fflush(f)))))
            rc = err_set(err, GSW_EINPUT, "cannot write %s (%s)", rpath, strerror(errno));
        if (!rc) {
            fprintf(say, "tune --eval: %d game%s to score again by %s (%s) at %llu nodes a position, into %s\n",
                    todo, todo == 1 ? "" : "s", cmd, e.name[0] ? e.name : "a UCI engine", (unsigned long long)nodes, rpath);
            fflush(say);
        }
        const int tty = isatty(2);
        const double t0 = gsw_now_ms();
        int done = 0;
        size_t scored = 0;
        char *block = NULL;
        size_t bcap = 0;
        for (size_t i = 0; !rc && i < g->n;) {
            size_t j = i;
            while (j < g->n && g->game[j] == g->game[i]) j++;
            const int gi = g->game[i];
            if (te_has(&r, gi)) { i = j; continue; }
            size_t need = (j - i) * 140 + 64, bl = 0;
            if (need > bcap) {
                char *nb = realloc(block, need);
                if (!nb) { rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
                block = nb;
                bcap = need;
            }
            const int res = g->result[i];
            bl += (size_t)snprintf(block + bl, bcap - bl, "game %d %s %zu\n", gi, tune_result_name(res), j - i);
            /* each game from a fresh engine (its table cleared), so that a run
             * resumed after Ctrl-C scores a game as an unbroken run does */
            int ready = engine_newgame(&e, TE_RESCORE_MS, &opts_stop);
            if (ready == -3) rc = GSW_EFAIL;
            else if (ready) rc = err_set(err, GSW_EFAIL, "%s did not answer isready (%s)", cmd, e.why);
            for (size_t k = i; !rc && k < j; k++) {
                char fen[128];
                int cp = 0, mate = 0;
                ch_format_fen(&g->pos[k], fen, sizeof fen);
                int er = engine_score(&e, fen, nodes, TE_RESCORE_MS, &opts_stop, &cp, &mate);
                if (er == -3) rc = GSW_EFAIL;
                else if (er) rc = err_set(err, GSW_EFAIL, "%s, scoring %s: %s", cmd, fen, e.why);
                else bl += (size_t)snprintf(block + bl, bcap - bl, "%s;%d\n", fen, te_white(&g->pos[k], cp, mate));
            }
            if (rc) break;
            if (fwrite(block, 1, bl, f) != bl || fflush(f)) {
                rc = err_set(err, GSW_EFAIL, "cannot write %s (%s)", rpath, strerror(errno));
                break;
            }
            done++;
            scored += j - i;
            double sec = (gsw_now_ms() - t0) / 1000;
            if (tty)
                fprintf(stderr, "\rtune --eval: scored again %d of %d games (%zu positions), %.0f s, %.0f s left ", done,
                        todo, scored, sec, sec / done * (todo - done));
            else if (done % 100 == 0 || done == todo)
                fprintf(stderr, "tune --eval: scored again %d of %d games, %zu positions, %.0f s\n", done, todo, scored, sec);
            fflush(stderr);
            i = j;
        }
        if (tty) fputc('\n', stderr);
        free(block);
        if (f && fclose(f) && !rc) rc = err_set(err, GSW_EFAIL, "cannot write %s (%s)", rpath, strerror(errno));
        engine_close(&e);
        if (rc == GSW_EFAIL && opts_stop) {
            tune_games_free(&r);
            return err_set(err, GSW_EFAIL, "interrupted: the games scored again are kept in %s (the same command goes on)",
                           rpath);
        }
        if (rc) { tune_games_free(&r); return rc; }
        tune_games_free(&r);
        rc = tune_read_file(rpath, &text, &len, err);
        if (!rc) rc = tune_games_parse(text ? text : "", text ? len : 0, &r, &good, err);
        free(text);
        if (rc) return rc;
    }
    /* every game of g in r with the same positions; then r's scores, by game */
    int32_t *first = malloc((size_t)(r.done_cap > 0 ? r.done_cap : 1) * sizeof *first);
    if (!first) { tune_games_free(&r); return err_set(err, GSW_EFAIL, "out of memory"); }
    for (int x = 0; x < r.done_cap; x++) first[x] = -1;   /* (a game of no positions has no first) */
    for (size_t i = 0; i < r.n; i++)
        if (i == 0 || r.game[i - 1] != r.game[i]) first[r.game[i]] = (int32_t)i;
    for (size_t i = 0; !rc && i < g->n;) {
        size_t j = i;
        while (j < g->n && g->game[j] == g->game[i]) j++;
        const int gi = g->game[i];
        if (!te_has(&r, gi)) {
            rc = err_set(err, GSW_EINPUT, "%s lacks game %d of games.txt (delete it to score them anew)", rpath, gi);
            break;
        }
        size_t k = first[gi] < 0 ? r.n : (size_t)first[gi];
        for (size_t x = i; !rc && x < j; x++, k++) {
            if (k >= r.n || r.game[k] != gi || r.pos[k].key != g->pos[x].key) rc = 1;
            else g->score[x] = r.score[k];
        }
        if (rc || (k < r.n && r.game[k] == gi))
            rc = err_set(err, GSW_EINPUT, "%s: game %d's positions are not games.txt's (delete it to score them anew)", rpath, gi);
        i = j;
    }
    free(first);
    if (!rc) {
        g->rescored_nodes = nodes;
        snprintf(g->rescored_by, sizeof g->rescored_by, "%s", cmd);
    }
    tune_games_free(&r);
    return rc;
}
