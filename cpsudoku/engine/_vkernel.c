/* The compiled search of the native engine for models with every constraint kind.
 *
 * `_kernel.c` is the all-different hot path, tuned around one fixed state
 * layout and a scan of dirty units; this module adds what variants need
 * without slowing it: a constraint queue, a propagator per kind, and
 * conflict counts for branching. A VKernel holds a checked structure: the
 * all-different units, peers and intersections of a plan, plus its other
 * constraints as flat arrays, one (kind, cells, data, total) per constraint:
 *
 *   SUM      data = weights [, groups, their sizes]; sum(w_i * x_i) == total.
 *            A dynamic programme over reachable partial totals (bitsets), group
 *            by group: a lone cell by its values, a group of cells that all
 *            differ by its value sets; bounds when the totals span more than
 *            SUM_WORDS * 64 values.
 *   CAGE     data = the value sets (masks) that cells all different may take
 *            (a killer cage's, a renban line's): a value stays while some set
 *            fitting every cell's candidates holds it, and a value every such
 *            set holds goes to the one cell left for it. A cage inside a unit
 *            also reads the unit's other cells (kept after its own, `inner`
 *            first): they hold the values the set leaves, so a set is out when
 *            a value it leaves has no place among them, and they keep only the
 *            values some fitting set leaves.
 *   LESS     x0 < x1 < ...: bounds forward and backward.
 *   TABLE    data = the allowed tuples, flattened: generalized arc consistency.
 *   REGULAR  data = (states, start, k, k accepting states, then (state,
 *            value, next state) triples): Pesant's forward-backward pass over
 *            state bitsets, domain-consistent.
 *   COUNT    data = per value 1..n the counts it may take among the cells (a
 *            bit per count), then the number of groups and their sizes (cells
 *            in group order, a group's cells all peers): every cell holds one
 *            value, so the counts add up to the cells; a value is in at most
 *            one cell of a group. Counting circles, quadruples.
 *   REGIONS  data = (N, k, k anchors, then pairs of cells in one region);
 *            cells = the N*N digit cells, then their region labels: regions
 *            found while solving (chaos construction), see `_regions.h`.
 *   RUNS     a digit counts the cells along arms that share a start's region
 *            (chaos arrows and counts), see `_runs.h`.
 *   SAME     cells = two groups of as many cells, each of different values: both
 *            hold the same values (same-value sets), see `same_set`.
 *   SANDWICH cells = a line holding every value once, data = the sets of values
 *            between its crusts (1 and n) that make the total: see `sandwich`.
 *   OR       data = the alternatives, each a sequence of constraints of the
 *            kinds SUM to REGULAR over the OR's cells (either/or of rules):
 *            constructive disjunction, see `any_of`.
 *
 * Variables beyond the N*N cells (`nvars`: a chaos construction's region
 * labels) have no units and no peers.
 *
 * State per search level: cands[ncells] (0 once placed), grid[ncells] (the
 * placed value's bit), placed[nunits], then per chaos construction its cells'
 * same-region groups (union-find roots, see `_regions.h`); copied when the
 * search branches. A cell's
 * domain is cands | grid. The GIL is released during the search; the clock, the
 * solutions found and the call's arguments are handled as in the all-different
 * kernel (`_search.h`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_VALUES 32
#define SUM_WORDS 64       /* a weighted sum spanning up to 4096 totals is solved exactly */
#define DECAY_PERIOD 512   /* failures between two halvings of the conflict counts */
/* An automaton whose cells times states pass this waits in the slow ring: run
 * after every quick constraint has settled, it sees their narrowing at once
 * instead of being run again after each. The full-rank clues' automata (459
 * cells, 375 states each) are the case: ISS's Full rank 2 went from 224 nodes
 * and 180 ms to 183 nodes and 152 ms, Full rank 3 from 17.5 ms to 14.7 ms. */
#define SLOW_WORK 20000
/* With regions found while solving, as ISS does (measured on its chaos puzzles,
 * nodes to two solutions, against neither): a cell whose partner (its region
 * label, or the label's cell) is decided counts its conflicts LINK_BOOST times
 * over, and every variable starts with the lengths of the constraints it is in
 * (ISS's cell priorities): Let there be chaos none in 20 s to 21,666, The
 * Fountain 139,584 (15 s, unfinished) to 20,983, Sunblock 17,363 to 1,092. */
#define LINK_BOOST 4
#define BRANCH_BLAME 2     /* conflicts a branching cell counts when its value fails at once */

enum { K_SUM, K_CAGE, K_LESS, K_TABLE, K_REGULAR, K_COUNT, K_REGIONS, K_RUNS, K_RANKS, K_OR,
       K_SAME, K_SANDWICH, K_SAME_COUNT, K_KINDS };
enum { CHOOSE_FEWEST, CHOOSE_FEWEST_CONFLICTS, CHOOSE_CONFLICTS_PER_VALUE, CHOOSE_CONFLICTS_PLACES,
       CHOOSE_MODES };

typedef struct Con {
    int kind, len;
    int slot;         /* its place in the search's per-constraint counters (`dry`) */
    int *cells;
    int64_t total;
    int exact;        /* its pass reaches a fixpoint: no need to run it again on its own changes */
    int slow;         /* its pass is long (see SLOW_WORK): it waits until the quick ones are done */
    int sweep;        /* REGULAR: it looks for the values every accepted word holds */
    /* SUM: weights, and for the exact pass each term's smallest contribution */
    int64_t *weights;
    int64_t base;     /* total minus every term's smallest contribution */
    int words;        /* bitset words of the partial totals (0: bounds only) */
    int ngroups;      /* runs of cells that must all differ, with one weight */
    int *gstart;      /* ngroups + 1 offsets into cells */
    int *cstart;      /* ngroups + 1 offsets into combos: a group's value sets */
    uint32_t *combos;
    int64_t *combo_up; /* each value set's lift: its total less the group's smallest */
    /* CAGE: value sets; TABLE: rows of value bits (len bits per row) */
    uint32_t *masks;
    int nmasks;
    int inner;        /* CAGE: its own cells, the first `inner` (the rest: its unit's others) */
    /* TABLE over two distinct cells: per value of each cell, the other's values
     * it allows (2 * MAX_VALUES masks), so a pass costs 2n steps, not the rows */
    uint32_t *pair;
    /* REGULAR */
    int nstates, sw, start;
    uint64_t *accepting;
    int *tstart;      /* nstates + 1 offsets into tbit/tnext */
    uint32_t *tbit;   /* a move's values (one move per state and next state) */
    int *tnext;
    uint64_t *moves;  /* up to 64 states: per state and value, the next states */
    uint32_t *reads;  /* per state, the values it has a move for */
    /* COUNT (groups in ngroups/gstart) */
    uint64_t *counts; /* per value, the counts it may take (bit k: k cells) */
    /* REGIONS: its bitset masks and memo (see `_regions.h`), its anchors (cells
     * whose regions are surely distinct, labelled 1, 2, ... before the others),
     * the pairs of cells given in one region, and where the search state keeps
     * the same-region groups */
    uint64_t *memo;
    int *anchors, nanchors, shard_at;
    int *joins, njoins;
    /* RUNS: offset, the labels' first variable and count, the arms' lengths
     * then near flags then per grid position whether outside the clue; the
     * pass's sums before and after each arm; the REGIONS constraint whose
     * groups it joins (-1: none) */
    int offset, label_base, npos, narms, partner;
    int *arms;
    uint64_t *dp;
    /* RANKS: every reading's cells, the clues in rank sets, the unclued readings,
     * the tie rule, and per reading the pass's scratch flags */
    int *readings, *rank_sets, *unclued;
    int nsets, nunclued, ties;
    uint8_t *rank_flags;
    /* OR: the alternatives' constraints, alternative by alternative */
    struct Con *subs;
    int nsubs, nalts;
    int *alt_start;   /* nalts + 1 offsets into subs */
    int alive_at;     /* the state's words of alternatives not yet failed, a bit each */
} Con;

typedef struct {
    PyObject_HEAD
    int n, ncells, nunits, nints, ncons;
    uint32_t full;
    int *units;        /* nunits * n cells */
    int *cu_start, *cell_units;
    int *peer_start, *peers;
    int pw;            /* 64-bit words in a set of cells */
    uint64_t *peer_set; /* ncells * pw: per cell, its peers as a set */
    int *int_start, *int_cells;
    Con *cons;
    int *cc_start, *cc; /* cell -> its constraints */
    int *link;          /* per variable: its partner (a cell's region label), or -1 (NULL: none) */
    uint32_t *prio;     /* per variable: its first conflict count (NULL: 0) */
    int *hinted, nhinted; /* the constraints with a branching hint (full rank) */
    size_t scratch_words; /* 64-bit words the largest pass needs */
    int max_len;
    size_t max_options;   /* the most options a sum lists in one pass */
    int nslots;           /* constraints, an OR's alternatives' included */
    int nextra;           /* state words after the cells and units: same-region groups,
                           * the ORs' living alternatives, the entailed constraints */
    int done_at;          /* the state's bits of constraints entailed (see regular_word) */
} VKernel;


/* ------------------------------------------------------------------------ */
/* building and checking a structure                                        */

/* A Python sequence of integers as a fresh C array of int64 (NULL and an error if not). */
static int64_t *ints_of(PyObject *obj, Py_ssize_t *len, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int64_t *out = malloc((size_t)(k ? k : 1) * sizeof(int64_t));
    if (!out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "%s: item %zd is not an integer", what, i);
            free(out);
            Py_DECREF(seq);
            return NULL;
        }
        out[i] = v;
    }
    Py_DECREF(seq);
    *len = k;
    return out;
}

/* Cells of a sequence, each in [0, ncells). */
static int *cells_of(PyObject *obj, int ncells, Py_ssize_t *len, const char *what)
{
    int64_t *v = ints_of(obj, len, what);
    if (!v)
        return NULL;
    int *out = malloc((size_t)(*len ? *len : 1) * sizeof(int));
    if (!out) {
        free(v);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *len; i++) {
        if (v[i] < 0 || v[i] >= ncells) {
            PyErr_Format(PyExc_ValueError, "%s: cell %lld out of range 0..%d", what,
                         (long long)v[i], ncells - 1);
            free(v);
            free(out);
            return NULL;
        }
        out[i] = (int)v[i];
    }
    free(v);
    return out;
}

/* A list of cell lists as CSR offsets (count + 1) and items. */
static int csr_of(PyObject *obj, int ncells, int *count, int **start, int **items,
                  const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    *count = (int)k;
    *start = malloc(((size_t)k + 1) * sizeof(int));
    size_t cap = 16, used = 0;
    *items = malloc(cap * sizeof(int));
    if (!*start || !*items) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        Py_ssize_t len;
        int *cells = cells_of(PySequence_Fast_GET_ITEM(seq, i), ncells, &len, what);
        if (!cells) {
            Py_DECREF(seq);
            return -1;
        }
        if (used + (size_t)len > cap) {
            cap = 2 * cap + (size_t)len;
            int *grown = realloc(*items, cap * sizeof(int));
            if (!grown) {
                free(cells);
                Py_DECREF(seq);
                PyErr_NoMemory();
                return -1;
            }
            *items = grown;
        }
        (*start)[i] = (int)used;
        memcpy(*items + used, cells, (size_t)len * sizeof(int));
        used += (size_t)len;
        free(cells);
    }
    (*start)[k] = (int)used;
    Py_DECREF(seq);
    return 0;
}

static void free_con(Con *c)
{
    free(c->cells);
    free(c->weights);
    free(c->gstart);
    free(c->cstart);
    free(c->combos);
    free(c->combo_up);
    free(c->masks);
    free(c->pair);
    free(c->accepting);
    free(c->tstart);
    free(c->tbit);
    free(c->tnext);
    free(c->moves);
    free(c->reads);
    free(c->counts);
    free(c->memo);
    free(c->anchors);
    free(c->joins);
    free(c->arms);
    free(c->dp);
    free(c->readings);
    free(c->rank_sets);
    free(c->unclued);
    free(c->rank_flags);
    for (int i = 0; c->subs && i < c->nsubs; i++)
        free_con(&c->subs[i]);
    free(c->subs);
    free(c->alt_start);
}

