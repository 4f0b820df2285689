/* Lesson files (workbench/lesson.c): the input is the file, loaded with
 * lesson_load from a scratch path. Inputs naming a board file are left out
 * (fuzz_names_file). */
#include "tests/fuzz/fuzz_util.h"

#include "workbench/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_str(data, size);
    int skip = fuzz_names_file(s);
    free(s);
    if (skip) return 0;
    char path[512];
    fuzz_path(path, sizeof path, "lesson", ".lesson");
    if (fuzz_write(path, data, size)) abort();
    lesson_t *l = NULL;
    err_t err;
    if (lesson_load(path, &l, &err) == GSW_OK) {
        for (int i = 0; i < l->nsteps; i++) {
            lesson_step_game(l, i);
            for (int k = 0; k < l->steps[i].nexpect; k++) lesson_value(&l->steps[i], l->steps[i].expect[k]);
        }
        lesson_free(l);
    }
    unlink(path);
    return 0;
}
