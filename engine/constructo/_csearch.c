/* Compiled search core of the Constructo AI (engine/constructo/search.py is its only caller).
 *
 * It holds no rule of its own: the stacking rules (K1-K5), the tower rule (S1, S2) and the stack ids come in
 * as tables built in Python from engine.constructo.round (set_tables); what stays here is the turn structure
 * the Python search also hard-codes (T1: place from the reserve on an empty tile, or step a lone chip onto an
 * adjacent occupied tile the tables allow; T4: only lone chips move; E1: no action ends the round).
 * Differential tests (tests/engine/constructo/test_ai_core.py) check it against the Python engine.
 *
 * Search: negamax alpha-beta with principal variation search, a bounded transposition table (4-way buckets,
 * replacement by generation then by subtree size) keyed by the position's canonical form under the layout's
 * automorphisms and a colour swap (the key is the position seen by the player to move, so it needs no turn
 * bit; reserves follow from the stacks, C2), the table move first, then steps by towers won and placements by
 * the tower-making landings they offer the opponent, ties by the history heuristic. A value whose subtree never met the depth horizon is marked exact, as in Python.
 * The GIL is released while searching; one Core must not be used by two threads at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define CORE_VERSION 2
#ifndef CORE_SOURCE_HASH
#define CORE_SOURCE_HASH ""
#endif
#define NT 9
#define MAXS 32        /* stack ids are < MAXS (19 are used) */
#define MAXG 48        /* automorphisms kept (a subset of the group is still sound) */
#define MAXMOVES 96
#define SCALE 100
#define INF (1 << 29)
#define EXACT_DEPTH 63
#define NO_MOVE 127
#define F_EXACT 0
#define F_LOWER 1
#define F_UPPER 2
#define WAYS 4

/* ---- rule tables (from Python) ------------------------------------------------------------------------ */
static int LONE[MAXS];          /* chip (player << 2 | size) of a one-chip stack, else 0 */
static int LAND[MAXS * 8];      /* stack id after a lone chip lands on it (K1, K2, K4), -1 if illegal */
static int TOWER[MAXS];         /* +1 tower of player 0, -1 of player 1, 0 none (S1, S2) */
static int SINGLE[8];           /* stack id of a chip alone on a tile */
static int SWAP[MAXS];          /* the same stack with the players' colours swapped */
static int NSTACKS = 0;



/* ---- transposition table -------------------------------------------------------------------------------- */
typedef struct {
    uint64_t key;   /* canonical key + 1 (0 = empty slot) */
    uint64_t data;  /* value:16 | flag:2 | depth:6 | move:7 | work:6 | gen:8 */
} Entry;

static inline uint64_t pack(int value, int flag, int depth, int move, int work, int gen) {
    return (uint64_t)(uint16_t)(int16_t)value | ((uint64_t)flag << 16) | ((uint64_t)depth << 18) |
           ((uint64_t)move << 24) | ((uint64_t)work << 31) | ((uint64_t)(gen & 255) << 37);
}
#define E_VALUE(d) ((int)(int16_t)(uint16_t)((d) & 0xFFFF))
#define E_FLAG(d) ((int)(((d) >> 16) & 3))
#define E_DEPTH(d) ((int)(((d) >> 18) & 63))
#define E_MOVE(d) ((int)(((d) >> 24) & 127))
#define E_WORK(d) ((int)(((d) >> 31) & 63))
#define E_GEN(d) ((int)(((d) >> 37) & 255))

typedef struct {
    PyObject_HEAD
    int nbn[NT];
    int nb[NT][6];
    int G;
    int shift[MAXG][NT];     /* 5 * (position of tile t under automorphism g) */
    int perm[MAXG][NT];      /* tile t -> tile perm[g][t] */
    int inv[MAXG][NT];
    Entry *tt;
    uint64_t tt_mask;        /* buckets - 1 */
    int tt_bits;
    int gen;
    int32_t hist[2][128];
    long long stores, hits, cuts, first_cuts, pvs_research;
} Core;