static void VKernel_dealloc(VKernel *self)
{
    free(self->units);
    free(self->cu_start);
    free(self->cell_units);
    free(self->peer_start);
    free(self->peer_set);
    free(self->peers);
    free(self->int_start);
    free(self->int_cells);
    for (int i = 0; self->cons && i < self->ncons; i++)
        free_con(&self->cons[i]);
    free(self->cons);
    free(self->cc_start);
    free(self->cc);
    free(self->link);
    free(self->prio);
    free(self->hinted);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int bad(const char *format, int index)
{
    PyErr_Format(PyExc_ValueError, format, index);
    return -1;
}

/* A term's contribution above its smallest: w*x - min(w, w*n), for value x. */
static inline int64_t lift(int64_t w, int x, int n) { return w > 0 ? w * (x - 1) : w * (x - n); }

/* A group's contribution above its smallest, for the value set m of its k cells. */
static inline int64_t lift_set(int64_t w, uint32_t m, int k, int n)
{
    int64_t total = 0;
    for (; m; m &= m - 1)
        total += __builtin_ctz(m) + 1;
    return w > 0 ? w * (total - k) : w * (total - (int64_t)k * n);
}

/* data: one weight per cell, optionally followed by the number of groups and
 * their sizes (the cells in group order); a group of two or more cells holds
 * cells that all differ, with one weight, searched by its value sets. */
static int build_sum(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index)
{
    const int len = c->len;
    if (nd < len || (nd > len && (data[len] < 1 || data[len] > len ||
                                  nd != len + 1 + data[len])))
        return bad("constraint %d: a sum needs one weight per cell (and its groups)", index);
    c->ngroups = nd > len ? (int)data[len] : len;
    c->weights = malloc((size_t)(len ? len : 1) * sizeof(int64_t));
    c->gstart = malloc(((size_t)c->ngroups + 1) * sizeof(int));
    c->cstart = calloc((size_t)c->ngroups + 1, sizeof(int));
    if (!c->weights || !c->gstart || !c->cstart) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t span = 0, base = c->total;
    for (int i = 0; i < len; i++) {
        int64_t w = data[i];
        if (w > 1000000 || w < -1000000)
            return bad("constraint %d: a weight beyond one million", index);
        c->weights[i] = w;
        base -= w > 0 ? w : w * n; /* the term's smallest contribution */
        span += (w > 0 ? w : -w) * (n - 1);
    }
    c->gstart[0] = 0;
    size_t ncombos = 0;
    for (int g = 0; g < c->ngroups; g++) {
        int64_t size = nd > len ? data[len + 1 + g] : 1;
        if (size < 1 || c->gstart[g] + size > len)
            return bad("constraint %d: group sizes that do not add up to the cells", index);
        c->gstart[g + 1] = c->gstart[g] + (int)size;
        for (int i = c->gstart[g] + 1; i < c->gstart[g + 1]; i++)
            if (c->weights[i] != c->weights[c->gstart[g]])
                return bad("constraint %d: a group with two weights", index);
        if (size > 1) {
            if (n > 16 || size > n)
                return bad("constraint %d: a group too large for its value sets", index);
            for (uint32_t m = 0; m < (1u << n); m++)
                ncombos += popcount32(m) == size;
        }
    }
    if (c->gstart[c->ngroups] != len)
        return bad("constraint %d: group sizes that do not add up to the cells", index);
    c->combos = malloc((ncombos ? ncombos : 1) * sizeof(uint32_t));
    c->combo_up = malloc((ncombos ? ncombos : 1) * sizeof(int64_t));
    if (!c->combos || !c->combo_up) {
        PyErr_NoMemory();
        return -1;
    }
    int at = 0;
    for (int g = 0; g < c->ngroups; g++) {
        int size = c->gstart[g + 1] - c->gstart[g];
        for (uint32_t m = 0; size > 1 && m < (1u << n); m++)
            if (popcount32(m) == size) {
                c->combo_up[at] = lift_set(c->weights[c->gstart[g]], m, size, n);
                c->combos[at++] = m;
            }
        c->cstart[g + 1] = at;
    }
    c->base = base;
    c->words = span / 64 + 1 <= SUM_WORDS ? (int)(span / 64 + 1) : 0;
    c->exact = c->words > 0;
    return 0;
}

static int build_masks(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index)
{
    uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    c->masks = malloc((size_t)(nd ? nd : 1) * sizeof(uint32_t));
    if (!c->masks) {
        PyErr_NoMemory();
        return -1;
    }
    if (c->kind == K_CAGE) {
        for (Py_ssize_t i = 0; i < nd; i++) {
            if (data[i] <= 0 || data[i] > (int64_t)full)
                return bad("constraint %d: a value set beyond the grid's values", index);
            c->masks[i] = (uint32_t)data[i];
        }
        c->nmasks = (int)nd;
        c->exact = 1;
        return 0;
    }
    /* TABLE: rows with a value outside 1..n can never fit and are left out */
    if (c->len == 0 || nd % c->len)
        return bad("constraint %d: a table's data is not whole rows of its cells", index);
    int kept = 0;
    for (Py_ssize_t r = 0; r < nd / c->len; r++) {
        int ok = 1;
        for (int i = 0; i < c->len; i++)
            ok &= data[r * c->len + i] >= 1 && data[r * c->len + i] <= n;
        if (!ok)
            continue;
        for (int i = 0; i < c->len; i++)
            c->masks[kept * c->len + i] = 1u << (data[r * c->len + i] - 1);
        kept++;
    }
    c->nmasks = kept;
    c->exact = 1;
    if (c->len == 2 && c->cells[0] != c->cells[1]) {
        c->pair = calloc(2 * MAX_VALUES, sizeof(uint32_t));
        if (!c->pair) {
            PyErr_NoMemory();
            return -1;
        }
        for (int r = 0; r < kept; r++) {
            uint32_t a = c->masks[2 * r], b = c->masks[2 * r + 1];
            c->pair[__builtin_ctz(a)] |= b;
            c->pair[MAX_VALUES + __builtin_ctz(b)] |= a;
        }
    }
    return 0;
}

static int build_regular(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index)
{
    if (nd < 3)
        return bad("constraint %d: an automaton needs states, start and accepting states",
                   index);
    int64_t nstates = data[0], start = data[1], nacc = data[2];
    if (nstates < 1 || nstates > 1 << 20 || start < 0 || start >= nstates || nacc < 0 ||
        3 + nacc > nd || (nd - 3 - nacc) % 3)
        return bad("constraint %d: a malformed automaton", index);
    c->nstates = (int)nstates;
    c->start = (int)start;
    c->sw = (int)((nstates + 63) / 64);
    c->accepting = calloc((size_t)c->sw, sizeof(uint64_t));
    c->tstart = calloc((size_t)nstates + 1, sizeof(int));
    Py_ssize_t nt = (nd - 3 - nacc) / 3;
    c->tbit = malloc((size_t)(nt ? nt : 1) * sizeof(uint32_t));
    c->tnext = malloc((size_t)(nt ? nt : 1) * sizeof(int));
    if (!c->accepting || !c->tstart || !c->tbit || !c->tnext) {
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t i = 0; i < nacc; i++) {
        int64_t s = data[3 + i];
        if (s < 0 || s >= nstates)
            return bad("constraint %d: an accepting state out of range", index);
        c->accepting[s / 64] |= 1ull << (s % 64);
    }
    const int64_t *t = data + 3 + nacc;
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (t[3 * i] < 0 || t[3 * i] >= nstates || t[3 * i + 2] < 0 || t[3 * i + 2] >= nstates)
            return bad("constraint %d: a transition's state out of range", index);
        if (t[3 * i + 1] >= 1 && t[3 * i + 1] <= n)
            c->tstart[t[3 * i] + 1]++;
    }
    for (int s = 0; s < nstates; s++)
        c->tstart[s + 1] += c->tstart[s];
    int *fill = malloc((size_t)nstates * sizeof(int));
    if (!fill) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(fill, c->tstart, (size_t)nstates * sizeof(int));
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (t[3 * i + 1] < 1 || t[3 * i + 1] > n)
            continue; /* a value the grid does not have */
        int at = fill[t[3 * i]]++;
        c->tbit[at] = 1u << (t[3 * i + 1] - 1);
        c->tnext[at] = (int)t[3 * i + 2];
    }
    /* a state's moves to one next state become one move on the set of their
     * values: a count of one digit along a line (same values) has two moves a
     * state, not one per value */
    int *slot = fill; /* per next state: its merged move in the current state, or -1 */
    for (int st = 0; st < nstates; st++)
        slot[st] = -1;
    int kept = 0;
    for (int st = 0; st < nstates; st++) {
        const int from = c->tstart[st], to = c->tstart[st + 1];
        c->tstart[st] = kept;
        for (int x = from; x < to; x++) {
            int nx = c->tnext[x];
            if (slot[nx] >= c->tstart[st]) {
                c->tbit[slot[nx]] |= c->tbit[x];
                continue;
            }
            slot[nx] = kept;
            c->tbit[kept] = c->tbit[x];
            c->tnext[kept++] = nx;
        }
    }
    c->tstart[nstates] = kept;
    free(fill);
    c->exact = 1;
    if (c->sw == 1) { /* one word of states: a move is a mask, read per value */
        c->moves = calloc((size_t)nstates * MAX_VALUES, sizeof(uint64_t));
        c->reads = calloc((size_t)nstates, sizeof(uint32_t));
        if (!c->moves || !c->reads) {
            PyErr_NoMemory();
            return -1;
        }
        for (int st = 0; st < nstates; st++)
            for (int x = c->tstart[st]; x < c->tstart[st + 1]; x++) {
                for (uint32_t m = c->tbit[x]; m; m &= m - 1)
                    c->moves[st * MAX_VALUES + __builtin_ctz(m)] |= 1ull << c->tnext[x];
                c->reads[st] |= c->tbit[x];
            }
    }
    return 0;
}

static int build_count(const VKernel *self, Con *c, const int64_t *data, Py_ssize_t nd,
                       int index)
{
    const int len = c->len, n = self->n;
    if (len > 63 || nd < n + 1 || data[n] < 1 || data[n] > len || nd != n + 1 + data[n])
        return bad("constraint %d: counts need up to 63 cells, a count set per value and "
                   "their groups", index);
    c->counts = malloc((size_t)n * sizeof(uint64_t));
    c->ngroups = (int)data[n];
    c->gstart = malloc(((size_t)c->ngroups + 1) * sizeof(int));
    if (!c->counts || !c->gstart) {
        PyErr_NoMemory();
        return -1;
    }
    for (int v = 0; v < n; v++) {
        if (data[v] < 0 || (uint64_t)data[v] >> (len + 1))
            return bad("constraint %d: a count beyond its cells", index);
        c->counts[v] = (uint64_t)data[v];
    }
    c->gstart[0] = 0;
    for (int g = 0; g < c->ngroups; g++) {
        int64_t size = data[n + 1 + g];
        if (size < 1 || c->gstart[g] + size > len)
            return bad("constraint %d: group sizes that do not add up to the cells", index);
        c->gstart[g + 1] = c->gstart[g] + (int)size;
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++)
            for (int j = c->gstart[g]; j < i; j++) {
                int a = c->cells[i], b = c->cells[j];
                if (!(self->peer_set[(size_t)a * self->pw + b / 64] >> (b % 64) & 1))
                    return bad("constraint %d: a group of counted cells that are not all "
                               "peers", index);
            }
    }
    if (c->gstart[c->ngroups] != len)
        return bad("constraint %d: group sizes that do not add up to the cells", index);
    for (int i = 0; i < len; i++)
        for (int j = 0; j < i; j++)
            if (c->cells[i] == c->cells[j])
                return bad("constraint %d: counts over a cell listed twice", index);
    return 0;
}

/* in `_regions.h` and `_runs.h`, with the passes they build */
static int build_regions(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index);
static int build_runs(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index);
static int build_ranks(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index);

static int build_constraint(VKernel *self, Con *c, PyObject *item, int index);

/* A sandwich: its line holds every value once (n cells); its sets of values between
 * the crusts, kept by size (gstart: n + 1 offsets into masks). */
static int build_sandwich(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index)
{
    if (c->len != n || n < 2)
        return bad("constraint %d: a sandwich's line holds every value once", index);
    const uint32_t middle = (n == 32 ? 0xffffffffu : (1u << n) - 1) & ~(1u | 1u << (n - 1));
    c->masks = malloc(((size_t)nd + 1) * sizeof(uint32_t));
    c->gstart = calloc((size_t)n + 2, sizeof(int));
    if (!c->masks || !c->gstart) {
        PyErr_NoMemory();
        return -1;
    }
    for (int size = 0, at = 0; size <= n; size++) {
        c->gstart[size] = at;
        for (Py_ssize_t i = 0; i < nd; i++) {
            if (data[i] < 0 || (uint64_t)data[i] & ~(uint64_t)middle)
                return bad("constraint %d: a set between the crusts holds a crust or more", index);
            if (popcount32((uint32_t)data[i]) == size)
                c->masks[at++] = (uint32_t)data[i];
        }
        c->gstart[size + 1] = at;
    }
    c->nmasks = (int)nd;
    return 0;
}

/* An OR's alternatives: a sequence of sequences of (kind, cells, data, total), each
 * of a kind from SUM to REGULAR, its cells among the OR's. */
static int build_or(VKernel *self, Con *c, PyObject *alts, int index)
{
    PyObject *seq = PySequence_Fast(alts, "an OR's data must be its alternatives");
    if (!seq)
        return -1;
    const Py_ssize_t nalts = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t total = 0;
    for (Py_ssize_t a = 0; a < nalts; a++) {
        Py_ssize_t k = PySequence_Size(PySequence_Fast_GET_ITEM(seq, a));
        if (k < 0) {
            Py_DECREF(seq);
            return -1;
        }
        total += k;
    }
    c->nalts = (int)nalts;
    c->alt_start = malloc(((size_t)nalts + 1) * sizeof(int));
    c->subs = calloc((size_t)total + 1, sizeof(Con));
    if (!c->alt_start || !c->subs) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t a = 0; a < nalts; a++) {
        c->alt_start[a] = c->nsubs;
        PyObject *group = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, a),
                                          "an alternative must be a sequence");
        if (!group) {
            Py_DECREF(seq);
            return -1;
        }
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(group); j++) {
            Con *sub = &c->subs[c->nsubs++];
            if (build_constraint(self, sub, PySequence_Fast_GET_ITEM(group, j), index) < 0) {
                Py_DECREF(group);
                Py_DECREF(seq);
                return -1;
            }
            int fits = sub->kind <= K_REGULAR;
            for (int i = 0; fits && i < sub->len; i++) {
                int mine = 0;
                for (int x = 0; x < c->len && !mine; x++)
                    mine = c->cells[x] == sub->cells[i];
                fits = mine;
            }
            if (!fits) {
                Py_DECREF(group);
                Py_DECREF(seq);
                return bad("constraint %d: an alternative of an OR must be a sum, cage, less, "
                           "table or regular constraint over the OR's cells", index);
            }
        }
        Py_DECREF(group);
    }
    c->alt_start[nalts] = c->nsubs;
    Py_DECREF(seq);
    return nalts ? 0 : bad("constraint %d: an OR without alternatives", index);
}

