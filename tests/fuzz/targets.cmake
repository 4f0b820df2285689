# The fuzz targets and the libraries each needs: fuzz_<what>.c holds one
# LLVMFuzzerTestOneInput. An entry is "WHAT:LIB[:LIB...]". A new parser joins
# by adding a line here (and its corpus/<what>/ folder); see docs/ARCHITECTURE.md, "Fuzzing".
set(GSW_FUZZ_TARGETS
  "spec:gsw_games"
  "c4_moves:gsw_games"
  "move_file:gsw_games"
  "batch:gsw_cli"
  "board:gsw_games"
  "lesson:gsw_workbench"
  "shell:gsw_workbench"
  "cache:gsw_solve:gsw_db:gsw_games"
  "ck_fen:gsw_games"
  "pdn:gsw_games"
  "egdb:gsw_db"
  "egdb_names:gsw_solve"
  "ch_fen:gsw_games"
  "ch_move:gsw_games"
  "pgn:gsw_games"
  "openings:gsw_protocol"
  "evolve_state:gsw_core"
  "bddfile:gsw_db"
  "strong_manifest:gsw_solve"
  "bookfile:gsw_solve:gsw_db:gsw_games"
  "tunelog:gsw_db"
  "record_file:gsw_games"
  "dist_wire:gsw_dist"
  "game_text:gsw_games"
  "manifest:gsw_manifest")
