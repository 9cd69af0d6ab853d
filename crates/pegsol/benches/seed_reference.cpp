// The seed's reference search (shared/seeds, "Peg Solitaire"), completed into a program so the
// benchmark can time it: an unordered_set of dead positions over an R x C bit layout, jumps in
// the seed's order, no symmetry, no pruning. Usage: seed_reference ROW COL (the finish hole).
// Prints: ok=<0|1> jumps=<n> dead=<dead positions> ms=<wall ms> hwm_kb=<peak RSS>.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unordered_set>
#include <vector>
using namespace std;
typedef unsigned long long ull;

struct PegSolitaire {
    int R, C;
    vector<array<int, 3>> jumps;
    unordered_set<ull> dead;
    vector<array<int, 3>> sol;
    PegSolitaire(const vector<string>& shape) : R(shape.size()), C(shape[0].size()) {
        auto on = [&](int i, int j) { return i >= 0 && i < R && j >= 0 && j < C && shape[i][j] != ' '; };
        const int dirs[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                for (auto& d : dirs) {
                    int di = d[0], dj = d[1];
                    if (on(i, j) && on(i + di, j + dj) && on(i + 2 * di, j + 2 * dj))
                        jumps.push_back({i * C + j, (i + di) * C + j + dj, (i + 2 * di) * C + j + 2 * dj});
                }
    }
    bool solve(ull s, ull goal) {
        if (s == goal) return true;
        if (__builtin_popcountll(s) <= __builtin_popcountll(goal) || dead.count(s)) return false;
        for (auto& jp : jumps) {
            int a = jp[0], b = jp[1], c = jp[2];
            if ((s >> a & 1) && (s >> b & 1) && !(s >> c & 1)) {
                sol.push_back({a, b, c});
                if (solve(s ^ (1ULL << a) ^ (1ULL << b) ^ (1ULL << c), goal)) return true;
                sol.pop_back();
            }
        }
        dead.insert(s);
        return false;
    }
};

static long peak_kb() {
    ifstream f("/proc/self/status");
    string line;
    while (getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return atol(line.c_str() + 6);
    return -1;
}

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    int fr = atoi(argv[1]), fc = atoi(argv[2]);
    vector<string> shape = {"  ooo  ", "  ooo  ", "ooooooo", "ooooooo", "ooooooo", "  ooo  ", "  ooo  "};
    PegSolitaire p(shape);
    ull start = 0;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++)
            if (shape[i][j] != ' ' && !(i == 3 && j == 3)) start |= 1ULL << (i * 7 + j);
    ull goal = 1ULL << (fr * 7 + fc);
    auto t0 = chrono::steady_clock::now();
    bool ok = p.solve(start, goal);
    double ms = chrono::duration<double, milli>(chrono::steady_clock::now() - t0).count();
    printf("ok=%d jumps=%zu dead=%zu ms=%.1f hwm_kb=%ld\n", ok ? 1 : 0, p.sol.size(), p.dead.size(), ms, peak_kb());
    return 0;
}
