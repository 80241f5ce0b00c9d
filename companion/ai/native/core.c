/* The native search core: a line-by-line mirror of companion/ai/search.py (and of the move
 * generator in companion/rules/engine.py and the evaluation in companion/ai/evaluate.py) for
 * the base game and the Way of the Wind: two-card hands of role "any", a one-card side stack,
 * no conditional cards.
 *
 * It must give the Python search's moves, scores and node counts exactly
 * (tests/ai/test_native.py), so every detail is copied, not improved: the generator's move
 * order, the stable sort of the move ordering, the transposition table's semantics (a
 * dictionary keyed by the full 64-bit Zobrist key, every store replaces, cleared when a new
 * key would pass the limit), the quiescence rules, the node counting and the budget checks.
 * Where this file and the Python disagree, the Python is right.
 *
 * A move is packed into 32 bits: slot (2 bits), then frm, to, spirit_frm, spirit_to (5 bits
 * each, stored +1 so that -1 is 0), then the wins flag. Equal moves have equal codes.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core.h"

#define WIN 100000
#define WON (WIN - 1000)
#define INF 1000000
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define QDEPTH 6
#define CHECK_EVERY 1024
#define MAXMOVES 1024
#define MAXPLY 128
#define NOMOVE 0xFFFFFFFFu

#define PACK(slot, f, t, sf, su, w) \
    ((uint32_t)(slot) | (uint32_t)((f) + 1) << 2 | (uint32_t)((t) + 1) << 7 | \
     (uint32_t)((sf) + 1) << 12 | (uint32_t)((su) + 1) << 17 | (uint32_t)(w) << 22)
#define M_SLOT(m) ((int)((m) & 3))
#define M_F(m) ((int)((m) >> 2 & 31) - 1)
#define M_T(m) ((int)((m) >> 7 & 31) - 1)
#define M_SF(m) ((int)((m) >> 12 & 31) - 1)
#define M_SU(m) ((int)((m) >> 17 & 31) - 1)
#define M_WINS(m) ((int)((m) >> 22 & 1))

typedef struct {
    uint8_t n[25];
    int8_t to[25][CORE_MAXSTEP];
    uint32_t mask[25];
} steps_t;

typedef struct {
    int wind;
    steps_t student, master, spirit;
    int32_t s_full[25], s_next[25], m_full[25], m_next[25];
} side_t;

typedef struct {
    side_t side[2];
    uint64_t z[8];
} card_t;

/* One table slot: the key, the score, and depth (7 bits), flag (2 bits) and move (23 bits)
 * in one word; depth 0 marks an empty slot (stored depths are 1 or more). */
typedef struct {
    uint64_t key;
    int32_t score;
    uint32_t info;
} tt_entry;

/* The master's moves to the enemy Temple Arch from every square (2 bits a square: moves
 * less one), for one colour, two held cards and the next card (or none), cached: key 0 is
 * an empty slot. */
#define RACE_SLOTS 2048
#define FAR 4
typedef struct {
    uint32_t key;
    uint64_t dist;
} race_entry;

struct core_ctx {
    card_t cards[CORE_MAXCARDS];
    uint64_t zs[2][25], zm[2][25], zsp[25], zturn;
    int32_t base_s[2][25], base_m[2][25];
    int32_t tempo, student;
    int32_t race[FAR + 1], race_lead;
    race_entry races[RACE_SLOTS];
    int goal[2];
    int64_t hist[2800];
    tt_entry *tt;
    uint64_t tt_mask;
    int64_t tt_count, tt_limit;
    int64_t nodes, next_check, node_limit;
    int has_deadline;
    struct timespec deadline;
    volatile int stop_request;
    int stopped;
    const eg_table *eg;             /* exact endgames of this game's deal, or NULL */
    int8_t eg_deal[CORE_MAXCARDS];  /* the table's number of each card of the core, or -1 */
    uint32_t moves[MAXPLY][MAXMOVES];
    int64_t ranks[MAXPLY][MAXMOVES];
};

