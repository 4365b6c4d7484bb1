/* refq: the baseline N-Queens counter, the yardstick the project's scripts compare with.
 *
 * The classic program a user would write or download first: bitmask backtracking, one
 * queen a row, the attacked columns and diagonals held as three bit masks. The board's
 * east-west mirror halves the work: every solution whose first-row queen stands in the
 * left half has a mirror image with it in the right half, so only the left half is
 * searched and its count doubled. On an odd board the first-row queen in the middle
 * column is its own mirror; there the second-row queen is kept to the left half instead
 * (it cannot stand in the middle column too) and that count doubled as well. The
 * searches start from every allowed (row 0, row 1) pair of columns, shared out over
 * OpenMP threads.
 *
 * Build: gcc -O3 -march=native -fopenmp -o refq scripts/baseline/refq.c
 * Usage: refq N [THREADS]   (N = 1 to 31)
 * Prints one line, as the anchors built by scripts/build-anchors.sh do:
 *     anchor=refq n=N threads=T total=COUNT      (COUNT as in OEIS A000170)
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Solutions that complete a board whose queens so far take the columns `cols` and
 * attack `left` and `right` on the next row (diagonals going each way). */
static uint64_t complete(uint32_t full, uint32_t cols, uint32_t left, uint32_t right) {
    if (cols == full) return 1;
    uint64_t found = 0;
    uint32_t open = full & ~(cols | left | right);
    while (open) {
        uint32_t queen = open & (0u - open); /* the lowest open column */
        open ^= queen;
        found += complete(full, cols | queen, (left | queen) << 1, (right | queen) >> 1);
    }
    return found;
}

struct start { int first, second; };

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s N [THREADS]\n", argv[0]);
        return 2;
    }
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (*end || n < 1 || n > 31) {
        fprintf(stderr, "%s: N must be 1 to 31: %s\n", argv[0], argv[1]);
        return 2;
    }
    int threads = omp_get_max_threads();
    if (argc == 3) {
        long t = strtol(argv[2], &end, 10);
        if (*end || t < 1 || t > 4096) {
            fprintf(stderr, "%s: THREADS must be 1 to 4096: %s\n", argv[0], argv[2]);
            return 2;
        }
        threads = (int)t;
    }

    uint64_t total;
    if (n == 1) {
        total = 1; /* no second row to start from */
    } else {
        const uint32_t full = (uint32_t)((1ull << n) - 1);
        const int half = (int)n / 2, odd = (int)n % 2;
        static struct start starts[31 * 31];
        int count = 0;
        for (int first = 0; first < half + odd; first++) {
            int middle = odd && first == half;
            for (int second = 0; second < (middle ? half : (int)n); second++) {
                if (abs(second - first) <= 1) continue; /* same column or diagonal */
                starts[count].first = first;
                starts[count].second = second;
                count++;
            }
        }
        uint64_t half_total = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : half_total)
        for (int i = 0; i < count; i++) {
            uint32_t a = 1u << starts[i].first, b = 1u << starts[i].second;
            half_total += complete(full, a | b, ((a << 1) | b) << 1, ((a >> 1) | b) >> 1);
        }
        total = 2 * half_total;
    }
    printf("anchor=refq n=%ld threads=%d total=%llu\n", n, threads, (unsigned long long)total);
    return 0;
}
