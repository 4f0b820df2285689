// gsw benchmark harness for Pascal Pons's Connect Four solver: reads lines
// "MOVES [SCORE]", clears the solver's table before each position, times only
// the solve call, and prints "MOVES SCORE NODES MICROSECONDS" like
// `gsw solve connect4 --batch FILE --clear-hash`. Compiled by bench/connect4.sh
// against the reference's own sources (never part of gsw's build).
#include <chrono>
#include <iostream>
#include <string>

#include "Solver.hpp"

int main(int argc, char **argv)
{
    using namespace GameSolver::Connect4;
    bool weak = argc > 1 && std::string(argv[1]) == "-w";
    Solver solver;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string moves = line.substr(0, line.find(' '));
        Position P;
        if (P.play(moves) != moves.size()) {
            std::cerr << "bad position " << moves << "\n";
            return 2;
        }
        solver.reset();
        auto t0 = std::chrono::steady_clock::now();
        int score = solver.solve(P, weak);
        auto t1 = std::chrono::steady_clock::now();
        std::cout << moves << " " << score << " " << solver.getNodeCount() << " "
                  << std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count() << "\n";
    }
    return 0;
}