typedef struct {
    Core *c;
    uint8_t b[NT];
    int res[8];
    int score;               /* towers of player 0 minus towers of player 1 */
    uint64_t key[2][MAXG];   /* [0]: as is, [1]: colours swapped; per automorphism */
    long long nodes, max_nodes, next_check, horizon;
    double deadline;
    int has_deadline, aborted;
} S;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void set_tile(S *s, int t, int nid) {
    int old = s->b[t];
    if (old == nid) return;
    Core *c = s->c;
    uint64_t a0 = (uint64_t)old, a1 = (uint64_t)nid, w0 = (uint64_t)SWAP[old], w1 = (uint64_t)SWAP[nid];
    for (int g = 0; g < c->G; g++) {
        int sh = c->shift[g][t];
        s->key[0][g] += (a1 << sh) - (a0 << sh);
        s->key[1][g] += (w1 << sh) - (w0 << sh);
    }
    s->score += TOWER[nid] - TOWER[old];
    s->b[t] = (uint8_t)nid;
}

static void init_keys(S *s) {
    Core *c = s->c;
    s->score = 0;
    for (int g = 0; g < c->G; g++) {
        s->key[0][g] = s->key[1][g] = 0;
        for (int t = 0; t < NT; t++) {
            s->key[0][g] += (uint64_t)s->b[t] << c->shift[g][t];
            s->key[1][g] += (uint64_t)SWAP[s->b[t]] << c->shift[g][t];
        }
    }
    for (int t = 0; t < NT; t++) s->score += TOWER[s->b[t]];
}

/* canonical key of the position seen by player p to move; *gout = the automorphism that gives it */
static inline uint64_t canon(S *s, int p, int *gout) {
    uint64_t *k = s->key[p];
    uint64_t best = k[0];
    int bg = 0;
    for (int g = 1; g < s->c->G; g++)
        if (k[g] < best) { best = k[g]; bg = g; }
    *gout = bg;
    return best;
}

static inline int map_move(Core *c, int code, int g, int forward) {
    int (*m)[NT] = forward ? c->perm : c->inv;
    if (code < 36) { int sz = code / 9, t = code % 9; return sz * 9 + m[g][t]; }
    int x = code - 36, a = x / 9, d = x % 9;
    return 36 + 9 * m[g][a] + m[g][d];
}

static inline Entry *tt_bucket(Core *c, uint64_t key) {
    uint64_t h = (key * 0x9E3779B97F4A7C15ULL) >> (64 - c->tt_bits);
    return c->tt + (h & c->tt_mask) * WAYS;
}

static inline Entry *tt_find(Core *c, uint64_t key) {
    Entry *bucket = tt_bucket(c, key);
    for (int i = 0; i < WAYS; i++)
        if (bucket[i].key == key + 1) return &bucket[i];
    return NULL;
}

static inline int bitlen(long long n) { int b = 0; while (n > 0 && b < 63) { n >>= 1; b++; } return b; }

static void tt_store(Core *c, uint64_t key, int value, int flag, int depth, int move, long long work) {
    Entry *bucket = tt_bucket(c, key);
    Entry *victim = NULL;
    int wl = bitlen(work);
    if (wl > 63) wl = 63;
    int worst = 1 << 30;
    for (int i = 0; i < WAYS; i++) {
        Entry *e = &bucket[i];
        if (e->key == key + 1) {
            /* keep the table move when the new result has none */
            if (move == NO_MOVE) move = E_MOVE(e->data);
            victim = e;
            break;
        }
        int pr;
        if (e->key == 0) pr = -2;
        else if (E_GEN(e->data) != (c->gen & 255)) pr = -1;
        else pr = E_WORK(e->data) + (E_DEPTH(e->data) == EXACT_DEPTH ? 1 : 0);
        if (pr < worst) { worst = pr; victim = e; }
    }
    victim->key = key + 1;
    victim->data = pack(value, flag, depth, move, wl, c->gen);
    c->stores++;
}

