#!/usr/bin/env bash
# Certificates written by gsw and checked by gsw-check, the separate
# checker: issue 54's four cases (a Connect Four 6x5 position whose lines
# all end on the board, a checkers position over the databases, a chess
# mate in 3, a Connect Four 5x4 position over its strong solution), the
# three ways to write one (proof export --format cert, solve
# --certificate, the workbench's certificate command), gsw proof check
# (and its --json),
# and each of these breaks refused with the node named: a move removed at
# an opponent's node, a value flipped, a node line removed, a leaf's
# checksum changed, a database file changed by one byte. Argument
# "quick" (the sanitizer build): the checkers position is one of 6 pieces
# over the 3-piece databases; else one of 8 over the 4-piece databases.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
CHECK=${GSW_CHECK:?}
mode=${1:-full}
cd "$tmp"

# check FILE WHAT TEXT: gsw-check passes FILE, saying TEXT
check() {
  "$CHECK" "$1" >"$tmp/out" 2>&1 && ok || bad "$2: gsw-check failed: $(cat "$tmp/out")"
  has out "OK: " "$2"
  [ -n "${3:-}" ] && has out "$3" "$2"
}
# refused FILE WHAT: gsw-check exits 1 and names the first bad node
refused() {
  "$CHECK" "$1" >"$tmp/out" 2>&1
  local rc=$?
  same "$rc" 1 "$2: gsw-check's exit"
  has_re out "^BAD: node [0-9]+" "$2"
}

# 1. Chess: the Immortal game's mate in 3 (5 plies), every line to the mate
immortal='r1b1k1nr/p2p1ppp/n2B4/1p1NPN1P/6P1/3P1Q2/P1P1K3/q5b1 w kq - 2 21'
expect 0 "proof export chess mate in 3" -- "$gsw" proof export chess "$immortal" --format cert -o mate.cert --no-cache
has out "win within 5 plies" "mate in 3: the claim"
check mate.cert "mate in 3" ">=win/5"
expect 0 "proof check (gsw runs gsw-check)" -- "$gsw" proof check mate.cert
has out "OK: " "proof check"
expect 0 "proof check --json" -- "$gsw" proof check mate.cert --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["verdict"]=="ok" and d["exit_status"]==0 and d["report"][0].startswith("OK: ") else 1)' out \
  && ok || bad "proof check --json: $(cat out)"

# 2. Connect Four 6x5: a draw (two roots), every line played out to the end
expect 0 "proof export connect4:6x5" -- "$gsw" proof export connect4:6x5 3163525416 --format cert -o c4.cert --no-cache --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["claim"]=="draw" and d["nodes"]>1000 and d["leaves"]["end"]>100 else 1)' out \
  && ok || bad "connect4 6x5 --json: $(cat out)"
check c4.cert "connect4 6x5 draw" "draw"
# the start position (its text is empty): 4x4 is a draw (FACTS: Tromp)
expect 0 "proof export connect4:4x4 from the start" -- "$gsw" proof export connect4:4x4 "" --format cert -o start.cert --no-cache
check start.cert "connect4 4x4 from the start" "OK: draw for the start position"
# solve --certificate keeps the distance solve reports (win in 17 plies)
expect 0 "solve --certificate" -- "$gsw" solve connect4:6x5 31635254162 --certificate win17.cert --no-cache
has out "win in 17 plies" "solve's value"
has err "win within 17 plies" "solve --certificate: the distance kept"
check win17.cert "solve --certificate" ">=win/17"

# 3. Connect Four 5x4 over its strong solution, solved from ply 8
expect 0 "strong build 5x4 from ply 8" -- "$gsw" strong build connect4:5x4 --from-ply 8 --dir st
expect 0 "proof export over the strong solution" -- "$gsw" proof export connect4:5x4 3132 --dir st --format cert -o strong.cert --no-cache
has_re out "[1-9][0-9]* in a strong solution" "5x4: strong leaves"
check strong.cert "5x4 over the strong solution"

# 4. Checkers over the databases
if [ "$mode" = quick ]; then
  pieces=3 pos='B:WK10,25,29:BK7,11,12'
else
  pieces=4 pos='B:WK10,21,25,29:B3,K7,11,12'
fi
expect 0 "egdb build --pieces $pieces" -- "$gsw" egdb build checkers --pieces $pieces --dir db
expect 0 "proof export checkers" -- "$gsw" proof export checkers "$pos" --dir db --format cert -o ck.cert --no-cache
has_re out "[1-9][0-9]* in databases" "checkers: database leaves"
check ck.cert "checkers over the databases" ">=win"
# the workbench's proof browser writes one of the tree it shows
printf 'new checkers %s\nproof\ncertificate wb.cert\n' "$pos" | GSW_EGDB="$tmp/db" "$gsw" shell >"$tmp/shell" 2>&1 \
  && ok || bad "shell certificate: $(tail -3 "$tmp/shell")"
has shell "certificate of the tree's root" "shell certificate"
check wb.cert "the workbench's certificate"

# 5. Breaks, each refused at a node
# a move removed at an opponent's node (one with two moves or more)
awk '!done && $2 == "all" && NF >= 9 { sub(/ [^ ]+ [0-9]+ \|/, " |"); done = 1 } { print }' ck.cert >b1.cert
cmp -s ck.cert b1.cert && bad "no all node with two moves to break" || refused b1.cert "a move removed"
# a value flipped: the root's win made a loss
sed "0,/ db >=win /s// db <=loss /" ck.cert >b2.cert
refused b2.cert "a value flipped"
# a node line removed (the last)
head -n -1 ck.cert >b3.cert
refused b3.cert "a node line removed"
# a leaf's checksum changed
python3 - ck.cert b4.cert <<'PY'
import sys
out = []
done = False
for line in open(sys.argv[1]):
    f = line.split(" ")
    if not done and f[0] == "file" and f[2] == "egdb":
        f[3] = f[3][:-1] + ("0" if f[3][-1] != "0" else "1")
        line, done = " ".join(f), True
    out.append(line)
open(sys.argv[2], "w").write("".join(out))
PY
refused b4.cert "a leaf's checksum changed"
# a database file changed by one byte (its last)
f=$(awk '$1 == "file" && $3 == "egdb" { print $5; exit }' ck.cert)
cp "$f" saved.egdb
python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[-1]^=1; open(p,"wb").write(b)' "$f"
refused ck.cert "a database file changed by one byte"
"$gsw" proof check ck.cert >/dev/null 2>&1
same "$?" 1 "proof check of a broken certificate"
"$gsw" proof check ck.cert --json >out 2>&1
same "$?" 1 "proof check --json of a broken certificate"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["verdict"]=="bad" and d["exit_status"]==1 and d["report"][0].startswith("BAD: ") else 1)' out \
  && ok || bad "proof check --json of a broken certificate: $(cat out)"
cp saved.egdb "$f"
check ck.cert "the file put back"

# 6. What cannot be certified says so
expect 2 "export cert without -o" -- "$gsw" proof export connect4:6x5 3163525416 --format cert
expect 2 "--certificate with --batch" -- "$gsw" solve connect4:4x4 --batch /dev/null --certificate x.cert
expect 2 "--certificate on a puzzle" -- "$gsw" solve solitaire:triangle --certificate x.cert
expect 2 "proof check without a file" -- "$gsw" proof check

echo "test_certificates: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
