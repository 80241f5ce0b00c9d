/* The native search core's interface: companion/ai/native/build.py gives this file to cffi
 * as its declarations, so it holds only what cffi's parser reads (no include guard). */
#define CORE_MAXSTEP 8
#define CORE_MAXCARDS 64

typedef struct core_ctx core_ctx;

/* A search state seen from the side to move: pawns as bitmasks, -1 for no square; hands and
 * the side card as card indices given by core_set_card. */
typedef struct {
    uint32_t own, opp;
    int8_t mo, mp, sp, color;
    uint8_t ho[2], hp[2], side;
} core_state;

/* The budget, carried between Python and C: nodes so far, the next node count to check the
 * budget at, the node limit (-1: none), the seconds left (when has_deadline). */
typedef struct {
    int64_t nodes, next_check, node_limit;
    double seconds;
    int has_deadline;
} core_clock;

core_ctx *core_new(int64_t tt_limit);
void core_free(core_ctx *c);
int64_t core_tt_size(core_ctx *c);
int64_t core_tt_bytes(core_ctx *c);
int core_tt_get(core_ctx *c, uint64_t key, int32_t *out);
void core_tt_clear(core_ctx *c);
void core_set_keys(core_ctx *c, const uint64_t *students, const uint64_t *masters,
                   const uint64_t *spirit, uint64_t turn);
void core_set_eval(core_ctx *c, int32_t tempo, int32_t student, const int32_t *base_s,
                   const int32_t *base_m, int goal_red, int goal_blue);
void core_set_race(core_ctx *c, const int32_t *race, int32_t lead);
int core_set_card(core_ctx *c, int index, int wind, const int8_t *steps, const int32_t *terms,
                  const uint64_t *keys);
void core_age_history(core_ctx *c);
void core_request_stop(core_ctx *c);
void core_clear_stop(core_ctx *c);
int core_root(core_ctx *c, const core_state *s, uint64_t h, const uint32_t *order, int n, int depth,
              int all_scores, int has_margin, int margin, core_clock *clock, int32_t *scores, int32_t *best);
int core_moves(core_ctx *c, const core_state *s, uint32_t *out);
int core_evaluate(core_ctx *c, const core_state *s);

/* Exact endgames (endgame.c): one table per deal of five cards. */
#define EG_INVALID 255

typedef struct eg_table eg_table;

eg_table *eg_new(int students, const uint32_t *reach);
void eg_free(eg_table *t);
int64_t eg_size(eg_table *t);
uint8_t *eg_values(eg_table *t);
void eg_progress(eg_table *t, int64_t *out);
void eg_cancel(eg_table *t);
int eg_solve(eg_table *t);
int eg_probe(const eg_table *t, uint32_t own, uint32_t opp, int mo, int mp, int color,
             int h0, int h1, int side);
void core_set_endgames(core_ctx *c, const eg_table *t, const int8_t *deal);