/* ---- move generation ------------------------------------------------------------------------------------ */
/* legal action codes of player p (same codes as engine.constructo.move.Move.code) */
static int gen_moves(S *s, int p, int *out) {
    int n = 0;
    Core *c = s->c;
    uint8_t *b = s->b;
    for (int t = 0; t < NT; t++) {
        int ch = LONE[b[t]];
        if (ch && (ch >> 2) == p) {
            for (int i = 0; i < c->nbn[t]; i++) {
                int d = c->nb[t][i];
                if (LAND[b[d] * 8 + ch] >= 0) out[n++] = 36 + 9 * t + d;
            }
        }
    }
    int base = p << 2;
    for (int sz = 1; sz <= 3; sz++) {
        if (!s->res[base | sz]) continue;
        for (int t = 0; t < NT; t++)
            if (!b[t]) out[n++] = sz * 9 + t;
    }
    return n;
}

static int evaluate(S *s, int p) {
    Core *c = s->c;
    uint8_t *b = s->b;
    int mine = 0, theirs = 0;
    for (int t = 0; t < NT; t++) {
        int ch = LONE[b[t]];
        if (!ch) continue;
        for (int i = 0; i < c->nbn[t]; i++) {
            int nid = LAND[b[c->nb[t][i]] * 8 + ch];
            if (nid >= 0 && TOWER[nid]) {
                if ((ch >> 2) == p) mine++; else theirs++;
                break;
            }
        }
    }
    int diff = p == 0 ? s->score : -s->score;
    return diff * SCALE + (mine ? 40 : 0) + 10 * mine - 10 * theirs;
}

/* apply code for player p; returns the undo token (old stack of the source/placement tile, old dst stack) */
static inline void do_move(S *s, int p, int code, int *u0, int *u1) {
    if (code < 36) {
        int sz = code / 9, t = code % 9;
        *u0 = 0; *u1 = -1;
        set_tile(s, t, SINGLE[(p << 2) | sz]);
        s->res[(p << 2) | sz]--;
    } else {
        int x = code - 36, a = x / 9, d = x % 9;
        int sid = s->b[a], old = s->b[d];
        *u0 = sid; *u1 = old;
        set_tile(s, d, LAND[old * 8 + LONE[sid]]);
        set_tile(s, a, 0);
    }
}

static inline void undo_move(S *s, int p, int code, int u0, int u1) {
    if (code < 36) {
        int sz = code / 9, t = code % 9;
        set_tile(s, t, 0);
        s->res[(p << 2) | sz]++;
    } else {
        int x = code - 36, a = x / 9, d = x % 9;
        set_tile(s, a, u0);
        set_tile(s, d, u1);
    }
}

static void check_budget(S *s) {
    s->next_check = s->nodes + 1024;
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) s->aborted = 1;
    if (s->has_deadline && now_s() >= s->deadline) s->aborted = 1;
}

