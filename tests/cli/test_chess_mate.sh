#!/usr/bin/env bash
# gsw solve chess FEN --mate: the mates of tests/data/chess/mates.txt (quick:
# 3 moves or fewer; with the argument "long": 4 and more, Release only, each
# under 2 minutes). For each: --json's mate is the published length, the
# line has its length, replays legally in gsw shell and ends in checkmate;
# --max-moves one less finds none (the length is the least); the stored
# proof tree is the one gsw proof show reads back. Quick also: the text
# answer, "no mate in N or fewer" (mate null, exit 0), bad input (another
# game, --batch, --max-moves out of range) as one line and exit 2.
set -u
. "$(dirname "$0")/cli_lib.sh"
which=${1:-quick}
data=${GSW_TEST_DATA:?}/chess/mates.txt

# run ARGS...: gsw with out, err, rc
run() {
  timeout 300 "$gsw" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
field() { grep -o "\"$1\":[^,}]*" "$tmp/out" | head -1 | cut -d: -f2-; }

n=0
while IFS=';' read -r mate fen what; do
  case $mate in '#'*|'') continue ;; esac
  [ "$mate" -eq 0 ] && continue
  abs=${mate#-}
  if [ "$which" = long ]; then [ "$abs" -ge 4 ] || continue; else [ "$abs" -le 3 ] || continue; fi
  n=$((n + 1))
  t0=$(date +%s)
  run solve chess "$fen" --mate --json
  t1=$(date +%s)
  [ "$rc" -eq 0 ] || { bad "$what: exit $rc: $(cat "$tmp/err")"; continue; }
  [ $((t1 - t0)) -lt 120 ] || bad "$what: $((t1 - t0)) s (a mate in $abs must take under 2 minutes)"
  got=$(field mate)
  [ "$got" = "$mate" ] && ok || bad "$what: mate $got, expected $mate: $(cat "$tmp/out")"
  [ "$(field complete)" = true ] || bad "$what: not complete"
  [ "$(field stored)" = true ] || bad "$what: the proof tree was not stored"
  size=$(field tree_size)
  line=$(grep -o '"line":\[[^]]*\]' "$tmp/out" | sed 's/"line":\[//; s/\]//; s/"//g; s/,/ /g')
  read -ra moves <<<"$line"
  want=$((mate > 0 ? 2 * mate - 1 : 2 * abs))
  [ "${#moves[@]}" -eq "$want" ] && ok || bad "$what: line of ${#moves[@]} moves ($line), expected $want"
  # the line replayed move by move in the shell ends the game in checkmate
  printf '%s\n' "${moves[@]}" | timeout 60 "$gsw" shell chess "$fen" --no-cache >"$tmp/replay" 2>&1
  rrc=$?
  [ "$rrc" -eq 0 ] || bad "$what: replaying $line: exit $rrc: $(tail -3 "$tmp/replay")"
  grep -q 'wins (checkmate)' "$tmp/replay" && ok || bad "$what: $line does not end in checkmate: $(tail -3 "$tmp/replay")"
  # the length is the least: one move fewer finds none (for the side to move)
  if [ "$abs" -gt 1 ]; then
    run solve chess "$fen" --mate --max-moves $((abs - 1)) --json --no-cache
    [ "$rc" -eq 0 ] && [ "$(field mate)" = null ] && ok || bad "$what: within $((abs - 1)) moves: exit $rc $(cat "$tmp/out" "$tmp/err")"
  fi
  # the stored tree is gsw proof show's
  run proof show chess "$fen" --json
  [ "$rc" -eq 0 ] || bad "$what: proof show exit $rc: $(cat "$tmp/err")"
  [ "$(field source)" = '"cache"' ] && ok || bad "$what: proof show did not read the stored tree: $(head -c 300 "$tmp/out")"
  [ "$(field tree_size)" = "$size" ] || bad "$what: proof show's tree has $(field tree_size) nodes, the mate's $size"
  res=$([ "$mate" -gt 0 ] && echo '"proven"' || echo '"disproven"')
  [ "$(field result)" = "$res" ] || bad "$what: proof show's result $(field result), expected $res"
  [ "$(field tree_depth)" = "$want" ] || bad "$what: proof show's tree depth $(field tree_depth), expected $want"
done <"$data"
[ "$n" -ge 3 ] || bad "only $n mates in $data for $which"

if [ "$which" != long ]; then
  fen=$(grep '^2;' "$data" | head -1 | cut -d';' -f2)
  run solve chess "$fen" --mate --no-cache
  [ "$rc" -eq 0 ] && grep -q ': mate in 2: .*#$' "$tmp/out" && grep -q 'no mate in 1: disproven' "$tmp/out" && ok ||
    bad "the text answer: exit $rc: $(cat "$tmp/out" "$tmp/err")"
  # none within N: said, mate null, exit 0
  fen=$(grep '^0;' "$data" | head -1 | cut -d';' -f2)
  run solve chess "$fen" --mate --max-moves 2 --no-cache
  [ "$rc" -eq 0 ] && grep -q 'no mate in 2 or fewer' "$tmp/out" && ok || bad "no mate: exit $rc: $(cat "$tmp/out" "$tmp/err")"
  run solve chess "$fen" --mate --max-moves 2 --no-cache --json
  [ "$rc" -eq 0 ] && [ "$(field mate)" = null ] && [ "$(field complete)" = true ] && grep -q '"line":\[\]' "$tmp/out" && ok ||
    bad "no mate --json: exit $rc: $(cat "$tmp/out" "$tmp/err")"
  # checkmated already: mate 0, no line
  run solve chess "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17" --mate --no-cache --json
  [ "$rc" -eq 0 ] && [ "$(field mate)" = 0 ] && [ "$(field value)" = '"loss"' ] && ok || bad "mated: exit $rc: $(cat "$tmp/out" "$tmp/err")"
  # df-pn's value (not --mate) of a mate in 2: the proving move comes from a
  # child the table holds proven, not from searching the first children
  # without a limit (they ran until the budget: 101,107 nodes of 100,000)
  fen=$(grep '^2;' "$data" | head -1 | cut -d';' -f2)
  run solve chess "$fen" --algo dfpn --nodes 100000 --no-cache --json
  nodes=$(field nodes)
  [ "$rc" -eq 0 ] && [ "$(field value)" = '"win"' ] && [ "${nodes:-999999}" -lt 20000 ] && ok ||
    bad "solve --algo dfpn of a mate in 2: exit $rc, $nodes nodes: $(cat "$tmp/out" "$tmp/err")"
  # bad input: one line, exit 2
  for args in "connect4 44 --mate" "chess startpos --mate --max-moves 51" "chess --mate --batch /dev/null" \
              "chess startpos --mate --algo ab" "chess startpos --max-moves 3"; do
    # shellcheck disable=SC2086
    run solve $args --no-cache
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && ok ||
      bad "solve $args: exit $rc, $(wc -l <"$tmp/err") lines: $(cat "$tmp/out" "$tmp/err")"
  done
fi

echo "$pass checks passed, $fail failed"
[ "$fail" -eq 0 ]
