#!/usr/bin/env bash
# Provenance (db/manifest.h): a 3-piece checkers build writes its folder's
# MANIFEST (the command as typed, gsw's commit, each file's SHA-256 as
# sha256sum gives it, its size and positions, its inputs); verify passes,
# then names a file with one byte changed, a removed one and an unlisted
# one (exit 1); a probe or solve that needs an unvouched file refuses it
# with the reason and the fix, --trust and GSW_TRUST=1 use it with one
# warning; --record adopts a folder built before manifests. Then a
# connect4:4x4 strong solution: its MANIFEST, strong verify, a changed
# set, a refusal, --record. Needs GSW_BIN (set by ctest) and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
command -v sha256sum >/dev/null || { echo "no sha256sum"; exit 77; }

# ---- an endgame database's folder ----
d=$tmp/e
wld=$d/checkers/wld
expect 0 "build 3 pieces" -- "$gsw" egdb build checkers --pieces 3 --dir "$d" --threads 1 --json
positions=$(jq -r .positions "$tmp/out")
mf=$wld/MANIFEST
[ -f "$mf" ] && ok || bad "no MANIFEST in $wld"
head -1 "$mf" | grep -qx "gsw-manifest 1" && ok || bad "the MANIFEST's first line"
grep -q "^command 1 .*gsw egdb build checkers --pieces 3 --dir $d --threads 1 --json$" "$mf" && ok \
  || bad "the command as typed: $(grep ^command "$mf")"
commit=$("$gsw" version --json | jq -r .commit)
[ -n "$commit" ] && [ "$commit" != null ] && ok || bad "gsw version --json: no commit"
"$gsw" --version | grep -qF "(commit $commit)" && ok || bad "gsw --version: no commit"
grep -qE "^build 1 version [^ ]+ commit $commit date [0-9-]{10}T[0-9:]{8}Z cores [0-9]+ seconds [0-9.]+$" "$mf" && ok \
  || bad "the build line: $(grep ^build "$mf")"
same "$(grep -c '^file ' "$mf")" "$(ls "$wld" | grep -c '\.egdb$')" "every file listed"
# each file's SHA-256 is sha256sum's, its size stat's
f=2K1C-0K0C.b3wx.egdb
line=$(grep "^file $f " "$mf")
sum=$(sha256sum "$wld/$f" | cut -d' ' -f1)
same "$(echo "$line" | awk '{ print $4 }')" "$sum" "$f: its SHA-256"
same "$(echo "$line" | awk '{ print $6 }')" "$(stat -c %s "$wld/$f")" "$f: its size"
(cd "$wld" && awk '$1 == "file" { print $4 "  " $2 }' MANIFEST | sha256sum -c --quiet) && ok || bad "sha256sum -c of every file"
[ "$(echo "$line" | awk '{ print $8 }')" -gt 0 ] && ok || bad "$f: no positions"
same "$(awk '$1 == "file" { n += $8 } END { print n }' "$mf")" "$positions" "the files' positions add up to the build's"
# its inputs: the files of the slices it exits into, with their SHA-256
grep -q "^from $f " "$mf" && ok || bad "$f: no inputs"
in=$(grep "^from $f " "$mf" | head -1 | awk '{ print $3 }')
same "$(grep "^from $f $in " "$mf" | awk '{ print $5 }')" "$(sha256sum "$wld/$in" | cut -d' ' -f1)" "an input's SHA-256"

expect 0 "verify" -- "$gsw" egdb verify checkers --dir "$d" --threads 1
has out "wld/$f: ok" "verify names each file ok"
expect 0 "verify --json" -- "$gsw" egdb verify checkers --dir "$d" --threads 1 --json
same "$(jq -r '[.ok, .manifest_failures, (.manifest | length)] | map(tostring) | join(" ")' "$tmp/out")" \
  "true 0 $(grep -c '^file ' "$mf")" "verify --json"