static int build_constraint(VKernel *self, Con *c, PyObject *item, int index)
{
    PyObject *tuple = PySequence_Fast(item, "a constraint must be (kind, cells, data, total)");
    if (!tuple)
        return -1;
    if (PySequence_Fast_GET_SIZE(tuple) != 4) {
        Py_DECREF(tuple);
        return bad("constraint %d is not (kind, cells, data, total)", index);
    }
    PyObject **f = PySequence_Fast_ITEMS(tuple);
    long kind = PyLong_AsLong(f[0]);
    long long total = PyLong_AsLongLong(f[3]);
    if (PyErr_Occurred() || kind < 0 || kind >= K_KINDS) {
        Py_DECREF(tuple);
        PyErr_Clear();
        return bad("constraint %d: an unknown kind or total", index);
    }
    c->kind = (int)kind;
    c->total = total;
    Py_ssize_t len, nd;
    c->cells = cells_of(f[1], self->ncells, &len, "constraint cells");
    if (!c->cells) {
        Py_DECREF(tuple);
        return -1;
    }
    c->len = c->inner = (int)len;
    if (c->kind == K_OR) {
        int r = build_or(self, c, f[2], index);
        Py_DECREF(tuple);
        return r;
    }
    int64_t *data = ints_of(f[2], &nd, "constraint data");
    Py_DECREF(tuple);
    if (!data)
        return -1;
    int r;
    switch (c->kind) {
    case K_SUM:
        r = build_sum(c, data, nd, self->n, index);
        break;
    case K_CAGE:
    case K_TABLE:
        r = build_masks(c, data, nd, self->n, index);
        break;
    case K_LESS:
        r = 0;
        break;
    case K_SAME:
        r = c->len % 2 ? bad("constraint %d: two groups of as many cells", index) : 0;
        break;
    case K_SAME_COUNT: /* the value counted, 1..n */
        r = c->len % 2 || nd != 1 || data[0] < 1 || data[0] > self->n
            ? bad("constraint %d: two groups of as many cells, and a value", index) : 0;
        c->total = nd == 1 ? data[0] : 0;
        break;
    case K_SANDWICH:
        r = build_sandwich(c, data, nd, self->n, index);
        break;
    case K_COUNT:
        r = build_count(self, c, data, nd, index);
        break;
    case K_REGIONS:
        r = build_regions(c, data, nd, self->n, index);
        break;
    case K_RUNS:
        r = build_runs(c, data, nd, self->n, index);
        break;
    case K_RANKS:
        r = build_ranks(c, data, nd, self->n, index);
        break;
    default:
        r = build_regular(c, data, nd, self->n, index);
        c->slow = (long)c->len * c->nstates > SLOW_WORK;
    }
    free(data);
    return r;
}

/* A cage lying in one unit reads the unit's other cells too (see CAGE above):
 * they are appended to its cells, after its own `inner`. Measured on the 20
 * of ISS's puzzles with cages (nodes to two solutions): Global mod 3 242 to
 * 108, the others within 30%; the time in all the same (3.3 s). */
static int house_cage(VKernel *self, Con *c)
{
    const int n = self->n;
    if (c->len >= n)
        return 0;
    for (int i = 0; i < c->len; i++)
        for (int j = 0; j < i; j++)
            if (c->cells[i] == c->cells[j])
                return 0;
    for (int u = 0; u < self->nunits; u++) {
        const int *unit = self->units + u * n;
        int inside = 0;
        for (int i = 0; i < c->len; i++)
            for (int j = 0; j < n; j++)
                inside += unit[j] == c->cells[i];
        if (inside != c->len)
            continue;
        int *cells = realloc(c->cells, (size_t)n * sizeof(int));
        if (!cells) {
            PyErr_NoMemory();
            return -1;
        }
        c->cells = cells;
        int at = c->len;
        for (int j = 0; j < n; j++) {
            int mine = 0;
            for (int i = 0; i < c->inner; i++)
                mine |= cells[i] == unit[j];
            if (!mine)
                cells[at++] = unit[j];
        }
        c->len = n;
        c->exact = 0; /* what it takes from the others may narrow its own cells again */
        return 0;
    }
    return 0;
}

/* Whether every cell of some unit is among the constraint's: then each value is
 * in it anyway, and where it goes is the unit's own hidden singles and locked
 * candidates (a sandwich or skyscraper clue on a row), so its required values
 * are not worth a sweep (Sandwich snipe 18, its sums then kept as sums: 5.2 s with
 * none, 9.6 s with it). */
static int covers_unit(const VKernel *self, const Con *c)
{
    const int n = self->n;
    for (int u = 0; u < self->nunits; u++) {
        int inside = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < c->len; i++)
                if (c->cells[i] == self->units[u * n + j]) {
                    inside++;
                    break;
                }
        if (inside == n)
            return 1;
    }
    return 0;
}

/* The scratch a constraint's pass needs: its cells' masks, its bitsets, a sum's options. */
static void size_scratch(VKernel *self, const Con *c, size_t *scratch)
{
    if (c->len > self->max_len)
        self->max_len = c->len;
    /* forward and backward layers (len + 1 each), two more bitsets, and an
     * automaton's per-state masks */
    size_t need = c->kind == K_SUM ? ((size_t)c->len + 3) * (size_t)c->words
                  : c->kind == K_REGULAR ? (2 * (size_t)c->len + 4) * (size_t)c->sw
                                               + (size_t)c->nstates
                  : c->kind == K_COUNT ? (size_t)self->n + 1 : 0;
    if (need > *scratch)
        *scratch = need;
    if (c->kind == K_SUM) {
        size_t options = 0;
        for (int g = 0; g < c->ngroups; g++)
            options += c->gstart[g + 1] - c->gstart[g] == 1
                           ? (size_t)self->n : (size_t)(c->cstart[g + 1] - c->cstart[g]);
        if (options > self->max_options)
            self->max_options = options;
    }
}

