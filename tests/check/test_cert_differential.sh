#!/usr/bin/env bash
# Certificates in the differential test: seeded random Connect Four
# positions (5x4 and 6x5) and the chess mates of tests/data/chess/mates.txt
# solved by alpha-beta (the mate prover for chess) with --certificate; each
# certificate must pass gsw-check, the separate checker, and prove exactly
# what the solve reported: a win or a loss within the solve's plies, or a
# draw. Two programs that share no search code must agree on every one.
# GSW_DIFF_SEED=N: another seed.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
CHECK=${GSW_CHECK:?}
RANDOM=${GSW_DIFF_SEED:-54}
cd "$tmp"
n=0

# agree WHAT: the solve's JSON in s.json, its certificate c.cert
agree() {
  local value plies claim
  value=$(python3 -c 'import json,sys; d=json.load(open("s.json")); print(d["value"], d.get("plies") or "")' 2>/dev/null)
  set -- $value
  case "$1" in
    win) claim=">=win/$2" ;; loss) claim="<=loss/$2" ;; draw) claim="draw" ;;
    *) bad "$what: no proven value: $(cat s.json)"; return ;;
  esac
  if ! "$CHECK" c.cert >chk 2>&1; then bad "$what: gsw-check refused: $(cat chk)"; return; fi
  grep -qF "OK: $claim for" chk && ok || bad "$what: the solve says $value, the certificate: $(cat chk)"
  n=$((n + 1))
}

for board in connect4:5x4:4:12 connect4:6x5:10:20; do
  IFS=: read -r game size lo hi <<<"$board"
  w=${size%x*}
  for i in $(seq 1 12); do
    len=$((lo + RANDOM % (hi - lo + 1))) seq=""
    for _ in $(seq 1 "$len"); do seq="$seq$((1 + RANDOM % w))"; done
    what="$game:$size $seq"
    # a full column or a finished game: not a position to solve
    "$gsw" solve "$game:$size" "$seq" --no-cache --hash 16 --json --certificate c.cert >s.json 2>err || continue
    agree
  done
done

while IFS=';' read -r mate fen _; do
  [ "$mate" -gt 0 ] 2>/dev/null && [ "$mate" -le 3 ] || continue
  what="chess mate in $mate"
  "$gsw" solve chess "$fen" --mate --no-cache --hash 16 --certificate c.cert >out 2>err || { bad "$what: $(cat err)"; continue; }
  "$CHECK" c.cert >chk 2>&1 && grep -qF "OK: >=win/$((2 * mate - 1)) for" chk && ok || bad "$what: $(cat chk)"
done < <(grep -v '^#' "$GSW_TEST_DATA/chess/mates.txt")

[ "$n" -ge 10 ] && ok || bad "only $n random positions were solved and certified"
echo "test_cert_differential: $pass passed, $fail failed ($n random positions)"
[ "$fail" -eq 0 ]
