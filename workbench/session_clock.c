/* A game on a clock (see session_clock.h). */
#include "workbench/session_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The computer's share of its time for a move: what is left over this many
 * moves, plus this much of the increment, never more than this fraction of
 * what is left, less the front end's delay in playing it (the TUI ticks
 * every 10 ms while the computer is to move on a clock). A 10 s game
 * without increment keeps a quarter of its time after 50 moves. */
#define CLOCK_MOVES_LEFT 40
#define CLOCK_INC_SHARE 0.75
#define CLOCK_MAX_SHARE 0.25
#define CLOCK_DELAY_MS 30
#define CLOCK_MIN_MS 5

/* One time of a control: minutes ("5", "0.5"), minutes:seconds ("0:30"),
 * or seconds ("90s"); -1 when it is none of these. */
static double clock_time(const char *t, size_t len, int minutes)
{
    char buf[32], *end;
    if (!len || len >= sizeof buf) return -1;
    memcpy(buf, t, len);
    buf[len] = 0;
    /* digits, a point and the forms' marks only (strtod alone would take
       "nan", "inf" and hexadecimal) */
    if (strspn(buf, "0123456789.:s") != len) return -1;
    char *colon = strchr(buf, ':');
    if (colon) {
        *colon = 0;
        long m = strtol(buf, &end, 10);
        if (end == buf || *end || m < 0 || strlen(colon + 1) != 2) return -1;
        double sec = strtod(colon + 1, &end);
        if (*end || sec < 0 || sec >= 60) return -1;
        return (m * 60.0 + sec) * 1000;
    }
    int secs = buf[len - 1] == 's';
    if (secs) buf[len - 1] = 0;
    double x = strtod(buf, &end);
    if (end == buf || *end || x < 0) return -1;
    return x * 1000 * (secs || !minutes ? 1 : 60);
}

int clock_parse(const char *text, double *base_ms, double *inc_ms, err_t *err)
{
    const char *plus = strchr(text, '+');
    size_t blen = plus ? (size_t)(plus - text) : strlen(text);
    double base = clock_time(text, blen, 1), inc = plus ? clock_time(plus + 1, strlen(plus + 1), 0) : 0;
    if (base == 0 && inc >= 0)   /* well formed, but no time to play in */
        return err_set(err, GSW_EINPUT, "clock \"%s\": no time to start with; the first figure is each side's time "
                       "(5+3: 5 minutes each and 3 s more a move; 0:30+1 for 30 s)", text);
    if (base <= 0 || base > 24 * 3600e3 || inc < 0 || inc > 3600e3)
        return err_set(err, GSW_EINPUT, "clock \"%s\": a time control is MINUTES+SECONDS (5+3: 5 minutes each and 3 s "
                       "more a move; 0:30+1 for 30 s; 90s+0; at most 24 hours, an increment up to an hour)", text);
    *base_ms = base;
    *inc_ms = inc;
    return GSW_OK;
}

void clock_text(double base_ms, double inc_ms, char *buf, size_t n)
{
    double sec = base_ms / 1000;
    if (sec >= 60 && (long)sec % 60 == 0) snprintf(buf, n, "%ld+%g", (long)sec / 60, inc_ms / 1000);
    else snprintf(buf, n, "%ld:%02ld+%g", (long)sec / 60, (long)sec % 60, inc_ms / 1000);
}

void clock_time_text(double ms, char *buf, size_t n)
{
    if (ms < 0) ms = 0;
    if (ms < 20000) { snprintf(buf, n, "%.1f", (double)(long)(ms / 100) / 10); return; }   /* (tenths, never rounded up) */
    long sec = (long)(ms / 1000);
    if (sec >= 3600) snprintf(buf, n, "%ld:%02ld:%02ld", sec / 3600, sec / 60 % 60, sec % 60);
    else snprintf(buf, n, "%ld:%02ld", sec / 60, sec % 60);
}

void session_clock_set(session_t *s, double base_ms, double inc_ms)
{
    s->clock.on = 1;
    s->clock.base_ms = base_ms;
    s->clock.inc_ms = inc_ms;
    session_clock_restart(s);
}

void session_clock_off(session_t *s)
{
    s->clock.on = 0;
    s->clock.flag_ply = -1;
}

void session_clock_restart(session_t *s)
{
    session_clock_t *c = &s->clock;
    c->left[s->ply][0] = c->left[s->ply][1] = c->base_ms;
    c->running = c->held = 0;
    c->used = 0;
    c->flag_ply = -1;
}