static int negamax(S *s, int depth, int alpha, int beta, int p) {
    Core *c = s->c;
    s->nodes++;
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) s->aborted = 1;
    if (s->nodes >= s->next_check) check_budget(s);
    if (s->aborted) return 0;
    long long nodes0 = s->nodes;
    int g;
    uint64_t key = canon(s, p, &g);
    __builtin_prefetch(tt_bucket(c, key));
    int moves[MAXMOVES];
    int n = gen_moves(s, p, moves);
    Entry *e = tt_find(c, key);
    int tt_move = -1;
    if (e) {
        uint64_t d = e->data;
        int ed = E_DEPTH(d), ef = E_FLAG(d), ev = E_VALUE(d);
        c->hits++;
        if (ed >= depth && (ef == F_EXACT || (ef == F_LOWER && ev >= beta) || (ef == F_UPPER && ev <= alpha))) {
            if (ed < EXACT_DEPTH) s->horizon++;
            return ev;
        }
        if (E_MOVE(d) != NO_MOVE) tt_move = map_move(c, E_MOVE(d), g, 0);
    }
    if (n == 0) {
        return (p == 0 ? s->score : -s->score) * SCALE;  /* the round is over (E1): not worth a table slot */
    }
    if (depth <= 0) {
        s->horizon++;
        return evaluate(s, p);
    }
    int score[MAXMOVES];
    int sign = p == 0 ? 1 : -1;
    /* table move first; then steps scored 2 per tower won (capture 2, new tower 1, swallow 0) minus 2 when the
     * opponent can take the new top at once, and placements scored minus 1 per tower-making landing they
     * offer the opponent; ties by the history heuristic */
    for (int i = 0; i < n; i++) {
        int m = moves[i], sc, h = c->hist[p][m];
        if (h > (1 << 18) - 1) h = (1 << 18) - 1;
        if (m == tt_move) {
            sc = 1 << 30;
        } else if (m >= 36) {
            int x = m - 36, a = x / 9, d = x % 9;
            int nid = LAND[s->b[d] * 8 + LONE[s->b[a]]];
            int gain = (TOWER[nid] - TOWER[s->b[d]]) * sign, exposed = 0;
            /* can an opponent's lone chip next to dst take the new top at once? */
            for (int j = 0; j < c->nbn[d] && !exposed; j++) {
                int e2 = c->nb[d][j];
                int o = e2 == a ? 0 : LONE[s->b[e2]];
                if (o && (o >> 2) != p) {
                    int l2 = LAND[nid * 8 + o];
                    if (l2 >= 0 && TOWER[l2]) exposed = 1;
                }
            }
            sc = ((64 + 2 * gain - 2 * exposed) << 18) + h;
        } else {
            int t = m % 9, sid = SINGLE[(p << 2) | (m / 9)], offered = 0;
            for (int j = 0; j < c->nbn[t]; j++) {
                int o = LONE[s->b[c->nb[t][j]]];
                if (o && (o >> 2) != p) {
                    int l2 = LAND[sid * 8 + o];
                    if (l2 >= 0 && TOWER[l2]) offered++;
                }
            }
            sc = ((64 - offered) << 18) + h;
        }
        score[i] = sc;
    }
    /* insertion sort, best first */
    for (int i = 1; i < n; i++) {
        int m = moves[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) { moves[j + 1] = moves[j]; score[j + 1] = score[j]; j--; }
        moves[j + 1] = m; score[j + 1] = sc;
    }
    long long h0 = s->horizon;
    int a0 = alpha, best = -INF, best_move = moves[0];
    int q = 1 - p;
    for (int i = 0; i < n; i++) {
        int m = moves[i], u0, u1, v;
        do_move(s, p, m, &u0, &u1);
        if (i == 0) {
            v = -negamax(s, depth - 1, -beta, -alpha, q);
        } else {
            v = -negamax(s, depth - 1, -alpha - 1, -alpha, q);
            if (alpha < v && v < beta && !s->aborted) {
                c->pvs_research++;
                v = -negamax(s, depth - 1, -beta, -v, q);
            }
        }
        undo_move(s, p, m, u0, u1);
        if (s->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    c->cuts++;
                    if (i == 0) c->first_cuts++;
                    /* history: cutoffs high in the tree weigh exponentially more */
                    if (c->hist[p][m] < (1 << 23)) c->hist[p][m] += 1 << (depth / 4 > 22 ? 22 : depth / 4);
                    break;
                }
            }
        }
    }
    int flag = best >= beta ? F_LOWER : best <= a0 ? F_UPPER : F_EXACT;
    int sd = s->horizon == h0 ? EXACT_DEPTH : (depth < EXACT_DEPTH ? depth : EXACT_DEPTH - 1);
    tt_store(c, key, best, flag, sd, map_move(c, best_move, g, 1), s->nodes - nodes0 + 1);
    return best;
}

