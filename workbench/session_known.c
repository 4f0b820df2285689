/* What the workbench knows of a position beyond its analysis: the proof
 * tree being browsed (its nodes, their order best first, the main line)
 * and what is learned while a game is on (a proof tree, databases built),
 * merged into every analysis shown (see session.h). */
#include "workbench/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/manifest.h"
#include "solve/analyst.h"
#include "solve/certificate.h"
#include "solve/egdb.h"
#include "solve/prover.h"

/* ---- one knowledge ---- */

void session_learned(session_t *s)
{
    for (int i = 0; i <= s->top && i <= SESSION_MAX_PLY; i++)
        if (s->an[i]) s->stale[i] = 1;
}

void session_look(session_t *s)
{
    if (!s->v->ops->retro) return;
    char dir[1100];
    err_t err;
    if (s->egdb_dir[0]) snprintf(dir, sizeof dir, "%s", s->egdb_dir);
    else if (egdb_default_dir(s->cache ? cache_filename(s->cache) : NULL, dir, sizeof dir, &err)) return;
    int64_t t = egdb_folder_stamp(dir, s->v);
    if (t != s->known_stamp) {
        if (s->known_stamp) session_learned(s);
        s->known_stamp = t;
    }
}

/* The browse node of the position at ply (-1: none, or off the tree). */
static int browse_node_at(const session_t *s, int ply)
{
    if (!s->br || ply < s->br_ply0 || ply > s->top) return -1;
    int node = 0;
    for (int p = s->br_ply0; p < ply; p++) {
        const browse_node_t *nd = &s->br->node[node];
        int next = -1;
        for (int c = nd->first; c < nd->first + nd->nchildren && next < 0; c++)
            if (s->br->node[c].move == s->moves[p]) next = c;
        if (next < 0) return -1;
        node = next;
    }
    return node;
}

void session_merge_known(session_t *s, int ply)
{
    analysis_t *an = ply >= 0 && ply <= SESSION_MAX_PLY ? s->an[ply] : NULL;
    int node = an ? browse_node_at(s, ply) : -1;
    if (node < 0 || s->v->game->players != 2) return;
    const browse_node_t *nd = &s->br->node[node];
    const analyst_task_t *t = session_task(s, ply);
    /* a proof tree values positions alone: under the game's move-count
       rule a win or a loss it proves may be drawn by the rule first (late) */
    int counts = s->v->ops->count_rule && s->v->ops->pos_reversible && !s->no_line && !(t && t->alone);
    for (int c = nd->first; c < nd->first + nd->nchildren; c++) {
        const browse_node_t *ch = &s->br->node[c];
        if (!ch->known) continue;
        val_t lo, hi;
        prover_bounds_up(ch->lo, ch->hi, &lo, &hi);
        for (int i = 0; i < an->n; i++) {
            move_value_t *m = &an->mv[i];
            if (m->move != ch->move || (m->state == MV_PROVEN && (m->lo == m->hi || m->final))) continue;
            if (m->state == MV_PROVEN) {
                if (m->lo > lo) lo = m->lo;
                if (m->hi < hi) hi = m->hi;
                if (lo > hi) break;   /* (they disagree: the analysis's own stands) */
            }
            m->state = MV_PROVEN;
            m->lo = lo;
            m->hi = hi;
            if (lo != hi && (lo > VAL_DRAW || hi < VAL_DRAW)) {   /* settled: no search narrows it */
                m->final = 1;
                m->conv = -1;
                if (counts) m->late = 2;   /* (the rule may draw it first) */
            }
        }
    }
    analysis_settle(an);
}

/* Browsing: nobody moves on its own; the sides come back on close. */
static void session_browse_open(session_t *s, browse_t *b)
{
    if (s->br) { free(s->br->node); free(s->br); }
    else memcpy(s->br_human, s->human, sizeof s->human);
    s->br = b;
    b->leaf_node = -1;
    s->br_ply0 = s->ply;
    s->human[0] = s->human[1] = 1;
}

