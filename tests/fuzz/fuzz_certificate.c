/* The certificate reader of the separate checker (check/cert.c): a text
 * either parses, or is refused with a one-line reason; what parses holds
 * together (nodes sorted by id and found by it, one and all nodes with
 * their moves and children, db and strong leaves naming a file of their
 * kind, values that write and read back the same; a position may be
 * empty: Connect Four's start). abort() otherwise. */
#include "tests/fuzz/fuzz_util.h"

#include "check/cert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cert_t c;
    err_t err;
    err.msg[0] = 0;
    if (cert_parse((const char *)data, size, "input", "dir", &c, &err)) {
        if (!err.msg[0] || strchr(err.msg, '\n')) abort();
        return 0;
    }
    if (!c.game[0] || c.nroot < 1 || c.nroot > 2 || c.nnode < 1) abort();
    for (int i = 0; i < c.nnode; i++) {
        const cert_node_t *n = &c.node[i];
        if (i && c.node[i - 1].id >= n->id) abort();
        if (cert_find(&c, n->id) != i) abort();
        if (n->kind < CK_ONE || n->kind > CK_REP || !n->pos) abort();   /* "" is Connect Four's start */
        if ((n->kind == CK_ONE && (n->nmove != 1 || !n->ge)) || (n->kind == CK_ALL && (n->nmove < 1 || n->ge))) abort();
        if (n->kind > CK_ALL && n->nmove) abort();
        if ((n->kind == CK_DB || n->kind == CK_STRONG)
            && (n->file < 0 || n->file >= c.nfile || c.file[n->file].strong != (n->kind == CK_STRONG)))
            abort();
        for (int k = 0; k < n->nmove; k++)
            if (!n->move[k] || !n->move[k][0]) abort();
        char text[32];
        int32_t back;
        cv_text(n->v, text, sizeof text);
        if (cv_parse(text, &back) || back != n->v) abort();
    }
    cert_free(&c);
    return 0;
}