static int VKernel_init(VKernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "units", "peers", "intersections", "constraints", "nvars",
                             NULL};
    int n, nvars = 0;
    PyObject *units_obj, *peers_obj, *ints_obj, *cons_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOO|i", kwlist, &n, &units_obj, &peers_obj,
                                     &ints_obj, &cons_obj, &nvars))
        return -1;
    if (self->units) {
        PyErr_SetString(PyExc_TypeError, "a VKernel is built once");
        return -1;
    }
    if (n < 1 || n > MAX_VALUES) {
        PyErr_Format(PyExc_ValueError, "size %d out of range 1..%d", n, MAX_VALUES);
        return -1;
    }
    if (nvars && (nvars < n || nvars > (1 << 20))) { /* more values than a row has cells: */
        PyErr_Format(PyExc_ValueError, "nvars %d: at least %d, at most 2**20", nvars, n);
        return -1;                                    /* fewer than n * n cells */
    }
    const int ncells = nvars ? nvars : n * n; /* the cells, then any auxiliary variables */
    self->n = n;
    self->ncells = ncells;
    self->full = n == 32 ? 0xffffffffu : (1u << n) - 1;

    int *ustart = NULL;
    if (csr_of(units_obj, ncells, &self->nunits, &ustart, &self->units, "units") < 0) {
        free(ustart);
        return -1;
    }
    for (int u = 0; u < self->nunits; u++)
        if (ustart[u + 1] - ustart[u] != n) {
            free(ustart);
            return bad("unit %d does not have one cell per value", u);
        }
    free(ustart);
    for (int u = 0; u < self->nunits; u++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (self->units[u * n + i] == self->units[u * n + j])
                    return bad("unit %d holds a cell twice", u);
    /* cell -> units */
    self->cu_start = calloc((size_t)ncells + 1, sizeof(int));
    self->cell_units = malloc((size_t)(self->nunits * n + 1) * sizeof(int));
    if (!self->cu_start || !self->cell_units) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->nunits * n; i++)
        self->cu_start[self->units[i] + 1]++;
    for (int c = 0; c < ncells; c++)
        self->cu_start[c + 1] += self->cu_start[c];
    {
        int *fill = malloc((size_t)ncells * sizeof(int));
        if (!fill) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(fill, self->cu_start, (size_t)ncells * sizeof(int));
        for (int u = 0; u < self->nunits; u++)
            for (int i = 0; i < n; i++)
                self->cell_units[fill[self->units[u * n + i]]++] = u;
        free(fill);
    }
    int count;
    if (csr_of(peers_obj, ncells, &count, &self->peer_start, &self->peers, "peers") < 0)
        return -1;
    if (count != ncells)
        return bad("peers has one entry per cell, not %d", count);
    for (int c = 0; c < ncells; c++)
        for (int i = self->peer_start[c]; i < self->peer_start[c + 1]; i++)
            if (self->peers[i] == c)
                return bad("cell %d is listed as its own peer", c);
    self->pw = (ncells + 63) / 64;
    self->peer_set = calloc((size_t)ncells * self->pw, sizeof(uint64_t));
    if (!self->peer_set) {
        PyErr_NoMemory();
        return -1;
    }
    for (int c = 0; c < ncells; c++)
        for (int i = self->peer_start[c]; i < self->peer_start[c + 1]; i++)
            self->peer_set[(size_t)c * self->pw + self->peers[i] / 64] |=
                1ull << (self->peers[i] % 64);

    /* intersections: (shared, rest a, rest b) flattened into three lists each */
    PyObject *iseq = PySequence_Fast(ints_obj, "intersections must be a sequence");
    if (!iseq)
        return -1;
    PyObject *parts = PyList_New(0);
    for (Py_ssize_t k = 0; parts && k < PySequence_Fast_GET_SIZE(iseq); k++) {
        PyObject *triple = PySequence_Fast(PySequence_Fast_GET_ITEM(iseq, k),
                                           "an intersection must be a sequence");
        if (!triple || PySequence_Fast_GET_SIZE(triple) != 3) {
            if (triple)
                PyErr_Format(PyExc_ValueError, "intersection %zd is not (shared, rest a, rest b)",
                             k);
            Py_XDECREF(triple);
            Py_CLEAR(parts);
            break;
        }
        for (int p = 0; p < 3; p++)
            if (PyList_Append(parts, PySequence_Fast_GET_ITEM(triple, p)) < 0) {
                Py_CLEAR(parts);
                break;
            }
        Py_DECREF(triple);
    }
    Py_DECREF(iseq);
    if (!parts)
        return -1;
    int r = csr_of(parts, ncells, &count, &self->int_start, &self->int_cells, "intersection");
    Py_DECREF(parts);
    if (r < 0)
        return -1;
    self->nints = count / 3;

    /* the other constraints */
    PyObject *cseq = PySequence_Fast(cons_obj, "constraints must be a sequence");
    if (!cseq)
        return -1;
    self->ncons = (int)PySequence_Fast_GET_SIZE(cseq);
    self->cons = calloc((size_t)self->ncons + 1, sizeof(Con));
    if (!self->cons) {
        Py_DECREF(cseq);
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < self->ncons; k++)
        if (build_constraint(self, &self->cons[k], PySequence_Fast_GET_ITEM(cseq, k), k) < 0) {
            Py_DECREF(cseq);
            return -1;
        }
    Py_DECREF(cseq);
    for (int k = 0; k < self->ncons; k++)
        if (self->cons[k].kind == K_CAGE && house_cage(self, &self->cons[k]) < 0)
            return -1;
    self->nslots = self->ncons;
    for (int k = 0; k < self->ncons; k++) {
        Con *c = &self->cons[k];
        c->slot = k;
        if (c->kind == K_REGULAR)
            c->sweep = !covers_unit(self, c);
        for (int j = 0; j < c->nsubs; j++) {
            c->subs[j].slot = self->nslots++;
            if (c->subs[j].kind == K_REGULAR)
                c->subs[j].sweep = !covers_unit(self, &c->subs[j]);
        }
    }
    for (int k = 0; k < self->ncons; k++)
        if (self->cons[k].kind == K_RANKS) {
            int *hinted = realloc(self->hinted, (size_t)(self->nhinted + 1) * sizeof(int));
            if (!hinted) {
                PyErr_NoMemory();
                return -1;
            }
            self->hinted = hinted;
            self->hinted[self->nhinted++] = k;
        }
    /* the search state keeps each chaos construction's same-region groups after
     * the cells and units; a chaos clue joins the groups of its regions */
    for (int k = 0; k < self->ncons; k++) {
        Con *c = &self->cons[k];
        if (c->kind == K_REGIONS) {
            c->shard_at = 2 * ncells + self->nunits + self->nextra;
            self->nextra += c->len / 2;
        }
        if (c->kind == K_OR) {
            c->alive_at = 2 * ncells + self->nunits + self->nextra;
            self->nextra += (c->nalts + 31) / 32;
        }
    }
    self->done_at = 2 * ncells + self->nunits + self->nextra;
    self->nextra += (self->ncons + 31) / 32;
    for (int k = 0; k < self->ncons; k++) {
        Con *c = &self->cons[k];
        if (c->kind != K_RUNS)
            continue;
        if (c->label_base + c->npos > ncells)
            return bad("constraint %d: runs' labels beyond the variables", k);
        c->partner = -1;
        for (int x = 0; x < self->ncons; x++) {
            const Con *r = &self->cons[x];
            if (r->kind == K_REGIONS && r->len / 2 == c->npos &&
                r->cells[r->len / 2] == c->label_base)
                c->partner = x;
        }
    }
    /* regions found while solving: each cell and its label are partners, and every
     * variable's first conflict count is its priority (see LINK_BOOST) */
    for (int k = 0; k < self->ncons; k++) {
        const Con *c = &self->cons[k];
        if (c->kind != K_REGIONS)
            continue;
        if (!self->link) {
            self->link = malloc((size_t)ncells * sizeof(int));
            if (!self->link) {
                PyErr_NoMemory();
                return -1;
            }
            for (int i = 0; i < ncells; i++)
                self->link[i] = -1;
        }
        for (int i = 0, half = c->len / 2; i < half; i++) {
            self->link[c->cells[i]] = c->cells[half + i];
            self->link[c->cells[half + i]] = c->cells[i];
        }
    }
    if (self->link && !(self->prio = calloc((size_t)ncells, sizeof(uint32_t)))) {
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; self->prio && u < self->nunits; u++)
        for (int i = 0; i < self->n; i++)
            self->prio[self->units[u * self->n + i]] += (uint32_t)self->n;
    for (int k = 0; self->prio && k < self->ncons; k++) {
        const Con *c = &self->cons[k];
        if (c->kind == K_REGIONS) {
            for (int i = 0; i < c->len; i++)
                self->prio[c->cells[i]] += 2;
            continue;
        }
        /* a joint count weighs as the automata it stands for, one a value counted
         * (ISS's Let there be chaos: 22,752 nodes weighed once, 6,643 so) */
        uint32_t weight = (uint32_t)c->len;
        if (c->kind == K_COUNT) {
            const uint64_t all = c->len >= 63 ? ~0ull : (2ull << c->len) - 1;
            weight = 0;
            for (int v = 0; v < self->n; v++)
                weight += (c->counts[v] & all) != all ? (uint32_t)c->len : 0;
        }
        for (int i = 0; i < c->len; i++)
            self->prio[c->cells[i]] += weight;
        if (c->len >= (self->n + 1 > 10 ? self->n + 1 : 10))
            for (int i = 0; i < c->len; i++) {
                int other = self->link[c->cells[i]];
                for (int j = 0; other >= 0 && j < c->len; j++)
                    if (c->cells[j] == other)
                        self->prio[c->cells[i]] += (uint32_t)c->len;
            }
    }
    /* cell -> constraints, and the scratch the largest pass needs */
    self->cc_start = calloc((size_t)ncells + 1, sizeof(int));
    if (!self->cc_start) {
        PyErr_NoMemory();
        return -1;
    }
    size_t total = 0, scratch = 0;
    for (int k = 0; k < self->ncons; k++) {
        const Con *c = &self->cons[k];
        for (int i = 0; i < c->len; i++)
            self->cc_start[c->cells[i] + 1]++;
        total += (size_t)c->len;
        for (int j = -1; j < c->nsubs; j++)
            size_scratch(self, j < 0 ? c : &c->subs[j], &scratch);
    }
    self->scratch_words = scratch;
    for (int c = 0; c < ncells; c++)
        self->cc_start[c + 1] += self->cc_start[c];
    self->cc = malloc((total + 1) * sizeof(int));
    int *fill = malloc(((size_t)ncells + 1) * sizeof(int));
    if (!self->cc || !fill) {
        free(fill);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(fill, self->cc_start, (size_t)ncells * sizeof(int));
    for (int k = 0; k < self->ncons; k++) {
        const Con *c = &self->cons[k];
        for (int i = 0; i < c->len; i++) {
            int cell = c->cells[i], seen = 0;
            for (int j = self->cc_start[cell]; j < fill[cell]; j++)
                seen |= self->cc[j] == k;
            if (!seen) /* a cell listed twice in one constraint wakes it once */
                self->cc[fill[cell]++] = k;
        }
    }
    /* close the gaps left by cells listed twice */
    int w = 0;
    for (int c = 0; c < ncells; c++) {
        int from = self->cc_start[c], to = fill[c];
        self->cc_start[c] = w;
        for (int j = from; j < to; j++)
            self->cc[w++] = self->cc[j];
    }
    self->cc_start[ncells] = w;
    free(fill);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* the search                                                               */

typedef struct {
    const VKernel *k;
    int W;                 /* 32-bit words per state */
    uint32_t *stack;       /* (ncells + 2) states, one per search level */
    int *queue, qn;        /* open cells left with one candidate */
    uint8_t *udirty;       /* units to scan for hidden singles */
    int *ulist, un;
    uint8_t *inq;          /* constraints waiting in a ring */
    int *ring, rhead, rn;  /* the quick constraints waiting */
    int *sring, shead, sn; /* the slow ones (see SLOW_WORK) */
    int running;           /* the constraint whose pass is running, or -1 */
    uint32_t *support;     /* max_len masks */
    uint32_t *opts;        /* a sum's options (values or value sets), group by group */
    int64_t *ups;          /* and their lifts */
    int *option_at;        /* max_len + 1 offsets into them */
    uint64_t *cell_set;    /* a set of cells (pw words) */
    uint8_t *dry;          /* per constraint: its sweeps for required values in a row that
                            * found nothing (see sweep_due) */
    uint64_t *bits;        /* scratch bitsets for sums and automata */
    uint32_t *conflicts;   /* per cell: failures it took part in */
    uint32_t *alt;         /* an OR's alternative's domains (cands and grid), see any_of */
    uint32_t *alt_union;   /* max_len masks: per cell of an OR, what some alternative leaves */
    int quiet;             /* an alternative is running: its changes wake nothing */
    int choice, locked_depth;
    long max_solutions;
    unsigned long long nodes, guesses, backtracks, props, passes, failures;
    unsigned clock_mask;
    Run run;               /* the clock and the solutions found */
    /* what a propagation did, for the logical solver (see `_probe.h`): the source of
     * the removals now being made, the removals (src kind, index, cell, values) when
     * `tracing`, and where a failure happened (cell -1: no one cell emptied) */
    int src_kind, src_index;
    int fail_kind, fail_index, fail_cell;
    int tracing, trace_nomem;
    int *events;
    size_t nevents, cap_events;
    unsigned long long removals; /* the size of what propagation did (see restrict_to) */
} Search;

/* The sources of removals and failures a trace names. */
enum { SRC_START, SRC_PEERS, SRC_UNIT, SRC_CON, SRC_LOCKED };

static inline void source(Search *S, int kind, int index)
{
    S->src_kind = kind;
    S->src_index = index;
    S->fail_cell = -1;
}

/* The current source failed (a cell emptied sets `fail_cell` itself). */
static inline void failed_here(Search *S)
{
    S->fail_kind = S->src_kind;
    S->fail_index = S->src_index;
}

static void trace_removal(Search *S, int c, uint32_t removed)
{
    if (S->nevents + 4 > S->cap_events) {
        size_t cap = S->cap_events ? 2 * S->cap_events : 256;
        int *grown = realloc(S->events, cap * sizeof(int));
        if (!grown) {
            S->trace_nomem = 1;
            return;
        }
        S->events = grown;
        S->cap_events = cap;
    }
    int *e = S->events + S->nevents;
    e[0] = S->src_kind;
    e[1] = S->src_index;
    e[2] = c;
    e[3] = (int)removed;
    S->nevents += 4;
}

static inline void enqueue(Search *S, int x)
{
    const int ncons = S->k->ncons;
    S->inq[x] = 1;
    if (S->k->cons[x].slow)
        S->sring[(S->shead + S->sn++) % ncons] = x;
    else
        S->ring[(S->rhead + S->rn++) % ncons] = x;
}

/* Cell c's candidates changed: its units are rescanned, its constraints woken
 * (not the one running, when its pass already reached a fixpoint). */
static inline void note(Search *S, int c)
{
    const VKernel *k = S->k;
    for (int i = k->cu_start[c]; i < k->cu_start[c + 1]; i++) {
        int u = k->cell_units[i];
        if (!S->udirty[u]) {
            S->udirty[u] = 1;
            S->ulist[S->un++] = u;
        }
    }
    for (int i = k->cc_start[c]; i < k->cc_start[c + 1]; i++) {
        int x = k->cc[i];
        if (S->inq[x] || (x == S->running && k->cons[x].exact))
            continue;
        enqueue(S, x);
    }
}

static inline uint32_t domain(const Search *S, const uint32_t *s, int c)
{
    return s[c] | s[S->k->ncells + c];
}

/* Keep only `keep` of cell c's domain: -1 if nothing is left, else 0. */
static inline int restrict_to(Search *S, uint32_t *s, int c, uint32_t keep)
{
    uint32_t m = s[c];
    if (!m) { /* placed */
        if (s[S->k->ncells + c] & keep)
            return 0;
        if (!S->quiet)
            S->fail_cell = c;
        return -1;
    }
    uint32_t nm = m & keep;
    if (nm == m)
        return 0;
    if (!nm) {
        S->conflicts[c] += !S->quiet; /* an alternative failing is no conflict */
        if (!S->quiet)
            S->fail_cell = c;
        return -1;
    }
    s[c] = nm;
    if (S->quiet) /* an alternative's scratch domains (any_of) */
        return 0;
    /* a contradiction's size, as a person would count it: the values forced and
     * what the rules took, not every peer a placed value crossed off */
    S->removals += S->src_kind >= SRC_CON || !(nm & (nm - 1));
    if (S->tracing)
        trace_removal(S, c, m & ~nm);
    note(S, c);
    if (!(nm & (nm - 1)))
        S->queue[S->qn++] = c;
    return 0;
}

/* Keep only keep[i] of each cell: the end of a pass that found each cell's support. */
static inline int keep_each(Search *S, uint32_t *s, const int *cells, int len,
                            const uint32_t *keep)
{
    for (int i = 0; i < len; i++)
        if (restrict_to(S, s, cells[i], keep[i]) < 0)
            return -1;
    return 0;
}

/* -- the passes, one per kind: -1 on contradiction ------------------------ */

/* dst |= src shifted up (toward larger totals) by k bits, over w words. */
static void or_up(uint64_t *dst, const uint64_t *src, int w, int64_t k)
{
    int ws = (int)(k >> 6), bs = (int)(k & 63);
    for (int i = w - 1; i >= ws; i--) {
        uint64_t v = src[i - ws] << bs;
        if (bs && i - ws - 1 >= 0)
            v |= src[i - ws - 1] >> (64 - bs);
        dst[i] |= v;
    }
}

/* dst |= src shifted down by k bits. */
static void or_down(uint64_t *dst, const uint64_t *src, int w, int64_t k)
{
    int ws = (int)(k >> 6), bs = (int)(k & 63);
    for (int i = 0; i + ws < w; i++) {
        uint64_t v = src[i + ws] >> bs;
        if (bs && i + ws + 1 < w)
            v |= src[i + ws + 1] << (64 - bs);
        dst[i] |= v;
    }
}

/* Whether some total of a, raised by k, lies in b. */
static int meets_up(const uint64_t *a, const uint64_t *b, int w, int64_t k)
{
    int ws = (int)(k >> 6), bs = (int)(k & 63);
    for (int i = w - 1; i >= ws; i--) {
        uint64_t v = a[i - ws] << bs;
        if (bs && i - ws - 1 >= 0)
            v |= a[i - ws - 1] >> (64 - bs);
        if (v & b[i])
            return 1;
    }
    return 0;
}

/* The options of group g, appended at opts/ups: each value bit of a lone cell's
 * domain, or each value set of the group that fits every cell's candidates,
 * with its lift. Returns how many. */
static int options(Search *S, const uint32_t *s, const Con *c, int g, uint32_t *opts,
                   int64_t *ups)
{
    const int n = S->k->n, first = c->gstart[g], k = c->gstart[g + 1] - first;
    const int64_t w = c->weights[first];
    int count = 0;
    if (k == 1) {
        for (uint32_t d = domain(S, s, c->cells[first]); d; d &= d - 1) {
            opts[count] = d & (~d + 1);
            ups[count++] = lift(w, __builtin_ctz(d) + 1, n);
        }
        return count;
    }
    uint32_t any = 0, d[MAX_VALUES];
    for (int i = 0; i < k; i++)
        any |= d[i] = domain(S, s, c->cells[first + i]);
    if (k == 2) { /* the pairs of values the two cells can take, each set once */
        for (uint32_t ma = d[0]; ma; ma &= ma - 1) {
            uint32_t a = ma & (~ma + 1);
            for (uint32_t mb = d[1] & ~a; mb; mb &= mb - 1) {
                uint32_t b = mb & (~mb + 1);
                if (a > b && (d[0] & b) && (d[1] & a))
                    continue; /* found as (b, a) */
                opts[count] = a | b;
                int total = __builtin_ctz(a) + __builtin_ctz(b) + 2;
                ups[count++] = w > 0 ? w * (total - 2) : w * (total - 2 * n);
            }
        }
        return count;
    }
    for (int j = c->cstart[g]; j < c->cstart[g + 1]; j++) {
        uint32_t m = c->combos[j];
        if (m & ~any)
            continue;
        int fits = 1;
        for (int i = 0; i < k && fits; i++)
            fits = (d[i] & m) != 0;
        if (fits) {
            opts[count] = m;
            ups[count++] = c->combo_up[j];
        }
    }
    return count;
}

/* Exact over groups: forward, the partial totals each prefix of groups can
 * reach; backward, those from which the rest can still reach the total; a value
 * (or a group's value set) stays if it links the two. */
static int sum_exact_word(Search *S, uint32_t *s, const Con *c);

static int sum_exact(Search *S, uint32_t *s, const Con *c)
{
    if (c->words == 1)
        return sum_exact_word(S, s, c);
    const int w = c->words, ng = c->ngroups;
    if (c->base < 0 || c->base >= (int64_t)w * 64)
        return -1;
    uint64_t *fw = S->bits; /* (ngroups + 1) layers */
    uint64_t *back = fw + (size_t)(ng + 1) * w, *prev = back + w;
    int *at = S->option_at; /* ngroups + 1 offsets into the options */
    memset(fw, 0, (size_t)(ng + 1) * w * sizeof(uint64_t));
    fw[0] = 1;
    at[0] = 0;
    for (int g = 0; g < ng; g++) {
        int count = options(S, s, c, g, S->opts + at[g], S->ups + at[g]);
        if (!count)
            return -1;
        at[g + 1] = at[g] + count;
        for (int j = at[g]; j < at[g + 1]; j++)
            or_up(fw + (size_t)(g + 1) * w, fw + (size_t)g * w, w, S->ups[j]);
    }
    if (!(fw[(size_t)ng * w + c->base / 64] >> (c->base % 64) & 1))
        return -1;
    memset(back, 0, (size_t)w * sizeof(uint64_t));
    back[c->base / 64] = 1ull << (c->base % 64);
    for (int g = ng - 1; g >= 0; g--) {
        uint32_t kept = 0;
        memcpy(prev, back, (size_t)w * sizeof(uint64_t));
        memset(back, 0, (size_t)w * sizeof(uint64_t));
        for (int j = at[g]; j < at[g + 1]; j++)
            if (meets_up(fw + (size_t)g * w, prev, w, S->ups[j])) {
                kept |= S->opts[j];
                or_down(back, prev, w, S->ups[j]);
            }
        S->support[g] = kept;
    }
    for (int g = 0; g < ng; g++)
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++)
            if (restrict_to(S, s, c->cells[i], S->support[g]) < 0)
                return -1;
    return 0;
}

