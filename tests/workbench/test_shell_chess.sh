#!/usr/bin/env bash
# Chess in `gsw shell`: moves typed in SAN and UCI (bare and after "move"),
# castling, promotion to each piece, the game's end said with its reason
# (checkmate, stalemate, insufficient material, the 50-move rule, threefold
# repetition), an illegal move and a mistyped command answered in one line
# (exit 2), the heuristic opponent at several levels playing legal moves
# quickly, a heuristic hint and analysis within the shell's budget (with
# the engine's line, scores in pawns, mate in N), and export writing PGN.
set -u
gsw=${GSW_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# sh SCRIPT [ARGS...]: gsw shell chess with the script on stdin; out, err, rc
sh() {
  local script=$1
  shift
  printf '%b' "$script" | timeout 120 "$gsw" shell chess "$@" --no-cache --threads 1 --hash 16 >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
has() { grep -q -- "$1" "$tmp/out" || bad "$2: $(cat "$tmp/out" "$tmp/err")"; }

# SAN and UCI, castling; the board and the PGN record
sh 'e4\nmove e7e5\nNf3\nmove Nc6\nBb5\na7a6\nBa4\nNf6\nO-O\nshow\nexport\nexport '"$tmp"'/g.pgn\n'
[ "$rc" -eq 0 ] || bad "SAN/UCI script exit $rc: $(cat "$tmp/err")"
has '^  1  R  N  B  Q  \.  R \[K\] \. $' "O-O put the king on g1 and the rook on f1"
has 'position "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 3 5"' "the FEN after 5. O-O"
if grep -q '^\[Event ' "$tmp/g.pgn" 2>/dev/null; then
  grep -q '^1\. e4 e5 2\. Nf3 Nc6 3\. Bb5 a6 4\. Ba4 Nf6 5\. O-O \*$' "$tmp/g.pgn" || bad "the PGN's moves: $(cat "$tmp/g.pgn")"
  grep -q '^\[Result "\*"\]$' "$tmp/g.pgn" || bad "the PGN's result tag"
  has '^1\. e4 e5 2\. Nf3' "export without a file prints the record"
else
  echo "note: export wrote no PGN (the chess record writer is not in this build): $(head -c 200 "$tmp/g.pgn" 2>/dev/null)"
fi

# save with a path writes the record (a user's "save game.pgn" was put in
# the cache under that name, and no file appeared); a folder that is not
# there is named with the reason
sh 'e4\ne5\nsave '"$tmp"'/s.pgn\nsave '"$tmp"'/none/s.pgn\n'
has "^wrote $tmp/s.pgn (the game's record, 2 plies" "save FILE says it wrote the record"
grep -q '^1\. e4 e5 \*$' "$tmp/s.pgn" 2>/dev/null || bad "save FILE: the PGN's moves: $(cat "$tmp/s.pgn" 2>&1)"
grep -q "cannot write $tmp/none/s.pgn: No such file or directory" "$tmp/err" ||
  bad "save into a missing folder: $(cat "$tmp/err")"

# proof on a short mate goes through the mate prover first: the Opera
# game's mate in 2 within 200,000 nodes (the value's search alone used 25 s
# and tens of millions), and the mated side's tree
sh 'proof\nfollow\nfollow\n' '4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16' --nodes 200000
[ "$rc" -eq 0 ] || bad "proof of a mate in 2 within 200,000 nodes: exit $rc: $(cat "$tmp/err")"
has '^Proof tree: a win for the side to move (4 nodes), depth 3' "the mate in 2's proof tree"
has '^[> ] Rd8#  =L' "following it reaches Rd8#"
sh 'proof\n' '1Q2kb1r/p2n1ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 b k - 1 16' --nodes 200000
has '^Proof tree: a loss for the side to move (3 nodes), depth 2' "mated in 1: the loss's tree"

# promotion: UCI with the piece, SAN with =, a bare destination refused
sh 'new chess 4k3/1P6/8/8/8/8/6K1/8 w - - 0 1\nb7b8n\nshow\nundo\nb8=Q+\nshow\nundo\nb8=R\nundo\nb7b8b\n'
[ "$rc" -eq 0 ] || bad "promotion script exit $rc: $(cat "$tmp/err")"
has '^  8  \. \[N\] \.  \.  k' "b7b8n made a knight"
has 'a draw (insufficient material)' "K+N v K is a dead position"
has '^  8  \. \[Q\] \.  \.  k' "b8=Q+ made a queen"
has 'check: the king must be saved' "the check is said"
sh 'new chess 4k3/1P6/8/8/8/8/6K1/8 w - - 0 1\nb8\n'
[ "$rc" -eq 2 ] && grep -q '^gsw: line 2: illegal move "b8": a promotion needs a piece' "$tmp/err" \
  && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "b8 without a piece (exit $rc): $(cat "$tmp/err")"

# an illegal move and a mistyped command: one line each, exit 2
sh 'e5\n'
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^gsw: line 1: illegal move "e5" in this position (the script stops here)$' "$tmp/err" \
  || bad "an illegal move (exit $rc): $(cat "$tmp/err")"
sh 'e4\nmove e2e4\n'
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^gsw: line 2: illegal move "e2e4"' "$tmp/err" \
  || bad "move e2e4 twice (exit $rc): $(cat "$tmp/err")"
sh 'O-O-O\n'
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'O-O-O' "$tmp/err" || bad "O-O-O at the start (exit $rc): $(cat "$tmp/err")"
sh 'shwo\n'
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^gsw: line 1: unknown command "shwo" (help lists the commands' "$tmp/err" \
  || bad "a mistyped command (exit $rc): $(cat "$tmp/err")"
# a command that takes nothing refuses text after it (solve FEN does not
# solve the board's position in its place), before it runs
sh 'solve 8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1\n'
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] \
  && grep -q '^gsw: line 1: solve takes nothing after it, not "8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1" (it reads the position on the board: fen FEN' "$tmp/err" \
  || bad "solve with a FEN (exit $rc): $(cat "$tmp/out" "$tmp/err")"
sh 'e4\nhistory please\n'
[ "$rc" -eq 2 ] && grep -q '^gsw: line 2: history takes nothing after it, not "please" (the script stops here)$' "$tmp/err" \
  || bad "history with text (exit $rc): $(cat "$tmp/err")"

# the end of the game and why
sh 'new chess 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\nRa8#\n'
has '^Game over: White wins (checkmate)\.$' "checkmate"
sh 'new chess 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n'
has '^Game over: a draw (stalemate)\.$' "stalemate"
sh 'new chess 7k/8/8/8/8/8/8/R6K w - - 99 80\nRa2\n'
has '^Game over: a draw (50-move rule)\.$' "the 50-move rule"
sh 'Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\nexport\ne4\n'
has '^Game over: a draw (threefold repetition)\.$' "threefold repetition"
[ "$rc" -eq 2 ] && grep -q 'the game is over (threefold repetition)' "$tmp/err" || bad "a move after the draw (exit $rc): $(cat "$tmp/err")"

# the heuristic opponent: legal replies at every level, quickly
for level in 1 3 5 9; do
  start=$(date +%s)
  sh 'e4\nd4\nshow\n' --opponent "heuristic:$level"
  took=$(( $(date +%s) - start ))
  [ "$rc" -eq 0 ] && [ "$(grep -c "^heuristic:$level: " "$tmp/out")" -eq 2 ] && [ "$took" -le 20 ] \
    || bad "heuristic:$level (exit $rc, ${took} s): $(cat "$tmp/out" "$tmp/err")"
done
# it takes a mate in one
sh 'new chess 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n' --opponent heuristic:1 --side second
has '^heuristic:1: Ra8#$' "the heuristic opponent mates in one"
has 'White wins (checkmate)' "its mate ends the game"

# hint and analysis: heuristic within the shell's budget, scores in pawns, the engine's line
start=$(date +%s)
sh 'e4\ne5\nhint\nanalyze\n' --time 500
took=$(( $(date +%s) - start ))
[ "$rc" -eq 0 ] && [ "$took" -le 30 ] || bad "hint/analyze (exit $rc, ${took} s): $(cat "$tmp/err")"
has '^hint: [A-Za-z][^,]*, ~[-+][0-9]*\.[0-9][0-9] (not proven yet); line ' "a heuristic hint with its line"
has '^Nf3 *~[-+][0-9]*\.[0-9][0-9]$' "Nf3's score in pawns"
has '^line: .* (heuristic)$' "analyze shows the engine's line"
has 'not proven within 0.5 s' "the budget said"
sh 'new chess 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\nanalyze\n' --time 500
has '^Ra8# *mate in 1$' "a mate in one reads mate in 1"
sh 'new chess 6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1\nanalyze\n' --time 2000
grep -q 'mated in\|~[-+]' "$tmp/out" || bad "the losing side's analysis: $(cat "$tmp/out")"
[ "$fail" -eq 0 ] && echo "chess shell ok"
exit "$fail"
