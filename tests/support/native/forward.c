/* A forward full-depth solver of the base game's endgames for one deal: the check of the
 * retrograde tables (endgame.c) by another algorithm on another move generator, for
 * tests/support/endgame_checks.py and benchmarks/bench_tablebase.py. The game never calls it.
 *
 * What it shares with endgame.c is nothing but the rules: its steps come from the cards'
 * offsets (dx, dy as the holder sees them, the rules' card data) through its own geometry;
 * both colours are stored as they are (no half-turn symmetry); the index is its own; and
 * the values come from plain minimax iterated to a fixpoint over the explicit graph, every
 * position's moves generated forward each round:
 *
 *   a position with a move that takes the master or steps the master onto the Temple Arch
 *   is won in 1; else, from the last round's values of its children, it is won in m + 1
 *   when its children lost include one lost in m (the smallest such m), lost in w + 1 when
 *   every child is won (w the largest), and undecided otherwise.
 *
 * Round k decides exactly the positions whose value is k (each value is read from the last
 * round's, never this one's), so the rounds stop when one decides nothing, and what is left
 * has no forced result.
 *
 * Index: (((turn * 30 + cards) * 25 + red master) * 25 + blue master) * slots + students,
 * where cards numbers the deal's 30 layouts (side card, then Red's two of the other four),
 * and the students are codes (0: none, 1 + q: a red student on q, 26 + q: a blue one), one
 * code for one student (51 slots), a * 51 + b with a <= b for two (2601 slots, the others
 * unused). Values: 0 undecided (no forced result once solved), n as in endgame.c (odd: the
 * mover wins with the n-th ply, even: loses to it), FW_NONE: no such position.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "forward.h"

#define GOAL_RED 22         /* c5: Red's master wins there */
#define GOAL_BLUE 2         /* c1: Blue's */
#define MAX_OFFSETS 8

struct fw_solver {
    int students, slots;
    int64_t size, held;
    uint32_t steps[2][5][2][25];    /* [colour][card][master 0, student 1][from]: targets */
    int hand[30], side[30];         /* a layout's red hand (5-bit mask) and side card */
    int layout_of[32][5];
    uint8_t *val;
    int32_t *open;                  /* the undecided positions */
    int64_t open_n;
    int rounds;
};

typedef struct {
    int turn, k, r, b;
    uint32_t rs, bs;
} fwpos;

static int code_slot(const fw_solver *s, uint32_t rs, uint32_t bs) {
    int codes[2] = {0, 0}, n = 0;       /* in increasing order: red codes, then blue */
    for (uint64_t m = (uint64_t)bs << 25 | rs; m; m &= m - 1) {
        if (n == s->students) return -1;
        codes[n++] = 1 + __builtin_ctzll(m);
    }
    if (s->slots == 1) return 0;
    if (s->slots == 51) return codes[0];
    int a = codes[0], c = codes[1];
    if (n == 1) { a = 0; c = codes[0]; }
    return a * 51 + c;
}

static int64_t index_of(const fw_solver *s, const fwpos *p) {
    if (p->r < 0 || p->r > 24 || p->b < 0 || p->b > 24 || p->k < 0) return -1;
    int slot = code_slot(s, p->rs, p->bs);
    if (slot < 0) return -1;
    return ((((int64_t)p->turn * 30 + p->k) * 25 + p->r) * 25 + p->b) * s->slots + slot;
}

/* The position at index i, or 0 when none is there (squares shared, a game already over). */
static int position_at(const fw_solver *s, int64_t i, fwpos *p) {
    int slot = (int)(i % s->slots);
    i /= s->slots;
    p->b = (int)(i % 25);
    i /= 25;
    p->r = (int)(i % 25);
    i /= 25;
    p->k = (int)(i % 30);
    p->turn = (int)(i / 30);
    int a = 0, c = 0;
    if (s->slots == 51) c = slot;
    else if (s->slots == 2601) { a = slot / 51; c = slot % 51; }
    if (a > c || (a == c && a != 0)) return 0;
    p->rs = p->bs = 0;
    int codes[2] = {a, c};
    for (int n = 0; n < 2; n++) {
        if (codes[n] >= 26) p->bs |= 1u << (codes[n] - 26);
        else if (codes[n] >= 1) p->rs |= 1u << (codes[n] - 1);
    }
    uint32_t masters = 1u << p->r | 1u << p->b;
    if (p->r == p->b || p->r == GOAL_RED || p->b == GOAL_BLUE) return 0;
    if ((p->rs | p->bs) & masters || p->rs & p->bs) return 0;
    return 1;
}