const char *session_browse_leaf(session_t *s, int node)
{
    browse_t *b = s->br;
    if (!b || node < 0 || node >= b->n || !b->node[node].leaf) return "";
    if (b->leaf_node == node) return b->leaf_text;
    b->leaf_node = node;
    char *t = b->leaf_text;
    size_t n = sizeof b->leaf_text;
    const game_ops_t *O = s->v->ops;
    val_t tv;
    if (b->node[node].leaf == 2) {
        snprintf(t, n, "settled by the search, not expanded (the tree was too large): `proof` here proves its own tree");
        return t;
    }
    if (O->terminal(s->v, session_pos(s), &tv)) {
        snprintf(t, n, "the game is over here");
        return t;
    }
    prover_options_t po = { .cache = s->cache, .egdb_dir = session_egdb_dir(s) };
    move_t line[48];
    int k = 0;
    char why[120];
    err_t err;
    int r = prover_db_line(&po, s->v, session_pos(s), &tv, line, 48, &k, why, sizeof why, &err);
    if (r < 0) { snprintf(t, n, "the databases: %s", err.msg); return t; }
    if (r == 0) {
        snprintf(t, n, "settled by the game's rules or the endgame databases (perfect line: %s)", why);
        return t;
    }
    char vt[48];
    value_text(tv, tv, vt, sizeof vt);
    int len = snprintf(t, n, "the databases: %s; perfect line:", vt);
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, session_pos(s), O->pos_size);
    for (int i = 0; i < k && len < (int)n - 40; i++) {
        char mt[32];
        O->move_format(s->v, cur, line[i], mt, sizeof mt);
        len += snprintf(t + len, n - (size_t)len, " %s", mt);
        O->play(s->v, cur, line[i]);
    }
    if (k == 48 || len >= (int)n - 40) snprintf(t + len, n - (size_t)len, " ...");
    else if (O->terminal(s->v, cur, &tv)) snprintf(t + len, n - (size_t)len, " (the end)");
    return t;
}

void session_browse_close(session_t *s)
{
    if (!s->br) return;
    free(s->br->node);
    free(s->br);
    s->br = NULL;
    memcpy(s->human, s->br_human, sizeof s->human);
}

int session_browse_node(const session_t *s)
{
    return browse_node_at(s, s->ply);
}

/* What is known of child c of the current node, for the player moving
 * there, as a move value for the one order: the analysis's value where it
 * proves one, else the tree's, else its proof or disproof number as a
 * score (the smaller the better for the side to move). */
static move_value_t browse_child_value(const session_t *s, int c, int att)
{
    const browse_node_t *ch = &s->br->node[c];
    const analysis_t *an = s->an[s->ply];
    for (int i = 0; an && i < an->n; i++)
        if (an->mv[i].move == ch->move && an->mv[i].state == MV_PROVEN
            && (an->mv[i].lo > VAL_DRAW || an->mv[i].hi < VAL_DRAW || an->mv[i].lo == an->mv[i].hi))
            return an->mv[i];
    move_value_t m = { .move = ch->move, .conv = -1 };
    if (ch->known) {
        m.state = MV_PROVEN;
        prover_bounds_up(ch->lo, ch->hi, &m.lo, &m.hi);
        m.final = m.lo > VAL_DRAW || m.hi < VAL_DRAW;
        return m;
    }
    uint32_t x = att ? ch->pn : ch->dn;
    m.state = MV_HEURISTIC;
    m.depth = 1;
    m.score = x >= 1000000 ? -1000000 : -(int32_t)x;
    return m;
}

