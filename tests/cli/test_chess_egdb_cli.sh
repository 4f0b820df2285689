#!/usr/bin/env bash
# Chess tablebases from the command line: stats of an ending not yet built
# builds it (progress on stderr) and prints the published longest mate;
# KKR names KRK; probe says "mate in N" (--json: mate, in moves, negative
# when the side to move is mated); build by ending name, reuse, verify; what
# no tablebase covers and bad names or metrics (one line, non-zero exit);
# solve answers from the tablebases, building a missing ending first. Where Debian's Stockfish is installed,
# its mate scores (go mate N) agree with the tablebase on short mates.
# Needs GSW_BIN (set by ctest) and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }


eg="$tmp/tb"
# ---- stats builds what is missing ----
expect 0 "stats KRK on an empty folder" -- "$gsw" egdb stats chess KRK --dir "$eg" --json
has err "not built yet" "stats says it builds first"
same "$(jq -r .ending "$tmp/out")" KRK "ending"
same "$(jq -r .longest_mate_moves "$tmp/out")" 16 "KRK's longest mate (FACTS.md)"
same "$(jq -r .longest_mate_plies "$tmp/out")" 31 "KRK's longest mate in plies"
same "$(jq -r '.wins + .draws + .losses == .positions' "$tmp/out")" true "wins + draws + losses = positions"
ex=$(jq -r .example "$tmp/out") lex=$(jq -r .loss_example "$tmp/out") lm=$(jq -r .longest_loss_moves "$tmp/out")
same "$(jq -r '.longest_loss_plies == 2 * .longest_loss_moves' "$tmp/out")" true "the longest loss: the loser to move"
expect 0 "probe the example" -- "$gsw" egdb probe chess "$ex" --dir "$eg" --json
same "$(jq -r .mate "$tmp/out")" 16 "the example is a mate in 16"
expect 0 "probe the longest loss" -- "$gsw" egdb probe chess "$lex" --dir "$eg" --json
same "$(jq -r .mate "$tmp/out")" "-$lm" "the loss example is mated in the longest loss's moves"
expect 0 "stats KKR" -- "$gsw" egdb stats chess KKR --dir "$eg" --json
same "$(jq -r .ending "$tmp/out")" KRK "KKR names KRK"
[ "$(grep -c "not built" "$tmp/err")" -eq 0 ] && ok || bad "a built ending is not built again"
expect 0 "stats KQK" -- "$gsw" egdb stats chess KQK --dir "$eg" --json
same "$(jq -r .longest_mate_moves "$tmp/out")" 10 "KQK's longest mate (FACTS.md)"
expect 0 "stats text" -- "$gsw" egdb stats chess --dir "$eg"
has out "KRK" "the table lists KRK"
has out "16 (31 plies)" "the table gives the longest mate"
has out "longest loss" "the table has the longest loss"

# ---- probe ----
expect 0 "probe text" -- "$gsw" egdb probe chess "7k/8/5K2/8/8/8/8/1R6 w - - 0 1" --dir "$eg"
has out "mates in 2" "probe says mate in N"
expect 0 "probe mated" -- "$gsw" egdb probe chess "2k5/8/1K6/8/8/8/8/3R4 b - - 0 1" --dir "$eg" --json
same "$(jq -r .mate "$tmp/out")" -1 "the side to move is mated in 1"
expect 0 "probe the colour-reversed" -- "$gsw" egdb probe chess "1r6/8/8/8/8/5k2/8/7K b - - 0 1" --dir "$eg" --json
same "$(jq -r .mate "$tmp/out")" 2 "Black's rook: the same ending, mirrored"
expect 1 "probe 6 pieces" -- "$gsw" egdb probe chess "4k3/8/8/8/8/8/8/RNBQK3 w - - 0 1" --dir "$eg"
has err "no tablebase covers" "6 pieces: not covered"
expect 1 "probe castling rights" -- "$gsw" egdb probe chess "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1" --dir "$eg"
expect 2 "probe a bad FEN" -- "$gsw" egdb probe chess "8/8/8/8" --dir "$eg"

# analyze with a budget, the mates short: every move's value from the
# tablebase, with no word of missing distances to conversion (a mate in
# fewer plies than the 50-move rule leaves needs none)
expect 0 "analyze KQK with a budget" -- "$gsw" analyze chess "8/8/8/4k3/8/8/2Q5/4K3 w - - 0 1" --dir "$eg" --no-cache --time 200
has_re out "^Qc6 +win in 13 plies" "the quickest mate, from the tablebase"
grep -q "conversion" "$tmp/err" && bad "analyze asked for distances to conversion a short mate needs not: $(cat "$tmp/err")" || ok
[ ! -d "$eg/chess/dtc" ] && ok || bad "distances to conversion were built for short mates"

