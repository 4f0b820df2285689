/* gsw's entry point: the CLI verbs (ui/cli.c). */
#include "ui/cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
