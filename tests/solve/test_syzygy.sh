#!/usr/bin/env bash
# The Syzygy tablebases as a source of the door (solve/source_syzygy.c),
# through every front end that asks it: solve (text and --json), analyze,
# the shell's analysis, UCI's SyzygyPath with its root move; the 50-move rule
# as Syzygy defines it (a cursed win is a draw by the rule, said so, and a
# win with --no-line); Fathom's move keeps the win (the position after it is
# a loss with a DTZ one less); no tablebase of gsw's own is built for a
# position the tables hold; bad folders refused in one line. Tables:
# tests/data/syzygy (tests/data/README.md says how they were made).
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
sz="${GSW_TEST_DATA:?}/syzygy"
export GSW_EGDB="$tmp/egdb"   # gsw's own tablebases: an empty folder
mkdir -p "$GSW_EGDB"
kqk='8/8/8/8/8/2k5/8/KQ6 w - - 0 1'

expect 0 "solve KQvK" -- "$gsw" solve chess "$kqk" --syzygy "$sz" --no-cache
has out ': win (Syzygy, DTZ 11), best move Qe4' "a win, its DTZ and Fathom's move"
has err '(from the Syzygy tablebases)' "the source named"
expect 0 "solve KQvK --json" -- "$gsw" solve chess "$kqk" --syzygy "$sz" --no-cache --json
has out '"source":"syzygy"' "json source"
has out '"note":"Syzygy, DTZ 11"' "json note"
has out '"value":"win"' "json value"
# the move keeps the win: after Qe4 Black is lost, one ply nearer the zeroing
expect 0 "after Qe4" -- "$gsw" solve chess '8/8/8/8/4Q3/2k5/8/K7 b - - 1 1' --syzygy "$sz" --no-cache
has out ': loss (Syzygy, DTZ 10)' "the reply's value"
# the 50-move rule as Syzygy has it: 90 plies on the clock leave 10, the win needs 11
expect 0 "cursed by the clock" -- "$gsw" solve chess '8/8/8/8/8/2k5/8/KQ6 w - - 90 1' --syzygy "$sz" --no-cache
has out ': draw (Syzygy: a win without the 50-move rule, DTZ 11)' "a cursed win is a draw by the rule"
expect 0 "--no-line" -- "$gsw" solve chess '8/8/8/8/8/2k5/8/KQ6 w - - 90 1' --syzygy "$sz" --no-cache --no-line
has out ': win (Syzygy, DTZ 11)' "without the rule, a win"
# GSW_SYZYGY does what --syzygy does
GSW_SYZYGY="$sz" expect 0 "GSW_SYZYGY" -- "$gsw" solve chess "$kqk" --no-cache
has out 'win (Syzygy, DTZ 11)' "the folder from the environment"
# a 4-piece ending the tables hold: answered at once, and gsw's own KRKP not built
expect 0 "KRvKP" -- "$gsw" solve chess '8/8/8/8/3k4/8/3p4/K6R w - - 0 1' --syzygy "$sz" --no-cache --json
has out '"source":"syzygy"' "KRvKP from the tables"
same "$(find "$GSW_EGDB" -type f | wc -l)" 0 "no tablebase of gsw's own built for a position Syzygy holds"

# analyze: every move, best first; the draws after the wins; by the rule, the cursed ones said
expect 0 "analyze" -- "$gsw" analyze chess "$kqk" --syzygy "$sz" --no-cache
same "$(head -1 "$tmp/out" | tr -s ' ')" "Qe4 win, converts in 11 " "the fastest zeroing first"
same "$(grep -c ' win, converts in ' "$tmp/out")" 17 "17 winning moves"
same "$(grep -c ' draw' "$tmp/out")" 4 "4 drawing moves (the queen given away)"
same "$(grep -n ' draw' "$tmp/out" | head -1 | cut -d: -f1)" 18 "draws after the wins"
expect 0 "analyze at 90 plies" -- "$gsw" analyze chess '8/8/8/8/8/2k5/8/KQ6 w - - 90 1' --syzygy "$sz" --no-cache --json
same "$(grep -o '"without_rule":"win"' "$tmp/out" | wc -l)" 17 "17 cursed wins said"
# the same first move everywhere: Fathom's (solve, UCI) and the lists' first (analyze, hint), soonest to zero
same "$(jq -r '.moves[0].move' "$tmp/out")" Qe4 "analyze: the cursed win that converts soonest first"
printf 'hint\nquit\n' | "$gsw" shell chess '8/8/8/8/8/2k5/8/KQ6 w - - 90 1' --syzygy "$sz" --no-cache >"$tmp/sh90" 2>&1
has sh90 'hint: Qe4, draw (a win without the 50-move rule)' "the hint is solve's best move"

# the shell's analysis (the workbench's session)
printf 'analyze\nquit\n' | "$gsw" shell chess "$kqk" --syzygy "$sz" --no-cache >"$tmp/sh" 2>&1
has sh 'win, converts in 11' "the shell's analysis from the tables"

# UCI: SyzygyPath, and the root's move from the tables
printf 'uci\nsetoption name SyzygyPath value %s\nposition fen %s\ngo movetime 500\n' "$sz" "$kqk" \
  | timeout 30 "$gsw" uci >"$tmp/uci" 2>&1
