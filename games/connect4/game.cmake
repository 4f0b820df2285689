# Connect Four's needs beyond gsw_core and gsw_db (included by
# games/CMakeLists.txt): BuDDy (Debian's libbdd-dev), the BDD package of the
# strong solver (c4_bdd.c).
find_library(BUDDY_LIB bdd REQUIRED)
find_path(BUDDY_INCLUDE bdd.h REQUIRED)
target_include_directories(gsw_games PRIVATE ${BUDDY_INCLUDE})
target_link_libraries(gsw_games PUBLIC ${BUDDY_LIB})