# ---- build, verify, bad names ----
expect 0 "build KQK" -- "$gsw" egdb build chess KQK --dir "$eg" --json
same "$(jq -r .built "$tmp/out")" 0 "a finished ending is reused"
same "$(jq -r .metric "$tmp/out")" dtm "chess's default metric is dtm"
expect 0 "verify" -- "$gsw" egdb verify chess --dir "$eg" --json
same "$(jq -r .ok "$tmp/out")" true "verify passes"
expect 2 "a bad ending" -- "$gsw" egdb stats chess KXK --dir "$eg"
has err "bad ending" "the error names the problem"
expect 2 "--convention is checkers' only" -- "$gsw" egdb stats chess KQK --convention first --dir "$eg"
has err "one reading" "--convention on chess is refused with a reason"
# another subverb's option is refused, not ignored (stats --metric dtc
# printed the distances to mate as though they were asked for)
expect 2 "stats --metric" -- "$gsw" egdb stats chess KQK --metric dtc --dir "$eg"
has err "egdb stats: --metric is for egdb build" "says whose option it is"
expect 2 "probe --plan" -- "$gsw" egdb probe chess "8/8/8/8/3k4/8/8/QK6 b - - 0 1" --plan --dir "$eg"
expect 2 "build --line" -- "$gsw" egdb build chess KQK --line --dir "$eg"
has err "egdb build: --line is for egdb probe" "build --line"
expect 0 "pawns on both sides are covered" -- "$gsw" egdb build chess KPKP --plan --dir "$eg"
has out "21 slices" "KPKP's plan: it and every ending its captures and promotions reach"
expect 0 "five pieces are covered" -- "$gsw" egdb build chess KRPKR --plan --dir "$eg" --json
same "$(jq -r .slices "$tmp/out")" 21 "KRPKR's plan: it, its four 5-piece promotions and every ending they reach"
expect 2 "too many pieces" -- "$gsw" egdb build chess KQRKRN --dir "$eg"
has err "at most 5 pieces" "the refusal names the limit"
expect 2 "dtw is dtm in chess" -- "$gsw" egdb build chess KRK --metric dtw --dir "$eg"
expect 2 "dtm is chess's" -- "$gsw" egdb build checkers --pieces 2 --metric dtm --dir "$eg"
expect 2 "a slice and --for" -- "$gsw" egdb build chess KRK --for "7k/8/5K2/8/8/8/8/1R6 w - - 0 1" --dir "$eg"

# ---- the solver's door ----
expect 0 "solve from the tablebase" -- "$gsw" solve chess "7k/8/5K2/8/8/8/8/1R6 w - - 0 1" --dir "$eg" --json
same "$(jq -r .source "$tmp/out")" egdb "solve answers from the tablebase"
same "$(jq -r .plies "$tmp/out")" 3 "mate in 2 is 3 plies"

expect 0 "solve builds a missing ending" -- "$gsw" solve chess "8/8/8/8/3k4/8/8/QK6 b - - 0 1" --dir "$tmp/tb2" --json
has err "building the KQK tablebase" "solve says it builds"
same "$(jq -r .source "$tmp/out")" egdb "solve answers from the ending it built"

# ---- the KRK lesson's published values are the tablebase's ----
lesson="$(dirname "$0")/../../lessons/chess-krk.lesson"
nv=0
while IFS='|' read -r fen vals; do
  "$gsw" analyze chess "$fen" --dir "$eg" --json >"$tmp/an" 2>/dev/null || { bad "analyze $fen"; continue; }
  for mv in $vals; do
    m=${mv%%=*} w=${mv#*=}
    got=$(jq -r --arg m "$m" '.moves[] | select(.move == $m) | (.value[0:1] | ascii_upcase) + (if .value == "draw" then "" else (.plies | tostring) end)' "$tmp/an")
    same "$got" "$w" "lesson chess-krk: $m in $fen"
    nv=$((nv + 1))
  done
done < <(awk '/^position:/ { sub(/^position: /, ""); pos = $0 } /^values:/ { sub(/^values: /, ""); print pos "|" $0 }' "$lesson")
[ "$nv" -ge 30 ] && ok || bad "only $nv lesson values compared"

# ---- Stockfish's mate scores ----
# A win of M <= 8 moves: `go mate M` must report exactly mate M (a shorter
# mate would prove the tablebase wrong). A loss: Stockfish's score at a fixed
# depth is a mate against the side to move (its distance there is only an
# upper bound, so only the sign is compared).
sf=${STOCKFISH:-/usr/games/stockfish}
sf_score() {   # FEN GO-COMMAND: the last "score mate N" (N), or "" (none)
  local got="" line
  coproc SF { "$sf"; }
  printf 'position fen %s\n%s\n' "$1" "$2" >&"${SF[1]}"
  while IFS= read -r -t 60 line <&"${SF[0]}"; do
    case $line in *"score mate "*) got=$(sed 's/.*score mate \(-\?[0-9]*\).*/\1/' <<<"$line") ;; bestmove*) break ;; esac
  done
  echo quit >&"${SF[1]}"
  wait "$SF_PID" 2>/dev/null
  echo "$got"
}
if [ -x "$sf" ]; then
  n=0
  for fen in "7k/8/5K2/8/8/8/8/1R6 w - - 0 1" "k7/8/2K5/8/8/8/8/7Q w - - 0 1" "8/8/8/8/8/k7/2Q5/K7 b - - 0 1" \
             "8/8/8/2k5/8/8/3K4/6Q1 b - - 0 1" "4k3/8/4K3/8/8/8/8/7R w - - 0 1" "8/8/3k4/8/8/3K4/8/7Q w - - 0 1" \
             "3k4/8/8/8/8/8/8/2Q1K3 w - - 0 1" "2k5/8/1K6/8/8/8/8/3R4 b - - 0 1"; do
    "$gsw" egdb probe chess "$fen" --dir "$eg" --json >"$tmp/out" 2>"$tmp/err" || { bad "probe $fen"; continue; }
    m=$(jq -r .mate "$tmp/out")
    case $m in
      null) continue ;;
      -*) got=$(sf_score "$fen" "go depth 20"); [ "${got:0:1}" = - ] && ok || bad "stockfish on $fen: mate $got, tablebase $m" ;;
      *) [ "$m" -le 8 ] || continue; same "$(sf_score "$fen" "go mate $m")" "$m" "stockfish on $fen" ;;
    esac
    n=$((n + 1))
  done
  [ "$n" -ge 8 ] && ok || bad "only $n positions compared with stockfish"
else
  echo "no stockfish at $sf: its comparison skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
