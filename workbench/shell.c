/* `gsw shell`: the workbench's commands in a plain REPL. On a terminal it
 * reads with readline (history, completion); from a pipe or a file it reads
 * lines without echoing a prompt, so scripts get a clean transcript. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli/opts.h"
#include "workbench/complete.h"
#include "workbench/session.h"
#include "workbench/session_paste.h"
#include "workbench/shell.h"


/* Open a session as the options say: game, position, opponent, side, cache. */
int shell_session_open(cli_args_t *o, session_t *s, const char *deflt, err_t *err)
{
    const char *spec = o->npos >= 1 ? o->pos[0] : deflt;
    const char *pos = o->npos >= 2 ? o->pos[1] : "";
    if (o->npos > 2) return err_set(err, GSW_EINPUT, "too many arguments (GAME[:VARIANT] [POSITION])");
    if (session_init(s, spec, pos, err)) return err->code;
    s->hash_mb = opts_hash_mb(o);
    s->threads = opts_threads(o);
    s->no_line = args_flag(o, "no-line");
    const char *egdb = opts_egdb_dir(o);
    snprintf(s->egdb_dir, sizeof s->egdb_dir, "%s", egdb ? egdb : "");
    s->stop = &opts_stop;
    double ms = args_num(o, "time", 0);
    if (ms > 0) s->opp_ms = ms;   /* the opponent's time for a proof per move */
    if (args_u64(o, "nodes", 0) > 0) s->proof_nodes = args_u64(o, "nodes", 0);  /* proof's budget */
    /* play and shell take --opponent and --side; a lesson chooses its own */
    const char *opponent = args_has(o, "opponent") ? args_str(o, "opponent") : NULL;
    const char *side = args_has(o, "side") ? args_str(o, "side") : NULL;
    if (opponent && opponent_parse(opponent, &s->opp, err)) { session_free(s); return err->code; }
    if (opponent) s->opp_chosen = 1;
    if (side) {
        out_t out = { 0 };
        char line[64];
        snprintf(line, sizeof line, "side %s", side);
        int rc = session_exec(s, line, &out, err);
        out_free(&out);
        if (rc) { session_free(s); return rc; }
    } else if (opponent && s->opp.kind != OPP_HUMAN) {
        s->human[1] = 0;   /* an opponent and no side: the person plays first */
    }
    if (!args_flag(o, "no-cache") && opts_cache_open(o, &s->cache, err)) { session_free(s); return err->code; }
    return GSW_OK;
}

int shell_session_close(session_t *s, err_t *err)
{
    session_sync_close(s);
    int rc = s->cache ? cache_close(s->cache, err) : GSW_OK;
    s->cache = NULL;
    session_free(s);
    return rc;
}

/* SIGTERM or SIGHUP while readline waits for a line: end the line, so the
 * loop sees opts_term. */
static int shell_signal_hook(void)
{
    if (opts_term) rl_done = 1;
    return 0;
}

/* Is the last argument a script to run (gsw shell [GAME[:VARIANT]
 * [POSITION]] FILE)? A readable regular file, and as the only argument
 * not a game's name. */
static int shell_is_script(const cli_args_t *o)
{
    if (o->npos < 1) return 0;
    const char *arg = o->pos[o->npos - 1];
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, ":"), arg);
    struct stat sb;
    if (o->npos == 1 && game_find(name)) return 0;
    return stat(arg, &sb) == 0 && S_ISREG(sb.st_mode) && access(arg, R_OK) == 0;
}

/* paste alone: the lines that follow, up to a blank line (not the one
 * after a record's tags: session_paste_ends) or the end of the input
 * (Ctrl-D at a terminal), set up as one paste; *lineno counts
 * them. The text into *text (heap; free it); NULL out of memory or too long. */
