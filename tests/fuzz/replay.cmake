# Included by tests/CMakeLists.txt in every build: each fuzz target compiled
# as a plain program (replay_main.c calls its LLVMFuzzerTestOneInput for
# every file given), run over its seed corpus and its regression inputs.
# The targets' scratch files (fuzz_path: under $TMPDIR) go in the build
# tree, not /tmp, where nothing removed them.
include(${CMAKE_CURRENT_LIST_DIR}/targets.cmake)
set(GSW_REPLAY_TMP ${CMAKE_CURRENT_BINARY_DIR}/fuzz-replay-tmp)
file(MAKE_DIRECTORY ${GSW_REPLAY_TMP})
foreach(entry IN LISTS GSW_FUZZ_TARGETS)
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 what)
  list(SUBLIST parts 1 -1 libs)
  set(dir ${CMAKE_CURRENT_LIST_DIR})
  add_executable(replay_${what} ${dir}/fuzz_${what}.c ${dir}/replay_main.c)
  target_link_libraries(replay_${what} PRIVATE ${libs})
  add_test(NAME fuzz_replay_${what} COMMAND replay_${what} ${dir}/corpus/${what} ${dir}/regress/${what})
  set_tests_properties(fuzz_replay_${what} PROPERTIES LABELS quick TIMEOUT 300
    ENVIRONMENT "GSW_TEST_DATA=${CMAKE_SOURCE_DIR}/tests/data;TMPDIR=${GSW_REPLAY_TMP}")
endforeach()
gsw_test_home_later()
