#!/usr/bin/env bash
# Endgame databases from the command line: Table 1's counts by pieces; build
# (progress, reuse, --for), stats (the table and --json), probe, verify;
# the default folder beside the cache; damage and truncation named (exit 1);
# bad arguments (exit 2, one line); Ctrl-C and resume; solve answering from
# the databases. Needs GSW_BIN (set by ctest) and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }


# ---- Table 1 of the checkers proof, by index arithmetic ----
want=(0 120 6972 261224 7092774 148688232 2503611964 34779531480 406309208481 4048627642976 34778882769216)
for n in 1 2 3 4 5 6 7 8 9 10; do
  expect 0 "count --pieces $n" -- "$gsw" count checkers --pieces $n --json
  same "$(jq -r .total "$tmp/out")" "${want[$n]}" "Table 1, $n pieces"
done
expect 0 "count text" -- "$gsw" count checkers --pieces 6
has out "2,503,611,964" "count prints thousands"
expect 2 "count --pieces 11" -- "$gsw" count checkers --pieces 11 --json
expect 2 "count --pieces junk" -- "$gsw" count checkers --pieces x
expect 2 "count connect4 --pieces" -- "$gsw" count connect4 --pieces 3

# ---- build, in the default folder beside the cache ----
eg="$tmp/egdb"
expect 0 "build 3 dtw" -- "$gsw" egdb build checkers --pieces 3 --metric dtw
[ -d "$eg/checkers/dtw" ] && ok || bad "the default folder is egdb/ beside the cache ($eg)"
[ -d "$eg/checkers/wld" ] && ok || bad "distance to win writes its win/draw/loss too"
has err ": done" "build reports progress on stderr"
has_re err "positions; build [0-9.]+% of [0-9]+, .* left" "build progress gives the time left"
has out "394 slices (394 built" "build: every slice of 1-3 pieces"
expect 0 "build again" -- "$gsw" egdb build checkers --pieces 3 --metric dtw --json
same "$(jq -r '.built, .reused' "$tmp/out" | tr '\n' ' ')" "0 394 " "a finished build is reused, exit 0"
expect 0 "build --for" -- "$gsw" egdb build checkers --for 'B:WK1:BK30,K31,K32' --metric dtw --json
same "$(jq -r '.built > 0 and .reused > 0' "$tmp/out")" true "--for builds what the position reaches, reusing the rest"
"$gsw" egdb build checkers --pieces 4 --plan --json >"$tmp/out" 2>"$tmp/err"
same "$(jq -r '[.slices, .finished_slices, .positions, .finished_positions] | map(tostring) | join(" ")' "$tmp/out")" \
  "1029 396 7361090 555996" "--plan: 1-4 pieces (Table 1), of which 1-3 and --for's two are built"
[ -d "$eg/checkers/wld" ] && [ "$(ls "$eg/checkers/wld" | grep -c '^3K0C-1K0C')" -le 1 ] && ok || bad "--plan builds nothing"
same "$(jq -r '([.units[].positions] | add) == .positions' "$tmp/out")" true "--plan --json lists every unit"
same "$(jq -r '([.units[] | select(.finished | not) | .disk_bytes] | add) == .disk_bytes' "$tmp/out")" true "--plan: disk of the units left"
same "$(jq -r '.memory_bytes == ([.units[] | select(.finished | not) | .memory_bytes] | max)' "$tmp/out")" true "--plan: the most memory a unit needs"
same "$(jq -r '[.units[] | .memory_bytes > 8 * .positions] | all' "$tmp/out")" true "--plan: memory at least 8 bytes a position"
# a 4-piece unit's probes need a few MB of block cache, as its build takes
# (egdb_unit_exit_mb), not the budget's share (2.2 GB a unit before)
same "$(jq -r '[.units[] | .memory_bytes < 128000000] | all' "$tmp/out")" true "--plan: a small unit's block cache is what its exits need"
"$gsw" egdb build checkers --pieces 4 --max-per-side 2 --plan --json >"$tmp/out" 2>"$tmp/err"
same "$(jq -r '[.units[].slice | capture("^(?<a>[0-9]+)K(?<b>[0-9]+)C-(?<c>[0-9]+)K(?<d>[0-9]+)C") | (.a|tonumber)+(.b|tonumber) <= 2 and (.c|tonumber)+(.d|tonumber) <= 2] | all' "$tmp/out")" \
  true "--max-per-side 2: no side has more than two pieces"
