/* An exact prover for base-game openings, with a deal's endgame table at the leaves: run by
 * benchmarks/bench_openings.py (which compiles it with companion/ai/native/endgame.c and
 * gives it the deal's step masks and the start position), not part of the product.
 *
 *   opening_prover REACH_FILE STUDENTS PLIES NODES CS R B RS BS
 *
 * The position is given as endgame.c stores positions: Red to move (a Blue-to-move one
 * turned half a turn), card state CS, masters on R and B, students' masks RS and BS. With
 * STUDENTS > 0 the table of that many students is solved first and every position it holds
 * takes its exact value from it. Then, for n = 1, 3, 5, ... up to PLIES: can the mover force
 * a win within n plies, and can the other side force one within n + 1? Each question is
 * answered by a plain AND-OR depth-first search over every move (no evaluation, no pruning
 * but proof: an OR node stops at its first proof, an AND node at its first refutation), with
 * a table of the bounds proven per position; a question whose search passes NODES nodes
 * stops the run. Prints a line per question: n, the answers, nodes, CPU seconds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

#define RED_GOAL 22

static uint32_t reach[2][5][25];
static int cs_red[30], cs_side[30], cs_of[32][5];
static eg_table *table;
static const uint8_t *values;
static int students;
static int64_t nodes, budget, hits;    /* hits: positions the table answered */

typedef struct {
    int cs, r, b;
    uint32_t rs, bs;
} pos;

static uint32_t turn(uint32_t m) {
    uint32_t out = 0;
    for (; m; m &= m - 1) out |= 1u << (24 - __builtin_ctz(m));
    return out;
}

/* -- the bounds proven, per position: a hashed table, always replaced ------------------ */

typedef struct {
    uint64_t key;           /* the position, packed: pawns and masters (0: empty) */
    uint8_t cs;             /* and its card state */
    uint8_t win, no_win;    /* the mover wins within win plies; not within no_win */
    uint8_t loss, no_loss;  /* the mover loses within loss plies; not within no_loss */
} entry;

#define TT_BITS 26     /* 64 M entries, 1 GB */
static entry *tt;

static uint64_t pack(const pos *p) {
    return (uint64_t)p->rs | (uint64_t)p->bs << 25 | (uint64_t)p->r << 50 | (uint64_t)p->b << 55
           | 1ull << 63;        /* never 0 */
}

static entry *slot(uint64_t key, int cs) {
    uint64_t h = (key ^ (uint64_t)cs << 32) * 0x9E3779B97F4A7C15ull;
    return &tt[h >> (64 - TT_BITS)];
}

/* -- moves ----------------------------------------------------------------------------- */

/* The children of p (each turned, the other side to move); returns their number, or -1 when
 * a move wins at once. Captures first (they end games sooner). A side with no move passes
 * with either card. */
static int children(const pos *p, pos *out) {
    int hand = cs_red[p->cs], side = cs_side[p->cs];
    int blue_hand = 31 ^ hand ^ (1 << side);
    uint32_t red = p->rs | 1u << p->r;
    int n = 0;
    pos quiet[80];
    int nq = 0;
    for (int c = 0; c < 5; c++) {
        if (!(hand >> c & 1)) continue;
        int new_cs = cs_of[blue_hand][c];           /* turned: Blue's hand, c aside */
        uint32_t steps = reach[0][c][p->r] & ~red;
        if (steps & (1u << p->b | 1u << RED_GOAL)) return -1;
        for (uint32_t m = steps; m; m &= m - 1) {
            int to = __builtin_ctz(m);
            uint32_t bs = p->bs & ~(1u << to);
            pos child = {new_cs, 24 - p->b, 24 - to, turn(bs), turn(p->rs)};
            if (bs != p->bs) out[n++] = child; else quiet[nq++] = child;
        }
        for (uint32_t s = p->rs; s; s &= s - 1) {
            int f = __builtin_ctz(s);
            uint32_t st = reach[1][c][f] & ~red;
            if (st & 1u << p->b) return -1;
            for (uint32_t m = st; m; m &= m - 1) {
                int to = __builtin_ctz(m);
                uint32_t bs = p->bs & ~(1u << to);
                uint32_t rs = (p->rs & ~(1u << f)) | 1u << to;
                pos child = {new_cs, 24 - p->b, 24 - p->r, turn(bs), turn(rs)};
                if (bs != p->bs) out[n++] = child; else quiet[nq++] = child;
            }
        }
    }
    memcpy(out + n, quiet, (size_t)nq * sizeof(pos));
    n += nq;
    if (n == 0) {         /* no move: a pass with either card */
        for (int c = 0; c < 5; c++)
            if (hand >> c & 1) {
                pos child = {cs_of[blue_hand][c], 24 - p->b, 24 - p->r, turn(p->bs), turn(p->rs)};
                out[n++] = child;
            }
    }
    return n;
}