int session_browse_order(const session_t *s, int node, int *order)
{
    const browse_node_t *nd = &s->br->node[node];
    int att = session_turn(s) == s->v->ops->pos_turn(s->v, s->pos[s->br_ply0].b), n = nd->nchildren;
    move_value_t mv[GSW_MAX_MOVES];
    if (n > GSW_MAX_MOVES) n = GSW_MAX_MOVES;
    for (int k = 0; k < n; k++) {
        mv[k] = browse_child_value(s, nd->first + k, att);
        order[k] = k;
    }
    /* the one order; where it ties, the winner's shortest proof first and
       the loser's largest (the longest resistance where distances are unknown) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int x = order[j], y = order[j - 1], c = move_value_cmp(&mv[x], &mv[y]);
            if (!c && mv[x].state == MV_PROVEN) {
                int sx = s->br->node[nd->first + x].size, sy = s->br->node[nd->first + y].size;
                c = mv[x].lo > VAL_DRAW ? sx - sy : sy - sx;
            }
            if (c >= 0) break;
            order[j] = y;
            order[j - 1] = x;
        }
    for (int k = 0; k < n; k++) order[k] += nd->first;
    return n;
}

int session_browse_value_text(const session_t *s, int c, char *buf, size_t n)
{
    const analysis_t *an = s->an[s->ply];
    buf[0] = 0;
    for (int i = 0; an && i < an->n; i++)
        if (an->mv[i].move == s->br->node[c].move && an->mv[i].state == MV_PROVEN)
            return session_value_text(s, s->ply, &an->mv[i], buf, n);
    return 0;
}

int session_browse_principal(const session_t *s, int node)
{
    int order[GSW_MAX_MOVES];
    return session_browse_order(s, node, order) > 0 ? order[0] : s->br->node[node].first;
}

static browse_t *browse_new(int n, err_t *err)
{
    browse_t *b = calloc(1, sizeof *b);
    if (b) b->node = calloc((size_t)(n ? n : 1), sizeof *b->node);
    if (!b || !b->node) { if (b) free(b); err_set(err, GSW_EFAIL, "out of memory"); return NULL; }
    b->n = n;
    return b;
}

int session_browse_proof(session_t *s, const proof_tree_t *t, err_t *err)
{
    browse_t *b = browse_new(t->n, err);
    if (!b) return err->code;
    /* the depth-first tree, re-laid breadth-first so children sit together */
    int *map = malloc((size_t)t->n * sizeof *map), *queue = malloc((size_t)t->n * sizeof *queue);
    if (!map || !queue) { free(map); free(queue); free(b->node); free(b); return err_set(err, GSW_EFAIL, "out of memory"); }
    const game_ops_t *O = s->v->ops;
    int root_turn = O->pos_turn(s->v, session_pos(s)), head = 0, tail = 0, next = 1;
    queue[tail++] = 0;
    map[0] = 0;
    b->node[0].parent = -1;
    b->node[0].move = MOVE_NONE;
    /* turns follow the tree: a child's side to move is the other side (two-player games) */
    int *att = malloc((size_t)t->n * sizeof *att);
    if (!att) { free(map); free(queue); free(b->node); free(b); return err_set(err, GSW_EFAIL, "out of memory"); }
    att[0] = 1;
    (void)root_turn;
    while (head < tail) {
        int i = queue[head++];
        browse_node_t *bn = &b->node[map[i]];
        const proof_node_t *pn = &t->node[i];
        bn->size = pn->size;
        bn->leaf = pn->leaf;
        prover_node_bounds(t->goal, t->result, att[i], &bn->lo, &bn->hi);
        bn->known = 1;
        bn->pn = t->result == DFPN_PROVEN ? 0 : DFPN_INF;
        bn->dn = t->result == DFPN_PROVEN ? DFPN_INF : 0;
        snprintf(bn->label, sizeof bn->label, "%s", prover_value_text(t, att[i], 1));
        bn->first = next;
        bn->nchildren = pn->nchildren;
        int k = i + 1;
        for (int c = 0; c < pn->nchildren; c++) {
            map[k] = next++;
            b->node[map[k]].parent = map[i];
            b->node[map[k]].move = t->node[k].move;
            att[k] = !att[i];
            queue[tail++] = k;
            k += t->node[k].size;
        }
    }
    free(att);
    free(map);
    free(queue);
    snprintf(b->title, sizeof b->title, "Proof tree: %s for the side to move (%d node%s)", proof_result_text(t->goal, t->result),
             t->n, t->n == 1 ? "" : "s");
    session_browse_open(s, b);
    return GSW_OK;
}

int session_browse_manager(session_t *s, const manager_t *m, err_t *err)
{
    browse_t *b = browse_new(m->n, err);
    if (!b) return err->code;
    proof_tree_t shape = { .goal = m->goal };
    for (int i = 0; i < m->n; i++) {
        const mg_node_t *g = &m->node[i];
        browse_node_t *bn = &b->node[i];
        bn->move = g->move;
        bn->parent = g->parent;
        bn->first = g->first_child;
        bn->nchildren = g->nchildren;
        bn->pn = g->pn;
        bn->dn = g->dn;
        bn->leaf = g->first_child < 0 && (g->pn == 0 || g->dn == 0);
        int assumed = g->status == MG_ASSUMED_PROVEN || g->status == MG_ASSUMED_DISPROVEN;
        if (g->pn == 0 || g->dn == 0) {
            shape.result = g->pn == 0 ? DFPN_PROVEN : DFPN_DISPROVEN;
            snprintf(bn->label, sizeof bn->label, "%s%s", assumed ? "~" : "", prover_value_text(&shape, g->attacker, 1));
            if (!assumed) {
                prover_node_bounds(m->goal, shape.result, g->attacker, &bn->lo, &bn->hi);
                bn->known = 1;
            }
        } else {
            snprintf(bn->label, sizeof bn->label, "?");
        }
    }
    for (int i = m->n - 1; i >= 0; i--) {   /* sizes, children after parents */
        b->node[i].size++;
        if (b->node[i].parent >= 0) b->node[b->node[i].parent].size += b->node[i].size;
    }
    snprintf(b->title, sizeof b->title, "Manager's tree: %s?, %d node%s, t=%d", m->goal == DFPN_GOAL_WIN ? "a win" : "at least a draw",
             m->n, m->n == 1 ? "" : "s", (int)m->t);
    session_browse_open(s, b);
    return GSW_OK;
}