/* -- the table ------------------------------------------------------------------------- */

/* The context and the table come straight from the kernel (zeroed, and given back whole on
 * free): through malloc, a freed block of this size stays in the process's heap, and the
 * service's memory crept up game after game. */
static void *map(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static size_t tt_bytes(const core_ctx *c) { return (size_t)(c->tt_mask + 1) * sizeof(tt_entry); }

core_ctx *core_new(int64_t tt_limit) {
    core_ctx *c = map(sizeof(core_ctx));
    if (!c) return NULL;
    uint64_t size = 1024;
    while (size < (uint64_t)tt_limit * 2) size <<= 1;    /* at most half full: short probes */
    c->tt_mask = size - 1;
    c->tt = map(tt_bytes(c));
    if (!c->tt) { munmap(c, sizeof(core_ctx)); return NULL; }
    c->tt_limit = tt_limit;
    return c;
}

void core_free(core_ctx *c) {
    if (c) {
        munmap(c->tt, tt_bytes(c));
        munmap(c, sizeof(core_ctx));
    }
}

int64_t core_tt_size(core_ctx *c) { return c->tt_count; }

int64_t core_tt_bytes(core_ctx *c) { return (int64_t)tt_bytes(c); }

static tt_entry *tt_find(core_ctx *c, uint64_t key) {
    uint64_t i = key & c->tt_mask;
    for (;;) {
        tt_entry *e = &c->tt[i];
        if ((e->info >> 25) == 0 || e->key == key) return e;
        i = (i + 1) & c->tt_mask;
    }
}

static void tt_store(core_ctx *c, uint64_t key, int depth, int flag, int score, uint32_t move) {
    tt_entry *e = tt_find(c, key);
    if ((e->info >> 25) == 0) {
        /* search.py: a new key when the table holds its limit clears it first. */
        if (c->tt_count >= c->tt_limit) {
            memset(c->tt, 0, tt_bytes(c));
            c->tt_count = 0;
            e = tt_find(c, key);
        }
        c->tt_count++;
    }
    e->key = key;
    e->score = score;
    e->info = (uint32_t)depth << 25 | (uint32_t)flag << 23 | move;
}

int core_tt_get(core_ctx *c, uint64_t key, int32_t *out) {
    tt_entry *e = tt_find(c, key);
    if ((e->info >> 25) == 0) return 0;
    out[0] = (int32_t)(e->info >> 25);
    out[1] = (int32_t)(e->info >> 23 & 3);
    out[2] = e->score;
    out[3] = (int32_t)(e->info & 0x7FFFFF);
    return 1;
}

void core_tt_clear(core_ctx *c) {
    memset(c->tt, 0, tt_bytes(c));
    c->tt_count = 0;
}

/* -- set-up from Python ------------------------------------------------------------------ */

void core_set_keys(core_ctx *c, const uint64_t *students, const uint64_t *masters,
                   const uint64_t *spirit, uint64_t turn) {
    memcpy(c->zs, students, sizeof c->zs);
    memcpy(c->zm, masters, sizeof c->zm);
    memcpy(c->zsp, spirit, sizeof c->zsp);
    c->zturn = turn;
}

void core_set_eval(core_ctx *c, int32_t tempo, int32_t student, const int32_t *base_s,
                   const int32_t *base_m, int goal_red, int goal_blue) {
    c->tempo = tempo;
    c->student = student;
    memcpy(c->base_s, base_s, sizeof c->base_s);
    memcpy(c->base_m, base_m, sizeof c->base_m);
    c->goal[0] = goal_red;
    c->goal[1] = goal_blue;
}

void core_set_race(core_ctx *c, const int32_t *race, int32_t lead) {
    memcpy(c->race, race, sizeof c->race);
    c->race_lead = lead;
}

static void set_steps(steps_t *s, const int8_t *src) {
    for (int sq = 0; sq < 25; sq++) {
        const int8_t *row = src + sq * (CORE_MAXSTEP + 1);
        s->n[sq] = (uint8_t)row[0];
        s->mask[sq] = 0;
        for (int k = 0; k < row[0]; k++) {
            s->to[sq][k] = row[k + 1];
            s->mask[sq] |= 1u << row[k + 1];
        }
    }
}

/* steps: per colour, per kind (student, master, spirit), per square, the count then the
 * targets in the generator's order; terms: per colour s_full, s_next, m_full, m_next. */
int core_set_card(core_ctx *c, int index, int wind, const int8_t *steps, const int32_t *terms,
                  const uint64_t *keys) {
    if (index < 0 || index >= CORE_MAXCARDS) return 0;
    card_t *card = &c->cards[index];
    const int per_kind = 25 * (CORE_MAXSTEP + 1);
    for (int color = 0; color < 2; color++) {
        side_t *s = &card->side[color];
        s->wind = wind;
        set_steps(&s->student, steps + (color * 3 + 0) * per_kind);
        set_steps(&s->master, steps + (color * 3 + 1) * per_kind);
        set_steps(&s->spirit, steps + (color * 3 + 2) * per_kind);
        const int32_t *t = terms + color * 100;
        memcpy(s->s_full, t, sizeof s->s_full);
        memcpy(s->s_next, t + 25, sizeof s->s_next);
        memcpy(s->m_full, t + 50, sizeof s->m_full);
        memcpy(s->m_next, t + 75, sizeof s->m_next);
    }
    memcpy(card->z, keys, sizeof card->z);
    return 1;
}

/* deal: for each of the core's card indices (CORE_MAXCARDS), the table's number or -1. */
void core_set_endgames(core_ctx *c, const eg_table *t, const int8_t *deal) {
    c->eg = t;
    if (deal) memcpy(c->eg_deal, deal, sizeof c->eg_deal);
}

void core_age_history(core_ctx *c) {
    for (int i = 0; i < 2800; i++) c->hist[i] >>= 2;
}

void core_request_stop(core_ctx *c) { c->stop_request = 1; }

void core_clear_stop(core_ctx *c) { c->stop_request = 0; }

/* -- moves ------------------------------------------------------------------------------- */

/* Engine.moves, for two "any" slots. */
static int gen_moves(const core_ctx *c, const core_state *s, uint32_t *out) {
    uint32_t own = s->own;
    int mo = s->mo, mp = s->mp, sp = s->sp, color = s->color;
    uint32_t spbit = sp >= 0 ? 1u << sp : 0;
    uint32_t blocked = own | spbit;
    uint32_t masters = (mo >= 0 ? 1u << mo : 0) | (mp >= 0 ? 1u << mp : 0);
    int goal = c->goal[color];
    int n = 0;
    for (int slot = 0; slot < 2; slot++) {
        const side_t *cm = &c->cards[s->ho[slot]].side[color];
        int tf[64], tt[64], tw[64], nt = 0;
        for (uint32_t m = own; m; m &= m - 1) {
            int f = __builtin_ctz(m);
            const steps_t *st = f == mo ? &cm->master : &cm->student;
            for (int k = 0; k < st->n[f]; k++) {
                int t = st->to[f][k];
                if (!(blocked >> t & 1)) {
                    tf[nt] = f;
                    tt[nt] = t;
                    tw[nt] = f == mo ? (t == mp || t == goal) : t == mp;
                    nt++;
                }
            }
        }
        const steps_t *spirit = &cm->spirit;
        if (!cm->wind) {
            for (int i = 0; i < nt; i++) out[n++] = PACK(slot, tf[i], tt[i], -1, -1, tw[i]);
            if (sp >= 0)
                for (int k = 0; k < spirit->n[sp]; k++) {
                    int u = spirit->to[sp][k];
                    if (!(masters >> u & 1)) out[n++] = PACK(slot, -1, -1, sp, u, 0);
                }
            continue;
        }
        /* A Wind Spirit card: the top step moves a pawn, then the Spirit must take the bottom
         * step if it can; a step with no option is skipped, a win ends the turn. */
        if (nt == 0) {
            for (int k = 0; k < spirit->n[sp]; k++) {
                int u = spirit->to[sp][k];
                if (!(masters >> u & 1)) out[n++] = PACK(slot, -1, -1, sp, u, 0);
            }
            continue;
        }
        for (int i = 0; i < nt; i++) {
            int f = tf[i], t = tt[i];
            if (tw[i]) {
                out[n++] = PACK(slot, f, t, -1, -1, 1);
                continue;
            }
            uint32_t after = f == mo ? masters ^ ((1u << f) | (1u << t)) : masters;
            int stepped = 0;
            for (int k = 0; k < spirit->n[sp]; k++) {
                int u = spirit->to[sp][k];
                if (!(after >> u & 1)) {
                    out[n++] = PACK(slot, f, t, sp, u, 0);
                    stepped = 1;
                }
            }
            if (!stepped) out[n++] = PACK(slot, f, t, -1, -1, 0);
        }
    }
    if (n == 0)
        for (int slot = 0; slot < 2; slot++) out[n++] = PACK(slot, -1, -1, -1, -1, 0);
    return n;
}

/* Searcher.make: the child seen from the other side, and its key. */
static uint64_t make(const core_ctx *c, const core_state *s, uint64_t h, uint32_t mv, core_state *o) {
    uint32_t own = s->own, opp = s->opp;
    int mo = s->mo, mp = s->mp, sp = s->sp, color = s->color, enemy = color ^ 1;
    int slot = M_SLOT(mv), f = M_F(mv), t = M_T(mv), sf = M_SF(mv), su = M_SU(mv);
    if (f >= 0) {
        uint32_t tb = 1u << t;
        own ^= (1u << f) | tb;
        if (f == mo) {
            mo = t;
            h ^= c->zm[color][f] ^ c->zm[color][t];
        } else {
            h ^= c->zs[color][f] ^ c->zs[color][t];
        }
        if (opp & tb) {
            opp ^= tb;
            if (t == mp) {
                mp = -1;
                h ^= c->zm[enemy][t];
            } else {
                h ^= c->zs[enemy][t];
            }
        }
    }
    if (sf >= 0) {
        uint32_t ub = 1u << su;
        h ^= c->zsp[sf] ^ c->zsp[su];
        if (own & ub) {
            own ^= ub | (1u << sf);
            h ^= c->zs[color][su] ^ c->zs[color][sf];
        } else if (opp & ub) {
            opp ^= ub | (1u << sf);
            h ^= c->zs[enemy][su] ^ c->zs[enemy][sf];
        }
        sp = su;
    }
    int card = s->ho[slot], next = s->side;
    const uint64_t *zc = c->cards[card].z, *zn = c->cards[next].z;
    int place = color * 3;      /* a slot of role "any" */
    h ^= zc[place] ^ zc[6 + enemy] ^ zn[6 + color] ^ zn[place] ^ c->zturn;
    o->own = opp;
    o->opp = own;
    o->mo = (int8_t)mp;
    o->mp = (int8_t)mo;
    o->sp = (int8_t)sp;
    o->color = (int8_t)enemy;
    o->ho[0] = s->hp[0];
    o->ho[1] = s->hp[1];
    o->hp[0] = s->ho[0];
    o->hp[1] = s->ho[1];
    o->hp[slot] = (uint8_t)next;
    o->side = (uint8_t)card;
    return h;
}

/* -- evaluation -------------------------------------------------------------------------- */

/* evaluate.race_distances: move one with a held card, move two with the other held card or
 * the next one, three: within three moves of any of them; pawns in the way not counted. */
static uint64_t race_table(const core_ctx *c, int color, int a, int b, int nx) {
    const uint32_t *ma = c->cards[a].side[color].master.mask, *mb = c->cards[b].side[color].master.mask;
    const uint32_t *mn = nx >= 0 ? c->cards[nx].side[color].master.mask : NULL;
    uint32_t bit = 1u << c->goal[color], uni[25];
    for (int sq = 0; sq < 25; sq++) uni[sq] = ma[sq] | mb[sq] | (mn ? mn[sq] : 0);
    uint64_t out = 0;
    for (int sq = 0; sq < 25; sq++) {
        int d = FAR;
        if ((ma[sq] | mb[sq]) & bit) {
            d = 1;
        } else {
            uint32_t via_a = 0, via_b = 0, frontier = uni[sq];
            for (uint32_t m = ma[sq]; m; m &= m - 1) via_a |= mb[__builtin_ctz(m)] | (mn ? mn[__builtin_ctz(m)] : 0);
            for (uint32_t m = mb[sq]; m; m &= m - 1) via_b |= ma[__builtin_ctz(m)] | (mn ? mn[__builtin_ctz(m)] : 0);
            if ((via_a | via_b) & bit) {
                d = 2;
            } else {
                for (int k = 0; k < 2; k++) {
                    uint32_t next = 0;
                    for (uint32_t m = frontier; m; m &= m - 1) next |= uni[__builtin_ctz(m)];
                    frontier |= next;
                }
                if (frontier & bit) d = 3;
            }
        }
        out |= (uint64_t)(d - 1) << (2 * sq);
    }
    return out;
}

/* The master's moves to the arch from ``sq``, through the cache. */
static int race_of(core_ctx *c, int color, int a, int b, int nx, int sq) {
    uint32_t key = 1u + (uint32_t)color + 2u * ((uint32_t)a + 64u * ((uint32_t)b + 64u * (uint32_t)(nx + 1)));
    race_entry *e = &c->races[(key * 2654435761u) >> 21];
    if (e->key != key) {
        e->key = key;
        e->dist = race_table(c, color, a, b, nx);
    }
    return (int)(e->dist >> (2 * sq) & 3) + 1;
}

/* Evaluator.__call__: the per-card tables summed per pawn (the Python caches the sums). */
static int evaluate(core_ctx *c, const core_state *s) {
    int color = s->color, enemy = color ^ 1;
    const side_t *a = &c->cards[s->ho[0]].side[color], *b = &c->cards[s->ho[1]].side[color];
    const side_t *nx = &c->cards[s->side].side[color];
    const side_t *pa = &c->cards[s->hp[0]].side[enemy], *pb = &c->cards[s->hp[1]].side[enemy];
    uint32_t own = s->own, opp = s->opp;
    int score = c->tempo + c->student * (__builtin_popcount(own) - __builtin_popcount(opp));
    int mine_d = FAR, theirs_d = FAR;
    if (s->mo >= 0) {
        int sq = s->mo;
        mine_d = race_of(c, color, s->ho[0], s->ho[1], s->side, sq);
        score += c->base_m[color][sq] + a->m_full[sq] + b->m_full[sq] + nx->m_next[sq] + c->race[mine_d];
        own &= ~(1u << sq);
    }
    if (s->mp >= 0) {
        int sq = s->mp;
        theirs_d = race_of(c, enemy, s->hp[0], s->hp[1], -1, sq);
        score -= c->base_m[enemy][sq] + pa->m_full[sq] + pb->m_full[sq] + c->race[theirs_d];
        opp &= ~(1u << sq);
    }
    if (c->race_lead) {
        if (mine_d < FAR && mine_d <= theirs_d) score += c->race_lead;
        else if (theirs_d < mine_d) score -= c->race_lead;
    }
    for (; own; own &= own - 1) {
        int sq = __builtin_ctz(own);
        score += c->base_s[color][sq] + a->s_full[sq] + b->s_full[sq] + nx->s_next[sq];
    }
    for (; opp; opp &= opp - 1) {
        int sq = __builtin_ctz(opp);
        score -= c->base_s[enemy][sq] + pa->s_full[sq] + pb->s_full[sq];
    }
    return score;
}

/* -- the budget -------------------------------------------------------------------------- */

/* Searcher._check; returns 1 (and marks the search stopped) when the budget is used up. */
static int check(core_ctx *c) {
    if (c->node_limit >= 0 && c->nodes >= c->node_limit) return c->stopped = 1;
    if (c->has_deadline) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > c->deadline.tv_sec ||
            (now.tv_sec == c->deadline.tv_sec && now.tv_nsec >= c->deadline.tv_nsec))
            return c->stopped = 1;
    }
    if (c->stop_request) return c->stopped = 1;
    int64_t step = CHECK_EVERY;
    if (c->node_limit >= 0 && c->node_limit - c->nodes < step) step = c->node_limit - c->nodes;
    c->next_check = c->nodes + step;
    return 0;
}

