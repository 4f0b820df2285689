/* A UCI engine as a child process (see match.h): started with
 * posix_spawn (fork and exec in one step, safe beside our other threads)
 * with pipes on its stdin and stdout, in a process group of its own;
 * lines read with poll() so that no read waits past its timeout. */
#define _GNU_SOURCE   /* pipe2 */
#include "protocol/match.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/ab.h"

extern char **environ;

#define ENGINE_MAX_WORDS 64
#define ENGINE_HANDSHAKE_MS 15000.0

/* Split cmd into words (blanks separate; '...' and "..." quote) in buf;
 * returns the count, -1 when it does not fit or a quote is not closed. */
static int split_words(const char *cmd, char *buf, size_t n, char **argv, int max)
{
    int argc = 0;
    size_t k = 0;
    const char *p = cmd;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        if (argc >= max - 1) return -1;
        argv[argc++] = buf + k;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q) {
                    if (k + 1 >= n) return -1;
                    buf[k++] = *p++;
                }
                if (!*p) return -1;
                p++;
            } else {
                if (k + 1 >= n) return -1;
                buf[k++] = *p++;
            }
        }
        if (k + 1 >= n) return -1;
        buf[k++] = 0;
    }
    argv[argc] = NULL;
    return argc;
}

/* Why the child ended, once it has: "exited with status 3", "killed by
 * signal 11"; reaps it (waiting up to wait_ms). */