/* A proof or disproof number as people read it ("inf" for settled). */
static const char *pn_text(uint32_t x, char buf[16])
{
    if (x >= DFPN_INF) snprintf(buf, 16, "inf");
    else snprintf(buf, 16, "%u", x);
    return buf;
}

void session_show_proof(session_t *s, out_t *out)
{
    int node = session_browse_node(s);
    if (node < 0) { out_printf(out, "off the proof tree (undo to go back)\n"); return; }
    const browse_node_t *nd = &s->br->node[node];
    char pn[16], dn[16];
    out_printf(out, "node %s, pn %s, dn %s (%d nodes)%s\n", nd->label, pn_text(nd->pn, pn), pn_text(nd->dn, dn), nd->size,
               nd->leaf ? ": a leaf" : "");
    if (nd->leaf) out_printf(out, "  %s\n", session_browse_leaf(s, node));
    int order[GSW_MAX_MOVES], n = session_browse_order(s, node, order);
    for (int k = 0; k < n; k++) {   /* best first: the first is the main line (f) */
        const browse_node_t *ch = &s->br->node[order[k]];
        char mt[32], vt[64];
        s->v->ops->move_format(s->v, session_pos(s), ch->move, mt, sizeof mt);
        session_browse_value_text(s, order[k], vt, sizeof vt);
        out_printf(out, "%c %-5s %-4s pn %s dn %s (%d)%s%s\n", k ? ' ' : '>', mt, ch->label, pn_text(ch->pn, pn),
                   pn_text(ch->dn, dn), ch->size, vt[0] ? "; the move: " : "", vt);
    }
}

int session_certificate(session_t *s, const char *path, out_t *out, err_t *err)
{
    if (!s->br) return err_set(err, GSW_EINPUT, "certificate FILE: open a proof tree first (proof), then write what it proves");
    if (!path || !path[0]) return err_set(err, GSW_EINPUT, "certificate FILE: the file to write the certificate to");
    const browse_node_t *root = &s->br->node[0];
    if (!root->known) return err_set(err, GSW_EINPUT, "the proof tree proves nothing yet: there is nothing to certify");
    char spec[96], made[256];
    game_spec(s->v, spec, sizeof spec);
    snprintf(made, sizeof made, "gsw %s (commit %s): the workbench's proof browser, %s", manifest_gsw_version(),
             manifest_gsw_commit(), spec);
    const char *dir = session_egdb_dir(s);
    cert_options_t co = { .egdb_dir = dir, .strong_dir = dir, .db = s->cache ? cache_filename(s->cache) : NULL,
                          .hash_mb = s->hash_mb, .stop = s->stop, .made = made };
    cert_report_t rep;
    const void *pos = s->pos[s->br_ply0].b;
    if (cert_export_bounds(&co, s->v, pos, root->lo, root->hi, path, &rep, err)) return err->code;
    char text[256];
    s->v->ops->pos_format(s->v, pos, text, sizeof text);
    out_printf(out, "certificate of the tree's root (%s): %s for the side to move, the position's value alone; %llu nodes, "
               "depth %d, %llu leaves at the game's end, %llu in databases, %llu in a strong solution; written to %s "
               "in %.1f s (gsw-check %s checks it)\n", text, rep.claim, (unsigned long long)rep.nodes, rep.depth,
               (unsigned long long)rep.leaves[CERT_LEAF_END], (unsigned long long)rep.leaves[CERT_LEAF_DB],
               (unsigned long long)rep.leaves[CERT_LEAF_STRONG], path, rep.ms / 1000, path);
    return GSW_OK;
}
