/* gsw's entry point: the CLI verbs (cli/cli.c). */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