has uci 'option name SyzygyPath type string default <empty>' "the option listed"
has uci 'option name SyzygyProbeLimit type spin' "the probe limit listed"
has uci 'info string SyzygyPath: tables of up to 4 pieces' "the tables found"
has uci 'bestmove b1e4' "the DTZ move at the root"
has uci 'tbhits 1' "a tablebase hit said"
# the tables closed and opened again (Fathom's tb_free left freed memory for the next open)
printf 'uci\nsetoption name SyzygyPath value %s\nsetoption name SyzygyPath value <empty>\nsetoption name SyzygyPath value %s\nposition fen %s\ngo movetime 200\n' \
  "$sz" "$sz" "$kqk" | timeout 30 "$gsw" uci >"$tmp/uci3" 2>&1
same "$?" 0 "SyzygyPath set, emptied and set again"
has uci3 'bestmove b1e4' "the tables answer after they are opened again"
printf 'uci\nsetoption name SyzygyPath value %s\n' "$tmp/nowhere" | timeout 30 "$gsw" uci >"$tmp/uci2" 2>&1
has uci2 'info string SyzygyPath: Syzygy tables: '"$tmp/nowhere"' is not a folder' "a bad SyzygyPath said"

# bad folders: one line, non-zero
expect 2 "no such folder" -- "$gsw" solve chess "$kqk" --syzygy "$tmp/nowhere"
has err 'is not a folder' "the reason"
mkdir "$tmp/empty"
expect 2 "no table there" -- "$gsw" solve chess "$kqk" --syzygy "$tmp/empty"
has err 'no table' "the reason"
GSW_SYZYGY="$tmp/nowhere" expect 2 "a bad GSW_SYZYGY" -- "$gsw" solve chess "$kqk"
has err '$GSW_SYZYGY' "the environment named"

# damaged tables: refused before Fathom reads them (it would say so on stdout, or worse)
cp -r "$sz" "$tmp/cut"
truncate -s 1000 "$tmp/cut/KQvKR.rtbw"
expect 2 "a truncated table" -- "$gsw" solve chess "$kqk" --syzygy "$tmp/cut" --json
has err 'KQvKR.rtbw is damaged (1000 bytes' "the truncated file named"
same "$(wc -c <"$tmp/out")" 0 "nothing on stdout"
cp "$sz/KQvKR.rtbw" "$tmp/cut/"
printf 'GSW!' | dd of="$tmp/cut/KRvKB.rtbz" conv=notrunc 2>/dev/null
expect 2 "a table that is not one" -- "$gsw" solve chess "$kqk" --syzygy "$tmp/cut"
has err 'KRvKB.rtbz is not a Syzygy DTZ table' "the foreign file named"
# damaged inside (the frame sound): its checksum says so. Fathom trusts a
# table's insides; with these bytes it crashed (seeds of 200 random bytes
# changed in KQvKR.rtbw: a segmentation fault in 14 of 15)
cp "$sz/KRvKB.rtbz" "$tmp/cut/"
cp "$tmp/cut/KQvKR.rtbw" "$tmp/good.rtbw"
printf '\x5a\xa5\x5a\xa5' | dd of="$tmp/cut/KQvKR.rtbw" bs=1 seek=9000 conv=notrunc 2>/dev/null
expect 2 "a table damaged inside" -- "$gsw" solve chess '4k3/8/8/8/3r4/8/8/Q3K3 w - - 0 1' --syzygy "$tmp/cut" --json
has err 'KQvKR.rtbw is damaged (its checksum differs' "the damaged file named"
same "$(wc -l <"$tmp/err")" 1 "one line"
same "$(wc -c <"$tmp/out")" 0 "nothing on stdout"
printf 'uci\nsetoption name SyzygyPath value %s\nposition fen %s\ngo movetime 200\nquit\n' "$tmp/cut" \
  '4k3/8/8/8/3r4/8/8/Q3K3 w - - 0 1' | timeout 30 "$gsw" uci >"$tmp/uci" 2>&1
same "$?" 0 "UCI goes on after a damaged SyzygyPath"
has uci 'KQvKR.rtbw is damaged (its checksum differs' "UCI says why"
has uci 'bestmove' "UCI still plays"
# a table checked once is remembered (beside the cache) until it changes
memo="$(dirname "$GSW_DB")/syzygy-checked.txt"
before=$(grep -c "$tmp/cut/KQvKR.rtbw" "$memo")
cp "$tmp/good.rtbw" "$tmp/cut/KQvKR.rtbw"
expect 0 "the table mended" -- "$gsw" solve chess '4k3/8/8/8/3r4/8/8/Q3K3 w - - 0 1' --syzygy "$tmp/cut" --no-cache
same "$(grep -c "$tmp/cut/KQvKR.rtbw" "$memo")" $((before + 1)) "the mended table remembered"
expect 0 "the same tables again" -- "$gsw" solve chess "$kqk" --syzygy "$tmp/cut" --no-cache
same "$(grep -c "$tmp/cut/KQvKR.rtbw" "$memo")" $((before + 1)) "not checked again"
printf '\x5a\xa5\x5a\xa5' | dd of="$tmp/cut/KQvKR.rtbw" bs=1 seek=9000 conv=notrunc 2>/dev/null
expect 2 "damaged again after it was remembered" -- "$gsw" solve chess "$kqk" --syzygy "$tmp/cut"
has err 'KQvKR.rtbw is damaged (its checksum differs' "a changed table checked again"
# --db moves the memo with the cache
mkdir -p "$tmp/other"
expect 0 "the tables with another cache" -- "$gsw" solve chess "$kqk" --syzygy "$sz" --db "$tmp/other/c.sqlite" --json
[ -s "$tmp/other/syzygy-checked.txt" ] && ok || bad "the memo is beside --db's cache"
grep -q "$sz/KQvK.rtbw" "$tmp/other/syzygy-checked.txt" && ok || bad "the table checked is remembered there"

echo "test_syzygy: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
