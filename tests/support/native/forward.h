/* A forward full-depth solver (forward.c): the endgame tables' independent check. */
#define FW_NONE 255

typedef struct fw_solver fw_solver;

fw_solver *fw_new(int students, const int8_t *offsets);
void fw_free(fw_solver *s);
int fw_solve(fw_solver *s);
int fw_value(const fw_solver *s, int turn, int red_master, int blue_master, uint32_t red_students,
             uint32_t blue_students, int red_hand, int side);
int fw_moves(const fw_solver *s, int turn, int red_master, int blue_master, uint32_t red_students,
             uint32_t blue_students, int red_hand, int side, int32_t *out);
int64_t fw_compare(const fw_solver *s, const uint8_t *table, int pairs, const uint8_t *card_states,
                   const uint8_t *pair_codes, int64_t *first);
void fw_stats(const fw_solver *s, int64_t *out);
int64_t fw_fixpoint(const fw_solver *s, const uint8_t *table, int students, const uint8_t *card_states,
                    int64_t first, int64_t count, int64_t *where);