same "$(jq -r '[.units[].slice | select(startswith("2K0C-2K0C"))] | length' "$tmp/out")" 1 "--max-per-side 2 keeps 2K v 2K"
expect 2 "--max-per-side without --pieces" -- "$gsw" egdb build checkers 2K0C-2K0C.bxwx --max-per-side 2
expect 0 "build dtc" -- "$gsw" egdb build checkers --pieces 2 --metric dtc --json
[ "$(ls "$eg/checkers/dtc" | wc -l)" -gt 50 ] && ok || bad "dtc files"

# ---- stats ----
expect 0 "stats 2K v 1K" -- "$gsw" egdb stats checkers 2,0,1,0 --json
same "$(jq -r '[type, .game, .convention, (.materials | length)] | map(tostring) | join(" ")' "$tmp/out")" \
  "object checkers material 1" "stats --json: one object, as README promises every verb's"
same "$(jq -r '.materials[0] | [.positions, .longest_win_plies, .longest_loss_plies] | map(tostring) | join(" ")' "$tmp/out")" \
  "14880 33 34" "stats 2K v 1K: Trice & Dodgen's figures"
same "$(jq -r '.materials[0] | [.black_kings, .black_men, .white_kings, .white_men] | map(tostring) | join(",")' "$tmp/out")" \
  "2,0,1,0" "stats names the material"
same "$(jq -r '.materials[0].wins + .materials[0].draws + .materials[0].losses == .materials[0].positions' "$tmp/out")" true "wins+draws+losses"
same "$(jq -r '.materials[0].example' "$tmp/out")" "B:WK14:BK1,K2" "the longest win's example"
same "$(jq -r '.materials[0].loss_example | startswith("W:")' "$tmp/out")" true "the longest loss is the defender's, to move"
# the readings of the longest win and loss: 1K v 2C, where White's wins are the material's longest
expect 0 "stats 1K v 2C" -- "$gsw" egdb stats checkers 1,0,0,2 --json
same "$(jq -r '.materials[0] | [.convention, .longest_win_plies, .longest_loss_plies, .black_to_move_longest_win_plies] | map(tostring) | join(" ")' "$tmp/out")" \
  "material 61 62 13" "stats 1K v 2C: either side to move (2C v 1K's 61/62)"
same "$(jq -r '.materials[0] | [.example, .loss_example] | map(.[0:2]) | join(" ")' "$tmp/out")" "W: B:" "its examples: White to move wins, Black to move loses"
expect 0 "stats 1K v 2C first" -- "$gsw" egdb stats checkers 1,0,0,2 --convention first --json
same "$(jq -r '.materials[0] | [.convention, .longest_win_plies, .longest_loss_plies] | map(tostring) | join(" ")' "$tmp/out")" \
  "first 13 14" "--convention first: Black's win, White's loss"
expect 2 "--convention unknown" -- "$gsw" egdb stats checkers 1,0,0,2 --convention both
has err "material, first" "the readings are named"
expect 0 "stats all --json" -- "$gsw" egdb stats checkers --json
small='[.materials[] | select(.black_kings + .black_men + .white_kings + .white_men <= 3)]'
same "$(jq -r "$small | length" "$tmp/out")" 34 "stats: every material of 1-3 pieces"
same "$(jq -r '.materials | length' "$tmp/out")" 36 "stats: and the two of --for's 4-piece slices"
same "$(jq -r '[.materials[] | .longest_win_plies, .positions | type == "number" and . == floor] | all' "$tmp/out")" true "all numbers integers"
same "$(jq -r "$small | [.[].positions] | add" "$tmp/out")" 268316 "stats: 120 + 6,972 + 261,224 positions"
expect 0 "stats table" -- "$gsw" egdb stats checkers
has out "1,0,1,0" "the table has a row per material"
expect 2 "stats bad slice" -- "$gsw" egdb stats checkers 2,0,1
expect 1 "stats of a slice not built" -- "$gsw" egdb stats checkers 6,0,0,0