/* ---- Python interface ----------------------------------------------------------------------------------- */
static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *set_tables(PyObject *self, PyObject *args) {
    PyObject *lone, *land, *tower, *single, *swap;
    int n;
    if (!PyArg_ParseTuple(args, "iOOOOO", &n, &lone, &land, &tower, &single, &swap)) return NULL;
    if (n < 1 || n > MAXS) { PyErr_SetString(PyExc_ValueError, "too many stack ids"); return NULL; }
    int lo[MAXS], la[MAXS * 8], to[MAXS], si[8], sw[MAXS];
    if (read_ints(lone, lo, n, "lone") || read_ints(land, la, n * 8, "land") || read_ints(tower, to, n, "tower") ||
        read_ints(single, si, 8, "single") || read_ints(swap, sw, n, "swap"))
        return NULL;
    for (int i = 0; i < MAXS; i++) { LONE[i] = 0; TOWER[i] = 0; SWAP[i] = i; }
    for (int i = 0; i < MAXS * 8; i++) LAND[i] = -1;
    for (int i = 0; i < n; i++) {
        LONE[i] = lo[i]; TOWER[i] = to[i]; SWAP[i] = sw[i];
        if (sw[i] < 0 || sw[i] >= n) { PyErr_SetString(PyExc_ValueError, "bad swap table"); return NULL; }
        for (int c = 0; c < 8; c++) {
            int v = la[i * 8 + c];
            if (v < -1 || v >= n) { PyErr_SetString(PyExc_ValueError, "bad land table"); return NULL; }
            LAND[i * 8 + c] = v;
        }
    }
    for (int i = 0; i < 8; i++) SINGLE[i] = si[i];
    NSTACKS = n;
    Py_RETURN_NONE;
}

static void tt_free(Core *self) {
    if (self->tt) munmap(self->tt, ((size_t)1 << self->tt_bits) * WAYS * sizeof(Entry));
    self->tt = NULL;
}

/* anonymous mapping: zeroed pages on first touch; huge pages where the kernel offers them (fewer TLB misses) */
static int tt_alloc(Core *self, int bits) {
    size_t size = ((size_t)1 << bits) * WAYS * sizeof(Entry);
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return -1;
#ifdef MADV_HUGEPAGE
    madvise(mem, size, MADV_HUGEPAGE);
#endif
    self->tt = (Entry *)mem;
    self->tt_bits = bits;
    self->tt_mask = ((uint64_t)1 << bits) - 1;
    return 0;
}

static void Core_dealloc(Core *self) {
    tt_free(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Core(neighbours: list of 9 lists, automorphisms: list of 9-permutations (identity first), tt_bits: int) */
static int Core_init(Core *self, PyObject *args, PyObject *kw) {
    PyObject *nbrs, *autos;
    int bits = 20;
    if (!PyArg_ParseTuple(args, "OO|i", &nbrs, &autos, &bits)) return -1;
    if (NSTACKS == 0) { PyErr_SetString(PyExc_RuntimeError, "set_tables() first"); return -1; }
    if (bits < 4 || bits > 30) { PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30"); return -1; }
    PyObject *fast = PySequence_Fast(nbrs, "neighbours");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != NT) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "9 tiles"); return -1; }
    for (int t = 0; t < NT; t++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, t), "neighbour list");
        if (!row) { Py_DECREF(fast); return -1; }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(row);
        if (k > 6) { Py_DECREF(row); Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "<= 6 neighbours"); return -1; }
        self->nbn[t] = (int)k;
        for (Py_ssize_t i = 0; i < k; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
            if (v < 0 || v >= NT) {
                Py_DECREF(row); Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "neighbour out of range");
                return -1;
            }
            self->nb[t][i] = (int)v;
        }
        Py_DECREF(row);
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(autos, "automorphisms");
    if (!fast) return -1;
    Py_ssize_t G = PySequence_Fast_GET_SIZE(fast);
    if (G < 1) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "need the identity"); return -1; }
    if (G > MAXG) G = MAXG;
    self->G = (int)G;
    for (int g = 0; g < G; g++) {
        int pm[NT], seen[NT] = {0};
        if (read_ints(PySequence_Fast_GET_ITEM(fast, g), pm, NT, "automorphism")) { Py_DECREF(fast); return -1; }
        for (int t = 0; t < NT; t++) {
            if (pm[t] < 0 || pm[t] >= NT || seen[pm[t]]++) {
                Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "not a permutation"); return -1;
            }
            self->perm[g][t] = pm[t];
            self->inv[g][pm[t]] = t;
            self->shift[g][t] = 5 * pm[t];
        }
    }
    Py_DECREF(fast);
    tt_free(self);
    if (tt_alloc(self, bits)) { PyErr_NoMemory(); return -1; }
    self->gen = 0;
    memset(self->hist, 0, sizeof(self->hist));
    return 0;
}

