#!/usr/bin/env bash
# The longest win of the 7-piece perfect-play databases, up to four pieces a
# side (opt-in, label slow). Trice & Dodgen publish 253 plies. Checked here:
# - egdb stats over every 7-piece material of at most four pieces a side:
#   the longest win is the one in tests/data/checkers/longest_win.txt;
# - that position wins in that many plies, and the line stored there keeps
#   the win ply by ply, one ply less each (where the databases' choice
#   differs, both are printed); egdb probe --line gives a line as long;
# - the 40-move rule: the line has more than 80 plies in a row with no
#   capture and no man moved, so in a game under the rule autoplay by the
#   databases' values (--no-line) ends in a draw, and the shell says why;
# - the lesson checkers-longest: every value it states agrees with the
#   databases.
# Needs the set in GSW_LONGEST_DIR (default /var/tmp/gsw-egdb): what is
# missing is built first (resumable; about 3 h 30 min on 2 cores from
# nothing). Needs GSW_BIN and jq.
. "$(dirname "$0")/../cli/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
dir=${GSW_LONGEST_DIR:-/var/tmp/gsw-egdb}
root="$(dirname "$0")/../.."
data="$root/tests/data/checkers/longest_win.txt"
fen=$(grep -v '^#' "$data" | head -1)
mapfile -t line < <(grep -v '^#' "$data" | tail -n +2)
"$gsw" egdb build checkers --pieces 7 --metric dtw --max-per-side 4 --dir "$dir" >/dev/null || exit 1

# ---- the longest win over the set ----
best=0 where=""
for bk in 0 1 2 3 4; do
  for bm in 0 1 2 3 4; do
    for wk in 0 1 2 3 4; do
      wm=$((7 - bk - bm - wk))
      [ $((bk + bm)) -le 4 ] && [ $wm -ge 0 ] && [ $((wk + wm)) -le 4 ] || continue
      "$gsw" egdb stats checkers "$bk,$bm,$wk,$wm" --dir "$dir" --json >"$tmp/s.json" || { bad "stats $bk,$bm,$wk,$wm"; continue; }
      w=$(jq -r '.materials[0].longest_win_plies // 0' "$tmp/s.json")
      [ "$w" -gt "$best" ] && best=$w where="$bk,$bm,$wk,$wm, for example $(jq -r '.materials[0].example' "$tmp/s.json")"
    done
  done
done
echo "the longest 7-piece win (at most four pieces a side): $best plies ($where); published 253"
expect 0 "probe" -- "$gsw" egdb probe checkers "$fen" --dir "$dir" --line --json
same "$(jq -r '"\(.value) \(.plies) \(.line | length)"' "$tmp/out")" "win $best $best" "the stored position: the set's longest win, and --line as long"
same "${#line[@]}" "$best" "the stored line's plies"

# ---- the stored line, ply by ply (a fresh game each ply: no count rule) ----
pos=$fen quiet=0 most=0 ended=0
for ((k = 0; k < ${#line[@]}; k++)); do
  m=${line[$k]}
  printf 'new checkers %s\nsolve\nmove %s\nshow\n' "$pos" "$m" | "$gsw" shell --dir "$dir" >"$tmp/p.out" 2>&1
  val=$(grep '^value: ' "$tmp/p.out" | tail -1)   # "value: win in 253 plies for the side to move, best move 1-5"
  set -- $val
  want=$([ $((k % 2)) = 0 ] && echo win || echo loss)
  [ "$2 $4" = "$want $((best - k))" ] || { bad "ply $k ($pos, before $m): $2 $4, the line needs $want $((best - k))"; break; }
  [ "${val##*best move }" != "$m" ] && echo "note: ply $((k + 1)): the line's $m, the databases' ${val##*best move } (each: $want in $4)"
  if [ $((k + 1)) = "${#line[@]}" ]; then grep -q 'Game over: Black wins' "$tmp/p.out" && ended=1; break; fi
  next=$(grep -o 'position "[^"]*"' "$tmp/p.out" | tail -1 | cut -d'"' -f2)
  [ -n "$next" ] && [ "$next" != "$pos" ] || { bad "ply $k: $m not played from $pos"; break; }
  # the count: a capture or a man's move starts it again ("B:W..:B..": is
  # the mover's piece on the from square a king?)
  from=${m%%[-x]*}
  if [ "${pos:0:1}" = B ]; then mine=${pos##*:B}; else mine=${pos#*:W}; mine=${mine%%:*}; fi
  if [[ $m != *x* && ,$mine, == *,K$from,* ]]; then quiet=$((quiet + 1)); else quiet=0; fi
  [ $quiet -gt $most ] && most=$quiet
  pos=$next
done
ok
echo "the stored line: ${#line[@]} plies, at most $most in a row with no capture and no man moved"
same "$ended" 1 "the line's last move ends the game: Black wins"

# ---- the 40-move rule ----
[ "$most" -ge 80 ] && ok || bad "the line's longest quiet stretch is $most plies: the rule would not end it"
# (autoplay by the databases' values, the position's alone: --no-line)
printf 'new checkers %s\nautoplay\n' "$fen" | "$gsw" shell --no-line --dir "$dir" >"$tmp/auto.out" 2>&1
has auto.out "Game over: a draw (40-move rule)" "autoplay under the 40-move rule"

# ---- the lesson checkers-longest: every value it states, against the databases ----
steps=$(grep -c '^step:' "$root/lessons/checkers-longest.lesson")
{ echo "lesson checkers-longest"; for ((i = 0; i < steps; i++)); do echo analyze; echo next; done; } |
  "$gsw" shell --dir "$dir" >"$tmp/lesson.out" 2>&1
same "$(grep -c "The published values agree with the solver" "$tmp/lesson.out")" "$steps" "lesson checkers-longest: steps whose values agree ($(grep -i -m2 'contradict\|differ' "$tmp/lesson.out"))"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
