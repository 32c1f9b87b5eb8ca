/* The state the variant search and every constraint kind's handler share, included
 * first by `_vkernel.c`: a constraint's record (`Con`), the checked structure
 * (`VKernel`), the search (`Search`) with its queues and trail of states, the
 * one way a handler narrows a cell (`restrict_to`), and `Kind`, what a handler
 * gives the core: its build, its preparation once the structure is known, its
 * words of the state and its pass. The handlers (`kinds/`) are included after
 * this, and the core's table of them (`KINDS`, indexed by kind) after those.
 */
#ifndef CPSUDOKU_ENGINE_VSTATE_H
#define CPSUDOKU_ENGINE_VSTATE_H

#include "_search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VALUES 32

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
    size_t need;      /* the 64-bit words of scratch its pass needs (S->bits) */
    size_t noptions;  /* SUM: the most options it lists in one pass */
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
    int cap_cons;         /* room for constraints in `cons` */
    int sealed;           /* 1 once prepared for searching (no more constraints), -1 if
                           * that failed */
} VKernel;


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

/* A fresh array of `count` 32-bit words (room for one at least), or NULL with
 * MemoryError set. */
static uint32_t *new_words(size_t count)
{
    uint32_t *out = malloc((count ? count : 1) * sizeof(uint32_t));
    if (!out)
        PyErr_NoMemory();
    return out;
}

static int bad(const char *format, int index)
{
    PyErr_Format(PyExc_ValueError, format, index);
    return -1;
}

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

/* What a constraint kind brings to the core, one entry per kind in `KINDS`. Every
 * hook but `propagate` may be NULL. */
typedef struct {
    const char *name;   /* the extension's constant for the kind */
    /* the kernel's method that adds one, `method(cells, params..., within=None)`:
     * its parameters' names, and per parameter a code saying how its value joins
     * the data `build` reads: i an integer, s a sequence of integers, n a sequence
     * after its length, p a sequence of tuples of integers after their count, t the
     * constraint's total (not data); in capitals, optional (an empty n: nothing) */
    const char *method;
    const char *params[6];
    const char *codes;
    const char *doc;
    /* reads the constraint's data (its kind, cells and total are set): 0, or -1
     * with an error set */
    int (*build)(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index);
    /* once every constraint is added, before the first search: what depends on the
     * structure or the other constraints, and the words it keeps in the state
     * (`reserve`); `nested` inside an OR's alternative. 0, or -1 with an error set */
    int (*prepare)(VKernel *vk, Con *c, int index, int nested);
    /* adds to each variable's first conflict count (its branching priority); by
     * default the constraint's length to each of its cells */
    void (*priority)(const VKernel *vk, const Con *c, uint32_t *prio);
    void (*start)(const Con *c, int n, uint32_t *s); /* its words of the first state */
    /* narrows the state's domains: -1 on contradiction */
    int (*propagate)(Search *S, uint32_t *s, const Con *c);
    /* may replace the branching cell (`best`, of score *most) and value (*bit) */
    int (*hint)(const Search *S, const uint32_t *cands, const Con *c, double *most, int best,
                uint32_t *bit);
    int nested;         /* it may stand in an OR's alternative */
    int everywhere;     /* its cells are every cell: its failures blame none (see blame) */
} Kind;

/* The default branching priority: `weight` to each of the constraint's cells, and
 * its length again to a cell whose partner (see LINK_BOOST) is in it too, when it
 * is long. */
static void add_priority(const VKernel *vk, const Con *c, uint32_t weight, uint32_t *prio)
{
    for (int i = 0; i < c->len; i++)
        prio[c->cells[i]] += weight;
    if (c->len >= (vk->n + 1 > 10 ? vk->n + 1 : 10))
        for (int i = 0; i < c->len; i++) {
            int other = vk->link[c->cells[i]];
            for (int j = 0; other >= 0 && j < c->len; j++)
                if (c->cells[j] == other)
                    prio[c->cells[i]] += (uint32_t)c->len;
        }
}

/* The table of kinds, in `_vkernel.c`; an OR runs its alternatives through it. */
static const Kind *const KINDS[K_KINDS];

static inline int run_pass(Search *S, uint32_t *s, const Con *c)
{
    return KINDS[c->kind]->propagate(S, s, c);
}

/* `words` words of the search state kept for a constraint (after the cells, the
 * units and what others keep): their offset. */
static inline int reserve(VKernel *vk, int words)
{
    const int at = 2 * vk->ncells + vk->nunits + vk->nextra;
    vk->nextra += words;
    return at;
}

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

#endif