# a 3-piece position (White to move: a man on 20 against two kings)
pos='W:W20:BK1,K2'
expect 0 "probe" -- "$gsw" egdb probe checkers "$pos" --dir "$d"
# one byte changed (same size): verify names it, exit 1
cp -r "$d" "$tmp/e2"
g=$(ls "$wld" | grep '\.egdb$' | tail -1)
size=$(stat -c %s "$wld/$g")
printf '\x55' | dd of="$tmp/e2/checkers/wld/$g" bs=1 seek=$((size - 20)) conv=notrunc status=none
cmp -s "$wld/$g" "$tmp/e2/checkers/wld/$g" && printf '\x56' | dd of="$tmp/e2/checkers/wld/$g" bs=1 seek=$((size - 20)) conv=notrunc status=none
expect 1 "verify, one byte changed" -- "$gsw" egdb verify checkers --dir "$tmp/e2" --threads 1
has out "wld/$g: differs from the manifest" "the changed file is named"
expect 1 "verify --json, one byte changed" -- "$gsw" egdb verify checkers --dir "$tmp/e2" --threads 1 --json
same "$(jq -r --arg f "wld/$g" '.manifest[] | select(.file == $f) | .status' "$tmp/out")" differs "--json: differs"
same "$(jq -r .ok "$tmp/out")" false "--json: not ok"
# a file removed, one not listed
rm "$tmp/e2/checkers/wld/$f"
cp "$wld/$g" "$tmp/e2/checkers/wld/$g"
cp "$tmp/e2/checkers/wld/$g" "$tmp/e2/checkers/wld/9K9C-9K9C.bxwx.egdb"
expect 1 "verify, a file removed and one not listed" -- "$gsw" egdb verify checkers --dir "$tmp/e2" --threads 1
has out "wld/$f: missing" "the removed file is said missing"
has out "wld/9K9C-9K9C.bxwx.egdb: not in the manifest" "the unlisted file is said"
has err "do not match their folder's MANIFEST" "the error says why"

# readers: a file whose size differs from the MANIFEST's, or a folder without one, is refused
cp -r "$d" "$tmp/e3"
for x in $(ls "$tmp/e3/checkers/wld" | grep '\.egdb$'); do printf 'x' >>"$tmp/e3/checkers/wld/$x"; done
expect 1 "probe, every file grown" -- "$gsw" egdb probe checkers "$pos" --dir "$tmp/e3"
has err "differs from the folder's MANIFEST" "the probe says why"
has err "gsw egdb verify checkers --dir $tmp/e3" "and the fix"
rm -rf "$tmp/e3"
cp -r "$d" "$tmp/e3"
rm "$tmp/e3/checkers/wld/MANIFEST"
expect 1 "probe, no MANIFEST" -- "$gsw" egdb probe checkers "$pos" --dir "$tmp/e3"
has err "has no MANIFEST to vouch for" "the probe refuses the unvouched file"
has err "--record" "and names the way to adopt it"
expect 0 "solve, no MANIFEST: refused, solved by search" -- "$gsw" solve checkers "$pos" --dir "$tmp/e3" --no-cache --json
has err "has no MANIFEST to vouch for" "the solve says the database was refused"
same "$(jq -r .source "$tmp/out")" search "the solve did not use it"
[ ! -d "$tmp/e3/checkers/dtc" ] && ok || bad "the solve built distances to conversion from refused files"
# a position the databases hold only below it: the search's refused probes are said too
"$gsw" solve checkers 'B:WK10,25,29:BK7,11,12' --algo dfpn --dir "$tmp/e3" --no-cache --hash 16 >"$tmp/out" 2>"$tmp/err" && ok || bad "solve below the databases"
has err "has no MANIFEST to vouch for" "a search's refused probes are said"
expect 0 "probe --trust" -- "$gsw" egdb probe checkers "$pos" --dir "$tmp/e3" --trust
same "$(grep -c 'warning: .*used anyway (--trust)' "$tmp/err")" 1 "--trust: one warning"
expect 0 "solve --trust" -- "$gsw" solve checkers "$pos" --dir "$tmp/e3" --no-cache --trust --json
same "$(jq -r .source "$tmp/out")" egdb "--trust: the databases answer"
same "$(grep -c 'used anyway' "$tmp/err")" 1 "--trust: one warning, not one a file"
expect 0 "GSW_TRUST=1" -- env GSW_TRUST=1 "$gsw" egdb probe checkers "$pos" --dir "$tmp/e3"
has err "used anyway" "GSW_TRUST=1: the warning"
# adopting a folder built before manifests: --record after the consistency check
expect 1 "verify, no MANIFEST" -- "$gsw" egdb verify checkers --dir "$tmp/e3" --threads 1
has out ": not in the manifest" "every file unlisted"
expect 0 "verify --record" -- "$gsw" egdb verify checkers --dir "$tmp/e3" --threads 1 --record
has out "files recorded" "--record says what it recorded"
grep -q "^command [0-9]* .*egdb verify checkers --dir $tmp/e3 --threads 1 --record$" "$tmp/e3/checkers/wld/MANIFEST" && ok \
  || bad "--record: the command is the verify"