/* sum_exact when the partial totals fit one word (most sums on 9x9 grids). */
static int sum_exact_word(Search *S, uint32_t *s, const Con *c)
{
    const int ng = c->ngroups;
    if (c->base < 0 || c->base >= 64)
        return -1;
    uint64_t *fw = S->bits;
    int *at = S->option_at;
    fw[0] = 1;
    at[0] = 0;
    for (int g = 0; g < ng; g++) {
        int count = options(S, s, c, g, S->opts + at[g], S->ups + at[g]);
        if (!count)
            return -1;
        at[g + 1] = at[g] + count;
        uint64_t next = 0;
        for (int j = at[g]; j < at[g + 1]; j++)
            next |= fw[g] << S->ups[j];
        fw[g + 1] = next;
    }
    uint64_t back = 1ull << c->base;
    if (!(fw[ng] & back))
        return -1;
    for (int g = ng - 1; g >= 0; g--) {
        uint32_t kept = 0;
        uint64_t prev = back;
        back = 0;
        for (int j = at[g]; j < at[g + 1]; j++)
            if ((fw[g] << S->ups[j]) & prev) {
                kept |= S->opts[j];
                back |= prev >> S->ups[j];
            }
        S->support[g] = kept;
    }
    for (int g = 0; g < ng; g++)
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++)
            if (restrict_to(S, s, c->cells[i], S->support[g]) < 0)
                return -1;
    return 0;
}

static inline uint32_t range_mask(int lo, int hi)
{
    if (lo < 1)
        lo = 1;
    if (hi > 32)
        hi = 32;
    if (hi < lo)
        return 0;
    uint32_t upto = hi == 32 ? 0xffffffffu : (1u << hi) - 1;
    return upto & ~((1u << (lo - 1)) - 1);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Bounds: each term must fit what the others leave, until nothing moves. */
static int sum_bounds(Search *S, uint32_t *s, const Con *c)
{
    for (int round = 0; round < 64; round++) {
        int64_t low = 0, high = 0;
        for (int i = 0; i < c->len; i++) {
            uint32_t d = domain(S, s, c->cells[i]);
            int64_t w = c->weights[i], lo = __builtin_ctz(d) + 1, hi = 32 - __builtin_clz(d);
            low += w > 0 ? w * lo : w * hi;
            high += w > 0 ? w * hi : w * lo;
        }
        if (low > c->total || high < c->total)
            return -1;
        int again = 0;
        for (int i = 0; i < c->len; i++) {
            int64_t w = c->weights[i];
            if (!w)
                continue;
            uint32_t d = domain(S, s, c->cells[i]);
            int64_t lo = __builtin_ctz(d) + 1, hi = 32 - __builtin_clz(d);
            int64_t mine_lo = w > 0 ? w * lo : w * hi, mine_hi = w > 0 ? w * hi : w * lo;
            int64_t a = c->total - (high - mine_hi), b = c->total - (low - mine_lo);
            int64_t vlo, vhi; /* w * x in [a, b] */
            if (w > 0) {
                vlo = -floor_div(-a, w);
                vhi = floor_div(b, w);
            } else {
                vlo = -floor_div(-b, w);
                vhi = floor_div(a, w);
            }
            uint32_t keep = range_mask((int)(vlo < 1 ? 1 : vlo > 33 ? 33 : vlo),
                                       (int)(vhi > 32 ? 32 : vhi < 0 ? 0 : vhi));
            if ((d & keep) != d) {
                if (restrict_to(S, s, c->cells[i], keep) < 0)
                    return -1;
                again = 1;
            }
        }
        if (!again)
            return 0;
    }
    return 0;
}

/* Values `required` must each go in one of `cells` (a constraint holds them in
 * every way it can still be met): a value with one place left goes there (a
 * hidden single of the constraint); else a cell outside that sees every place
 * left for it cannot hold it (ISS's "required value exclusions"). Values
 * already placed among the cells are left to the peers. */
static int exclude_required(Search *S, uint32_t *s, const int *cells, int len, uint32_t required)
{
    const VKernel *k = S->k;
    uint64_t *seen = S->cell_set;
    int changed = 0;
    for (int i = 0; i < len && required; i++)
        if (!s[cells[i]])
            required &= ~s[k->ncells + cells[i]];
    for (uint32_t m = required; m; m &= m - 1) {
        uint32_t v = m & (~m + 1);
        int at = -1, places = 0;
        for (int i = 0; i < len; i++)
            if (s[cells[i]] & v) {
                const uint64_t *peers = k->peer_set + (size_t)cells[i] * k->pw;
                if (places++ == 0)
                    memcpy(seen, peers, (size_t)k->pw * sizeof(uint64_t));
                else
                    for (int wd = 0; wd < k->pw; wd++)
                        seen[wd] &= peers[wd];
                at = i;
            }
        if (!places)
            return -1;
        if (places == 1) {
            if (s[cells[at]] != v) {
                if (restrict_to(S, s, cells[at], v) < 0)
                    return -1;
                changed = 1;
            }
            continue;
        }
        for (int wd = 0; wd < k->pw; wd++)
            for (uint64_t b = seen[wd]; b; b &= b - 1) {
                int cell = 64 * wd + __builtin_ctzll(b);
                if (s[cell] & v) {
                    if (restrict_to(S, s, cell, ~v) < 0)
                        return -1;
                    changed = 1;
                }
            }
    }
    return changed;
}

/* An automaton's sweep for required values runs while it pays: after DRY_RUN
 * sweeps in a row that found nothing, the constraint sweeps on one pass in
 * DRY_EVERY (of all passes), until a sweep finds something again. Measured on
 * sixteen of ISS's puzzles with automata: sweeping always took 12.3 s in all,
 * this 10.0 s, none 11.5 s (Dutch-pelgänger [easier]: 1,574 ms, 273, 373; its
 * 81 doppelganger automata never hold a required value). A small automaton
 * (cells times states up to SMALL_SWEEP) always sweeps, its sweep being cheap:
 * ISS's Heat up - global entropy, whose 2x2 squares often hold a required
 * value, 2,525 nodes and 162 ms to 865 and 55 ms; Look-and-Say 3 1,878 to 1,310. */
#define DRY_RUN 16
#define DRY_EVERY 16
#define SMALL_SWEEP 32
static inline int sweep_due(const Search *S, const Con *c)
{
    return (int64_t)c->len * c->nstates <= SMALL_SWEEP || S->dry[c->slot] < DRY_RUN
           || S->passes % DRY_EVERY == 0;
}

/* The sweep's outcome `r` (exclude_required's, or 0 when nothing was required)
 * recorded for the constraint; the pass's result. */
static inline int swept(Search *S, const Con *c, int r)
{
    uint8_t *dry = &S->dry[c->slot];
    if (r)
        *dry = 0;
    else if (*dry < 255)
        (*dry)++;
    return r < 0 ? -1 : 0;
}

/* Distinct values adding up to the total: the sets that fit every cell. */
static int cage(Search *S, uint32_t *s, const Con *c)
{
    const uint32_t full = S->k->full;
    uint32_t *d = S->support, uni = 0, rest = 0, support = 0, required = 0xffffffffu;
    uint32_t left = 0; /* the values some fitting set leaves to the unit's others */
    for (int i = 0; i < c->inner; i++) {
        d[i] = domain(S, s, c->cells[i]);
        uni |= d[i];
    }
    for (int i = c->inner; i < c->len; i++)
        rest |= domain(S, s, c->cells[i]);
    const int house = c->inner < c->len;
    for (int j = 0; j < c->nmasks; j++) {
        uint32_t set = c->masks[j];
        if (set & ~uni)
            continue;
        if (house && (full & ~set & ~rest))
            continue; /* a value it leaves has no place in the unit */
        int fits = 1;
        for (int i = 0; i < c->inner && fits; i++)
            fits = (d[i] & set) != 0;
        if (fits) {
            support |= set;
            required &= set;
            left |= full & ~set;
        }
    }
    if (!support)
        return -1;
    for (int i = 0; i < c->inner; i++)
        if (restrict_to(S, s, c->cells[i], support) < 0)
            return -1;
    for (int i = c->inner; i < c->len; i++)
        if (restrict_to(S, s, c->cells[i], left) < 0)
            return -1;
    return exclude_required(S, s, c->cells, c->inner, required) < 0 ? -1 : 0;
}

static int less(Search *S, uint32_t *s, const Con *c)
{
    int low = 0; /* each value exceeds the previous cell's smallest */
    for (int i = 0; i < c->len; i++) {
        uint32_t keep = low >= 32 ? 0 : ~((1u << low) - 1);
        if (restrict_to(S, s, c->cells[i], keep) < 0)
            return -1;
        low = __builtin_ctz(domain(S, s, c->cells[i])) + 1;
    }
    int high = 33; /* each value is below the next cell's largest */
    for (int i = c->len - 1; i >= 0; i--) {
        uint32_t keep = high >= 33 ? 0xffffffffu : (1u << (high - 1)) - 1;
        if (restrict_to(S, s, c->cells[i], keep) < 0)
            return -1;
        high = 32 - __builtin_clz(domain(S, s, c->cells[i]));
    }
    return 0;
}

/* A table over two cells: a value stays while the other cell has a partner for it. */
static int pair_table(Search *S, uint32_t *s, const Con *c)
{
    const int a = c->cells[0], b = c->cells[1];
    const uint32_t da = domain(S, s, a), db = domain(S, s, b);
    uint32_t keep_a = 0, keep_b = 0;
    for (uint32_t m = db; m; m &= m - 1)
        keep_a |= c->pair[MAX_VALUES + __builtin_ctz(m)];
    for (uint32_t m = da; m; m &= m - 1)
        keep_b |= c->pair[__builtin_ctz(m)];
    if (restrict_to(S, s, a, keep_a) < 0 || restrict_to(S, s, b, keep_b) < 0)
        return -1;
    return 0;
}

static int table(Search *S, uint32_t *s, const Con *c)
{
    const int len = c->len;
    uint32_t d[MAX_VALUES * MAX_VALUES];
    uint32_t *support = S->support;
    if (len > MAX_VALUES * MAX_VALUES)
        return 0;
    for (int i = 0; i < len; i++) {
        d[i] = domain(S, s, c->cells[i]);
        support[i] = 0;
    }
    int found = 0;
    for (int r = 0; r < c->nmasks; r++) {
        const uint32_t *row = c->masks + (size_t)r * len;
        int fits = 1;
        for (int i = 0; i < len && fits; i++)
            fits = (row[i] & d[i]) != 0;
        if (!fits)
            continue;
        found = 1;
        for (int i = 0; i < len; i++)
            support[i] |= row[i];
    }
    return found ? keep_each(S, s, c->cells, len, support) : -1;
}

/* `regular` for automata of up to 64 states: each layer one word. */
static int regular_word(Search *S, uint32_t *s, const Con *c)
{
    const int len = c->len;
    uint64_t *fw = S->bits;        /* (len + 1) layers of states reached */
    uint64_t *bk = fw + len + 1;   /* and of those that still reach acceptance */
    uint32_t short_of = 0;         /* a value some reached state cannot read */
    fw[0] = 1ull << c->start;
    for (int i = 0; i < len; i++) {
        uint32_t d = domain(S, s, c->cells[i]);
        uint64_t next = 0;
        for (uint64_t b = fw[i]; b; b &= b - 1) {
            int st = __builtin_ctzll(b);
            const uint64_t *move = c->moves + (size_t)st * MAX_VALUES;
            short_of |= d & ~c->reads[st];
            for (uint32_t m = d & c->reads[st]; m; m &= m - 1)
                next |= move[__builtin_ctz(m)];
        }
        if (!next)
            return -1;
        fw[i + 1] = next;
    }
    uint64_t alive = fw[len] & c->accepting[0];
    if (!alive)
        return -1;
    /* Every word the domains spell is accepted: the constraint holds on this branch
     * whatever is decided, so it is not run again below (ISS's Doppelganger [easier]:
     * the 81 cells' "at a 0, the missing digits differ" automata, entailed once a
     * cell is not 0). Not for an OR's alternative, whose state is a scratch copy. */
    if (!short_of && alive == fw[len] && !S->quiet && c->slot < S->k->ncons)
        s[S->k->done_at + c->slot / 32] |= 1u << (c->slot % 32);
    bk[len] = alive;
    for (int i = len - 1; i >= 0; i--) {
        uint32_t d = domain(S, s, c->cells[i]), kept = 0;
        uint64_t back = 0;
        for (uint64_t b = fw[i]; b; b &= b - 1) {
            int st = __builtin_ctzll(b);
            const uint64_t *move = c->moves + (size_t)st * MAX_VALUES;
            for (uint32_t m = d & c->reads[st]; m; m &= m - 1)
                if (move[__builtin_ctz(m)] & alive) {
                    kept |= m & (~m + 1);
                    back |= 1ull << st;
                }
        }
        S->support[i] = kept;
        bk[i] = alive = back;
    }
    uint32_t any = 0;
    for (int i = 0; i < len; i++) {
        if (restrict_to(S, s, c->cells[i], S->support[i]) < 0)
            return -1;
        any |= S->support[i];
    }
    if (!c->sweep || !sweep_due(S, c))
        return 0;
    /* the values every accepted word holds: per state of a layer, the values some
     * path to it avoids (a value is avoided along a path that never reads it) */
    uint32_t a0[64], a1[64], *avoid = a0, *next = a1;
    avoid[c->start] = 0xffffffffu;
    for (int i = 0; i < len; i++) {
        const uint32_t d = S->support[i];
        for (uint64_t b = bk[i + 1]; b; b &= b - 1)
            next[__builtin_ctzll(b)] = 0;
        for (uint64_t b = bk[i]; b; b &= b - 1) {
            int st = __builtin_ctzll(b);
            const uint64_t *move = c->moves + (size_t)st * MAX_VALUES;
            for (uint32_t m = d & c->reads[st]; m; m &= m - 1) {
                const uint32_t keep = avoid[st] & ~(m & (~m + 1));
                for (uint64_t t = move[__builtin_ctz(m)] & bk[i + 1]; t; t &= t - 1)
                    next[__builtin_ctzll(t)] |= keep;
            }
        }
        uint32_t *t = avoid;
        avoid = next;
        next = t;
    }
    uint32_t avoided = 0;
    for (uint64_t b = bk[len]; b; b &= b - 1)
        avoided |= avoid[__builtin_ctzll(b)];
    return swept(S, c, any & ~avoided ? exclude_required(S, s, c->cells, len, any & ~avoided) : 0);
}

static int regular(Search *S, uint32_t *s, const Con *c)
{
    if (c->moves)
        return regular_word(S, s, c);
    const int sw = c->sw, len = c->len;
    uint64_t *fw = S->bits;                   /* (len + 1) layers of states reached */
    uint64_t *bk = fw + (size_t)(len + 1) * sw; /* and of those that still reach acceptance */
    uint64_t *alive = bk + (size_t)(len + 1) * sw, *back = alive + sw;
    memset(fw, 0, (size_t)(len + 1) * sw * sizeof(uint64_t));
    fw[c->start / 64] = 1ull << (c->start % 64);
    for (int i = 0; i < len; i++) {
        uint32_t d = domain(S, s, c->cells[i]);
        const uint64_t *layer = fw + (size_t)i * sw;
        uint64_t *next = fw + (size_t)(i + 1) * sw;
        int any = 0;
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = layer[wd]; b; b &= b - 1) {
                int st = 64 * wd + __builtin_ctzll(b);
                for (int t = c->tstart[st]; t < c->tstart[st + 1]; t++)
                    if (c->tbit[t] & d) {
                        next[c->tnext[t] / 64] |= 1ull << (c->tnext[t] % 64);
                        any = 1;
                    }
            }
        if (!any)
            return -1;
    }
    int any = 0;
    for (int wd = 0; wd < sw; wd++) {
        alive[wd] = fw[(size_t)len * sw + wd] & c->accepting[wd];
        any |= alive[wd] != 0;
    }
    if (!any)
        return -1;
    memcpy(bk + (size_t)len * sw, alive, (size_t)sw * sizeof(uint64_t));
    for (int i = len - 1; i >= 0; i--) {
        uint32_t d = domain(S, s, c->cells[i]), kept = 0;
        const uint64_t *layer = fw + (size_t)i * sw;
        memset(back, 0, (size_t)sw * sizeof(uint64_t));
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = layer[wd]; b; b &= b - 1) {
                int st = 64 * wd + __builtin_ctzll(b);
                for (int t = c->tstart[st]; t < c->tstart[st + 1]; t++) {
                    int nx = c->tnext[t];
                    if ((c->tbit[t] & d) && (alive[nx / 64] >> (nx % 64) & 1)) {
                        kept |= c->tbit[t] & d;
                        back[wd] |= 1ull << (st % 64);
                    }
                }
            }
        S->support[i] = kept;
        memcpy(alive, back, (size_t)sw * sizeof(uint64_t));
        memcpy(bk + (size_t)i * sw, back, (size_t)sw * sizeof(uint64_t));
    }
    uint32_t values = 0;
    for (int i = 0; i < len; i++) {
        if (restrict_to(S, s, c->cells[i], S->support[i]) < 0)
            return -1;
        values |= S->support[i];
    }
    if (!c->sweep || !sweep_due(S, c))
        return 0;
    /* the values every accepted word holds, as in regular_word: per state of a
     * layer, the values some path to it avoids (a move avoids a value unless it
     * reads only that value) */
    uint32_t *avoid = (uint32_t *)(back + sw), *next = avoid + c->nstates;
    avoid[c->start] = 0xffffffffu;
    for (int i = 0; i < len; i++) {
        const uint32_t d = S->support[i];
        const uint64_t *from = bk + (size_t)i * sw, *to = from + sw;
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = to[wd]; b; b &= b - 1)
                next[64 * wd + __builtin_ctzll(b)] = 0;
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = from[wd]; b; b &= b - 1) {
                int st = 64 * wd + __builtin_ctzll(b);
                for (int t = c->tstart[st]; t < c->tstart[st + 1]; t++) {
                    const int nx = c->tnext[t];
                    const uint32_t read = c->tbit[t] & d;
                    if (read && (to[nx / 64] >> (nx % 64) & 1))
                        next[nx] |= read & (read - 1) ? avoid[st] : avoid[st] & ~read;
                }
            }
        uint32_t *t = avoid;
        avoid = next;
        next = t;
    }
    uint32_t avoided = 0;
    const uint64_t *last = bk + (size_t)len * sw;
    for (int wd = 0; wd < sw; wd++)
        for (uint64_t b = last[wd]; b; b &= b - 1)
            avoided |= avoid[64 * wd + __builtin_ctzll(b)];
    return swept(S, c, values & ~avoided ? exclude_required(S, s, c->cells, len, values & ~avoided)
                                      : 0);
}

