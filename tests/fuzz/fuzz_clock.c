/* Time controls (--clock, :clock): the input is a control for clock_parse
 * ("5+3", "0:30+1", "90s+0.5"). What it accepts must be a time within its
 * bounds, and write back as text that reads again to the same times. */
#include "tests/fuzz/fuzz_util.h"

#include "workbench/session_clock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_str(data, size);
    double base, inc;
    err_t err;
    if (clock_parse(s, &base, &inc, &err) == GSW_OK) {
        if (!(base > 0 && base <= 24 * 3600e3 && inc >= 0 && inc <= 3600e3)) abort();
        char text[64];
        clock_text(base, inc, text, sizeof text);
        double b2, i2;
        /* (the text keeps whole seconds of the base: it reads again) */
        if (base >= 1000 && clock_parse(text, &b2, &i2, &err) != GSW_OK) abort();
    } else if (!err.msg[0]) {
        abort();   /* a refusal says why */
    }
    free(s);
    return 0;
}
