#!/usr/bin/env bash
# gsw annotate (issue 53, item 4): a game's record valued move by move and
# written back with values, marks and a summary. A checkers PDN whose last
# White move throws a 4-piece database win away (the databases built here),
# a Connect Four 6x5 move string throwing a draw then a win, a chess PGN
# that stalemates instead of mating: each "?" on its ply and proven there,
# in text and --json (one document); -o FILE; bad input in one line, exit
# 2; Ctrl-C prints what is done and exits 1.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "SKIP: jq is needed"; exit 77; }
cd "$tmp" || exit 1

# ---- checkers: a 4-piece database win thrown to a draw at ply 5 ----
expect 0 "egdb build 4 pieces" -- "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/eg"
cat > throw.pdn <<'PDN'
[Event "annotate test"]
[White "Throw"]
[Black "Hold"]
[Result "*"]
[FEN "W:WK18,K19,22:BK10"]

1... 19-24 2. 10-6 24-19 3. 6-10 18-14 *
PDN
expect 0 "annotate checkers" -- "$gsw" annotate checkers throw.pdn --dir "$tmp/eg" --no-cache
has out "3... 18-14? {draw; best 3... 19-23: win in 9" "the thrown win marked, the best said"
has out "1... 19-24 {win in 13 plies}" "a kept win, in plies"
has out "White threw the win away at move 3 (3... 18-14? draw; 3... 19-23 wins in 9" "the summary"
has out '[White "Throw"]' "the record's tags kept"
expect 0 "annotate checkers --json" -- "$gsw" annotate checkers throw.pdn --dir "$tmp/eg" --no-cache --json
same "$(jq -s length "$tmp/out")" 1 "one JSON document"
same "$(jq -r '.moves | length' "$tmp/out")" 5 "one entry a ply"
same "$(jq -c '.moves[4] | [.ply, .move, .before, .after, .mark, .proven, .best]' "$tmp/out")" \
     '[5,"18-14","win","draw","?",true,"19-23"]' "ply 5: a proven win thrown to a draw"
same "$(jq -r '[.moves[0:4][] | .mark] | join("")' "$tmp/out")" "" "no mark before it"
same "$(jq -r '[.moves[] | .proven] | all' "$tmp/out")" true "every ply proven by the databases"
has out '"summary":"White threw the win away at move 3' "the summary field"
expect 0 "annotate -o" -- "$gsw" annotate checkers throw.pdn --dir "$tmp/eg" --no-cache -o annotated.pdn
[ -s "$tmp/out" ] && bad "-o: stdout not empty" || ok
has annotated.pdn "18-14?" "-o: the record in the file"
# the annotated record reads back as the same game
expect 0 "annotated record reads back" -- "$gsw" annotate checkers annotated.pdn --dir "$tmp/eg" --no-cache --json
same "$(jq -r '[.moves[] | .move] | join(" ")' "$tmp/out")" "19-24 10-6 24-19 6-10 18-14" "the same moves"

# ---- Connect Four 6x5: a draw thrown to a loss (ply 4), a win to a draw (ply 5) ----
echo 33441 > c4.txt
expect 0 "annotate connect4" -- "$gsw" annotate connect4:6x5 c4.txt --no-cache --time 2000
has out "4. 4? {loss in 4 plies; best 4. 5: draw}" "ply 4 marked"
has out "5. 1? {draw; best 5. 2: win in 3 plies}" "ply 5 marked"
has out "Red threw the win away at ply 5" "the summary counts plies"
expect 0 "annotate connect4 --json" -- "$gsw" annotate connect4:6x5 c4.txt --no-cache --time 2000 --json
same "$(jq -s length "$tmp/out")" 1 "one JSON document"
same "$(jq -r '[.moves[] | .mark] | join(",")' "$tmp/out")" ",,,?,?" "the marks by ply"
same "$(jq -c '.moves[4] | [.before, .after, .proven, .best]' "$tmp/out")" '["win","draw",true,"2"]' "ply 5 proven"