/* -- quiescence -------------------------------------------------------------------------- */

/* Searcher._capture_check: -1 when the mover has a winning move, else whether it has a capture. */
static int capture_check(const core_ctx *c, const core_state *s) {
    uint32_t own = s->own;
    int mo = s->mo, mp = s->mp, sp = s->sp, color = s->color;
    uint32_t goal = 1u << c->goal[color];
    if ((own | (sp >= 0 ? 1u << sp : 0)) & goal) goal = 0;
    uint32_t wins = mp >= 0 ? 1u << mp : 0;
    uint32_t students = mo >= 0 ? own & ~(1u << mo) : own;
    uint32_t hit = 0;
    for (int slot = 0; slot < 2; slot++) {
        const side_t *cm = &c->cards[s->ho[slot]].side[color];
        if (students) {
            uint32_t reach = 0;
            for (uint32_t m = students; m; m &= m - 1) reach |= cm->student.mask[__builtin_ctz(m)];
            if (reach & wins) return -1;
            hit |= reach;
        }
        if (mo >= 0) {
            uint32_t reach = cm->master.mask[mo];
            if (reach & (wins | goal)) return -1;
            hit |= reach;
        }
    }
    return (hit & s->opp) != 0;
}

/* Searcher._captures: the captures in the generator's order, or -1 for a winning move. */
static int gen_captures(const core_ctx *c, const core_state *s, uint32_t *out) {
    uint32_t own = s->own, opp = s->opp;
    int mo = s->mo, mp = s->mp, sp = s->sp, color = s->color;
    uint32_t goal = 1u << c->goal[color];
    if ((own | (sp >= 0 ? 1u << sp : 0)) & goal) goal = 0;
    uint32_t wins = mp >= 0 ? 1u << mp : 0;
    uint32_t masters = wins | (mo >= 0 ? 1u << mo : 0);
    int n = 0;
    for (int slot = 0; slot < 2; slot++) {
        const side_t *cm = &c->cards[s->ho[slot]].side[color];
        for (uint32_t m = own; m; m &= m - 1) {
            int f = __builtin_ctz(m);
            const steps_t *st;
            uint32_t reach;
            if (f == mo) {
                st = &cm->master;
                reach = st->mask[f];
                if (reach & (wins | goal)) return -1;
            } else {
                st = &cm->student;
                reach = st->mask[f];
                if (reach & wins) return -1;
            }
            uint32_t hits = reach & opp;
            if (!hits) continue;
            for (int k = 0; k < st->n[f]; k++) {
                int t = st->to[f][k];
                if (!(hits >> t & 1)) continue;
                if (!cm->wind) {
                    out[n++] = PACK(slot, f, t, -1, -1, 0);
                    continue;
                }
                uint32_t after = f == mo ? masters ^ ((1u << f) | (1u << t)) : masters;
                int stepped = 0;
                const steps_t *spirit = &cm->spirit;
                for (int j = 0; j < spirit->n[sp]; j++) {
                    int u = spirit->to[sp][j];
                    if (!(after >> u & 1)) {
                        out[n++] = PACK(slot, f, t, sp, u, 0);
                        stepped = 1;
                    }
                }
                if (!stepped) out[n++] = PACK(slot, f, t, -1, -1, 0);
            }
        }
    }
    return n;
}