void session_clock_goto(session_t *s, double now)
{
    s->clock.used = 0;
    s->clock.since = now;
    s->clock.flag_ply = -1;
}

/* Is the side to move's time running now? */
static int clock_runs(const session_t *s)
{
    const session_clock_t *c = &s->clock;
    return c->on && c->running && !c->held && c->flag_ply < 0 && s->v->game->players == 2 && !s->lesson
           && !session_over(s, NULL);
}

double session_clock_left(const session_t *s, int side, double now)
{
    const session_clock_t *c = &s->clock;
    double left = c->left[s->ply][side];
    if (side == session_turn(s) && c->flag_ply != s->ply) left -= c->used + (clock_runs(s) ? now - c->since : 0);
    return left > 0 ? left : 0;
}

int session_clock_tick(session_t *s, double now, int hold)
{
    session_clock_t *c = &s->clock;
    if (!c->on || c->flag_ply >= 0 || s->v->game->players != 2 || s->lesson) return 0;   /* (a puzzle, a lesson: no race) */
    if (!c->running) { c->running = 1; c->since = now; c->used = 0; }
    if (hold != c->held) {   /* held: the time so far is kept in used; let go: it runs from now */
        if (hold && clock_runs(s)) c->used += now - c->since;
        c->held = hold;
        c->since = now;
    }
    if (!clock_runs(s) || session_clock_left(s, session_turn(s), now) > 0) return 0;
    c->flag_ply = s->ply;
    int mover = session_turn(s);
    c->left[s->ply][mover] = 0;   /* (what is left is shown as nothing) */
    c->used = 0;
    c->flag_draw = s->v->ops->cannot_win && s->v->ops->cannot_win(s->v, session_pos(s), 1 - mover);
    return 1;
}

void session_clock_moved(session_t *s, double now)
{
    session_clock_t *c = &s->clock;
    if (!c->on || s->ply < 1) return;
    int mover = s->v->ops->pos_turn(s->v, s->pos[s->ply - 1].b);
    memcpy(c->left[s->ply], c->left[s->ply - 1], sizeof c->left[0]);
    if (c->running) {
        double spent = c->used + (c->held ? 0 : now - c->since), left = c->left[s->ply - 1][mover] - spent;
        c->left[s->ply][mover] = (left > 0 ? left : 0) + c->inc_ms;
    }
    c->used = 0;
    c->since = now;
}

/* The sides' names as the board's view gives them ("White"), else by turn. */
static void side_names(const session_t *s, char name[2][24])
{
    snprintf(name[0], 24, "the first player");
    snprintf(name[1], 24, "the second player");
    if (!s->v->ops->view) return;
    static _Thread_local board_view_t view;
    s->v->ops->view(s->v, session_pos(s), &view);
    for (int i = 0; i < 2; i++)
        if (view.side[i][0]) snprintf(name[i], 24, "%s", view.side[i]);
}

void session_clock_text(const session_t *s, double now, char *buf, size_t n)
{
    char name[2][24], a[24], b[24], control[48];
    side_names(s, name);
    clock_text(s->clock.base_ms, s->clock.inc_ms, control, sizeof control);
    clock_time_text(session_clock_left(s, 0, now), a, sizeof a);
    clock_time_text(session_clock_left(s, 1, now), b, sizeof b);
    snprintf(buf, n, "clock %s: %s %s, %s %s", control, name[0], a, name[1], b);
}

int session_clock_over(const session_t *s, val_t *value, char *why, size_t n)
{
    const session_clock_t *c = &s->clock;
    if (!c->on || c->flag_ply != s->ply) return 0;
    int out = session_turn(s);
    char name[2][24];
    side_names(s, name);
    if (value) *value = c->flag_draw ? VAL_DRAW : val_loss(0);
    if (why && n) {
        if (c->flag_draw) snprintf(why, n, "%s out of time, but %s cannot win", name[out], name[1 - out]);
        else snprintf(why, n, "%s out of time", name[out]);
    }
    return 1;
}

double session_clock_budget(const session_t *s)
{
    const session_clock_t *c = &s->clock;
    double left = c->left[s->ply][session_turn(s)] - c->used;
    double b = left / CLOCK_MOVES_LEFT + CLOCK_INC_SHARE * c->inc_ms;
    if (b > left * CLOCK_MAX_SHARE) b = left * CLOCK_MAX_SHARE;
    b -= CLOCK_DELAY_MS;
    return b > CLOCK_MIN_MS ? b : CLOCK_MIN_MS;
}