/* Value `bit` goes in every group of the counted cells that can hold it: in
 * the one place a group has left, or else not in the cells that see every
 * place the group has. */
static int settle_groups(Search *S, uint32_t *s, const Con *c, uint32_t bit)
{
    for (int g = 0; g < c->ngroups; g++) {
        const int *cells = c->cells + c->gstart[g], len = c->gstart[g + 1] - c->gstart[g];
        int can = 0;
        for (int i = 0; i < len && !can; i++)
            can = (domain(S, s, cells[i]) & bit) != 0;
        if (can && exclude_required(S, s, cells, len, bit) < 0)
            return -1;
    }
    return 0;
}

/* Counts of values among cells that each hold one: a value's count lies
 * between the cells placed on it and the groups that can still hold it, the
 * counts add up to the cells (a subset-sum over the values, as bitsets of
 * totals), and a count at its lowest or highest possible settles the rest. */
static int count_values(Search *S, uint32_t *s, const Con *c)
{
    const int n = S->k->n, len = c->len, ng = c->ngroups;
    int lo[MAX_VALUES] = {0}, hi[MAX_VALUES] = {0};
    uint64_t can[MAX_VALUES];
    for (int g = 0; g < ng; g++) {
        uint32_t any = 0;
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++) {
            uint32_t d = domain(S, s, c->cells[i]);
            any |= d;
            if (!(d & (d - 1)))
                lo[__builtin_ctz(d)]++;
        }
        for (uint32_t m = any; m; m &= m - 1)
            hi[__builtin_ctz(m)]++;
    }
    uint64_t *fw = S->bits; /* fw[v]: totals the values before v can make */
    fw[0] = 1;
    for (int v = 0; v < n; v++) {
        uint64_t range = (hi[v] >= 63 ? ~0ull : (2ull << hi[v]) - 1) & ~((1ull << lo[v]) - 1);
        can[v] = c->counts[v] & range;
        if (!can[v])
            return -1;
        uint64_t next = 0;
        for (uint64_t m = can[v]; m; m &= m - 1)
            next |= fw[v] << __builtin_ctzll(m);
        fw[v + 1] = next & ((2ull << len) - 1);
    }
    uint64_t need = 1ull << len;
    if (!(fw[n] & need))
        return -1;
    for (int v = n - 1; v >= 0; v--) {
        uint64_t kept = 0, back = 0;
        for (uint64_t m = can[v]; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            if ((fw[v] << k) & need) {
                kept |= 1ull << k;
                back |= need >> k;
            }
        }
        can[v] = kept;
        need = back;
    }
    uint32_t required = 0;
    for (int v = 0; v < n; v++) {
        const uint32_t bit = 1u << v;
        const int most = 63 - __builtin_clzll(can[v]), least = __builtin_ctzll(can[v]);
        if (least > lo[v])
            required |= bit;
        if (most == lo[v]) { /* every cell it takes is placed: the others lose it */
            for (int i = 0; i < len; i++) {
                uint32_t d = domain(S, s, c->cells[i]);
                if (d != bit && (d & bit) && restrict_to(S, s, c->cells[i], ~bit) < 0)
                    return -1;
            }
        } else if (least == hi[v] && least > lo[v] && settle_groups(S, s, c, bit) < 0) {
            return -1; /* every group that can hold it does */
        }
    }
    /* A value the cells must hold once more goes to its one place, or leaves the
     * cells that see all its places, as the sweep of the counting automata this
     * count stands for did (ISS's Quadruple X: 27 nodes without, 15 with). */
    return required && exclude_required(S, s, c->cells, len, required) < 0 ? -1 : 0;
}

#include "_regions.h"
#include "_runs.h"
#include "_ranks.h"

static int run_pass(Search *S, uint32_t *s, const Con *c);

/* Two groups of k cells, each of different values, hold the same values (ISS's
 * same-value sets): a value missing from one group leaves the other; fewer than k
 * values left in both is a contradiction; a value one group surely holds (placed,
 * or its cells have only k values among them) the other holds too, so it goes to
 * its one place there or leaves the cells that see all its places. Measured on
 * ISS's Con-Set-Cutive (17 such pairs, 6 cells of 9 digits): the automaton of
 * the first group's values still to match, 848 states, took about 18 us a pass. */
static int same_set(Search *S, uint32_t *s, const Con *c)
{
    const int k = c->len / 2;
    const int *a = c->cells, *b = c->cells + k;
    uint32_t ua = 0, ub = 0;
    for (int i = 0; i < k; i++) {
        ua |= domain(S, s, a[i]);
        ub |= domain(S, s, b[i]);
    }
    const uint32_t both = ua & ub;
    if (popcount32(both) < k)
        return -1;
    if (both != ua || both != ub)
        for (int i = 0; i < c->len; i++)
            if (restrict_to(S, s, c->cells[i], both) < 0)
                return -1;
    uint32_t required = 0;
    for (int i = 0; i < c->len; i++) {
        uint32_t d = domain(S, s, c->cells[i]);
        if (!(d & (d - 1)))
            required |= d;
    }
    if (popcount32(both) == k)
        required = both;
    for (int g = 0; required && g < 2; g++)
        if (exclude_required(S, s, c->cells + g * k, k, required) < 0)
            return -1;
    return 0;
}

/* Two groups of k cells hold one value v as often each (ISS's same-value sets whose
 * values repeat, compared value by value). A group may hold v from the cells that
 * are v to those that may be: when one group's most is the other's least, its cells
 * that may be v are v; when its least is the other's most, its other cells are not
 * v. That is all the counts allow (each undecided cell can be v or not), where the
 * automaton of the first group's surplus, 256 states on ISS's Copycat (15 cells a
 * group, 9 of them), took the same narrowing at up to 80 us a node. */
static int same_count(Search *S, uint32_t *s, const Con *c)
{
    const int k = c->len / 2;
    const uint32_t v = 1u << (c->total - 1);
    int lo[2] = {0, 0}, hi[2] = {0, 0};
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < k; i++) {
            const uint32_t d = domain(S, s, c->cells[g * k + i]);
            hi[g] += (d & v) != 0;
            lo[g] += d == v;
        }
    if (hi[0] < lo[1] || hi[1] < lo[0])
        return -1;
    for (int g = 0; g < 2; g++) {
        const int *cells = c->cells + g * k, other = 1 - g;
        if (hi[g] == lo[other] && hi[g] > lo[g]) { /* every place of v is v */
            for (int i = 0; i < k; i++)
                if ((domain(S, s, cells[i]) & v) && restrict_to(S, s, cells[i], v) < 0)
                    return -1;
        } else if (lo[g] == hi[other] && hi[g] > lo[g]) { /* v is where it is decided */
            for (int i = 0; i < k; i++)
                if (domain(S, s, cells[i]) != v && restrict_to(S, s, cells[i], ~v) < 0)
                    return -1;
        }
    }
    return 0;
}

/* At least one alternative holds (constructive disjunction, as ISS's Or): each
 * alternative's constraints run once each on a copy of the domains, quietly
 * (waking nothing); one that fails is out, and each cell of the OR keeps the
 * values some surviving alternative leaves it. No automaton of the alternatives'
 * product is built: ISS's City Planning, 36 either/ors of skyscrapers and
 * givens, spent 57 ms building them. As ISS's Or, the state remembers which
 * alternatives failed (they stay failed below), and the last one left runs on
 * the state itself, waking what it narrows. Measured on ISS's puzzles with ORs
 * (best of ten, to two solutions): Unbidden First Hidden 50.9 to 36.2 ms,
 * Killer lunchboxes 132 nodes and 10.6 ms to 43 nodes and 2.7 ms. */