# ---- probe ----
expect 0 "probe" -- "$gsw" egdb probe checkers 'B:WK31:B27' --json
same "$(jq -r '.value, .plies, .best' "$tmp/out" | tr '\n' ' ')" "win 11 27-32 " "probe: value, plies, best"
expect 0 "probe white to move" -- "$gsw" egdb probe checkers 'W:WK31:BK32'
has out "loss in 10 plies" "probe text"
expect 2 "probe bad FEN" -- "$gsw" egdb probe checkers 'B:W99:B1'
expect 1 "probe beyond the databases" -- "$gsw" egdb probe checkers 'B:W21,22,23,24:B1,2,3'
has err "egdb build checkers --for" "probe says how to build what is missing"
# --line: the databases' best moves to the end of the game, one ply less each
expect 0 "probe --line" -- "$gsw" egdb probe checkers 'B:WK5,K28:BK1' --line --json
same "$(jq -r '"\(.value) \(.plies) \(.line | length) \(.line[0]) \(.line[-1])"' "$tmp/out")" "loss 12 12 1-6 22x29" "probe --line: as many moves as plies"
{ echo "new checkers B:WK5,K28:BK1"; echo "side both"; jq -r '.line[] | "move \(.)"' "$tmp/out"; } | "$gsw" shell >"$tmp/line.out" 2>&1
has line.out "Game over: White wins" "the line played out ends the game"
expect 0 "probe --line text" -- "$gsw" egdb probe checkers 'B:WK29:B1,K3' --line
has out "line, 11 plies: 3-7 29-25" "probe --line text"
expect 0 "probe --line draw" -- "$gsw" egdb probe checkers 'B:WK32:BK1' --line
has out "no line: a draw" "probe --line: a draw has none"

# ---- solve answers from the databases ----
expect 0 "solve from egdb" -- "$gsw" solve checkers 'B:WK10:BK30,K31,K32' --json
same "$(jq -r '.source, .value' "$tmp/out" | tr '\n' ' ')" "egdb win " "solve: the databases answer"
expect 0 "solve with egdb leaves" -- "$gsw" solve checkers 'B:W18,K31:B22,K23' --json
same "$(jq -r '.value, .plies' "$tmp/out" | tr '\n' ' ')" "win 27 " "solve above the databases"

# ---- the folder: --dir, else $GSW_EGDB, else egdb/ beside the cache, for every verb that reads it ----
mv "$eg" "$tmp/elsewhere"
p3='B:WK10:BK30,K31,K32'
expect 0 "solve, folder moved" -- "$gsw" solve checkers "$p3" --json --no-cache
same "$(jq -r .source "$tmp/out")" search "without the folder, solve searches"
expect 0 "solve --dir" -- "$gsw" solve checkers "$p3" --json --no-cache --dir "$tmp/elsewhere"
same "$(jq -r '.source, .plies' "$tmp/out" | tr '\n' ' ')" "egdb 21 " "solve --dir DIR reads DIR"
GSW_EGDB="$tmp/elsewhere" expect 0 "solve GSW_EGDB" -- "$gsw" solve checkers "$p3" --json --no-cache
same "$(jq -r .source "$tmp/out")" egdb "solve reads \$GSW_EGDB"
GSW_EGDB="$tmp/none" expect 0 "--dir over GSW_EGDB" -- "$gsw" solve checkers "$p3" --json --no-cache --dir "$tmp/elsewhere"
same "$(jq -r .source "$tmp/out")" egdb "--dir wins over \$GSW_EGDB"
expect 0 "analyze --dir" -- "$gsw" analyze checkers "$p3" --json --dir "$tmp/elsewhere"
same "$(jq -r '.nodes, .moves[0].plies, .complete' "$tmp/out" | tr '\n' ' ')" "0 21 true " "analyze --dir: every move from the files"
GSW_EGDB="$tmp/elsewhere" expect 0 "egdb stats GSW_EGDB" -- "$gsw" egdb stats checkers 2,0,1,0 --json
same "$(jq -r '.materials[0].positions' "$tmp/out")" 14880 "egdb reads \$GSW_EGDB"
"$gsw" solve --help >"$tmp/out"
has out "--dir DIR: the endgame databases' folder (also \$GSW_EGDB" "help names --dir and GSW_EGDB"
mv "$tmp/elsewhere" "$eg"

# ---- verify, damage, truncation ----
expect 0 "verify" -- "$gsw" egdb verify checkers --json
same "$(jq -r .ok "$tmp/out")" true "verify ok"
# on a terminal its progress counts the files: "file 3 of 40: verify ..."
if command -v script >/dev/null; then
  script -qc "'$gsw' egdb verify checkers" /dev/null </dev/null 2>&1 | tr '\r' '\n' >"$tmp/tty"
  grep -aq "file 1 of [0-9]*: verify " "$tmp/tty" && ok || bad "verify on a terminal: no 'file N of M' progress: $(head -c 300 "$tmp/tty")"
