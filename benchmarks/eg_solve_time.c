/* The endgame solver (companion/ai/native/endgame.c) alone, outside Python: CPU seconds of
 * one table (four pieces, or STUDENTS + 2) and a hash of its values, so that two versions of the solver can be
 * timed side by side (and under qemu, cross-compiled) and shown to build the same table.
 *
 *   python -c "from companion.ai import endgame; print(*endgame.reach(('Crab', 'Dragon', \
 *       'Horse', 'Ox', 'Rabbit')))" > /tmp/reach.txt
 *   gcc -O3 -std=gnu99 -Icompanion/ai/native -o /tmp/eg benchmarks/eg_solve_time.c \
 *       companion/ai/native/endgame.c
 *   /tmp/eg /tmp/reach.txt [values.bin|-] [STUDENTS]
 *   aarch64-linux-gnu-gcc -static ... (the same), then qemu-aarch64-static /tmp/eg.arm ...
 *
 * Prints the longest result, the CPU seconds of eg_solve and an FNV-1a hash of the values;
 * with a second argument, writes the values there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    uint32_t reach[250];
    FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!in) {
        fprintf(stderr, "usage: %s REACH_FILE [VALUES_OUT|-] [STUDENTS]\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 250; i++)
        if (fscanf(in, "%u", &reach[i]) != 1) {
            fprintf(stderr, "%s: 250 step masks expected\n", argv[1]);
            return 2;
        }
    fclose(in);
    eg_table *t = eg_new(argc > 3 ? atoi(argv[3]) : 2, reach);
    if (!t) return 1;
    double cpu = cpu_seconds();
    int longest = eg_solve(t);
    cpu = cpu_seconds() - cpu;
    const uint8_t *v = eg_values(t);
    int64_t n = eg_size(t);
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < n; i++) h = (h ^ v[i]) * 1099511628211ull;
    if (argc > 2 && strcmp(argv[2], "-") != 0) {
        FILE *out = fopen(argv[2], "wb");
        if (!out || fwrite(v, 1, (size_t)n, out) != (size_t)n) return 1;
        fclose(out);
    }
    printf("longest %d cpu %.3f hash %016llx\n", longest, cpu, (unsigned long long)h);
    eg_free(t);
    return 0;
}