/* The table's value of p, or -1 when it holds no such position. */
static int probe(const pos *p) {
    if (!values || __builtin_popcount(p->rs) + __builtin_popcount(p->bs) > students) return -1;
    hits++;
    return eg_probe(table, p->rs | 1u << p->r, p->bs | 1u << p->b, p->r, p->b, 0,
                    __builtin_ctz((uint32_t)cs_red[p->cs]), 31 - __builtin_clz((uint32_t)cs_red[p->cs]),
                    cs_side[p->cs]);
}

static int loses(const pos *p, int n);

/* The mover forces a win within n plies (its winning move one of them). */
static int wins(const pos *p, int n) {
    if (n <= 0) return 0;
    int v = probe(p);
    if (v >= 0) return v != 0 && (v & 1) && v <= n;
    uint64_t key = pack(p);
    entry *e = slot(key, p->cs);
    if (e->key == key && e->cs == p->cs) {
        if (e->win && e->win <= n) return 1;
        if (e->no_win >= n) return 0;
    }
    if (++nodes > budget) return 0;
    pos kids[200];
    int k = children(p, kids), result = 0;
    if (k < 0) result = 1;
    else if (n >= 3)
        for (int j = 0; j < k && !result; j++) result = loses(&kids[j], n - 1);
    if (nodes > budget) return 0;
    if (e->key != key || e->cs != p->cs) {     /* not ours, or taken by a child since */
        memset(e, 0, sizeof *e);
        e->key = key;
        e->cs = (uint8_t)p->cs;
    }
    if (result) { if (!e->win || n < e->win) e->win = (uint8_t)n; }
    else if (n > e->no_win) e->no_win = (uint8_t)n;
    return result;
}

/* Every move of the mover lets the other side force a win within n - 1 plies. */
static int loses(const pos *p, int n) {
    if (n < 2) return 0;
    int v = probe(p);
    if (v >= 0) return v != 0 && !(v & 1) && v <= n;
    uint64_t key = pack(p);
    entry *e = slot(key, p->cs);
    if (e->key == key && e->cs == p->cs) {
        if (e->loss && e->loss <= n) return 1;
        if (e->no_loss >= n) return 0;
    }
    if (++nodes > budget) return 0;
    pos kids[200];
    int k = children(p, kids), result = k > 0;
    for (int j = 0; j < k && result; j++) result = wins(&kids[j], n - 1);
    if (nodes > budget) return 0;
    if (e->key != key || e->cs != p->cs) {     /* not ours, or taken by a child since */
        memset(e, 0, sizeof *e);
        e->key = key;
        e->cs = (uint8_t)p->cs;
    }
    if (result) { if (!e->loss || n < e->loss) e->loss = (uint8_t)n; }
    else if (n > e->no_loss) e->no_loss = (uint8_t)n;
    return result;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 10) {
        fprintf(stderr, "usage: %s REACH_FILE STUDENTS PLIES NODES CS R B RS BS\n", argv[0]);
        return 2;
    }
    uint32_t flat[250];
    FILE *in = fopen(argv[1], "r");
    for (int i = 0; i < 250; i++)
        if (!in || fscanf(in, "%u", &flat[i]) != 1) {
            fprintf(stderr, "%s: 250 step masks expected\n", argv[1]);
            return 2;
        }
    fclose(in);
    memcpy(reach, flat, sizeof reach);
    students = atoi(argv[2]);
    int plies = atoi(argv[3]);
    budget = atoll(argv[4]);
    pos start = {atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), (uint32_t)strtoul(argv[8], NULL, 10),
                 (uint32_t)strtoul(argv[9], NULL, 10)};
    memset(cs_of, -1, sizeof cs_of);
    int n = 0;
    for (int hand = 0; hand < 32; hand++) {     /* as endgame.c numbers card states */
        if (__builtin_popcount((unsigned)hand) != 2) continue;
        for (int side = 0; side < 5; side++) {
            if (hand >> side & 1) continue;
            cs_red[n] = hand;
            cs_side[n] = side;
            cs_of[hand][side] = n++;
        }
    }
    tt = calloc((size_t)1 << TT_BITS, sizeof(entry));
    if (!tt) return 1;
    double cpu = cpu_seconds();
    if (students > 0) {
        table = eg_new(students, flat);
        int longest = table ? eg_solve(table) : -2;
        if (longest < 0) {
            fprintf(stderr, "the table was not built (%d)\n", longest);
            return 1;
        }
        values = eg_values(table);
        printf("table %d students longest %d cpu %.1f\n", students, longest, cpu_seconds() - cpu);
        fflush(stdout);
    }
    for (int k = 1; k <= plies; k += 2) {
        double t0 = cpu_seconds();
        int64_t before = nodes, hits_before = hits;
        int w = wins(&start, k);
        if (nodes > budget) {
            printf("budget at %d\n", k);
            break;
        }
        int l = loses(&start, k + 1);
        if (nodes > budget) {
            printf("budget at %d\n", k);
            break;
        }
        printf("plies %d wins %d loses %d nodes %lld table %lld cpu %.2f\n", k, w, l,
               (long long)(nodes - before), (long long)(hits - hits_before), cpu_seconds() - t0);
        fflush(stdout);
        if (w || l) break;
    }
    return 0;
}