static int quiesce(core_ctx *c, const core_state *s, uint64_t h, int alpha, int beta, int ply, int qdepth) {
    int can = capture_check(c, s);
    if (can < 0) return WIN - ply - 1;
    int stand = evaluate(c, s);
    if (stand >= beta || qdepth <= 0 || !can) return stand;
    if (stand > alpha) alpha = stand;
    uint32_t *caps = c->moves[ply];
    int n = gen_captures(c, s, caps);
    for (int i = 0; i < n; i++) {
        if (++c->nodes >= c->next_check && check(c)) return 0;
        core_state child;
        uint64_t ch = make(c, s, h, caps[i], &child);
        int score = -quiesce(c, &child, ch, -beta, -alpha, ply + 1, qdepth - 1);
        if (c->stopped) return 0;
        if (score > stand) {
            stand = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return stand;
}

/* -- the main search --------------------------------------------------------------------- */

static int hist_index(int base, uint32_t mv) {
    int f = M_F(mv);
    return base + (f >= 0 ? f * 25 + M_T(mv) : 625 + (M_SF(mv) + 1) * 26 + M_SU(mv) + 1);
}

/* The Python's list.sort(key=rank): stable, smallest rank first. */
static void order_moves(uint32_t *mv, int64_t *rank, int n) {
    for (int i = 1; i < n; i++) {
        uint32_t m = mv[i];
        int64_t r = rank[i];
        int j = i - 1;
        while (j >= 0 && rank[j] > r) {
            mv[j + 1] = mv[j];
            rank[j + 1] = rank[j];
            j--;
        }
        mv[j + 1] = m;
        rank[j + 1] = r;
    }
}

/* Searcher.solved_score: the exact score of a position the endgame table holds, else -INF. */
static int solved(const core_ctx *c, const core_state *s, int ply) {
    if (!c->eg || s->sp >= 0) return -INF;
    int v = eg_probe(c->eg, s->own, s->opp, s->mo, s->mp, s->color, c->eg_deal[s->ho[0]],
                     c->eg_deal[s->ho[1]], c->eg_deal[s->side]);
    if (v < 0) return -INF;
    if (v == 0) return 0;
    return v & 1 ? WIN - ply - v : -(WIN - ply - v);
}

static int negamax(core_ctx *c, const core_state *s, uint64_t h, int depth, int alpha, int beta, int ply) {
    if (++c->nodes >= c->next_check && check(c)) return 0;
    int exact = solved(c, s, ply);
    if (exact != -INF) return exact;
    if (depth <= 0) return quiesce(c, s, h, alpha, beta, ply, QDEPTH);
    uint32_t tt_move = NOMOVE;
    tt_entry *e = tt_find(c, h);
    if ((e->info >> 25) != 0) {
        int e_depth = (int)(e->info >> 25), flag = (int)(e->info >> 23 & 3), score = e->score;
        tt_move = e->info & 0x7FFFFF;
        if (e_depth >= depth) {
            if (score >= WON) score -= ply;
            else if (score <= -WON) score += ply;
            if (flag == EXACT || (flag == LOWER && score >= beta) || (flag == UPPER && score <= alpha))
                return score;
        }
    }
    uint32_t *moves = c->moves[ply];
    int64_t *rank = c->ranks[ply];
    int n = gen_moves(c, s, moves);
    for (int i = 0; i < n; i++)
        if (M_WINS(moves[i])) {
            tt_store(c, h, 99, EXACT, WIN - 1, moves[i]);     /* stored relative to this node */
            return WIN - ply - 1;
        }
    int base = s->color * 1400;
    uint32_t opp = s->opp;
    for (int i = 0; i < n; i++) {
        uint32_t mv = moves[i];
        int f = M_F(mv);
        if (mv == tt_move) rank[i] = -1000000000LL;
        else if (f >= 0 && (opp >> M_T(mv) & 1)) rank[i] = -100000000LL;
        else rank[i] = -c->hist[hist_index(base, mv)];
    }
    order_moves(moves, rank, n);
    int alpha0 = alpha, best = -INF;
    uint32_t best_move = moves[0];
    for (int i = 0; i < n; i++) {
        uint32_t mv = moves[i];
        core_state child;
        uint64_t ch = make(c, s, h, mv, &child);
        int score;
        if (i == 0) {
            score = -negamax(c, &child, ch, depth - 1, -beta, -alpha, ply + 1);
        } else {
            score = -negamax(c, &child, ch, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (c->stopped) return 0;
            if (alpha < score && score < beta)
                score = -negamax(c, &child, ch, depth - 1, -beta, -alpha, ply + 1);
        }
        if (c->stopped) return 0;
        if (score > best) {
            best = score;
            best_move = mv;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    int f = M_F(mv);
                    if (f < 0 || !(opp >> M_T(mv) & 1)) c->hist[hist_index(base, mv)] += depth * depth;
                    break;
                }
            }
        }
    }
    int stored = best >= WON ? best + ply : best <= -WON ? best - ply : best;
    int flag = best >= beta ? LOWER : best <= alpha0 ? UPPER : EXACT;
    tt_store(c, h, depth, flag, stored, best_move);
    return best;
}

/* Searcher._root: one iteration over the root moves in ``order``. Returns 1 when the budget
 * ran out (the iteration's results are then void, as when the Python raises _Stop). */
int core_root(core_ctx *c, const core_state *s, uint64_t h, const uint32_t *order, int n, int depth,
              int all_scores, int has_margin, int margin, core_clock *clock, int32_t *scores, int32_t *best) {
    c->nodes = clock->nodes;
    c->next_check = clock->next_check;
    c->node_limit = clock->node_limit;
    c->has_deadline = clock->has_deadline;
    c->stopped = 0;
    if (clock->has_deadline) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = clock->seconds > 0 ? clock->seconds : 0;
        long sec = (long)left;
        long nsec = now.tv_nsec + (long)((left - (double)sec) * 1e9);
        c->deadline.tv_sec = now.tv_sec + sec + nsec / 1000000000L;
        c->deadline.tv_nsec = nsec % 1000000000L;
    }
    int alpha = -INF, beta = INF, best_score = -INF, best_index = 0;
    for (int i = 0; i < n && !c->stopped; i++) {
        uint32_t mv = order[i];
        int score;
        core_state child;
        if (M_WINS(mv)) {
            score = WIN - 1;
        } else if (all_scores && has_margin && i > 0) {
            uint64_t ch = make(c, s, h, mv, &child);
            int floor = best_score - margin;
            score = -negamax(c, &child, ch, depth - 1, -floor - 1, -floor, 1);
            if (!c->stopped && score > floor) score = -negamax(c, &child, ch, depth - 1, -INF, -floor, 1);
        } else if (i == 0 || all_scores) {
            uint64_t ch = make(c, s, h, mv, &child);
            score = -negamax(c, &child, ch, depth - 1, all_scores ? -INF : -beta, all_scores ? INF : -alpha, 1);
        } else {
            uint64_t ch = make(c, s, h, mv, &child);
            score = -negamax(c, &child, ch, depth - 1, -alpha - 1, -alpha, 1);
            if (!c->stopped && score > alpha) score = -negamax(c, &child, ch, depth - 1, -beta, -alpha, 1);
        }
        if (c->stopped) break;
        scores[i] = score;
        if (score > best_score) {
            best_score = score;
            best_index = i;
            if (score > alpha) alpha = score;
        }
    }
    clock->nodes = c->nodes;
    clock->next_check = c->next_check;
    if (c->stopped) return 1;
    tt_store(c, h, depth, EXACT, best_score, order[best_index]);
    best[0] = best_score;
    best[1] = best_index;
    return 0;
}

/* Engine.moves, for tests. */
int core_moves(core_ctx *c, const core_state *s, uint32_t *out) { return gen_moves(c, s, out); }

int core_evaluate(core_ctx *c, const core_state *s) { return evaluate(c, s); }