# a win thrown to a loss (??) and the only move that keeps the win (!)
echo 44551 > c4b.txt
expect 0 "annotate connect4 ??" -- "$gsw" annotate connect4:6x5 c4b.txt --no-cache --time 2000 --json
same "$(jq -c '.moves[4] | [.before, .after, .mark, .proven, .best]' "$tmp/out")" '["win","loss","??",true,"3"]' "ply 5: ??"
echo 44553 > c4c.txt
expect 0 "annotate connect4 !" -- "$gsw" annotate connect4:6x5 c4c.txt --no-cache --time 2000 --json
same "$(jq -c '.moves[4] | [.before, .after, .mark, .proven]' "$tmp/out")" '["win","win","!",true]' "ply 5: ! (the only win)"

# the workbench's annotate on the same game (gsw shell runs its commands)
printf 'new connect4:6x5\n3\n3\n4\n4\n1\nannotate 2000\n' > c4.script
expect 0 "shell annotate" -- "$gsw" shell --no-cache c4.script
has_re out "^4\. +4\?  loss in 4 plies; best 5: draw" "the workbench marks ply 4"
has out "Red threw the win away at ply 5 (5. 1? draw; 5. 2 wins in 3 plies)" "the workbench's summary"

# ---- chess: mate in 1 missed for a stalemate ----
cat > stale.pgn <<'PGN'
[Event "annotate test"]
[SetUp "1"]
[FEN "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"]
[Result "1/2-1/2"]

1. Qc7 1/2-1/2
PGN
expect 0 "annotate chess" -- "$gsw" annotate chess stale.pgn --no-cache --time 500
has out "1. Qc7? {draw; best 1. Qc8#: mate in 1}" "the stalemate marked"
has out "White threw the win away at move 1 (1. Qc7? draw; 1. Qc8# wins, mate in 1)" "the summary in moves"
expect 0 "annotate chess --json" -- "$gsw" annotate chess stale.pgn --no-cache --time 500 --json
same "$(jq -c '.moves[0] | [.before, .after, .mark, .proven]' "$tmp/out")" '["win","draw","?",true]' "proven"

# ---- bad input: one line, exit 2 ----
expect 2 "missing file" -- "$gsw" annotate checkers nothere.pdn --no-cache && has err "cannot read nothere.pdn: No such file or directory (annotate reads the game from a file: a .pdn record)" "named, why, and what annotate reads"
printf '[Event "x"]\n\n1. 11-15 99-1 *\n' > bad.pdn
expect 2 "malformed record" -- "$gsw" annotate checkers bad.pdn --no-cache && has err "square 99" "the move named"
printf '[Event "x"]\n\n1. 11-15 11-15 *\n' > illegal.pdn
expect 2 "illegal move" -- "$gsw" annotate checkers illegal.pdn --no-cache
echo 33x > badc4.txt
expect 2 "bad move string" -- "$gsw" annotate connect4:6x5 badc4.txt --no-cache && has err 'move 3 ("x")' "the move named"
: > empty.txt
expect 2 "empty move file" -- "$gsw" annotate connect4:6x5 empty.txt --no-cache && has err "no moves" "said"
expect 2 "--game out of range" -- "$gsw" annotate checkers throw.pdn --game 2 --no-cache && has err "holds 1 game: there is no game 2" "said"
expect 2 "--game 0" -- "$gsw" annotate checkers throw.pdn --game 0 --no-cache
expect 2 "another game's record" -- "$gsw" annotate chess throw.pdn --no-cache && has err "is a checkers record" "said"
expect 2 "no file" -- "$gsw" annotate checkers --no-cache

# ---- Ctrl-C: what is done is printed, exit 1 ----
printf '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n' > long.pgn
"$gsw" annotate chess long.pgn --no-cache --time 3000 >"$tmp/out" 2>"$tmp/err" </dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
same "$?" 1 "Ctrl-C: exit 1"
has err "interrupted" "Ctrl-C: said"
has out "1. e4" "Ctrl-C: the record printed"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