/* The mover's moves: each as card << 16 | from << 8 | to (a pass: from and to 255), with
 * 1 << 24 for a move that wins at once; the children's positions in kids (not for wins). */
static int generate(const fw_solver *s, const fwpos *p, int32_t *out, fwpos *kids) {
    int c = p->turn;
    int mo = c ? p->b : p->r, mp = c ? p->r : p->b, goal = c ? GOAL_BLUE : GOAL_RED;
    uint32_t os = c ? p->bs : p->rs, ps = c ? p->rs : p->bs;
    uint32_t own = os | 1u << mo;
    int red = s->hand[p->k], side = s->side[p->k];
    int mine = c ? 31 ^ red ^ (1 << side) : red;
    int n = 0;
    for (int pass = 0; pass < 2 && n == 0; pass++)
        for (int x = 0; x < 5; x++) {
            if (!(mine >> x & 1)) continue;
            int k = c ? s->layout_of[red][x] : s->layout_of[red ^ (1 << x) ^ (1 << side)][x];
            if (pass) {
                out[n] = x << 16 | 255 << 8 | 255;
                kids[n] = *p;
                kids[n].turn = !c;
                kids[n++].k = k;
                continue;
            }
            for (uint32_t from = own; from; from &= from - 1) {
                int f = __builtin_ctz(from);
                uint32_t to = s->steps[c][x][f == mo ? 0 : 1][f] & ~own;
                for (; to; to &= to - 1) {
                    int t = __builtin_ctz(to);
                    int wins = t == mp || (f == mo && t == goal);
                    out[n] = wins << 24 | x << 16 | f << 8 | t;
                    if (!wins) {
                        int m2 = mo;
                        uint32_t os2 = os, ps2 = ps & ~(1u << t);
                        if (f == mo) m2 = t;
                        else os2 = os ^ (1u << f) ^ (1u << t);
                        fwpos *q = &kids[n];
                        q->turn = !c;
                        q->k = k;
                        q->r = c ? mp : m2;
                        q->b = c ? m2 : mp;
                        q->rs = c ? ps2 : os2;
                        q->bs = c ? os2 : ps2;
                    }
                    n++;
                }
            }
        }
    return n;
}

#define MAX_MOVES 128

/* The minimax value of p from its children's values in val; -1 when a child is missing
 * from the index (a bug: it must not happen). */
static int rate(const fw_solver *s, const uint8_t *val, const fwpos *p) {
    int32_t moves[MAX_MOVES];
    fwpos kids[MAX_MOVES];
    int n = generate(s, p, moves, kids);
    int lost = 0, won = 0, all_won = 1;
    for (int m = 0; m < n; m++) {
        if (moves[m] >> 24) return 1;
        int64_t i = index_of(s, &kids[m]);
        if (i < 0 || val[i] == FW_NONE) return -1;
        int v = val[i];
        if (v == 0) all_won = 0;
        else if (v & 1) { if (v > won) won = v; }
        else if (!lost || v < lost) lost = v;
    }
    if (lost) return lost + 1;
    if (all_won) return won + 1;
    return 0;
}