static int any_of(Search *S, uint32_t *s, const Con *c)
{
    const int ncells = S->k->ncells, len = c->len;
    uint32_t *alt = S->alt, *kept = S->alt_union, *living = s + c->alive_at;
    int left = 0, last = 0;
    for (int w = 0; w < (c->nalts + 31) / 32; w++)
        if (living[w]) {
            left += popcount32(living[w]);
            last = 32 * w + __builtin_ctz(living[w]);
        }
    if (left == 1) { /* the one alternative left simply holds, waking what it narrows */
        for (int j = c->alt_start[last]; j < c->alt_start[last + 1]; j++)
            if (run_pass(S, s, &c->subs[j]) < 0)
                return -1;
        return 0;
    }
    memset(kept, 0, (size_t)len * sizeof(uint32_t));
    int alive = 0;
    S->quiet = 1;
    for (int a = 0; a < c->nalts; a++) {
        /* an alternative that failed stays failed below: domains only narrow */
        if (!(living[a / 32] >> (a % 32) & 1))
            continue;
        memcpy(alt, s, 2 * (size_t)ncells * sizeof(uint32_t));
        /* each of its constraints once, as ISS's And: running them to a fixpoint
         * cost Unbidden First Hidden twice the passes for the same 1,010 nodes, and
         * Chaos Construction: x-sums 299,412 nodes where once takes 274,085 */
        int ok = 1;
        for (int j = c->alt_start[a]; ok && j < c->alt_start[a + 1]; j++)
            ok = run_pass(S, alt, &c->subs[j]) >= 0;
        if (!ok) {
            living[a / 32] &= ~(1u << (a % 32));
            continue;
        }
        alive = 1;
        int covered = 1;
        for (int i = 0; i < len; i++) {
            kept[i] |= alt[c->cells[i]] | alt[ncells + c->cells[i]];
            covered &= (domain(S, s, c->cells[i]) & ~kept[i]) == 0;
        }
        /* every value some alternative keeps: the others can narrow nothing more
         * (Unbidden First Hidden: 92% of its either/or's passes narrow nothing;
         * alternatives run 11,710 to 2,973, the same 1,010 nodes) */
        if (covered)
            break;
    }
    S->quiet = 0;
    return alive ? keep_each(S, s, c->cells, len, kept) : -1;
}

/* The values between the crusts 1 and n of a line holding every value once add up
 * to the total (as ISS's sandwich handler): each pair of places the crusts may
 * take, with each set of values between that makes the total, holds when the cells
 * between can hold the set, each some value of it, and the cells outside the values
 * it leaves; a cell keeps the values some such placement gives it. Measured on
 * ISS's Sandwich snipe 18 (18 clues, nodes to two solutions): the automaton of the
 * values between, up to 258 states, 10,598 nodes and 2.0 s; this pass without the
 * cell by cell check 11,350 and 0.29 s, with it 6,251 and 0.15 s; checking the
 * cells outside one by one too, 7,319 and 0.21 s. */
static int sandwich(Search *S, uint32_t *s, const Con *c)
{
    const int len = c->len, n = S->k->n;
    const uint32_t lo = 1u, hi = 1u << (n - 1), ends = lo | hi, middle = S->k->full & ~ends;
    uint32_t v[MAX_VALUES], pre[MAX_VALUES + 1], suf[MAX_VALUES + 1], keep[MAX_VALUES];
    int crusts = 0;
    pre[0] = 0;
    for (int i = 0; i < len; i++) {
        v[i] = domain(S, s, c->cells[i]);
        crusts += (v[i] & ends) != 0;
        pre[i + 1] = pre[i] | v[i];
        keep[i] = 0;
    }
    if (crusts < 2)
        return -1;
    suf[len] = 0;
    for (int i = len - 1; i >= 0; i--)
        suf[i] = suf[i + 1] | v[i];
    for (int i = 0; i < len - 1; i++) {
        const uint32_t vi = v[i] & ends;
        if (!vi)
            continue;
        uint32_t inner = 0; /* the values the cells between i and j may take */
        for (int j = i + 1; j < len; j++) {
            if (j > i + 1)
                inner |= v[j - 1] & middle;
            const uint32_t vj = v[j] & ends;
            uint32_t at_i = 0, at_j = 0;
            if ((vi & lo) && (vj & hi)) {
                at_i |= lo;
                at_j |= hi;
            }
            if ((vi & hi) && (vj & lo)) {
                at_i |= hi;
                at_j |= lo;
            }
            if (!at_i)
                continue;
            const int between = j - i - 1;
            const uint32_t outer = (pre[i] | suf[j + 1]) & middle;
            uint32_t in = 0, out = 0;
            int fits = 0;
            for (int x = c->gstart[between]; x < c->gstart[between + 1]; x++) {
                const uint32_t set = c->masks[x], rest = middle & ~set;
                if ((set & ~inner) || (rest & ~outer))
                    continue; /* a value between, or one left outside, has no place */
                int each = 1;
                for (int k = i + 1; k < j && each; k++)
                    each = (v[k] & set) != 0;
                if (!each)
                    continue;
                fits = 1;
                in |= set;
                out |= rest;
            }
            if (!fits)
                continue;
            for (int k = 0; k < i; k++)
                keep[k] |= out;
            keep[i] |= at_i;
            for (int k = i + 1; k < j; k++)
                keep[k] |= in;
            keep[j] |= at_j;
            for (int k = j + 1; k < len; k++)
                keep[k] |= out;
        }
    }
    return keep_each(S, s, c->cells, len, keep);
}

static int run_pass(Search *S, uint32_t *s, const Con *c)
{
    switch (c->kind) {
    case K_SUM:
        return c->words ? sum_exact(S, s, c) : sum_bounds(S, s, c);
    case K_CAGE:
        return cage(S, s, c);
    case K_LESS:
        return less(S, s, c);
    case K_TABLE:
        return c->pair ? pair_table(S, s, c) : table(S, s, c);
    case K_COUNT:
        return count_values(S, s, c);
    case K_REGIONS:
        return regions(S, s, c);
    case K_RUNS:
        return runs(S, s, c);
    case K_RANKS:
        return ranks(S, s, c);
    case K_OR:
        return any_of(S, s, c);
    case K_SAME:
        return same_set(S, s, c);
    case K_SAME_COUNT:
        return same_count(S, s, c);
    case K_SANDWICH:
        return sandwich(S, s, c);
    default:
        return regular(S, s, c);
    }
}

/* Locked candidates at every intersection; -1 on contradiction, else 1 if anything changed. */
static int locked_pass(Search *S, uint32_t *s)
{
    const VKernel *k = S->k;
    const int *start = k->int_start, *cells = k->int_cells;
    int changed = 0;
    for (int x = 0; x < k->nints; x++) {
        const int *st = start + 3 * x;
        uint32_t in = 0, ra = 0, rb = 0;
        for (int j = st[0]; j < st[1]; j++)
            in |= s[cells[j]];
        if (!in)
            continue;
        for (int j = st[1]; j < st[2]; j++)
            ra |= s[cells[j]];
        for (int j = st[2]; j < st[3]; j++)
            rb |= s[cells[j]];
        source(S, SRC_LOCKED, x);
        /* a value of the shared cells missing from one unit's rest is locked
         * there, so the other unit's rest loses it */
        uint32_t leave_b = in & rb & ~ra, leave_a = in & ra & ~rb;
        for (int j = st[2]; leave_b && j < st[3]; j++)
            if (restrict_to(S, s, cells[j], ~leave_b) < 0)
                return -1;
        for (int j = st[1]; leave_a && j < st[2]; j++)
            if (restrict_to(S, s, cells[j], ~leave_a) < 0)
                return -1;
        changed |= (leave_a | leave_b) != 0;
    }
    return changed;
}

/* Each cell of a failed unit or constraint counts one more conflict (and a
 * branching cell whose value fails at once BRANCH_BLAME more, in dfs); the
 * counts halve every DECAY_PERIOD failures, so they follow where the search is
 * now (on ISS's examples, before the cages of renban lines: 'Leven 13,476 nodes
 * without decay, 8,435 with; The Barbed Cross 59,239 and 46,321). Blaming the
 * branching cell too, measured on eleven of ISS's variant puzzles: Raw
 * Spaghetti 2,221 nodes to 1,654, 'Leven 460 to 236, Embedded Squishdoku 19,656
 * to 352, Sum lines 73,914 to 38,351, Hard renban 3 10,801 to 4,606; The Barbed
 * Cross 27,926 to 42,773; blaming only it (as ISS does) took The Barbed Cross
 * to 83,724 and Raw Spaghetti to 4,005. */
static void blame(Search *S, const int *cells, int len)
{
    if (++S->failures % DECAY_PERIOD == 0)
        for (int c = 0; c < S->k->ncells; c++)
            S->conflicts[c] >>= 1;
    for (int i = 0; i < len; i++)
        S->conflicts[cells[i]]++;
}

static void settle_queues(Search *S)
{
    for (int i = 0; i < S->un; i++)
        S->udirty[S->ulist[i]] = 0;
    S->un = 0;
    for (int i = 0; i < S->rn; i++)
        S->inq[S->ring[(S->rhead + i) % S->k->ncons]] = 0;
    for (int i = 0; i < S->sn; i++)
        S->inq[S->sring[(S->shead + i) % S->k->ncons]] = 0;
    S->rn = S->sn = 0;
    S->qn = 0;
    S->running = -1;
}

/* Propagate to a fixpoint: place queued cells and take their values from the
 * peers, hidden singles in the units changed, one woken constraint at a time,
 * then (if asked) locked candidates. Placements made, or -1 on contradiction. */
static long propagate(Search *S, uint32_t *s, int locked)
{
    const VKernel *k = S->k;
    const int n = k->n, ncells = k->ncells;
    uint32_t *cands = s, *grid = s + ncells, *placed = s + 2 * ncells;
    long count = 0;
    for (;;) {
        while (S->qn) {
            int c = S->queue[--S->qn];
            uint32_t b = cands[c];
            if (!b)
                continue;
            cands[c] = 0;
            grid[c] = b;
            count++;
            source(S, SRC_PEERS, c);
            for (int i = k->cu_start[c]; i < k->cu_start[c + 1]; i++)
                placed[k->cell_units[i]] |= b;
            for (int i = k->peer_start[c]; i < k->peer_start[c + 1]; i++) {
                int p = k->peers[i];
                if (cands[p] & b) {
                    if (restrict_to(S, s, p, ~b) < 0)
                        goto fail;
                } else if (grid[p] == b) {
                    S->conflicts[p]++;
                    S->fail_cell = p;
                    goto fail;
                }
            }
        }
        if (S->un) {
            while (S->un) {
                int u = S->ulist[--S->un];
                S->udirty[u] = 0;
                source(S, SRC_UNIT, u);
                const int *cells = k->units + u * n;
                uint32_t o = 0, t = 0;
                for (int i = 0; i < n; i++) {
                    uint32_t x = cands[cells[i]];
                    t |= o & x;
                    o |= x;
                }
                if ((o | placed[u]) != k->full) {
                    blame(S, cells, n);
                    goto fail;
                }
                o &= ~t;
                for (int i = 0; o && i < n; i++) {
                    int c = cells[i];
                    uint32_t m = cands[c] & o;
                    if (!m)
                        continue;
                    if (m & (m - 1)) { /* one cell is the only place for two values */
                        blame(S, cells, n);
                        S->fail_cell = c;
                        goto fail;
                    }
                    if (cands[c] != m) {
                        S->removals++;
                        if (S->tracing)
                            trace_removal(S, c, cands[c] & ~m);
                        cands[c] = m;
                        note(S, c);
                        S->queue[S->qn++] = c;
                    }
                }
                if (S->qn)
                    break;
            }
            continue;
        }
        if (S->rn || S->sn) {
            int x;
            if (S->rn) {
                x = S->ring[S->rhead];
                S->rhead = (S->rhead + 1) % k->ncons;
                S->rn--;
            } else {
                x = S->sring[S->shead];
                S->shead = (S->shead + 1) % k->ncons;
                S->sn--;
            }
            S->inq[x] = 0;
            if (s[k->done_at + x / 32] >> (x % 32) & 1)
                continue; /* entailed on this branch: nothing left to narrow */
            S->running = x;
            S->passes++;
            source(S, SRC_CON, x);
            int r = run_pass(S, s, &k->cons[x]);
            S->running = -1;
            if (r < 0) {
                /* the regions pass spans every cell: blaming them all says nothing of
                 * where the conflict is, and drowns the counts that do (ISS's Chaos
                 * Construction: over 450,000 nodes in 20 s with it, 5,693 without) */
                if (k->cons[x].kind != K_REGIONS && k->cons[x].kind != K_RANKS)
                    blame(S, k->cons[x].cells, k->cons[x].len);
                goto fail;
            }
            continue;
        }
        if (locked) {
            int r = locked_pass(S, s);
            if (r < 0)
                goto fail;
            if (r)
                continue;
        }
        return count;
    }
fail:
    failed_here(S);
    settle_queues(S);
    return -1;
}

/* A value with two places left in a unit, both uncertain, is a binary choice:
 * it replaces the chosen cell (of more than two candidates, with conflicts
 * per candidate `top`) when the busier of its places has more conflicts than
 * that; the busier place is tried first. Measured on ISS's puzzles (nodes to two
 * solutions, against the cell alone): Skyscraper - all 5 2,664 to 56, Nabner
 * 209,244 to 114,519, The Barbed Cross 42,773 to 27,443, Hazy Rellik 10,628 to
 * 5,704; worse on Heat up - global entropy 4,489 to 9,937 and Sum lines 38,351
 * to 57,165. Twice the cell's score (ISS's weight) gained less: 50,091 on The
 * Barbed Cross, 731 on Skyscraper - all 5. */
