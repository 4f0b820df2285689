#!/usr/bin/env bash
# The game's clock reaches every front end (issue 51): values are the
# game's under its move-count rule, from a FEN's halfmove field.
#  - KPK at halfmove 98 (8/8/8/7k/5K2/8/3P4/8 w): the fastest mate without
#    the rule starts with a king move (Ke5: mate in 15), but Black's reply
#    then reaches the 100th ply: a draw. Only the pawn moves win (d4: mate
#    in 16, 31 plies). At 99 too; at 97 a king move still converts in time.
#  - KQK at halfmove 98 (7k/8/5K2/8/8/8/8/Q7 w): no mate in 1, two plies
#    left: every move draws. At 97 the mate in 2 comes in time; at 99 not.
#  - their mirrors, Black to move.
# solve, analyze, egdb probe, gsw uci and the shell each say so; --no-line
# asks for the position's value alone and says that it is (the shell: the
# databases' values, a mate the rule pre-empts marked "50-move rule first"). In UCI a
# position repeated from the moves list is a draw: a side a queen down
# repeats and scores 0. Needs GSW_BIN and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
export GSW_EGDB="$tmp/egdb"

kpk='8/8/8/7k/5K2/8/3P4/8 w - - 98 60'
kpk_b='8/3p4/8/5k2/7K/8/8/8 b - - 98 60'
kqk='7k/8/5K2/8/8/8/8/Q7 w - - 98 80'
kqk_b='q7/8/8/8/8/5k2/8/7K b - - 98 80'
at() { echo "$1" | awk -v c="$2" '{ $5 = c; print }'; }   # the same FEN with another halfmove clock
val() { jq -r "$1" "$tmp/out" | tr '\n' ' ' | sed 's/ $//'; }