fw_solver *fw_new(int students, const int8_t *offsets) {
    if (students < 0 || students > 2) return NULL;
    fw_solver *s = calloc(1, sizeof(fw_solver));
    if (!s) return NULL;
    s->students = students;
    s->slots = students == 0 ? 1 : students == 1 ? 51 : 2601;
    s->size = (int64_t)2 * 30 * 625 * s->slots;
    /* offsets: per card, per pattern (master, student): a count, then (dx, dy) pairs. */
    for (int x = 0; x < 5; x++)
        for (int role = 0; role < 2; role++) {
            const int8_t *o = offsets + (x * 2 + role) * (1 + 2 * MAX_OFFSETS);
            for (int c = 0; c < 2; c++) {
                int sign = c ? -1 : 1;
                for (int q = 0; q < 25; q++)
                    for (int j = 0; j < o[0] && j < MAX_OFFSETS; j++) {
                        int f = q % 5 + sign * o[1 + 2 * j], r = q / 5 + sign * o[2 + 2 * j];
                        if (f >= 0 && f < 5 && r >= 0 && r < 5) s->steps[c][x][role][q] |= 1u << (r * 5 + f);
                    }
            }
        }
    memset(s->layout_of, -1, sizeof s->layout_of);
    int k = 0;
    for (int side = 0; side < 5; side++)
        for (int a = 0; a < 5; a++)
            for (int b = a + 1; b < 5; b++) {
                if (a == side || b == side) continue;
                s->hand[k] = 1 << a | 1 << b;
                s->side[k] = side;
                s->layout_of[1 << a | 1 << b][side] = k++;
            }
    return s;
}

void fw_free(fw_solver *s) {
    if (!s) return;
    free(s->val);
    free(s->open);
    free(s);
}

/* Solves every position: the number of rounds that decided something (the longest value),
 * -2 with no memory, -3 when a move leads out of the index, -4 past a byte's values. */
int fw_solve(fw_solver *s) {
    if (s->val) return s->rounds;
    uint8_t *val = malloc((size_t)s->size), *next = malloc((size_t)s->size);
    int32_t *open = malloc((size_t)s->size * sizeof(int32_t));
    if (!val || !next || !open) {
        free(val);
        free(next);
        free(open);
        return -2;
    }
    fwpos p;
    int64_t n = 0;
    for (int64_t i = 0; i < s->size; i++) {
        int ok = position_at(s, i, &p) && code_slot(s, p.rs, p.bs) == (int)(i % s->slots);
        val[i] = ok ? 0 : FW_NONE;
        if (ok) open[n++] = (int32_t)i;
    }
    s->held = n;
    int rounds = 0, failed = 0;
    for (int round = 1;; round++) {
        memcpy(next, val, (size_t)s->size);
        int64_t kept = 0, decided = 0;
        for (int64_t j = 0; j < n; j++) {
            position_at(s, open[j], &p);
            int v = rate(s, val, &p);
            if (v < 0) failed = 1;
            if (v > 0) {
                next[open[j]] = (uint8_t)(v > 254 ? 254 : v);
                decided++;
                if (v > 254) failed = 2;
            } else {
                open[kept++] = open[j];
            }
        }
        uint8_t *swap = val;
        val = next;
        next = swap;
        n = kept;
        if (!decided || failed) break;
        rounds = round;
    }
    free(next);
    s->val = val;
    s->open = open;
    s->open_n = n;
    s->rounds = rounds;
    return failed == 1 ? -3 : failed == 2 ? -4 : rounds;
}

static int layout(const fw_solver *s, int red_hand, int side) {
    if (red_hand < 0 || red_hand > 31 || side < 0 || side > 4) return -1;
    return s->layout_of[red_hand][side];
}

int fw_value(const fw_solver *s, int turn, int red_master, int blue_master, uint32_t red_students,
             uint32_t blue_students, int red_hand, int side) {
    fwpos p = {turn, layout(s, red_hand, side), red_master, blue_master, red_students, blue_students};
    int64_t i = index_of(s, &p);
    if (i < 0 || !s->val) return -1;
    return s->val[i] == FW_NONE ? -1 : s->val[i];
}

int fw_moves(const fw_solver *s, int turn, int red_master, int blue_master, uint32_t red_students,
             uint32_t blue_students, int red_hand, int side, int32_t *out) {
    fwpos p = {turn, layout(s, red_hand, side), red_master, blue_master, red_students, blue_students}, check;
    fwpos kids[MAX_MOVES];
    int64_t i = index_of(s, &p);
    if (i < 0 || !position_at(s, i, &check)) return -1;
    return generate(s, &p, out, kids);
}