static void engine_reap(match_engine_t *e, double wait_ms)
{
    if (e->pid <= 0) return;
    double end = gsw_now_ms() + wait_ms;
    for (;;) {
        int st;
        pid_t r = waitpid(e->pid, &st, WNOHANG);
        if (r == e->pid) {
            if (WIFSIGNALED(st)) snprintf(e->why, sizeof e->why, "it was killed by signal %d", WTERMSIG(st));
            else snprintf(e->why, sizeof e->why, "it exited with status %d", WEXITSTATUS(st));
            e->pid = 0;
            return;
        }
        if (r < 0 && errno != EINTR) { e->pid = 0; return; }
        if (gsw_now_ms() >= end) return;
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
}

static void engine_fds_close(match_engine_t *e)
{
    if (e->to >= 0) close(e->to);
    if (e->from >= 0) close(e->from);
    e->to = e->from = -1;
}

void engine_close(match_engine_t *e)
{
    if (e->pid > 0 && e->to >= 0) {
        static const char quit[] = "quit\n";
        ssize_t w = write(e->to, quit, sizeof quit - 1);
        (void)w;
    }
    engine_fds_close(e);   /* end of input: an engine that ignores quit reads EOF */
    if (e->pid > 0) {
        char keep[sizeof e->why];
        memcpy(keep, e->why, sizeof keep);
        engine_reap(e, 1000);
        if (e->pid > 0) {
            kill(e->pid, SIGKILL);
            engine_reap(e, 2000);
            if (e->pid > 0) {   /* not even SIGKILL: leave it (it is in its own group) */
                e->pid = 0;
            }
        }
        memcpy(e->why, keep, sizeof keep);
    }
    e->len = 0;
}

int engine_send(match_engine_t *e, const char *fmt, ...)
{
    char line[65536];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (len < 0 || len >= (int)sizeof line - 1) {
        snprintf(e->why, sizeof e->why, "a command too long to send");
        return -1;
    }
    line[len++] = '\n';
    if (e->to < 0) return -1;
    for (int off = 0; off < len;) {
        ssize_t w = write(e->to, line + off, (size_t)(len - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            snprintf(e->why, sizeof e->why, "its input is closed");
            engine_reap(e, 200);
            return -1;
        }
        off += (int)w;
    }
    return 0;
}

/* One whole line from the buffer into line (without its end); 1, or 0 when
 * none is there yet. A line longer than the buffer is cut. */
static int engine_take_line(match_engine_t *e, char *line, size_t n)
{
    char *nl = memchr(e->buf, '\n', e->len);
    size_t take;
    if (nl) take = (size_t)(nl - e->buf);
    else if (e->len == sizeof e->buf) take = e->len;   /* too long: cut here */
    else return 0;
    size_t k = take < n - 1 ? take : n - 1;
    memcpy(line, e->buf, k);
    line[k] = 0;
    if (k && line[k - 1] == '\r') line[k - 1] = 0;
    size_t drop = nl ? take + 1 : take;
    memmove(e->buf, e->buf + drop, e->len - drop);
    e->len -= drop;
    return 1;
}

/* The next line within timeout_ms: 0, -1 timeout, -2 closed, -3 stopped. */
static int engine_line(match_engine_t *e, double timeout_ms, gsw_flag_t *stop, char *line, size_t n)
{
    double end = gsw_now_ms() + timeout_ms;
    for (;;) {
        if (engine_take_line(e, line, n)) return 0;
        if (stop && *stop) return -3;
        if (e->from < 0) return -2;
        double left = end - gsw_now_ms();
        if (left <= 0) return -1;
        struct pollfd pf = { .fd = e->from, .events = POLLIN };
        int r = poll(&pf, 1, left > 100 ? 100 : (int)left + 1);
        if (r < 0 && errno != EINTR) return -2;
        if (r <= 0) continue;
        ssize_t got = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {   /* closed: it died, or closed its output */
            snprintf(e->why, sizeof e->why, "it closed its output");
            engine_reap(e, 500);
            return -2;
        }
        e->len += (size_t)got;
    }
}

/* The first word of line is word? */
static int first_word(const char *line, const char *word)
{
    while (*line == ' ' || *line == '\t') line++;
    size_t k = strlen(word);
    return !strncmp(line, word, k) && (line[k] == 0 || line[k] == ' ' || line[k] == '\t');
}

int engine_expect(match_engine_t *e, const char *word, double timeout_ms, gsw_flag_t *stop, char *line, size_t n)
{
    double end = gsw_now_ms() + timeout_ms;
    for (;;) {
        int rc = engine_line(e, end - gsw_now_ms(), stop, line, n);
        if (rc) {
            if (rc == -1) snprintf(e->why, sizeof e->why, "no \"%s\" within %.1f s", word, timeout_ms / 1000);
            return rc;
        }
        if (first_word(line, word)) return 0;
    }
}

int engine_newgame(match_engine_t *e, double timeout_ms, gsw_flag_t *stop)
{
    char line[256];
    if (engine_send(e, "ucinewgame") || engine_send(e, "isready")) {
        snprintf(e->why, sizeof e->why, "it is gone");
        return -2;
    }
    return engine_expect(e, "readyok", timeout_ms, stop, line, sizeof line);
}

int engine_score(match_engine_t *e, const char *fen, uint64_t nodes, double timeout_ms, gsw_flag_t *stop, int *cp,
                 int *mate)
{
    if (engine_send(e, "position fen %s", fen) || engine_send(e, "go nodes %llu", (unsigned long long)nodes)) {
        snprintf(e->why, sizeof e->why, "it is gone");
        return -2;
    }
    double end = gsw_now_ms() + timeout_ms;
    int have = 0;
    char line[1024];
    for (;;) {
        int rc = engine_line(e, end - gsw_now_ms(), stop, line, sizeof line);
        if (rc) {
            if (rc == -1) snprintf(e->why, sizeof e->why, "no \"bestmove\" within %.1f s", timeout_ms / 1000);
            return rc;
        }
        if (first_word(line, "bestmove")) break;
        if (!first_word(line, "info") || strstr(line, " lowerbound") || strstr(line, " upperbound")) continue;
        const char *mp = strstr(line, " multipv ");
        if (mp && atoi(mp + 9) != 1) continue;   /* (another line than the best) */
        const char *sc = strstr(line, " score ");
        if (!sc) continue;
        int x;
        if (sscanf(sc, " score cp %d", &x) == 1) {
            *cp = x;
            *mate = 0;
            have = 1;
        } else if (sscanf(sc, " score mate %d", &x) == 1) {
            *mate = x;
            *cp = 0;
            have = 1;
        }
    }
    if (!have) {
        snprintf(e->why, sizeof e->why, "no score before its bestmove");
        return -4;
    }
    return 0;
}

/* "option name NAME type ..." -> NAME into e->opt. */
static void engine_note_option(match_engine_t *e, const char *line)
{
    const char *p = strstr(line, " name ");
    if (!p || e->nopt >= (int)(sizeof e->opt / sizeof e->opt[0])) return;
    p += 6;
    while (*p == ' ') p++;
    const char *t = strstr(p, " type ");
    size_t k = t ? (size_t)(t - p) : strlen(p);
    while (k && p[k - 1] == ' ') k--;
    if (k >= sizeof e->opt[0]) k = sizeof e->opt[0] - 1;
    memcpy(e->opt[e->nopt], p, k);
    e->opt[e->nopt++][k] = 0;
}

int engine_start(match_engine_t *e, const char *cmd, const char *const *opts, int nopts, gsw_flag_t *stop,
                 err_t *err)
{
    memset(e, 0, sizeof *e);
    e->to = e->from = -1;
    char words[4096], *argv[ENGINE_MAX_WORDS];
    int argc = split_words(cmd, words, sizeof words, argv, ENGINE_MAX_WORDS);
    if (argc <= 0)
        return err_set(err, GSW_EINPUT, "--engine \"%s\": %s", cmd, argc ? "an unclosed quote or too long" : "empty");
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC)) return err_set(err, GSW_EFAIL, "pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return err_set(err, GSW_EFAIL, "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawnattr_init(&at);
    sigset_t def, none;
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGHUP);
    sigaddset(&def, SIGPIPE);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    if (rc == ENOENT && !strcmp(argv[0], "gsw"))   /* gsw not on the PATH: this very program */
        rc = posix_spawn(&pid, "/proc/self/exe", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        return err_set(err, GSW_EINPUT, "--engine \"%s\": cannot run %s: %s", cmd, argv[0], strerror(rc));
    }
    e->pid = pid;
    e->to = in[1];
    e->from = out[0];
    snprintf(e->name, sizeof e->name, "%s", argv[0]);
    char line[4096];
    if (engine_send(e, "uci")) goto dead;
    for (;;) {
        int r = engine_line(e, ENGINE_HANDSHAKE_MS, stop, line, sizeof line);
        if (r == -3) { engine_close(e); return err_set(err, GSW_EFAIL, "interrupted"); }
        if (r == -1) snprintf(e->why, sizeof e->why, "no \"uciok\" within %.0f s", ENGINE_HANDSHAKE_MS / 1000);
        if (r) goto dead;
        if (first_word(line, "uciok")) break;
        if (first_word(line, "id") && strstr(line, "id name ")) {
            const char *nm = strstr(line, "id name ") + 8;
            while (*nm == ' ') nm++;
            if (*nm) snprintf(e->name, sizeof e->name, "%s", nm);
        } else if (first_word(line, "option")) engine_note_option(e, line);
    }
    for (int i = 0; i < nopts; i++) {
        const char *eq = strchr(opts[i], '=');
        size_t k = eq ? (size_t)(eq - opts[i]) : strlen(opts[i]);
        int known = 0;
        for (int j = 0; j < e->nopt && !known; j++)
            known = strlen(e->opt[j]) == k && !strncasecmp(e->opt[j], opts[i], k);
        if (!eq || !known) {
            engine_close(e);
            if (!eq) return err_set(err, GSW_EINPUT, "--option %s: expected NAME=VALUE", opts[i]);
            return err_set(err, GSW_EINPUT, "--option %s: %s has no option \"%.*s\"", opts[i], e->name, (int)k,
                           opts[i]);
        }
        if (engine_send(e, "setoption name %.*s value %s", (int)k, opts[i], eq + 1)) goto dead;
    }
    if (engine_send(e, "isready")) goto dead;
    rc = engine_expect(e, "readyok", ENGINE_HANDSHAKE_MS, stop, line, sizeof line);
    if (rc == -3) { engine_close(e); return err_set(err, GSW_EFAIL, "interrupted"); }
    if (rc) goto dead;
    return GSW_OK;
dead:;
    char why[sizeof e->why];
    snprintf(why, sizeof why, "%s", e->why[0] ? e->why : "it did not answer");
    engine_close(e);
    if (e->why[0]) snprintf(why, sizeof why, "%s", e->why);
    return err_set(err, GSW_EINPUT, "--engine \"%s\" does not speak UCI: %s", cmd, why);
}