# ---- solve ----
for pair in "$kpk|d4" "$kpk_b|d5"; do
    f=${pair%|*} b=${pair#*|}
    expect 0 "solve $f" -- "$gsw" solve chess "$f" --json
    same "$(val '.value, .plies, .best, .rules')" "win 31 $b game" "solve $f: only the pawn's move wins"
    expect 0 "solve at 99" -- "$gsw" solve chess "$(at "$f" 99)" --json
    same "$(val '.value, .plies, .best')" "win 31 $b" "solve at halfmove 99: the pawn's move at once"
    expect 0 "solve at 97" -- "$gsw" solve chess "$(at "$f" 97)" --json
    same "$(val '.value')" "win" "solve at halfmove 97: still a win"
    [ "$(val '.plies')" -ge 29 ] && ok || bad "at 97 no faster than the mate without the rule: $(val '.plies')"
    expect 0 "solve --no-line" -- "$gsw" solve chess "$f" --no-line
    has_re out ': win in 29 plies, best move K[ef][45].* \[the position.s value alone: no 50-move rule, no repetition\]$' \
        "--no-line: the position's value alone, said so"
done
for f in "$kqk" "$kqk_b"; do
    expect 0 "solve $f" -- "$gsw" solve chess "$f" --json
    same "$(val '.value, .plies')" "draw null" "solve $f: two plies left, no mate in 1: a draw"
    expect 0 "solve at 99" -- "$gsw" solve chess "$(at "$f" 99)" --json
    same "$(val '.value')" "draw" "solve at halfmove 99: a draw"
    expect 0 "solve at 97" -- "$gsw" solve chess "$(at "$f" 97)" --json
    same "$(val '.value, .plies')" "win 3" "solve at halfmove 97: the mate in 2 comes in time"
    expect 0 "solve --no-line --json" -- "$gsw" solve chess "$f" --no-line --json
    same "$(val '.value, .plies, .rules')" "win 3 position" "--no-line: the mate in 2, labelled"
done
expect 0 "solve --algo manager" -- "$gsw" solve checkers 'B:WK10:BK1,K2' --algo manager
has_re out ': win \[the position.s value alone: no 40-move rule\]$' "the manager's value is the position's alone, said so"
expect 0 "solve --mate at 98" -- "$gsw" solve chess "$kqk" --mate --json
same "$(val '.mate')" "null" "solve --mate: no mate the rule pre-empts"

# ---- analyze ----
expect 0 "analyze KPK" -- "$gsw" analyze chess "$kpk" --json
same "$(val '[.moves[] | select(.move | test("^K")) | .value] | unique | join(",")')" "draw" "analyze: every king move draws"
same "$(val '.moves[] | select(.move == "d4") | .value, .plies')" "win 31" "analyze: d4 wins in 31"
same "$(val '.rules')" "game" "analyze: the game's values"
expect 0 "analyze KPK, Black" -- "$gsw" analyze chess "$kpk_b"
has_re out '^Ke5 +draw' "analyze, Black to move: Ke5 draws"
has_re out '^d5 +win in 31 plies' "analyze, Black to move: d5 wins"
for f in "$kqk" "$kqk_b"; do
    expect 0 "analyze $f" -- "$gsw" analyze chess "$f" --json
    same "$(val '[.moves[].value] | unique | join(",")')" "draw" "analyze $f: every move draws"
done
# at the limit the rule has drawn: the game is over, no move to value
expect 0 "analyze at 100" -- "$gsw" analyze chess "$(at "$kpk" 100)"
has out 'the game is over (50-move rule: a draw)' "analyze at halfmove 100: the game is over"
expect 0 "analyze at 100 --json" -- "$gsw" analyze chess "$(at "$kpk" 100)" --json
same "$(val '.over, (.moves | length)')" "50-move rule 0" "analyze --json at halfmove 100: over, no moves"
expect 0 "analyze --no-line" -- "$gsw" analyze chess "$kqk" --no-line
has_re out '^Kg6\+ +win in 3 plies' "analyze --no-line: the mate the rule pre-empts"
has out "(the position's value alone" "analyze --no-line says so"

# ---- egdb probe ----
expect 0 "probe KPK" -- "$gsw" egdb probe chess "$kpk" --json
same "$(val '.value, .best, .mate, .without_line.value, .without_line.plies, .line_applied')" "win d4 null win 29 true" \
    "probe: a win by the pawn's move; without the rule mate in 15"
expect 0 "probe KPK, Black" -- "$gsw" egdb probe chess "$kpk_b"
has_re out '^win under the 50-move rule.*; best d5 ' "probe, Black to move: best d5"
expect 0 "probe KPK --no-line" -- "$gsw" egdb probe chess "$kpk" --no-line --json
same "$(val '.value, .plies, .line_applied')" "win 29 false" "probe --no-line: the tablebase's own value"
for f in "$kqk" "$kqk_b"; do
    expect 0 "probe $f" -- "$gsw" egdb probe chess "$f"
    has_re out '^draw by the 50-move rule: 2 plies left' "probe $f: a draw, said why"
    expect 0 "probe at 97" -- "$gsw" egdb probe chess "$(at "$f" 97)" --json
    same "$(val '.value, .mate')" "win 2" "probe at 97: mate in 2"
done

# ---- gsw uci ----
{
    echo uci
    echo "position fen $kqk"
    echo "go movetime 300"
    echo "position fen $kqk_b"
    echo "go nodes 20000"
    echo "position fen $(at "$kqk" 97)"
    echo "go movetime 300"
    echo "position fen $kpk"
    echo "go movetime 300"
    echo "position fen $(at "$kqk" 99)"
    echo "go mate 3"
    echo quit
} | timeout 60 "$gsw" uci >"$tmp/out" 2>"$tmp/err"
same "$?" 0 "uci session"
awk -v d="$tmp" '{ print > (d "/go" n + 0) } /^bestmove/ { n++ }' "$tmp/out"
for k in 0 1; do
    ! grep -q 'score mate' "$tmp/go$k" && ok || bad "uci go $k: a mate the 50-move rule pre-empts: $(grep 'score mate' "$tmp/go$k" | tail -1)"
    grep '^info depth' "$tmp/go$k" | tail -1 | grep -q 'score cp 0 ' && ok || bad "uci go $k: the draw's score: $(grep '^info depth' "$tmp/go$k" | tail -1)"
done
grep -q 'score mate 2 ' "$tmp/go2" && ok || bad "uci at 97: mate 2: $(grep '^info depth' "$tmp/go2" | tail -1)"
grep -qE '^bestmove d2d[34]' "$tmp/go3" && ok || bad "uci KPK at 98: a pawn move: $(grep bestmove "$tmp/go3")"
! grep -q 'score mate' "$tmp/go4" && ok || bad "uci go mate at 99: no mate: $(grep 'score mate' "$tmp/go4")"
# repetition from the moves list: Black, a queen down, repeats the knight
# move a third time (Nc6 after 3...Nc6 and 5...Nc6): a draw, its best
{
    echo uci
    echo "position startpos moves e2e4 e7e5 g1f3 d8h4 f3h4 b8c6 h4f3 c6b8 f3h4 b8c6 h4f3 c6b8 f3h4"
    echo "go movetime 300"
    echo "position startpos moves e2e4 e7e5 g1f3 d8h4 f3h4 b8c6 h4f3"
    echo "go movetime 300"
    echo quit
} | timeout 60 "$gsw" uci >"$tmp/out" 2>"$tmp/err"
awk -v d="$tmp" '{ print > (d "/rep" n + 0) } /^bestmove/ { n++ }' "$tmp/out"
grep -q '^bestmove b8c6' "$tmp/rep0" && ok || bad "uci: the repetition is Black's best: $(grep bestmove "$tmp/rep0")"
grep '^info depth' "$tmp/rep0" | tail -1 | grep -q 'score cp 0 ' && ok || bad "uci: the repetition scores a draw: $(grep '^info depth' "$tmp/rep0" | tail -1)"
grep '^info depth' "$tmp/rep1" | tail -1 | grep -qE 'score (cp -[0-9]{3,}|mate -)' && ok ||
    bad "uci: without the repetitions Black is lost: $(grep '^info depth' "$tmp/rep1" | tail -1)"

# ---- the shell ----
printf 'hint\nanalyze\n' >"$tmp/script"
expect 0 "shell KQK" -- "$gsw" shell chess "$kqk" "$tmp/script"
has_re out '^hint: [KQ][a-h]?[1-8]?[a-h][1-8]\+?, draw \(a win without the 50-move rule\)$' "shell hint: a draw (a win without the rule)"
! grep -qE 'mate|50-move rule\?' "$tmp/out" && ok || bad "shell KQK: no mate, no hedge: $(grep -E 'mate|\?' "$tmp/out" | head -3)"
expect 0 "shell KQK, Black" -- "$gsw" shell chess "$kqk_b" "$tmp/script"
has_re out '^hint: .*, draw \(a win without the 50-move rule\)$' "shell hint, Black to move: a draw (a win without the rule)"
expect 0 "shell KPK" -- "$gsw" shell chess "$kpk" "$tmp/script"
has_re out '^hint: d4, mate in 16$' "shell hint: d4"
has_re out '^Ke5 +draw \(a win without the 50-move rule\)$' "shell analyze: Ke5 draws, a win without the rule"
expect 0 "shell KPK, Black" -- "$gsw" shell chess "$kpk_b" "$tmp/script"
has_re out '^hint: d5, mate in 16$' "shell hint, Black to move: d5"
printf 'hint\n' >"$tmp/script"
expect 0 "shell KQK at 97" -- "$gsw" shell chess "$(at "$kqk" 97)" "$tmp/script"
has_re out '^hint: .*, mate in 2$' "shell at 97: mate in 2"

# --no-line in the workbench: the positions' values, the rule marked
printf 'hint\n' >"$tmp/script"
expect 0 "shell --no-line" -- "$gsw" shell chess "$kqk" "$tmp/script" --no-line
has_re out '^hint: Kg6\+, mate in 2 \(50-move rule first\)' "shell --no-line: the position's mate, marked as too late"

echo "test_line_rules: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