fi
f="$eg/checkers/dtw/2K0C-1K0C.bxwx.egdb"
[ -f "$f" ] || bad "no file $f"
printf '\x55' | dd of="$f" bs=1 seek=300 conv=notrunc 2>/dev/null
expect 1 "verify damaged" -- "$gsw" egdb verify checkers
has err "2K0C-1K0C.bxwx.egdb" "the damaged file is named"
has err "(rebuild it: gsw egdb build checkers 2K0C-1K0C.bxwx --metric dtw --dir " "with the command that rebuilds it"
expect 1 "probe damaged" -- "$gsw" egdb probe checkers 'B:WK14:BK1,K2'
has err "2K0C-1K0C.bxwx.egdb" "a probe names the damaged file"
expect 0 "build repairs" -- "$gsw" egdb build checkers --pieces 3 --metric dtw --json
same "$(jq -r '.built > 0' "$tmp/out")" true "a damaged file is rebuilt"
# the position's own file sound, its moves' file damaged: the best move needs it
f2="$eg/checkers/dtw/1K0C-2K0C.bxwx.egdb"
printf '\x55' | dd of="$f2" bs=1 seek=300 conv=notrunc 2>/dev/null
expect 1 "probe, a move's file damaged" -- "$gsw" egdb probe checkers 'B:WK14:BK1,K2'
has err "1K0C-2K0C.bxwx.egdb" "a probe names the damaged file of its moves"
has err "(rebuild it: gsw egdb build checkers 1K0C-2K0C.bxwx --metric dtw --dir " "a probe says how to rebuild it"
truncate -s 100 "$f"
# two damaged files: verify names each, with its command, then how many
"$gsw" egdb verify checkers >"$tmp/out" 2>"$tmp/err" </dev/null
same "$?" 1 "verify, two files damaged: exit 1"
same "$(grep -c '^gsw: .*/checkers/dtw/[12]K0C-[12]K0C.bxwx.egdb: .* (rebuild it: gsw egdb build checkers [12]K0C-[12]K0C.bxwx --metric dtw --dir ' "$tmp/err")" 2 \
  "verify lists every damaged file, each with its command: $(cat "$tmp/err")"
has_re err "^gsw: 2 of [0-9]+ files damaged$" "verify counts them"
expect 1 "verify truncated" -- "$gsw" egdb verify checkers 2K0C-1K0C.bxwx
has err "2K0C-1K0C.bxwx.egdb" "the truncated file is named"
expect 0 "build repairs truncation" -- "$gsw" egdb build checkers --pieces 3 --metric dtw
expect 0 "verify one slice" -- "$gsw" egdb verify checkers 2K0C-1K0C.bxwx

# ---- arguments ----
expect 2 "egdb alone" -- "$gsw" egdb
expect 2 "egdb frob" -- "$gsw" egdb frob checkers
expect 2 "build without --pieces" -- "$gsw" egdb build checkers
expect 2 "build --metric junk" -- "$gsw" egdb build checkers --pieces 2 --metric dtm
expect 2 "build --pieces 11" -- "$gsw" egdb build checkers --pieces 11
expect 2 "build --for bad" -- "$gsw" egdb build checkers --for 'B:W40:B1'
expect 2 "egdb connect4" -- "$gsw" egdb build connect4 --pieces 2
expect 2 "verify bad slice" -- "$gsw" egdb verify checkers 9K9C
expect 1 "stats empty dir" -- "$gsw" egdb stats checkers --dir "$tmp/none"

# ---- Ctrl-C and resume ----
: >"$tmp/err"   # (an earlier ": done" there would signal the forked shell, not gsw)
"$gsw" egdb build checkers --pieces 4 --dir "$tmp/r" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 100); do grep -q ": done" "$tmp/err" 2>/dev/null && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
same "$rc" 1 "Ctrl-C: exit 1"
has err "run again to resume" "Ctrl-C says how to resume"
ls "$tmp/r/checkers/wld" | grep -q '\.tmp$' && bad "a half-written file was left" || ok
expect 0 "resume" -- "$gsw" egdb build checkers --pieces 4 --dir "$tmp/r" --json
same "$(jq -r '.reused > 0 and .built > 0 and .built + .reused == .slices' "$tmp/out")" true "resumed"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