static int choose_place(Search *S, const uint32_t *cands, int best, double *top, uint32_t *bit)
{
    const VKernel *k = S->k;
    const int n = k->n;
    double most = *top;
    uint32_t pick = 0;
    for (int u = 0; u < k->nunits; u++) {
        const int *cells = k->units + u * n;
        uint32_t one = 0, two = 0, more = 0;
        for (int i = 0; i < n; i++) {
            uint32_t x = cands[cells[i]];
            if (!(x & (x - 1)))
                continue; /* placed or single: not a choice */
            more |= two & x;
            two |= one & x;
            one |= x;
        }
        for (uint32_t m = two & ~more; m; m &= m - 1) {
            uint32_t v = m & (~m + 1);
            int a = -1, b = -1;
            for (int i = 0; i < n; i++) {
                uint32_t x = cands[cells[i]];
                if ((x & v) && (x & (x - 1))) {
                    if (a < 0)
                        a = cells[i];
                    else
                        b = cells[i];
                }
            }
            if (b < 0)
                continue;
            if (S->conflicts[b] > S->conflicts[a]) {
                int t = a;
                a = b;
                b = t;
            }
            if (S->conflicts[a] > most) {
                most = S->conflicts[a];
                best = a;
                pick = v;
            }
        }
    }
    if (pick) {
        *bit = pick;
        *top = most;
    }
    return best;
}

/* The cell to branch on and its value bit (-1 when every cell is placed):
 * the fewest candidates (ties broken by conflicts, as asked), or the most
 * conflicts per candidate. */
static int choose(Search *S, const uint32_t *cands, uint32_t *bit)
{
    const VKernel *k = S->k;
    int best = -1;
    if (S->choice >= CHOOSE_CONFLICTS_PER_VALUE) {
        double top = -1;
        for (int c = 0; c < k->ncells; c++) {
            uint32_t m = cands[c];
            if (!m)
                continue;
            double conflicts = S->conflicts[c];
            if (k->link && k->link[c] >= 0) {
                uint32_t p = cands[k->link[c]];
                if (!(p & (p - 1)))
                    conflicts *= LINK_BOOST;
            }
            double score = (1.0 + conflicts) / popcount32(m);
            if (score > top) {
                top = score;
                best = c;
            }
        }
        if (best >= 0 && S->choice == CHOOSE_CONFLICTS_PLACES && popcount32(cands[best]) > 2 &&
            S->conflicts[best]) {
            uint32_t pick = 0;
            best = choose_place(S, cands, best, &top, &pick);
            for (int i = 0; i < k->nhinted; i++)
                best = ranks_hint(S, cands, &k->cons[k->hinted[i]], &top, best, &pick);
            if (pick) {
                *bit = pick;
                return best;
            }
        }
    } else {
        int fewest = 99;
        uint32_t most = 0;
        const int ties = S->choice == CHOOSE_FEWEST_CONFLICTS;
        for (int c = 0; c < k->ncells; c++) {
            uint32_t m = cands[c];
            if (!m)
                continue;
            int cnt = popcount32(m);
            if (cnt < fewest || (ties && cnt == fewest && S->conflicts[c] > most)) {
                best = c;
                fewest = cnt;
                most = S->conflicts[c];
                if (cnt == 2 && !ties)
                    break;
            }
        }
    }
    if (best < 0)
        return -1;
    *bit = cands[best] & (~cands[best] + 1);
    return best;
}

/* Explore the propagated state at `depth`: 1 once enough solutions are found,
 * 0 when the subtree is exhausted, -1 when the search must stop. */
static int dfs(Search *S, int depth)
{
    const VKernel *k = S->k;
    const int W = S->W;
    uint32_t *s = S->stack + (size_t)depth * W;
    const int locked = depth < S->locked_depth;
    for (;;) {
        S->nodes++;
        if (!(S->nodes & S->clock_mask) && run_must_stop(&S->run))
            return -1;
        uint32_t b = 0;
        int best = choose(S, s, &b);
        if (best < 0) {
            if (run_record(&S->run, s + k->ncells) < 0)
                return -1;
            return S->run.nsols >= S->max_solutions;
        }
        S->guesses++;
        uint32_t *child = s + W;
        memcpy(child, s, (size_t)W * sizeof(uint32_t));
        child[best] = b;
        note(S, best);
        S->queue[S->qn++] = best;
        long r = propagate(S, child, locked);
        if (r >= 0) {
            S->props += (unsigned long long)r;
            int d = dfs(S, depth + 1);
            if (d)
                return d;
        } else {
            S->conflicts[best] += BRANCH_BLAME; /* its value failed at once */
        }
        S->backtracks++;
        if (restrict_to(S, s, best, ~b) < 0) {
            settle_queues(S);
            return 0;
        }
        r = propagate(S, s, locked);
        if (r < 0)
            return 0;
        S->props += (unsigned long long)r;
    }
}

static PyObject *stat_names[5];

static PyObject *statistics(const Search *S)
{
    unsigned long long values[5] = {S->nodes, S->guesses, S->backtracks, S->props, S->passes};
    return counters(stat_names, values, 5);
}

static void release(Search *S)
{
    free(S->ups);
    free(S->opts);
    free(S->option_at);
    free(S->cell_set);
    free(S->dry);
    free(S->alt);
    free(S->alt_union);
    free(S->stack);
    free(S->run.sols);
    free(S->events);
}

/* Set up a search over `domains` (read into the first state; cells with one value
 * queued, `empty` set when one has none): 0, or -1 with an error set and S released. */
static int search_open(VKernel *self, PyObject *domains_obj, Search *S, int *empty)
{
    if (!self->units) {
        PyErr_SetString(PyExc_ValueError, "the VKernel was not initialised");
        return -1;
    }
    const int ncells = self->ncells, nunits = self->nunits, ncons = self->ncons;
    PyObject *dseq = domains_of(domains_obj, ncells);
    if (!dseq)
        return -1;
    memset(S, 0, sizeof *S);
    S->k = self;
    S->run.ncells = ncells;
    S->W = 2 * ncells + nunits + self->nextra;
    S->running = -1;
    S->clock_mask = 63;
    /* one block: the states, then the queues, flags, supports and bitsets */
    size_t states = ((size_t)ncells + 2) * S->W * sizeof(uint32_t);
    size_t ints = ((size_t)ncells + nunits + 2 * (size_t)ncons + 4) * sizeof(int);
    size_t flags = (size_t)nunits + ncons + 8;
    size_t words = (states + ints + flags + (size_t)ncells * sizeof(uint32_t) +
                    ((size_t)self->max_len + 1) * sizeof(uint32_t) + 7) / 8 + self->scratch_words;
    S->stack = calloc(words + 1, sizeof(uint64_t));
    S->ups = malloc((self->max_options + 1) * sizeof(int64_t));
    S->opts = malloc((self->max_options + 1) * sizeof(uint32_t));
    S->option_at = malloc(((size_t)self->max_len + 2) * sizeof(int));
    S->cell_set = malloc((size_t)self->pw * sizeof(uint64_t));
    S->dry = calloc((size_t)self->nslots + 1, sizeof(uint8_t));
    S->alt = malloc((2 * (size_t)ncells + 1) * sizeof(uint32_t));
    S->alt_union = malloc(((size_t)self->max_len + 1) * sizeof(uint32_t));
    if (!S->stack || !S->ups || !S->opts || !S->option_at || !S->cell_set || !S->dry || !S->alt
        || !S->alt_union) {
        Py_DECREF(dseq);
        release(S);
        PyErr_NoMemory();
        return -1;
    }
    char *at = (char *)S->stack + states;
    S->queue = (int *)at;
    S->ulist = S->queue + ncells + 1;
    S->ring = S->ulist + nunits + 1;
    S->sring = S->ring + ncons + 1;
    at += ints;
    S->conflicts = (uint32_t *)at;
    if (self->prio)
        memcpy(S->conflicts, self->prio, (size_t)ncells * sizeof(uint32_t));
    S->support = S->conflicts + ncells;
    at = (char *)(S->support + self->max_len + 1);
    S->udirty = (uint8_t *)at;
    S->inq = S->udirty + nunits;
    at += flags;
    S->bits = (uint64_t *)((uintptr_t)(at + 7) & ~(uintptr_t)7);

    uint32_t *s = S->stack;
    *empty = 0;
    source(S, SRC_START, 0);
    int read = read_domains(dseq, ncells, self->full, self->n, s, S->queue, &S->qn, empty);
    Py_DECREF(dseq);
    if (read < 0) {
        release(S);
        return -1;
    }
    for (int x = 0; x < ncons; x++) {
        const Con *c = &self->cons[x];
        if (c->kind == K_REGIONS)
            shards_start(c, self->n, s);
        if (c->kind == K_OR) /* every alternative alive */
            for (int a = 0; a < c->nalts; a++)
                s[c->alive_at + a / 32] |= 1u << (a % 32);
    }
    return 0;
}

/* The first propagation of an opened search: every unit and constraint looked at. */
static long propagate_all(Search *S, int locked)
{
    const VKernel *k = S->k;
    for (int u = 0; u < k->nunits; u++) {
        S->udirty[u] = 1;
        S->ulist[S->un++] = u;
    }
    for (int x = 0; x < k->ncons; x++)
        enqueue(S, x);
    return propagate(S, S->stack, locked);
}

static PyObject *VKernel_solve(VKernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"domains", "max_solutions", "time_limit", "locked_depth", "choice",
                             NULL};
    PyObject *domains_obj, *limit_obj = Py_None;
    long max_solutions = 1;
    int locked_depth = 0, choice = CHOOSE_FEWEST;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|lOii", kwlist, &domains_obj,
                                     &max_solutions, &limit_obj, &locked_depth, &choice))
        return NULL;
    double time_limit;
    if (read_limits(max_solutions, limit_obj, locked_depth, &time_limit) < 0)
        return NULL;
    if (choice < 0 || choice >= CHOOSE_MODES) {
        PyErr_SetString(PyExc_ValueError, "choice must be 0 (fewest candidates), 1 (fewest, "
                                          "ties by conflicts) or 2 (conflicts per candidate)");
        return NULL;
    }
    Search S;
    int empty;
    if (search_open(self, domains_obj, &S, &empty) < 0)
        return NULL;
    S.max_solutions = max_solutions;
    S.locked_depth = locked_depth;
    S.choice = choice;

    int exhausted = 1;
    run_start(&S.run, time_limit);
    if (!empty) {
        long r = propagate_all(&S, locked_depth > 0);
        if (r >= 0) {
            S.props += (unsigned long long)r;
            int d = dfs(&S, 0);
            exhausted = d == 0;
        }
    }
    if (run_stop(&S.run) < 0) {
        release(&S);
        return NULL;
    }
    PyObject *result = run_result(&S.run, exhausted, statistics(&S));
    release(&S);
    return result;
}

#include "_probe.h"

static PyObject *VKernel_get_size(VKernel *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->n);
}

static PyMethodDef VKernel_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))VKernel_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(domains, max_solutions=1, time_limit=None, locked_depth=0, choice=0) -> "
     "(solutions, exhausted, timed_out, stats); choice: 0 fewest candidates, 1 fewest with "
     "ties broken by conflicts, 2 most conflicts per candidate"},
    {"propagate", (PyCFunction)(void (*)(void))VKernel_propagate, METH_VARARGS | METH_KEYWORDS,
     PROPAGATE_DOC},
    {"probe", (PyCFunction)(void (*)(void))VKernel_probe, METH_VARARGS | METH_KEYWORDS,
     PROBE_DOC},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef VKernel_getset[] = {
    {"size", (getter)VKernel_get_size, NULL, "number of values", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject VKernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpsudoku.engine._vkernel.VKernel",
    .tp_basicsize = sizeof(VKernel),
    .tp_dealloc = (destructor)VKernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "VKernel(size, units, peers, intersections, constraints, nvars=N*N): "
              "a checked structure with constraints of every kind",
    .tp_methods = VKernel_methods,
    .tp_getset = VKernel_getset,
    .tp_init = (initproc)VKernel_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef vkernel_module = {
    PyModuleDef_HEAD_INIT, "_vkernel",
    "The native engine's compiled search for models with every constraint kind.", -1, NULL,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__vkernel(void)
{
    if (PyType_Ready(&VKernelType) < 0)
        return NULL;
    const char *names[5] = {"nodes", "guesses", "backtracks", "propagations", "passes"};
    for (int i = 0; i < 5; i++)
        if (!stat_names[i] && !(stat_names[i] = PyUnicode_InternFromString(names[i])))
            return NULL;
    PyObject *m = PyModule_Create(&vkernel_module);
    if (!m)
        return NULL;
    Py_INCREF(&VKernelType);
    if (PyModule_AddObject(m, "VKernel", (PyObject *)&VKernelType) < 0) {
        Py_DECREF(&VKernelType);
        Py_DECREF(m);
        return NULL;
    }
    const char *kinds[K_KINDS] = {"SUM", "CAGE", "LESS", "TABLE", "REGULAR", "COUNT",
                                  "REGIONS", "RUNS", "RANKS", "OR", "SAME", "SANDWICH",
                                  "SAME_COUNT"};
    for (int i = 0; i < K_KINDS; i++)
        if (PyModule_AddIntConstant(m, kinds[i], i) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    if (PyModule_AddIntConstant(m, "MAX_VALUES", MAX_VALUES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
