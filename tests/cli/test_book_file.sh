#!/usr/bin/env bash
# Book files: a connect4:5x4 book built to ply 5, exported, checked (text and
# --json) and read by the solver as the shipped book (GSW_BOOKS): its
# answers agree with searches without it, at once; a damaged or missing
# book file is said in one line and the solver goes on without it; export
# and check refuse what they cannot do (one line, non-zero). Then the book
# shipped in data/books: its checksums against data/books/README.md, and
# sample positions near its deepest ply against the solver. Needs GSW_BIN,
# GSW_TEST_DATA (set by ctest) and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
books=$tmp/books
mkdir -p "$books"

expect 0 "build a 5x4 book" -- "$gsw" book build connect4:5x4 --ply 5 --threads 1
expect 0 "export it" -- "$gsw" book export connect4:5x4 "$books/connect4-5x4.book"
has out "785 positions to ply 5" "export says what it wrote"
expect 0 "check it (json)" -- "$gsw" book check connect4:5x4 "$books/connect4-5x4.book" --json
same "$(jq -c '[.positions, .max_ply]' "$tmp/out")" "[785,5]" "check --json counts"
fnv=$(jq -r .fnv1a64 "$tmp/out")
GSW_BOOKS=$books expect 0 "check the book found in GSW_BOOKS" -- "$gsw" book check connect4:5x4
has out "$fnv" "check names the file's checksum"

# the solver reads it before the cache (here: no cache at all) and agrees with searches
printf '%s\n' "" 3 33 32 2 31 334 3342 33421 3333 44 24 51 >"$tmp/lines"
GSW_BOOKS=$books "$gsw" solve connect4:5x4 --batch "$tmp/lines" --no-cache --threads 1 >"$tmp/with" 2>"$tmp/err" || bad "batch with the book: $(cat "$tmp/err")"
GSW_BOOKS= "$gsw" solve connect4:5x4 --batch "$tmp/lines" --no-cache --threads 1 >"$tmp/without" 2>"$tmp/err" || bad "batch without the book: $(cat "$tmp/err")"
same "$(awk 'NF == 4 { print $2 }' "$tmp/with" | tr '\n' ' ')" "$(awk 'NF == 4 { print $2 }' "$tmp/without" | tr '\n' ' ')" \
  "scores from the book and from search"
same "$(awk 'NF == 4 && $3 != 0' "$tmp/with" | wc -l)" "0" "every book line answered without a node"
[ "$(awk 'NF == 4 && $3 != 0' "$tmp/without" | wc -l)" -gt 5 ] && ok || bad "the lines without the book were searched"
GSW_BOOKS=$books expect 0 "solve a book position" -- "$gsw" solve connect4:5x4 334 --no-cache --json
same "$(jq -r '.source + " " + (.nodes|tostring)' "$tmp/out")" "book 0" "the book answers the solve"
GSW_BOOKS= expect 0 "the same by search" -- "$gsw" solve connect4:5x4 334 --no-cache --json
cp "$tmp/out" "$tmp/searched"
GSW_BOOKS=$books "$gsw" solve connect4:5x4 334 --no-cache --json >"$tmp/out"
same "$(jq -c '[.value, .plies, .best]' "$tmp/out")" "$(jq -c '[.value, .plies, .best]' "$tmp/searched")" "value and best move"
# a position on the book's last ply: its value is the book's, its best move the search's
GSW_BOOKS=$books expect 0 "a position on the last ply" -- "$gsw" solve connect4:5x4 33421 --no-cache --json
same "$(jq -r .source "$tmp/out")" "search" "the last ply's best move needs a search"
cp "$tmp/out" "$tmp/lastply"
GSW_BOOKS= expect 0 "the same without the book" -- "$gsw" solve connect4:5x4 33421 --no-cache --json
same "$(jq -c '[.value, .plies, .best]' "$tmp/lastply")" "$(jq -c '[.value, .plies, .best]' "$tmp/out")" \
  "the last ply: the book's value, the best move found below it"
[ "$(jq .nodes "$tmp/lastply")" -lt "$(jq .nodes "$tmp/out")" ] && ok || bad "the book's value spared the search nodes"

