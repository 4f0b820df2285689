# Chess's needs beyond gsw_core and gsw_db (included by games/CMakeLists.txt):
# Fathom (Debian's libfathom-dev), the reader of the Syzygy tablebases
# (ch_syzygy.c alone includes it). The top CMakeLists.txt finds it.
target_include_directories(gsw_games PRIVATE ${FATHOM_INCLUDE})
target_link_libraries(gsw_games PUBLIC ${FATHOM_LIB})