static char *shell_paste_read(FILE *in, int tty, int *lineno, err_t *err)
{
    size_t cap = 4096, len = 0;
    char *text = malloc(cap), buf[4096];
    if (!text) { err_set(err, GSW_EFAIL, "out of memory"); return NULL; }
    text[0] = 0;
    if (tty) printf("paste the text: a blank line or Ctrl-D ends it\n");
    for (;;) {
        char *line = buf, *got = NULL;
        if (tty) {
            if (!(got = line = readline("paste> "))) break;
        } else {
            if (!fgets(buf, sizeof buf, in)) break;
            buf[strcspn(buf, "\r\n")] = 0;
        }
        (*lineno)++;
        size_t n = strlen(line);
        int end = !line[strspn(line, " \t")] && session_paste_ends(text);   /* a blank line (not a PGN's first) */
        if (!end && len + n + 2 > cap) {
            char *more = cap * 2 <= SESSION_PASTE_MAX ? realloc(text, cap * 2) : NULL;
            if (!more) {
                free(got);
                free(text);
                err_set(err, GSW_EINPUT, "paste: over %u KB, too long", SESSION_PASTE_MAX >> 10);
                return NULL;
            }
            text = more;
            cap *= 2;
        }
        if (!end) { memcpy(text + len, line, n); len += n; text[len++] = '\n'; text[len] = 0; }
        free(got);
        if (end || opts_term) break;
    }
    return text;
}

int shell_run(cli_args_t *o)
{
    err_t err;
    session_t s;
    FILE *in = stdin;
    const char *script = NULL;
    if (shell_is_script(o)) {   /* gsw shell [GAME [POSITION]] FILE: run it, as from a pipe */
        script = o->pos[--o->npos];
        if (!(in = fopen(script, "r"))) { fprintf(stderr, "gsw: cannot read %s\n", script); return GSW_EINPUT; }
    } else if (o->npos > 2) {
        fprintf(stderr, "gsw: unexpected argument '%s' (no script file of that name); usage: %.*s\n", o->pos[2],
                opts_usage_line(o->entry), o->entry->usage);
        return GSW_EINPUT;
    }
    if (shell_session_open(o, &s, "connect4", &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        if (in != stdin) fclose(in);
        return err.code;
    }
    s.sync = 1;
    s.progress = 1;
    /* --time: every position's proof budget (the opponent's too, shell_session_open); -1: the default
       where perfect play is out of reach */
    s.sync_budget_ms = args_num(o, "time", 0) > 0 ? args_num(o, "time", 0) : -1;
    int tty = !script && isatty(0), status = GSW_OK, lineno = 0;
    out_t out = { 0 };
    if (tty) {
        complete_install(&s);
        rl_signal_event_hook = shell_signal_hook;
        complete_history_load();
        char spec[96];
        game_spec(s.v, spec, sizeof spec);
        printf("gsw shell on %s; help lists the commands, quit leaves.\n", spec);
    }
    char buf[4096];
    while (!s.quit && !opts_term) {
        char *line;
        if (tty) {
            line = readline("gsw> ");
            if (!line) break;
            if (*line) add_history(line);
        } else {
            if (!fgets(buf, sizeof buf, in)) break;
            buf[strcspn(buf, "\r\n")] = 0;
            line = buf;
        }
        lineno++;
        if (opts_term) break;   /* SIGTERM or SIGHUP while reading */
        opts_stop = 0;   /* Ctrl-C stops one command, not the shell */
        out_clear(&out);
        int rc = session_exec(&s, line, &out, &err);
        if (!rc && s.paste_wait) {   /* paste alone: the text follows */
            if (out.len) fputs(out.buf, stdout);
            out_clear(&out);
            char *text = shell_paste_read(in, tty, &lineno, &err);
            rc = text ? session_exec_paste(&s, text, &out, &err) : err.code;
            s.paste_wait = 0;
            free(text);
        }
        if (out.len) fputs(out.buf, stdout);
        if (rc) {
            if (tty) fprintf(stderr, "error: %s\n", err.msg);
            else {   /* a script stops at its first failed line: nothing after it runs */
                if (script) fprintf(stderr, "gsw: %s:%d: %s (the script stops here)\n", script, lineno, err.msg);
                else fprintf(stderr, "gsw: line %d: %s (the script stops here)\n", lineno, err.msg);
                status = rc;
                fflush(stdout);
                break;
            }
        }
        fflush(stdout);
        if (tty) free(line);
    }
    if (tty) complete_history_save();
    if (in != stdin) fclose(in);
    out_free(&out);
    if (shell_session_close(&s, &err) && !status) { fprintf(stderr, "gsw: %s\n", err.msg); status = err.code; }
    if (opts_term && !status) { fprintf(stderr, "gsw: terminated; what was proven is stored\n"); status = GSW_EFAIL; }
    return status;
}