static uint32_t turned(uint32_t m) {
    uint32_t out = 0;
    for (int q = 0; q < 25; q++)
        if (m >> q & 1) out |= 1u << (24 - q);
    return out;
}

/* Compares a retrograde table (endgame.py's index: Red to move, ((card state * 25 + red
 * master) * 25 + blue master) * pairs + pair, card_states as (red hand, side) bytes, pair
 * codes as (a, b) bytes) with this solve: every entry against the same position with Red
 * to move, and against that position turned half a turn with Blue to move. Returns the
 * number of disagreements; first gets the first one's index, 0 (Red) or 1 (turned), the
 * table's value and this one's (FW_NONE for no position). */
int64_t fw_compare(const fw_solver *s, const uint8_t *table, int pairs, const uint8_t *card_states,
                   const uint8_t *pair_codes, int64_t *first) {
    int64_t size = (int64_t)30 * 625 * pairs, wrong = 0;
    for (int64_t i = 0; i < size; i++) {
        int64_t rest = i / pairs;
        int pair = (int)(i % pairs), b = (int)(rest % 25), r = (int)(rest / 25 % 25), cs = (int)(rest / 625);
        uint32_t rs = 0, bs = 0;
        for (int n = 0; n < 2; n++) {
            int code = pair_codes[2 * pair + n];
            if (code >= 26) bs |= 1u << (code - 26);
            else if (code >= 1) rs |= 1u << (code - 1);
        }
        int hand = card_states[2 * cs], side = card_states[2 * cs + 1];
        int code_a = pair_codes[2 * pair], code_b = pair_codes[2 * pair + 1];
        int clash = code_a == code_b && code_a != 0;    /* two students on one square */
        for (int view = 0; view < 2; view++) {
            int v = clash ? -1 : view == 0 ? fw_value(s, 0, r, b, rs, bs, hand, side)
                : fw_value(s, 1, 24 - b, 24 - r, turned(bs), turned(rs), 31 ^ hand ^ (1 << side), side);
            int mine = v < 0 ? FW_NONE : v;
            if (mine == table[i]) continue;
            if (!wrong) {
                first[0] = i;
                first[1] = view;
                first[2] = table[i];
                first[3] = mine;
            }
            wrong++;
        }
    }
    return wrong;
}

/* out: positions held, rounds, positions left undecided (no forced result). */
void fw_stats(const fw_solver *s, int64_t *out) {
    out[0] = s->held;
    out[1] = s->rounds;
    out[2] = s->open_n;
}

/* -- tables too large to solve forward (five and six pieces) ----------------------------- */

static int64_t choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    int64_t out = 1;
    for (int i = 1; i <= k; i++) out = out * (n - k + i) / i;
    return out;
}

/* A retrograde table's index of a position with Red to move (endgame.py's Layout): the
 * students' codes sorted, zeros first, the i-th (from 1) counting rank[i][code] =
 * C(code + i - 1, i). */
static int64_t table_index(int students, int64_t sets, const int64_t rank[][51], const int cs_of[32][5],
                           int hand, int side, int r, int b, uint32_t rs, uint32_t bs) {
    int n = 0;
    int64_t set = 0;
    for (uint64_t m = (uint64_t)bs << 25 | rs; m; m &= m - 1) n++;
    if (n > students) return -1;
    int i = students - n + 1;
    for (uint64_t m = (uint64_t)bs << 25 | rs; m; m &= m - 1) set += rank[i++][1 + __builtin_ctzll(m)];
    int cs = cs_of[hand][side];
    if (cs < 0) return -1;
    return (((int64_t)cs * 25 + r) * 25 + b) * sets + set;
}