static int load_state(S *s, Core *c, PyObject *board, PyObject *res) {
    int bb[NT];
    memset(s, 0, sizeof(*s));
    s->c = c;
    if (read_ints(board, bb, NT, "board") || read_ints(res, s->res, 8, "reserves")) return -1;
    for (int t = 0; t < NT; t++) {
        if (bb[t] < 0 || bb[t] >= NSTACKS) { PyErr_SetString(PyExc_ValueError, "bad stack id"); return -1; }
        s->b[t] = (uint8_t)bb[t];
    }
    init_keys(s);
    return 0;
}

/* root(board, reserves, turn, codes, depth, alpha, beta, max_nodes, budget_s)
 *   -> (aborted, best_code, best_value, completed_root_moves, nodes, exact)
 * Searches the root actions in the given order (fail-soft, PVS); max_nodes < 0 / budget_s < 0: unbounded. */
static PyObject *Core_root(Core *self, PyObject *args) {
    PyObject *board, *res, *codes_obj;
    int turn, depth, alpha, beta;
    long long max_nodes;
    double budget;
    if (!PyArg_ParseTuple(args, "OOiOiiiLd", &board, &res, &turn, &codes_obj, &depth, &alpha, &beta, &max_nodes,
                          &budget))
        return NULL;
    S *s = (S *)malloc(sizeof(S));
    if (!s) return PyErr_NoMemory();
    if (load_state(s, self, board, res)) { free(s); return NULL; }
    PyObject *fast = PySequence_Fast(codes_obj, "codes");
    if (!fast) { free(s); return NULL; }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > MAXMOVES) { Py_DECREF(fast); free(s); PyErr_SetString(PyExc_ValueError, "1..96 codes"); return NULL; }
    int codes[MAXMOVES];
    if (read_ints(fast, codes, (int)n, "codes")) { Py_DECREF(fast); free(s); return NULL; }
    Py_DECREF(fast);
    int legal[MAXMOVES];
    int nl = gen_moves(s, turn, legal);
    for (Py_ssize_t i = 0; i < n; i++) {
        int ok = 0;
        for (int j = 0; j < nl; j++) if (legal[j] == codes[i]) ok = 1;
        if (!ok) { free(s); PyErr_Format(PyExc_ValueError, "code %d is not legal here", codes[i]); return NULL; }
    }
    s->max_nodes = max_nodes;
    s->has_deadline = budget >= 0;
    s->next_check = 1024;
    int best = -INF, best_code = codes[0], done = 0;
    long long h0;
    Py_BEGIN_ALLOW_THREADS
    if (s->has_deadline) s->deadline = now_s() + budget;
    h0 = s->horizon;
    for (int i = 0; i < n; i++) {
        int m = codes[i], u0, u1, v;
        do_move(s, turn, m, &u0, &u1);
        if (i == 0) {
            v = -negamax(s, depth - 1, -beta, -alpha, 1 - turn);
        } else {
            v = -negamax(s, depth - 1, -alpha - 1, -alpha, 1 - turn);
            if (alpha < v && v < beta && !s->aborted) v = -negamax(s, depth - 1, -beta, -v, 1 - turn);
        }
        undo_move(s, turn, m, u0, u1);
        if (s->aborted) break;
        done = i + 1;
        if (v > best) {
            best = v;
            best_code = m;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out = Py_BuildValue("(iiiiLi)", s->aborted, best_code, best, done, s->nodes,
                                  (!s->aborted && s->horizon == h0) ? 1 : 0);
    free(s);
    return out;
}

/* legal(board, reserves, turn) -> list of action codes (for the differential tests) */
static PyObject *Core_legal(Core *self, PyObject *args) {
    PyObject *board, *res;
    int turn;
    if (!PyArg_ParseTuple(args, "OOi", &board, &res, &turn)) return NULL;
    S *s = (S *)malloc(sizeof(S));
    if (!s) return PyErr_NoMemory();
    if (load_state(s, self, board, res)) { free(s); return NULL; }
    int moves[MAXMOVES];
    int n = gen_moves(s, turn, moves);
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(moves[i]));
    free(s);
    return out;
}

