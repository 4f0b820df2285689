#!/usr/bin/env bash
# One truth on every screen (issue 53): what a proof tree built with p
# proves shows as proven in the analysis pane at once (checkers 22-18 a
# win, under the 40-move rule's mark; the Opera game's Qb8+ mate in 2);
# the proof browser lists a node's children best first and f follows the
# longest resistance (27-24, not the 2-node 20-16); databases built while
# the workbench is open are read again into the values shown, at the
# current ply and after undo. Skipped (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
start() { start_wh 120 40 "$@"; }
quit() { quit_gsw "$@"; }
# the analysis pane's move rows (the lines after "Analysis:"), trimmed
pane() { screen | sed -n '/Analysis:/,$p' | cut -c27- | sed 's/^ *//; s/ *$//'; }

# 1. checkers: p proves 22-18 a win; the pane says so at once
start play checkers "'B:W20,27,28:B12,21,K22'" --opponent human
wait_for "Analysis: Black" 30 || bad "checkers did not open"
wait_for "22-18 *~" 30 || bad "no heuristic value for 22-18 before the proof"
keys p
wait_for "Proof tree: a win" 120 || bad "p built no tree"
wait_for "22-18 *win (40-move rule?)" 20 || bad "the pane does not show the tree's win for 22-18"
pane | grep -q "^\*\?22-18 *~" && bad "22-18 still heuristic in the pane"
# the first row of the pane's moves is the win: best first
first=$(pane | sed -n 2p)
case "$first" in *22-18*) ;; *) bad "the proven win is not listed first: $first" ;; esac
# 2. f follows White's longest resistance; the children are listed best first
keys f
wait_for "this node =L" 20 || bad "f did not follow"
wait_for ">27-24 " 20 || bad "the main line is not 27-24 (the largest subtree)"
rows=$(screen | grep -E "[ >](2[078]-2[34]|20-16) +=W" | sed 's/.*\(2[078]-2[34]\|20-16\).*/\1/' | tr '\n' ' ')
[ "$rows" = "27-24 28-24 27-23 20-16 " ] || bad "children not largest subtree first: $rows"
wait_for "27-24 *loss (40-move rule?)" 20 || bad "White's moves are not shown as the tree's losses"
quit checkers

# 3. chess: the Opera game's Qb8+ is mate in 2 once p proves it
start play chess "'4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16'" --opponent human
wait_for "Analysis: White" 30 || bad "chess did not open"
keys p
wait_for "Proof tree: a win" 60 || bad "p built no chess tree"
wait_for "Qb8+ *mate in 2" 30 || bad "the pane does not show Qb8+ as mate in 2"
screen | grep -q "Qb8+ *~" && bad "Qb8+ still heuristic"
quit chess

# 4. databases built while the workbench is open: the values shown are read
#    again (the current position's, and an earlier one's on undo)
mkdir -p "$tmp/eg"
start play checkers "'B:WK28,K32:BK1,K5'" --opponent human --dir "'$tmp/eg'"
wait_for "Analysis: Black" 30 || bad "the ending did not open"
wait_for "1-6 *~" 30 || bad "no heuristic value before the databases"
keys -l 1-6
keys Enter
wait_for "Analysis: White" 20 || bad "1-6 was not played"
wait_for "~" 30 || bad "no heuristic value at ply 1"
"$gsw" egdb build checkers --pieces 4 --metric wld --dir "$tmp/eg" --threads 1 >/dev/null 2>&1 || bad "the build failed"
wait_gone "~" 30 || bad "ply 1's values were not read again after the build"
keys u
wait_for "Analysis: Black" 20 || bad "undo did not go back"
wait_for "1-6 *draw" 30 || bad "after undo, 1-6 is not read again as a draw"
pane | grep -q "~" && bad "heuristic values left after undo"
quit ending
exit $fail