/* The whole check of a table too large for fw_solve: every entry from first to first +
 * count - 1 of a retrograde table of ``students`` students (Red to move; card_states as in
 * fw_compare) must be what plain minimax makes of its children's entries, the moves made by
 * this file's generator and each child (Blue to move) looked up turned half a turn; and an
 * entry is FW_NONE exactly when no such position is. Minimax values are the only table that
 * meets this everywhere (by induction on the value: an entry is k exactly when the position's
 * value is k, given that the entries below k are right; what is left is 0 on both sides), so
 * over the whole table this is the full-depth check. Returns the disagreements (-2 with no
 * memory); where gets the first one's index, the table's value and minimax's of its
 * children (-1 for a missing child). */
int64_t fw_fixpoint(const fw_solver *s, const uint8_t *table, int students, const uint8_t *card_states,
                    int64_t first, int64_t count, int64_t *where) {
    if (students < 0 || students > 4) return -2;
    int cs_of[32][5];
    memset(cs_of, -1, sizeof cs_of);
    for (int cs = 0; cs < 30; cs++) cs_of[card_states[2 * cs]][card_states[2 * cs + 1]] = cs;
    int64_t rank[5][51];
    for (int i = 0; i < 5; i++)
        for (int c = 0; c < 51; c++) rank[i][c] = choose(c + i - 1, i);
    int64_t sets = choose(50 + students, students), wrong = 0;
    /* Each set's students (decoded once): the largest code first, each the largest c with
     * C(c + k - 1, k) <= what is left of the number. */
    uint32_t *set_rs = malloc((size_t)sets * 4), *set_bs = malloc((size_t)sets * 4);
    uint8_t *clash = malloc((size_t)sets);
    if (!set_rs || !set_bs || !clash) {
        free(set_rs);
        free(set_bs);
        free(clash);
        return -2;
    }
    for (int64_t set = 0; set < sets; set++) {
        int64_t left = set;
        uint32_t rs = 0, bs = 0;
        int last = 99;
        clash[set] = 0;
        for (int k = students; k >= 1; k--) {
            int c = 0;
            while (c < 50 && rank[k][c + 1] <= left) c++;
            left -= rank[k][c];
            if (c && c == last) clash[set] = 1;
            last = c;
            if (c >= 26) bs |= 1u << (c - 26);
            else if (c >= 1) rs |= 1u << (c - 1);
        }
        set_rs[set] = rs;
        set_bs[set] = bs;
    }
    int32_t moves[MAX_MOVES];
    fwpos kids[MAX_MOVES];
    for (int64_t i = first; i < first + count; i++) {
        int64_t set = i % sets, rest = i / sets;
        int b = (int)(rest % 25), r = (int)(rest / 25 % 25), cs = (int)(rest / 625);
        uint32_t rs = set_rs[set], bs = set_bs[set];
        int hand = card_states[2 * cs], side = card_states[2 * cs + 1];
        fwpos p = {0, s->layout_of[hand][side], r, b, rs, bs};
        int valid = !clash[set] && r != b && r != GOAL_RED && b != GOAL_BLUE
                    && !((rs | bs) & (1u << r | 1u << b)) && !(rs & bs);
        int mine = FW_NONE;
        if (valid) {
            int n = generate(s, &p, moves, kids), lost = 0, won = 0, all_won = 1;
            mine = -2;
            for (int m = 0; m < n && mine == -2; m++) {
                if (moves[m] >> 24) {
                    mine = 1;
                    break;
                }
                const fwpos *q = &kids[m];
                int blue = 31 ^ s->hand[q->k] ^ (1 << s->side[q->k]);
                int64_t j = table_index(students, sets, rank, cs_of, blue, s->side[q->k], 24 - q->b,
                                        24 - q->r, turned(q->bs), turned(q->rs));
                int v = j < 0 ? FW_NONE : table[j];
                if (v == FW_NONE) mine = -1;
                else if (v == 0) all_won = 0;
                else if (v & 1) { if (v > won) won = v; }
                else if (!lost || v < lost) lost = v;
            }
            if (mine == -2) mine = lost ? lost + 1 : all_won ? won + 1 : 0;
        }
        if (mine == table[i]) continue;
        if (!wrong) {
            where[0] = i;
            where[1] = table[i];
            where[2] = mine;
        }
        wrong++;
    }
    free(set_rs);
    free(set_bs);
    free(clash);
    return wrong;
}