/* evaluate(board, reserves, turn) -> the horizon heuristic (for the differential tests) */
static PyObject *Core_evaluate(Core *self, PyObject *args) {
    PyObject *board, *res;
    int turn;
    if (!PyArg_ParseTuple(args, "OOi", &board, &res, &turn)) return NULL;
    S *s = (S *)malloc(sizeof(S));
    if (!s) return PyErr_NoMemory();
    if (load_state(s, self, board, res)) { free(s); return NULL; }
    int v = evaluate(s, turn);
    free(s);
    return PyLong_FromLong(v);
}

/* key(board, reserves, turn) -> canonical key (for the symmetry tests) */
static PyObject *Core_key(Core *self, PyObject *args) {
    PyObject *board, *res;
    int turn, g;
    if (!PyArg_ParseTuple(args, "OOi", &board, &res, &turn)) return NULL;
    S *s = (S *)malloc(sizeof(S));
    if (!s) return PyErr_NoMemory();
    if (load_state(s, self, board, res)) { free(s); return NULL; }
    uint64_t k = canon(s, turn, &g);
    free(s);
    return PyLong_FromUnsignedLongLong(k);
}

static PyObject *Core_new_search(Core *self, PyObject *unused) {
    self->gen = (self->gen + 1) & 255;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 128; i++) self->hist[p][i] /= 8;
    Py_RETURN_NONE;
}

static PyObject *Core_stats(Core *self, PyObject *unused) {
    long long used = 0;
    uint64_t slots = (self->tt_mask + 1) * WAYS;
    for (uint64_t i = 0; i < slots; i++) used += self->tt[i].key != 0;
    return Py_BuildValue("{s:L,s:L,s:L,s:K,s:i,s:L,s:L,s:L}", "stores", self->stores, "hits", self->hits,
                         "used", used, "slots", (unsigned long long)slots, "automorphisms", self->G,
                         "cuts", self->cuts, "first_cuts", self->first_cuts, "pvs_research", self->pvs_research);
}

static PyMethodDef Core_methods[] = {
    {"root", (PyCFunction)Core_root, METH_VARARGS, "search the root actions (see _csearch.c)"},
    {"legal", (PyCFunction)Core_legal, METH_VARARGS, "legal action codes"},
    {"evaluate", (PyCFunction)Core_evaluate, METH_VARARGS, "horizon heuristic"},
    {"key", (PyCFunction)Core_key, METH_VARARGS, "canonical position key"},
    {"new_search", (PyCFunction)Core_new_search, METH_NOARGS, "age the table and the history"},
    {"stats", (PyCFunction)Core_stats, METH_NOARGS, "table statistics"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.constructo._csearch.Core",
    .tp_basicsize = sizeof(Core),
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search state of one layout: neighbours, automorphisms, transposition table, history.",
    .tp_methods = Core_methods,
    .tp_init = (initproc)Core_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef module_methods[] = {
    {"set_tables", set_tables, METH_VARARGS, "set the rule tables built in Python"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_csearch", "Compiled search core of the Constructo AI.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__csearch(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) { Py_DECREF(&CoreType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "VERSION", CORE_VERSION);
    PyModule_AddStringConstant(m, "SOURCE_HASH", CORE_SOURCE_HASH);
    PyModule_AddIntConstant(m, "MAX_AUTOMORPHISMS", MAXG);
    return m;
}
