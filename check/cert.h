/* The certificate reader of the separate checker: a proof certificate's
 * text (docs/CERTIFICATE.md, format 1) parsed into its header and node
 * lines, and the values and bounds they carry. It checks the syntax only;
 * check.c checks what the certificate claims. */
#ifndef GSW_CHECK_CERT_H
#define GSW_CHECK_CERT_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* Values, ordered, best first: win/D is CV_WIN - D, win is 1, draw 0,
 * loss -1, loss/D is -CV_WIN + D. */
#define CV_WIN 2000000
#define CV_DIST 1000000        /* |v| >= this: a value with its distance */
#define CV_MAXD 99999          /* the longest distance a certificate may give */
int cv_parse(const char *s, int32_t *v);              /* 0, or -1 when s is no value */
void cv_text(int32_t v, char *buf, size_t n);         /* "win/3", "draw" */
int32_t cv_up(int32_t child);                         /* a child's value seen by its parent */

enum { CK_ONE, CK_ALL, CK_END, CK_DB, CK_STRONG, CK_REP };
extern const char *const cert_kind_name[];

typedef struct cert_node {
    int64_t id;
    int kind;
    int ge;                    /* the bound: 1 ">=", 0 "<=" */
    int32_t v;
    int nmove;                 /* one, all: the moves and the children they reach */
    char **move;
    int64_t *child;
    int file;                  /* db, strong: index into cert_t.file */
    char *pos;                 /* the position as gsw writes it */
    int line;                  /* its line in the file */
} cert_node_t;

typedef struct cert_file {
    char fid[64];
    int strong;                /* 0: egdb, 1: a strong solution's set */
    char sha256[65];
    char path[1024];           /* as resolved against the certificate's folder */
    int w, h, ply, set;        /* strong: the board, the ply, the set (0 won, 1 drawn, 2 lost) */
    char enc[16], order[16];
} cert_file_t;

typedef struct cert {
    char game[64];
    int64_t root[2];
    int nroot;
    char **line;               /* the positions played before the root, oldest first */
    int nline;
    cert_file_t *file;
    int nfile;
    cert_node_t *node;         /* sorted by id */
    int nnode;
    long size_nodes, size_depth;   /* the header's size line (-1: none) */
} cert_t;

/* Parse text (n bytes; name for messages; dir: the certificate's folder,
 * for relative paths): GSW_OK, or GSW_EINPUT naming the line. */
int cert_parse(const char *text, size_t n, const char *name, const char *dir, cert_t *c, err_t *err);
void cert_free(cert_t *c);
/* The node with id, or -1. */
int cert_find(const cert_t *c, int64_t id);

#endif
