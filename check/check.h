/* A proof certificate checked node by node (docs/CERTIFICATE.md: legal
 * moves, every move of an opponent's node, children's positions, values
 * combined, the leaves' evidence, every node reached and referenced,
 * cycles only where endless play is a draw). */
#ifndef GSW_CHECK_CHECK_H
#define GSW_CHECK_CHECK_H

/* Check the certificate at path; with deep, the database files its
 * leaves name by retrograde consistency too (deep.h). Prints one line of
 * verdict (and a bad node's line of moves) and returns the exit status:
 * 0 everything holds, 1 a check failed, 2 unreadable input. */
int check_certificate(const char *path, int deep);

#endif