# damage: one byte changed in the middle, a truncated file, another board's book
cp "$books/connect4-5x4.book" "$tmp/good.book"
size=$(stat -c %s "$tmp/good.book")
printf '\x55' | dd of="$books/connect4-5x4.book" bs=1 seek=$((size / 2)) conv=notrunc status=none
GSW_BOOKS=$books expect 0 "a damaged book is said and left alone" -- "$gsw" solve connect4:5x4 334 --no-cache --json
same "$(jq -r .source "$tmp/out")" "search" "solved without the damaged book"
same "$(jq -c '[.value, .plies]' "$tmp/out")" "$(jq -c '[.value, .plies]' "$tmp/searched")" "the same value without it"
has err "opening book: $books/connect4-5x4.book is damaged" "the damage is said"
same "$(wc -l <"$tmp/err")" "1" "said in one line"
expect 1 "check refuses it" -- "$gsw" book check connect4:5x4 "$books/connect4-5x4.book"
has err "damaged" "check says why"
# a wrong trailer (the header reads well): a position past the deepest ply
# the header states (5) never opens the book, so nothing is said; one
# within it opens it and says the damage
cp "$tmp/good.book" "$books/connect4-5x4.book"
printf '\x00' | dd of="$books/connect4-5x4.book" bs=1 seek=$((size - 1)) conv=notrunc status=none
cmp -s "$tmp/good.book" "$books/connect4-5x4.book" && printf '\x01' | dd of="$books/connect4-5x4.book" bs=1 seek=$((size - 1)) conv=notrunc status=none
GSW_BOOKS=$books expect 0 "a position past the book" -- "$gsw" solve connect4:5x4 334211 --no-cache --json
same "$(wc -c <"$tmp/err")" "0" "past the book, the book is not opened"
GSW_BOOKS=$books expect 0 "a position within it" -- "$gsw" solve connect4:5x4 33421 --no-cache --json
has err "opening book: $books/connect4-5x4.book is damaged" "within it, the book is opened and its damage said"
head -c $((size - 9)) "$tmp/good.book" >"$books/connect4-5x4.book"
expect 1 "check refuses a truncated book" -- "$gsw" book check connect4:5x4 "$books/connect4-5x4.book"
expect 2 "a 5x4 book is no 6x4 book" -- "$gsw" book check connect4:6x4 "$tmp/good.book"
has err "is a book of connect4:5x4, not of connect4:6x4" "the board is named"
expect 1 "a file that is no book" -- "$gsw" book check connect4:5x4 "$tmp/lines"
has err "is not a gsw opening-book file" "not a book"
expect 1 "a file that is not there" -- "$gsw" book check connect4:5x4 "$tmp/none.book"
# the book gsw ships for 7x6, missing: said, then searched without it
mkdir -p "$tmp/empty"
GSW_BOOKS=$tmp/empty expect 0 "a missing shipped book" -- "$gsw" solve connect4 4444443 --no-cache --json
has err "opening book: cannot open $tmp/empty/connect4-7x6.book" "the missing book is said"
same "$(jq -r .source "$tmp/out")" "search" "searched without it"

# export refuses what it cannot write
expect 2 "export needs a file" -- "$gsw" book export connect4:5x4
expect 2 "no book of 6x4 in the cache" -- "$gsw" book export connect4:6x4 "$tmp/x.book"
has err "has no opening book" "export says why"
expect 2 "no books for chess" -- "$gsw" book check chess "$tmp/good.book"
expect 2 "an unknown subverb" -- "$gsw" book copy connect4

# the shipped book: its checksums as recorded, and sample values against the solver
shipped=${GSW_TEST_DATA:?}/../../data/books
sha=$(awk '$1 == "sha256" { print $2 }' "$shipped/README.md")
same "$(sha256sum "$shipped/connect4-7x6.book" | cut -d' ' -f1)" "$sha" "the shipped book's sha256"
GSW_BOOKS=$shipped expect 0 "check the shipped book" -- "$gsw" book check connect4 --json
same "$(jq -r .fnv1a64 "$tmp/out")" "$(awk '$1 == "fnv1a64" { print $2 }' "$shipped/README.md")" "the shipped book's FNV"
same "$(jq -r .positions "$tmp/out")" "$(awk '$1 == "positions" { print $2 }' "$shipped/README.md")" "its positions"
deepest=$(jq -r .max_ply "$tmp/out")
[ "$deepest" -ge 6 ] && ok || bad "the shipped book reaches ply $deepest, not 6"
# every column's value from the empty board at once (the book's first plies)
GSW_BOOKS=$shipped expect 0 "analyze the empty board" -- "$gsw" analyze connect4 "" --no-cache --json
same "$(jq -c '[.nodes, (.moves | length), (.moves[] | select(.move == "4") | .value + " " + (.plies|tostring))]' "$tmp/out")" \
  '[0,7,"win 41"]' "the empty board's columns from the book"
# positions on and near the deepest ply (the game not over, seeded walks)
awk -v d="$deepest" 'BEGIN {
  srand(18)
  for (k = 0; k < 14; k++) {
    n = k < 8 ? d : d - 1 - k % 2
    for (;;) {
      for (c = 1; c <= 7; c++) h[c] = 0
      s = ""
      for (i = 0; i < n; i++) { do c = 1 + int(rand() * 7); while (h[c] == 6); h[c]++; s = s c }
      if (s !~ /(.)\1\1\1/) break   # no vertical four (other fours are rare this early; gsw refuses them)
    }
    print s
  }
}' >"$tmp/sample"
GSW_BOOKS=$shipped "$gsw" solve connect4 --batch "$tmp/sample" --no-cache >"$tmp/with" 2>"$tmp/err" || bad "the sample from the book: $(cat "$tmp/err")"
GSW_BOOKS= "$gsw" solve connect4 --batch "$tmp/sample" --no-cache --hash 256 >"$tmp/without" 2>"$tmp/err" || bad "the sample by search: $(cat "$tmp/err")"
same "$(awk 'NF == 4 { print $1, $2 }' "$tmp/with" | tr '\n' ' ')" "$(awk 'NF == 4 { print $1, $2 }' "$tmp/without" | tr '\n' ' ')" \
  "the shipped book's scores against search"
same "$(awk 'NF == 4 && $3 != 0' "$tmp/with" | wc -l)" "0" "the sample answered from the book"

echo "book files: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
