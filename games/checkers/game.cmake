# ck_retro.c's parents (the retrograde builder's hottest loop) run about a
# fifth slower when GCC 12 may use AVX-512 under -march=native: it then
# parks general registers in the extra vector registers (vmovq there and
# back) instead of keeping them in general ones. The file needs no vector
# code, so it is built without AVX-512; nothing else changes.
if(GSW_NATIVE)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/ck_retro.c PROPERTIES COMPILE_OPTIONS -mno-avx512f)
endif()
