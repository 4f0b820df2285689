#!/usr/bin/env bash
# Payne's Fourth Position (1756) from the 7-piece perfect-play databases
# (opt-in, about an hour on 2 cores; resumable). Trice & Dodgen: a win in 81
# plies with Black to move, a draw with White to move; the line they publish
# (tests/data/checkers/fourth_position.txt); after 22-18 31-27 23-19, 27-31
# loses in 69 plies and 32-28 holds out 12 plies longer. Checked here:
# - the setup: the published line replays with a man or a king on 21 and on
#   22; of the four setups only a man on 21 and a king on 22 gives the
#   published values (two men: a win in 85);
# - the line: every published move keeps Black's win, ply by ply; where a
#   move is not the databases' choice, or not the quickest (or slowest), it
#   is printed;
# - autoplay in gsw shell ends in a Black win after exactly 81 plies;
# - the published remark.
# The published values are the position's alone (no 40-move rule): every
# command here asks for those (--no-line).
# Builds what the position reaches in GSW_PAYNE_DIR (default: a folder kept
# between runs, so a stopped run resumes). Needs GSW_BIN and jq.
set -u
gsw=${GSW_BIN:?}
command -v jq >/dev/null || { echo "no jq"; exit 77; }
dir=${GSW_PAYNE_DIR:-${TMPDIR:-/tmp}/gsw-payne-egdb}
data="$(dirname "$0")/../data/checkers/fourth_position.txt"
fen=$(grep -v '^#' "$data" | head -1)
mapfile -t line < <(grep -v '^#' "$data" | tail -n +2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GSW_DB="$tmp/cache.sqlite"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$gsw" egdb build checkers --for "$fen" --metric dtw --dir "$dir" || exit 1

# ---- the setup: men or kings on 21 and 22 ----
fits=0
for a in "" K; do
  for b in "" K; do
    pb="B:WK31,K32,30:BK20,${b}22,K23,${a}21" pw="W${pb#B}"
    "$gsw" egdb build checkers --for "$pb" --metric dtw --dir "$dir" >/dev/null 2>&1 || { bad "build $pb"; continue; }
    vb=$("$gsw" egdb probe checkers "$pb" --dir "$dir" --no-line --json | jq -r '"\(.value) \(.plies)"')
    vw=$("$gsw" egdb probe checkers "$pw" --dir "$dir" --no-line --json | jq -r '"\(.value) \(.plies)"')
    echo "setup ${a:-man} on 21, ${b:-man} on 22: Black to move $vb; White to move $vw"
    [ "$vb" = "win 81" ] && [ "$vw" = "draw null" ] && fits=$((fits + 1)) && fit="$pb"
  done
done
[ "$fits" = 1 ] && [ "$fit" = "$fen" ] || bad "the published values fit $fits setups (expected one: a man on 21, a king on 22)"

# ---- the published line, ply by ply ----
{
  echo "new checkers $fen"; echo "side both"; echo "solve"
  for m in "${line[@]}"; do echo "move $m"; echo "solve"; done
} >"$tmp/line.cmd"
"$gsw" shell --no-line --dir "$dir" <"$tmp/line.cmd" >"$tmp/line.out" 2>&1
grep -q "Game over: Black wins" "$tmp/line.out" || bad "the published line does not end in a Black win"
mapfile -t vals < <(grep '^value: ' "$tmp/line.out")
[ "${#vals[@]}" -ge 81 ] || bad "the line's values: ${#vals[@]} of 81 ($(grep -m3 -iE 'illegal|error|gsw:' "$tmp/line.out"))"
prev=""
for ((k = 0; k < 81 && k < ${#vals[@]}; k++)); do
  v=${vals[$k]}   # "value: win in 81 plies for the side to move, best move 22-25"
  set -- $v
  kind=$2 d=$4 best=${v##*best move }
  want=$([ $((k % 2)) = 0 ] && echo win || echo loss)
  [ "$kind" = "$want" ] || bad "ply $k (before ${line[$k]}): $kind, the line needs a $want"
  [ -n "$prev" ] && [ "$d" != $((prev - 1)) ] && echo "note: ply $k: ${line[$((k - 1))]} left $d plies (not $((prev - 1)): not the databases' best)"
  [ "$best" != "${line[$k]}" ] && echo "note: ply $((k + 1)): the published ${line[$k]}, the databases' choice $best (each keeps the $want in $d)"
  prev=$d
done
[ "${vals[0]}" != "" ] && set -- ${vals[0]} && [ "$2 $4" = "win 81" ] || bad "the position: ${vals[0]:-none}, published win 81"

# ---- autoplay ----
printf 'new checkers %s\nautoplay\nhistory\n' "$fen" | "$gsw" shell --no-line --dir "$dir" >"$tmp/auto.out" 2>&1
grep -q "Game over: Black wins" "$tmp/auto.out" || bad "autoplay does not end in a Black win: $(tail -3 "$tmp/auto.out")"
n=$(grep -cE '^ *[0-9]+\. ' "$tmp/auto.out")
echo "shell autoplay: $n plies, $(grep -o 'Game over: [A-Za-z]* wins' "$tmp/auto.out")"
[ "$n" = 81 ] || bad "autoplay took $n plies, published 81"

# ---- autoplay in the workbench (w), against the perfect opponent ----
if command -v tmux >/dev/null; then
  sock="$tmp/tmux.sock"
  tmux -S "$sock" new-session -d -s g -x 120 -y 70 \
    "'$gsw' play checkers '$fen' --no-line --dir '$dir' --opponent perfect 2>'$tmp/tui.err'; sleep 600"
  sleep 3
  tmux -S "$sock" send-keys -t g w
  for ((i = 0; i < 600; i++)); do tmux -S "$sock" capture-pane -p -t g | grep -q 'Game over' && break; sleep 0.5; done
  tmux -S "$sock" capture-pane -p -t g >"$tmp/tui.out"
  tmux -S "$sock" kill-server
  grep -q "Game over: Black wins" "$tmp/tui.out" || bad "workbench autoplay: $(grep -m1 'Game over' "$tmp/tui.out")"
  last=$(cut -c24-60 "$tmp/tui.out" | grep -E '^ *[0-9]+\. ' | tail -1)
  set -- $last
  n=$(( 2 * ${1%.} - ($# == 2 ? 1 : 0) ))
  echo "workbench autoplay: $n plies, $(grep -o 'Game over: [A-Za-z]* wins' "$tmp/tui.out")"
  [ "$n" = 81 ] || bad "workbench autoplay took $n plies, published 81 (last line: $last)"
fi

# ---- the remark: after 22-18 31-27 23-19, 27-31 loses in 69, 32-28 in 81 ----
for reply in 27-31:69 32-28:81; do
  printf 'new checkers %s\nside both\nmove 22-18\nmove 31-27\nmove 23-19\nmove %s\nsolve\n' "$fen" "${reply%:*}" |
    "$gsw" shell --no-line --dir "$dir" >"$tmp/r.out" 2>&1
  got=$(grep '^value: ' "$tmp/r.out" | tail -1 | cut -d' ' -f2,3)
  echo "after 22-18 31-27 23-19 ${reply%:*}: Black $got"
  [ "$got" = "win ${reply#*:}" ] || bad "after 22-18 31-27 23-19 ${reply%:*}: $got, published win ${reply#*:}"
done
# ---- the hint: 81 plies exceed the 40-move rule's 80, and with no
# distance-to-conversion files the hint says a conversion must come on the
# way, not that the count draws the game ----
printf 'new checkers %s\nhint\n' "$fen" | "$gsw" shell --no-line --dir "$dir" >"$tmp/hint.out" 2>&1
grep -q '^hint: 22-[12][75], win in 81 plies (40-move rule?); longer than the 40-move rule allows' "$tmp/hint.out" ||
  bad "the hint: $(grep '^hint' "$tmp/hint.out")"

# ---- the lesson checkers-fourth: every value it states, against the databases ----
{ echo "lesson checkers-fourth"; for i in 1 2 3 4 5 6; do echo analyze; echo next; done; } |
  "$gsw" shell --no-line --dir "$dir" >"$tmp/lesson.out" 2>&1
n=$(grep -c "The published values agree with the solver" "$tmp/lesson.out")
[ "$n" = 6 ] || bad "lesson checkers-fourth: $n of 6 steps agree: $(grep -i -m2 'contradict\|differ' "$tmp/lesson.out")"
exit $fail