expect 0 "probe after --record" -- "$gsw" egdb probe checkers "$pos" --dir "$tmp/e3"
expect 2 "--record with a SLICE" -- "$gsw" egdb verify checkers 2K1C-0K0C.b3wx --dir "$tmp/e3" --record
# --record refuses a damaged folder, recording nothing
rm "$tmp/e2/checkers/wld/MANIFEST" "$tmp/e2/checkers/wld/9K9C-9K9C.bxwx.egdb"
printf '\x55' | dd of="$tmp/e2/checkers/wld/$g" bs=1 seek=$((size - 20)) conv=notrunc status=none
expect 1 "verify --record, a damaged file" -- "$gsw" egdb verify checkers --dir "$tmp/e2" --threads 1 --record
[ ! -f "$tmp/e2/checkers/wld/MANIFEST" ] && ok || bad "--record wrote a MANIFEST for a damaged folder"
# building a slice again updates its line
before=$(grep "^file $f " "$mf")
rm "$wld/$f"
expect 0 "build again" -- "$gsw" egdb build checkers --pieces 3 --dir "$d" --threads 1 --json
same "$(jq -r .built "$tmp/out")" 1 "one slice built again"
same "$(grep -c "^file $f " "$mf")" 1 "its line, once"
grep -q '^build 2 ' "$mf" && grep -q "^file $f .* build 2$" "$mf" && ok || bad "its line names the new build"
same "$(grep "^file $f " "$mf" | awk '{ print $4 }')" "$(echo "$before" | awk '{ print $4 }')" "the same bytes, the same SHA-256"
expect 0 "verify after the rebuild" -- "$gsw" egdb verify checkers --dir "$d" --threads 1

# ---- a strong solution ----
s=$tmp/s
b=$s/connect4-4x4
expect 0 "strong build 4x4" -- "$gsw" strong build connect4:4x4 --dir "$s"
[ -f "$b/MANIFEST" ] && [ -f "$b/manifest" ] && ok || bad "the strong folder's MANIFEST beside its manifest"
same "$(grep -c '^file ' "$b/MANIFEST")" "$(ls "$b" | grep -c '\.bdd$')" "every set listed"
(cd "$b" && awk '$1 == "file" { print $4 "  " $2 }' MANIFEST | sha256sum -c --quiet) && ok || bad "sha256sum -c of every set"
grep -q "^command 1 .*strong build connect4:4x4 --dir $s$" "$b/MANIFEST" && ok || bad "the strong build's command"
expect 0 "strong verify" -- "$gsw" strong verify connect4:4x4 --dir "$s"
has out "ply05-won.bdd: ok" "strong verify names each set"
expect 0 "strong query" -- "$gsw" strong query connect4:4x4 11 --dir "$s"
cp -r "$s" "$tmp/s2"
b2=$tmp/s2/connect4-4x4
size=$(stat -c %s "$b2/ply05-won.bdd")
printf '\x55' | dd of="$b2/ply05-won.bdd" bs=1 seek=$((size / 2)) conv=notrunc status=none
cmp -s "$b/ply05-won.bdd" "$b2/ply05-won.bdd" && printf '\x56' | dd of="$b2/ply05-won.bdd" bs=1 seek=$((size / 2)) conv=notrunc status=none
rm "$b2/ply06-lost.bdd"
expect 1 "strong verify, a set changed and one removed" -- "$gsw" strong verify connect4:4x4 --dir "$tmp/s2" --json
same "$(jq -r '.manifest[] | select(.file == "ply05-won.bdd") | .status' "$tmp/out")" differs "the changed set"
same "$(jq -r '.manifest[] | select(.file == "ply06-lost.bdd") | .status' "$tmp/out")" missing "the removed set"
rm "$b2/MANIFEST"
expect 1 "strong query, no MANIFEST" -- "$gsw" strong query connect4:4x4 1111 --dir "$tmp/s2"
has err "has no MANIFEST to vouch for" "strong query refuses unvouched sets"
expect 0 "strong verify --record (a sound folder)" -- "$gsw" strong verify connect4:4x4 --dir "$tmp/s" --record
cp -r "$s" "$tmp/s3"
rm "$tmp/s3/connect4-4x4/MANIFEST"
expect 0 "strong verify --record" -- "$gsw" strong verify connect4:4x4 --dir "$tmp/s3" --record
has out "sets recorded" "--record adopts the sets"
expect 0 "strong query after --record" -- "$gsw" strong query connect4:4x4 1111 --dir "$tmp/s3"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
