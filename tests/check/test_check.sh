#!/usr/bin/env bash
# gsw-check (check/): its rules against gsw perft; certificates written by
# hand (tests/check/data: Connect Four 5x4, a chess mate in 2, checkers
# endings over 3-piece databases built here, a cycle of checkers moves)
# each passing, and each refused with the right node named when broken: a
# move removed at an all node, a value flipped, a node line removed, a
# child's position wrong, a checksum changed, a database file changed by
# one byte, a missing manifest, a cycle under a win bound. Then --deep on
# the 1-3-piece checkers databases and on chess KRK, and on them with one
# value changed (its checksums made good: egdb_poke).
set -u
CHECK=${GSW_CHECK:?} GSW=${GSW_BIN:?} POKE=${GSW_EGDB_POKE:?}
DATA=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect STATUS TEXT CMD...: CMD exits STATUS and its output holds TEXT
expect() {
    local want=$1 text=$2 out rc=0
    shift 2
    out=$("$@" 2>&1) || rc=$?
    [ "$rc" = "$want" ] || fail "$*: exit $rc, not $want: $out"
    case "$out" in *"$text"*) ;; *) fail "$*: \"$out\" does not say \"$text\"" ;; esac
    echo "ok: $(echo "$out" | head -1)"
}

# the rules: Connect Four's own, checkers' and chess's against gsw perft
for gd in connect4:4x4:8 connect4:5x4:7 connect4:7x6:5 connect4:10x5:4 checkers:7 chess:3; do
    g=${gd%:*} d=${gd##*:}
    a=$("$GSW" perft "$g" "$d" 2>/dev/null) b=$("$CHECK" --perft "$g" "$d")
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "perft $g $d: gsw $a, gsw-check $b"
done
echo "ok: perft agrees"

cd "$T"
cp "$DATA"/*.cert .
"$GSW" egdb build checkers --pieces 3 --dir db >/dev/null 2>&1 || fail "egdb build"
W=db/checkers/wld
[ -s $W/MANIFEST ] || fail "the build wrote no MANIFEST in $W"
# a folder's MANIFEST written again (after a file is changed on purpose)
manifest() {
    { echo "gsw-manifest 1"
      echo "build 1 version 0.1.0 commit test date 2026-01-01T00:00:00Z cores 1 seconds 0"
      echo "command 1 egdb_poke"
      (cd "$1" && sha256sum -- *.egdb) | awk '{ print "file " $2 " sha256 " $1 " positions 0 build 1" }'
    } > "$1/MANIFEST"
}
for c in checkers_3 checkers_cycle; do
    while read -r _ fid _ _ path; do
        sed -i "s|^file $fid egdb SHA |file $fid egdb $(sha256sum "$path" | cut -c1-64) |" $c.cert
    done < <(grep '^file ' $c.cert)
done

expect 0 "OK: >=win/3 for 3322 (connect4:5x4), 12 nodes, depth 3, 5 leaves on evidence (5 end)" "$CHECK" c4_5x4.cert
expect 0 "OK: <=loss/2 for 7k/p4K2/8/8/8/8/8/R7 b - - 0 1 (chess), 7 nodes, depth 2" "$CHECK" chess_mate2.cert
expect 0 "OK: <=loss for B:W17,18,K32:BK14 (checkers), 3 nodes, depth 1, 2 leaves on evidence (2 db)" "$CHECK" checkers_3.cert
expect 0 "database files consistent" "$CHECK" --deep checkers_3.cert
sed 's/>=win/>=draw/g; s/<=loss/<=draw/g' checkers_cycle.cert > cycle_draw.cert
expect 0 "OK: >=draw for B:WK32:BK1,K3 (checkers), 8 nodes" "$CHECK" cycle_draw.cert
# a draw: two roots, >=draw and <=draw (kings alone: the game is over)
printf 'gsw-certificate 1\ngame chess\nroot 1\nroot 2\n1 end >=draw | %s\n2 end <=draw | %s\n' \
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1" "8/8/8/4k3/8/8/8/4K3 w - - 0 1" > draw.cert
expect 0 "OK: draw for 8/8/8/4k3/8/8/8/4K3 w - - 0 1 (chess), 2 nodes, depth 0, 2 leaves on evidence (2 end)" "$CHECK" draw.cert
sed 's/^2 end <=draw/2 end <=loss/' draw.cert > bad.cert
expect 1 "BAD: node 2: the end of the game gives draw, which is not <=loss" "$CHECK" bad.cert

# refused, each at the right node
sed 's/^2 all <=loss\/2 1 3 2 4 3 5 4 6 5 7 /2 all <=loss\/2 1 3 2 4 3 5 4 6 /' c4_5x4.cert > bad.cert
expect 1 "BAD: node 2: an all node without the legal move 5" "$CHECK" bad.cert
sed 's/^1 one >=win\/3 /1 one >=win\/2 /' c4_5x4.cert > bad.cert
expect 1 "BAD: node 1: its bound >=win/2 does not follow from move 4's child 2, <=loss/2" "$CHECK" bad.cert
sed 's/^3 db >=win W3 /3 db <=loss W3 /; s/^root 1/root 3/' checkers_3.cert | sed '/^[12] /d' > bad.cert
expect 1 "BAD: node 3: the database gives win, which is not <=loss" "$CHECK" bad.cert
sed '/^6 end/d' chess_mate2.cert > bad.cert
expect 1 "BAD: node 3: its child 6 (move Rh1#) is not in the file" "$CHECK" bad.cert
sed 's/^10 end <=loss\/0 | 3323421/10 end <=loss\/0 | 3322431/' c4_5x4.cert > bad.cert
expect 1 "BAD: node 5: move 1 leads to 3323421, but its child 10 is 3322431" "$CHECK" bad.cert
grep -q "line from root 1: 4 3" <("$CHECK" bad.cert) || fail "the line of moves to node 5"
{ cat chess_mate2.cert; echo "99 end <=loss/0 | 8/p4K1k/8/8/8/8/8/7R b - - 2 2"; } > bad.cert
expect 1 "BAD: node 99: not reachable from a root" "$CHECK" bad.cert
sed 's/^\(file W3 egdb \)\(.\)/\1f/; s/^\(file W3 egdb \)ff/\1ee/' checkers_3.cert > bad.cert
expect 1 "BAD: node 2: $W/1K1C-1K0C.b3wx.egdb has SHA-256" "$CHECK" bad.cert
expect 1 "BAD: node 1: on a cycle under the bound >=win" "$CHECK" checkers_cycle.cert
mv $W/MANIFEST $W/MANIFEST.keep
expect 1 "BAD: node 2: $W/1K1C-1K0C.b3wx.egdb: no MANIFEST in its folder or above it" "$CHECK" checkers_3.cert
grep -v 1K1C-1K0C.b3wx $W/MANIFEST.keep > $W/MANIFEST
expect 1 "BAD: node 2: $W/1K1C-1K0C.b3wx.egdb: not listed in $W/MANIFEST" "$CHECK" checkers_3.cert
mv $W/MANIFEST.keep $W/MANIFEST
F=$W/1K1C-1K0C.b3wx.egdb
cp $F keep.egdb
size=$(stat -c %s $F)
printf '\x5a' | dd of=$F bs=1 seek=$((size - 7)) conv=notrunc 2>/dev/null
cmp -s $F keep.egdb && fail "the byte was not changed"
expect 1 "BAD: node 2: $F has SHA-256" "$CHECK" checkers_3.cert
cp keep.egdb $F
# unreadable input
expect 2 "UNREADABLE" "$CHECK" missing.cert
printf 'gsw-certificate 2\n' > bad.cert
expect 2 "UNREADABLE: bad.cert:1: not a certificate" "$CHECK" bad.cert
sed 's/^game checkers/game go/' checkers_3.cert > bad.cert
expect 2 "does not know the game \"go\"" "$CHECK" bad.cert

# database files by retrograde consistency
expect 0 "OK: 394 database files consistent (268316 positions) under db" "$CHECK" --deep db
at=$("$POKE" $F) || fail "egdb_poke"
expect 1 "BAD: $F (wld) position $at" "$CHECK" --deep $F
expect 1 "BAD: " "$CHECK" --deep db
# gsw's own verify finds it too (its consistency error once went unsaid, the file passed)
expect 1 "is stored as" "$GSW" egdb verify checkers --dir db
# with a certificate: its files' checksums are right (made again), their values not
manifest $W
sed "s/$(sha256sum keep.egdb | cut -c1-64)/$(sha256sum $F | cut -c1-64)/" checkers_3.cert > poked.cert
expect 0 "OK: <=loss for" "$CHECK" poked.cert
expect 1 "BAD: file W3: $F (wld) position $at" "$CHECK" --deep poked.cert
# Connect Four's strong solution: a draw from its drawn set, refused from its won set
"$GSW" strong build connect4:4x4 --dir st >/dev/null 2>&1 || fail "strong build"
S=st/connect4-4x4
[ -s $S/MANIFEST ] || fail "the build wrote no MANIFEST in $S"
sha() { sha256sum "$1" | cut -c1-64; }
printf 'gsw-certificate 1\ngame connect4:4x4\nroot 1\nroot 2\nfile D strong %s %s 4 4 compressed column 4 drawn\n1 strong >=draw D | 3322\n2 strong <=draw D | 3322\n' \
    "$(sha $S/ply04-drawn.bdd)" $S/ply04-drawn.bdd > strong.cert
expect 0 "OK: draw for 3322 (connect4:4x4), 2 nodes, depth 0, 2 leaves on evidence (2 strong)" "$CHECK" strong.cert
sed "s|drawn.bdd 4 4 compressed column 4 drawn|won.bdd 4 4 compressed column 4 won|; s|$(sha $S/ply04-drawn.bdd)|$(sha $S/ply04-won.bdd)|; s|>=draw|>=win|" strong.cert > bad.cert
expect 1 "BAD: node 1: the position is not in D's set" "$CHECK" bad.cert

# chess: KRK's distances to mate (and KK's, which its captures reach)
"$GSW" egdb build chess KRK --dir tb >/dev/null 2>&1 || fail "egdb build chess KRK"
K=tb/chess/dtm/KRK.egdb
# (59136 indices: 462 pairs of kings, the board's symmetry folded, x 64 rook squares x 2 sides)
expect 0 "OK: 1 database files consistent (59136 positions)" "$CHECK" --deep $K
at=$("$POKE" $K) || fail "egdb_poke"
expect 1 "BAD: $K (dtm) position $at, " "$CHECK" --deep $K
echo "all gsw-check tests passed"
