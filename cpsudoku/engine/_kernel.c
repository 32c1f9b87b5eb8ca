/* The compiled kernel of the native engine: the search of `engine.fast` in C99.
 *
 * Models made only of all-different groups, up to 32 values (a uint32 mask
 * per cell). A Kernel object holds a structure (units, peers, intersections)
 * checked once when it is built; `Kernel.solve` searches from a list of
 * candidate masks and returns what `engine.fast.solve` returns.
 *
 * State is one flat array of words, copied when the search branches:
 * cands[ncells] (0 once placed), grid[ncells] (the placed value's bit),
 * placed[nunits] (values placed in each unit).
 *
 * The GIL is released during the search; every few milliseconds the search
 * takes it back briefly to let Python handle signals (Ctrl-C). The clock, the
 * solutions found and the call's arguments are handled as in the variant
 * kernel (`_search.h`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_search.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#define MAX_VALUES 32
#define MAX_CELLS (MAX_VALUES * MAX_VALUES)

typedef struct {
    PyObject_HEAD
    int n, ncells, nunits, nints;
    uint32_t full;
    int *units;        /* nunits * n cells */
    int *peer_start;   /* ncells + 1 offsets into peers */
    int *peers;
    int *cu_start;     /* ncells + 1 offsets into cell_units */
    int *cell_units;
    int nw;            /* 64-bit words in a set of units */
    uint64_t *unit_set; /* ncells * nw: per cell, the set of its units */
    int *int_start;    /* 3 * nints + 1 offsets into int_cells: shared, rest a, rest b */
    int *int_cells;
    uint32_t *spare;   /* a search's work space kept between calls (NULL while in use) */
} Kernel;

static inline int single(uint32_t m) { return m && !(m & (m - 1)); }

/* ------------------------------------------------------------------------ */
/* building and checking a structure                                        */

/* A Python sequence of ints, each in [0, bound), as a fresh C array. */
static int *int_list(PyObject *obj, int bound, Py_ssize_t *len, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int *out = PyMem_Malloc((size_t)(k ? k : 1) * sizeof(int));
    if (!out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "%s: item %zd is not a cell index", what, i);
            goto bad;
        }
        if (v < 0 || v >= bound) {
            PyErr_Format(PyExc_ValueError, "%s: cell %ld out of range 0..%d", what, v,
                         bound - 1);
            goto bad;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    *len = k;
    return out;
bad:
    Py_DECREF(seq);
    PyMem_Free(out);
    return NULL;
}

/* Append the ints of `obj` to a growing array (offsets kept by the caller). */
static int append_list(int **buf, Py_ssize_t *used, Py_ssize_t *cap, PyObject *obj, int bound,
                       const char *what)
{
    Py_ssize_t k;
    int *items = int_list(obj, bound, &k, what);
    if (!items)
        return -1;
    if (*used + k > *cap) {
        Py_ssize_t ncap = 2 * (*cap) + k + 16;
        int *nb = PyMem_Realloc(*buf, (size_t)ncap * sizeof(int));
        if (!nb) {
            PyMem_Free(items);
            PyErr_NoMemory();
            return -1;
        }
        *buf = nb;
        *cap = ncap;
    }
    memcpy(*buf + *used, items, (size_t)k * sizeof(int));
    *used += k;
    PyMem_Free(items);
    return 0;
}

static void Kernel_dealloc(Kernel *self)
{
    PyMem_Free(self->units);
    PyMem_Free(self->peer_start);
    PyMem_Free(self->peers);
    PyMem_Free(self->cu_start);
    PyMem_Free(self->unit_set);
    PyMem_Free(self->cell_units);
    PyMem_Free(self->int_start);
    PyMem_Free(self->int_cells);
    PyMem_Free(self->spare);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "units", "peers", "intersections", NULL};
    int n;
    PyObject *units_obj, *peers_obj, *ints_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOO", kwlist, &n, &units_obj, &peers_obj,
                                     &ints_obj))
        return -1;
    if (self->units) {
        PyErr_SetString(PyExc_TypeError, "a Kernel is built once");
        return -1;
    }
    if (n < 1 || n > MAX_VALUES) {
        PyErr_Format(PyExc_ValueError, "size %d out of range 1..%d", n, MAX_VALUES);
        return -1;
    }
    int ncells = n * n;
    self->n = n;
    self->ncells = ncells;
    self->full = n == 32 ? 0xffffffffu : ((1u << n) - 1);

    /* units: each exactly n distinct cells */
    PyObject *useq = PySequence_Fast(units_obj, "units must be a sequence");
    if (!useq)
        return -1;
    Py_ssize_t nunits = PySequence_Fast_GET_SIZE(useq);
    if (nunits > 64 * ncells) {
        Py_DECREF(useq);
        PyErr_Format(PyExc_ValueError, "%zd units for %d cells is too many", nunits, ncells);
        return -1;
    }
    self->nunits = (int)nunits;
    self->units = PyMem_Malloc((size_t)(nunits ? nunits : 1) * n * sizeof(int));
    if (!self->units) {
        Py_DECREF(useq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t u = 0; u < nunits; u++) {
        Py_ssize_t k;
        int *cells = int_list(PySequence_Fast_GET_ITEM(useq, u), ncells, &k, "unit");
        if (!cells) {
            Py_DECREF(useq);
            return -1;
        }
        if (k != n) {
            PyErr_Format(PyExc_ValueError, "unit %zd has %zd cells, not %d", u, k, n);
            PyMem_Free(cells);
            Py_DECREF(useq);
            return -1;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (cells[i] == cells[j]) {
                    PyErr_Format(PyExc_ValueError, "unit %zd holds cell %d twice", u, cells[i]);
                    PyMem_Free(cells);
                    Py_DECREF(useq);
                    return -1;
                }
        memcpy(self->units + u * n, cells, (size_t)n * sizeof(int));
        PyMem_Free(cells);
    }
    Py_DECREF(useq);

    /* cell -> units */
    self->cu_start = PyMem_Calloc((size_t)ncells + 1, sizeof(int));
    self->cell_units = PyMem_Malloc((size_t)(nunits ? nunits : 1) * n * sizeof(int));
    if (!self->cu_start || !self->cell_units) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->nunits * n; i++)
        self->cu_start[self->units[i] + 1]++;
    for (int c = 0; c < ncells; c++)
        self->cu_start[c + 1] += self->cu_start[c];
    {
        int *fill = PyMem_Malloc((size_t)ncells * sizeof(int));
        if (!fill) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(fill, self->cu_start, (size_t)ncells * sizeof(int));
        for (int u = 0; u < self->nunits; u++)
            for (int i = 0; i < n; i++) {
                int c = self->units[u * n + i];
                self->cell_units[fill[c]++] = u;
            }
        PyMem_Free(fill);
    }
    self->nw = (self->nunits + 63) / 64 + (self->nunits == 0);
    self->unit_set = PyMem_Calloc((size_t)ncells * self->nw, sizeof(uint64_t));
    if (!self->unit_set) {
        PyErr_NoMemory();
        return -1;
    }
    for (int c = 0; c < ncells; c++)
        for (int i = self->cu_start[c]; i < self->cu_start[c + 1]; i++)
            self->unit_set[(size_t)c * self->nw + self->cell_units[i] / 64] |=
                1ull << (self->cell_units[i] % 64);

    /* peers: one sequence per cell, never the cell itself */
    PyObject *pseq = PySequence_Fast(peers_obj, "peers must be a sequence");
    if (!pseq)
        return -1;
    if (PySequence_Fast_GET_SIZE(pseq) != ncells) {
        PyErr_Format(PyExc_ValueError, "peers has %zd entries, not %d",
                     PySequence_Fast_GET_SIZE(pseq), ncells);
        Py_DECREF(pseq);
        return -1;
    }
    self->peer_start = PyMem_Malloc(((size_t)ncells + 1) * sizeof(int));
    if (!self->peer_start) {
        Py_DECREF(pseq);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t used = 0, cap = 0;
    for (int c = 0; c < ncells; c++) {
        self->peer_start[c] = (int)used;
        if (append_list(&self->peers, &used, &cap, PySequence_Fast_GET_ITEM(pseq, c), ncells,
                        "peers") < 0) {
            Py_DECREF(pseq);
            return -1;
        }
        for (Py_ssize_t i = self->peer_start[c]; i < used; i++)
            if (self->peers[i] == c) {
                PyErr_Format(PyExc_ValueError, "cell %d is listed as its own peer", c);
                Py_DECREF(pseq);
                return -1;
            }
        if (used > (Py_ssize_t)ncells * ncells) {
            PyErr_SetString(PyExc_ValueError, "peers: more entries than cell pairs");
            Py_DECREF(pseq);
            return -1;
        }
    }
    self->peer_start[ncells] = (int)used;
    Py_DECREF(pseq);

    /* intersections: (shared, rest of unit a, rest of unit b) */
    PyObject *iseq = PySequence_Fast(ints_obj, "intersections must be a sequence");
    if (!iseq)
        return -1;
    Py_ssize_t nints = PySequence_Fast_GET_SIZE(iseq);
    if (nints > (Py_ssize_t)self->nunits * self->nunits) {
        PyErr_Format(PyExc_ValueError, "%zd intersections for %d units", nints, self->nunits);
        Py_DECREF(iseq);
        return -1;
    }
    self->nints = (int)nints;
    self->int_start = PyMem_Malloc(((size_t)3 * nints + 1) * sizeof(int));
    if (!self->int_start) {
        Py_DECREF(iseq);
        PyErr_NoMemory();
        return -1;
    }
    used = cap = 0;
    for (Py_ssize_t k = 0; k < nints; k++) {
        PyObject *triple = PySequence_Fast(PySequence_Fast_GET_ITEM(iseq, k),
                                           "an intersection must be a sequence");
        if (!triple) {
            Py_DECREF(iseq);
            return -1;
        }
        if (PySequence_Fast_GET_SIZE(triple) != 3) {
            PyErr_Format(PyExc_ValueError, "intersection %zd is not (shared, rest a, rest b)",
                         k);
            Py_DECREF(triple);
            Py_DECREF(iseq);
            return -1;
        }
        for (int part = 0; part < 3; part++) {
            self->int_start[3 * k + part] = (int)used;
            if (append_list(&self->int_cells, &used, &cap, PySequence_Fast_GET_ITEM(triple, part),
                            ncells, "intersection") < 0) {
                Py_DECREF(triple);
                Py_DECREF(iseq);
                return -1;
            }
            if (used - self->int_start[3 * k + part] > n) {
                PyErr_Format(PyExc_ValueError, "intersection %zd: a part longer than a unit", k);
                Py_DECREF(triple);
                Py_DECREF(iseq);
                return -1;
            }
        }
        Py_DECREF(triple);
    }
    self->int_start[3 * nints] = (int)used;
    Py_DECREF(iseq);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* the search                                                               */

typedef struct {
    const Kernel *k;
    int W;                 /* words per state */
    uint32_t *stack;       /* (ncells + 2) states, one per search level */
    uint32_t *scratch;     /* a state for probing */
    int *queue;            /* open cells left with one candidate */
    uint64_t *dirty;       /* the units whose candidates changed since their last scan */
    int any_dirty;
    int locked_depth, pairs, probing;
    long max_solutions;
    unsigned long long nodes, guesses, backtracks, props;
    unsigned clock_mask;
    Run run;               /* the clock and the solutions found */
} Search;

/* The hot loops' tables, as restrict pointers held in locals: without them the
 * compiler reloads every table pointer after each store (measured: a quarter
 * of propagate's time). */
typedef struct {
    uint32_t *restrict cands;
    uint64_t *restrict dirty;
    int *restrict queue;
    const uint64_t *restrict unit_set;
    int nw;
} Hot;

static inline Hot hot_of(const Search *S, uint32_t *cands)
{
    Hot h = {cands, S->dirty, S->queue, S->k->unit_set, S->k->nw};
    return h;
}

static inline void mark(Hot h, int c)
{
    const uint64_t *set = h.unit_set + (size_t)c * h.nw;
    for (int w = 0; w < h.nw; w++)
        h.dirty[w] |= set[w];
}

/* Remove `x` from cell c: -1 if it empties, else 0 (a cell left with one value
 * is queued; its units are marked dirty, and *any with them). */
static inline int remove_from(Hot h, int c, uint32_t x, int *qn, int *any)
{
    uint32_t m = h.cands[c];
    if (!(m & x))
        return 0;
    m &= ~x;
    h.cands[c] = m;
    mark(h, c);
    *any = 1;
    if (!(m & (m - 1))) {
        if (!m)
            return -1;
        h.queue[(*qn)++] = c;
    }
    return 0;
}

static inline void touch(Search *S, int c)
{
    mark(hot_of(S, NULL), c);
    S->any_dirty = 1;
}

static inline int take(Search *S, uint32_t *cands, int c, uint32_t x, int *qn)
{
    return remove_from(hot_of(S, cands), c, x, qn, &S->any_dirty);
}

/* Locked candidates at every intersection; -1 on contradiction, else 1 if anything changed. */
static int locked_pass(Search *S, uint32_t *cands, int *qn)
{
    const Kernel *k = S->k;
    const Hot h = hot_of(S, cands);
    const int *restrict start = k->int_start, *restrict cells = k->int_cells;
    int changed = 0;
    for (int x = 0; x < k->nints; x++) {
        const int *st = start + 3 * x;
        uint32_t i = 0, ra = 0, rb = 0;
        for (int j = st[0]; j < st[1]; j++)
            i |= h.cands[cells[j]];
        if (!i)
            continue;
        for (int j = st[1]; j < st[2]; j++)
            ra |= h.cands[cells[j]];
        for (int j = st[2]; j < st[3]; j++)
            rb |= h.cands[cells[j]];
        uint32_t leave_b = i & rb & ~ra, leave_a = i & ra & ~rb;
        if (leave_b) {
            changed = 1;
            for (int j = st[2]; j < st[3]; j++)
                if (remove_from(h, cells[j], leave_b, qn, &S->any_dirty) < 0)
                    return -1;
        }
        if (leave_a) {
            changed = 1;
            for (int j = st[1]; j < st[2]; j++)
                if (remove_from(h, cells[j], leave_a, qn, &S->any_dirty) < 0)
                    return -1;
        }
    }
    return changed;
}

/* Naked and hidden pairs in every unit; -1 on contradiction, else 1 if anything changed. */
static int pairs_pass(Search *S, uint32_t *cands, int *qn)
{
    const Kernel *k = S->k;
    int n = k->n, changed = 0;
    for (int u = 0; u < k->nunits; u++) {
        const int *cells = k->units + u * n;
        uint32_t o = 0, t = 0, h = 0;
        for (int i = 0; i < n; i++) {
            uint32_t x = cands[cells[i]];
            h |= t & x;
            t |= o & x;
            o |= x;
        }
        /* naked pairs: two cells with the same two candidates */
        for (int i = 0; i < n; i++) {
            uint32_t x = cands[cells[i]];
            if (popcount32(x) != 2)
                continue;
            for (int j = i + 1; j < n; j++) {
                if (cands[cells[j]] != x)
                    continue;
                for (int p = 0; p < n; p++) {
                    uint32_t m = cands[cells[p]];
                    if (p != i && p != j && (m & x)) {
                        changed = 1;
                        if (take(S, cands, cells[p], x, qn) < 0)
                            return -1;
                    }
                }
                break;
            }
        }
        /* hidden pairs: two values with the same two places */
        uint32_t two = t & ~h;
        if (!(two & (two - 1)))
            continue;
        int place[MAX_VALUES][2];
        uint32_t vals[MAX_VALUES];
        int nv = 0;
        while (two) {
            uint32_t v = two & (~two + 1);
            two ^= v;
            int a = -1, b = -1, count = 0;
            for (int i = 0; i < n; i++)
                if (cands[cells[i]] & v) {
                    if (count == 0)
                        a = i;
                    else
                        b = i;
                    count++;
                }
            if (count != 2)
                continue; /* a naked pair above took v from a cell */
            for (int w = 0; w < nv; w++)
                if (place[w][0] == a && place[w][1] == b) {
                    uint32_t keep = vals[w] | v;
                    for (int e = 0; e < 2; e++) {
                        int c = cells[e ? b : a];
                        if (cands[c] & ~keep) {
                            changed = 1;
                            if (take(S, cands, c, ~keep, qn) < 0)
                                return -1;
                        }
                    }
                }
            place[nv][0] = a;
            place[nv][1] = b;
            vals[nv++] = v;
        }
    }
    return changed;
}

/* Propagate a state: place queued cells, remove their values from the peers,
 * scan dirty units for hidden singles, then (if asked) locked candidates and
 * pairs, until nothing changes. The caller has queued cells and marked
 * units dirty. Returns the number of placements, or -1 on contradiction. */
static inline __attribute__((always_inline)) long
propagate_sized(Search *S, uint32_t *s, int qn, int locked, int pairs, const int n, const int nw)
{
    const Kernel *k = S->k;
    const int ncells = n * n;
    const uint32_t full = n == 32 ? 0xffffffffu : ((1u << n) - 1);
    uint32_t *cands = s, *grid = s + ncells, *placed = s + 2 * ncells;
    Hot h = hot_of(S, s);
    h.nw = nw;
    const int *restrict peer_start = k->peer_start, *restrict peers = k->peers;
    const int *restrict units = k->units;
    const int *restrict cu_start = k->cu_start, *restrict cell_units = k->cell_units;
    int *q = h.queue;
    uint64_t *dirty = h.dirty;
    int any = S->any_dirty;
    long count = 0;
    for (;;) {
        while (qn) {
            int c = q[--qn];
            uint32_t b = cands[c];
            if (!b)
                continue;
            cands[c] = 0;
            grid[c] = b;
            count++;
            for (int i = cu_start[c]; i < cu_start[c + 1]; i++)
                placed[cell_units[i]] |= b;
            for (int i = peer_start[c]; i < peer_start[c + 1]; i++)
                if (remove_from(h, peers[i], b, &qn, &any) < 0)
                    goto fail;
        }
        if (any) {
            any = 0;
            for (int w = 0; w < h.nw; w++)
            for (uint64_t bits = dirty[w]; bits; bits &= bits - 1) {
                int u = 64 * w + __builtin_ctzll(bits);
                dirty[w] &= ~(1ull << (u % 64)); /* marks made below stay for the next round */
                const int *cells = units + u * n;
                uint32_t o = 0, t = 0;
                for (int i = 0; i < n; i++) {
                    uint32_t x = cands[cells[i]];
                    t |= o & x;
                    o |= x;
                }
                if ((o | placed[u]) != full)
                    goto fail;
                o &= ~t;
                if (!o)
                    continue;
                for (int i = 0; i < n; i++) {
                    int c = cells[i];
                    uint32_t m = cands[c] & o;
                    if (!m)
                        continue;
                    if (m & (m - 1))
                        goto fail; /* one cell is the only place for two values */
                    if (cands[c] != m) {
                        cands[c] = m;
                        mark(h, c);
                        any = 1;
                        q[qn++] = c;
                    }
                }
            }
            continue;
        }
        if (qn)
            continue;
        if (locked) {
            S->any_dirty = 0;
            int r = locked_pass(S, cands, &qn);
            any = S->any_dirty;
            if (r < 0)
                goto fail;
            if (r)
                continue;
        }
        if (pairs) {
            S->any_dirty = 0;
            int r = pairs_pass(S, cands, &qn);
            any = S->any_dirty;
            if (r < 0)
                goto fail;
            if (r)
                continue;
        }
        S->any_dirty = 0;
        return count;
    }
fail:
    memset(dirty, 0, (size_t)h.nw * sizeof(uint64_t));
    S->any_dirty = 0;
    return -1;
}

/* Propagate a state (see propagate_sized). The classic grid gets its own copy with its
 * sizes known to the compiler, whose unrolled loops over a unit's nine cells and its
 * one word of unit flags are what a classic search spends its time in. */
static long propagate(Search *S, uint32_t *s, int qn, int locked, int pairs)
{
    if (S->k->n == 9 && S->k->nw == 1)
        return propagate_sized(S, s, qn, locked, pairs, 9, 1);
    return propagate_sized(S, s, qn, locked, pairs, S->k->n, S->k->nw);
}

/* Fewest-candidates cell and its lowest candidate; with `dual`, a value with
 * exactly two places in a unit comes first. Returns the cell, -1 when all are placed. */
/* Bits set in a mask of nine values: a table, where the build has no popcount
 * instruction (the classic grid's choice of a cell counts 81 masks at every node). */
static uint8_t bits9[512];

static int fewest_cell(const uint32_t *cands, int ncells)
{
    int best = -1, fewest = 99;
    for (int c = 0; c < ncells; c++) {
        uint32_t m = cands[c];
        if (!m)
            continue;
        int cnt = popcount32(m);
        if (cnt < fewest) {
            best = c;
            fewest = cnt;
            if (cnt == 2)
                break;
        }
    }
    return best;
}

static int fewest_cell9(const uint32_t *cands)
{
    int best = -1, fewest = 99;
    for (int c = 0; c < 81; c++) {
        int cnt = bits9[cands[c]];
        if (cnt && cnt < fewest) {
            best = c;
            fewest = cnt;
            if (cnt == 2)
                break;
        }
    }
    return best;
}

static int choose(Search *S, const uint32_t *cands, int dual, uint32_t *bit)
{
    const Kernel *k = S->k;
    int best = k->n == 9 ? fewest_cell9(cands) : fewest_cell(cands, k->ncells);
    if (best < 0)
        return -1;
    if (dual) {
        const int n = k->n;
        for (int u = 0; u < k->nunits; u++) {
            const int *cells = k->units + u * n;
            uint32_t o = 0, t = 0, h = 0;
            for (int i = 0; i < n; i++) {
                uint32_t x = cands[cells[i]];
                h |= t & x;
                t |= o & x;
                o |= x;
            }
            uint32_t two = t & ~h;
            if (two) {
                uint32_t v = two & (~two + 1);
                for (int i = 0; i < n; i++)
                    if (cands[cells[i]] & v) {
                        *bit = v;
                        return cells[i];
                    }
            }
        }
    }
    *bit = cands[best] & (~cands[best] + 1);
    return best;
}

#define PROBE_NONE 0
#define PROBE_PICK 1
#define PROBE_FAIL (-1)
#define PROBE_STOP (-2)

/* Try cell c = value bit v on a copy of s: placements made, or -1 if it fails. */
static long try_literal(Search *S, const uint32_t *s, int c, uint32_t v)
{
    uint32_t *t = S->scratch;
    memcpy(t, s, (size_t)S->W * sizeof(uint32_t));
    t[c] = v;
    S->queue[0] = c;
    touch(S, c);
    return propagate(S, t, 1, 0, 0);
}

/* Remove value bit v from cell c and settle the node: -1 on contradiction. */
static int refute(Search *S, uint32_t *s, int c, uint32_t v, int locked)
{
    uint32_t m = s[c] & ~v;
    if (!m)
        return -1;
    s[c] = m;
    touch(S, c);
    int qn = 0;
    if (!(m & (m - 1)))
        S->queue[qn++] = c;
    long r = propagate(S, s, qn, locked, S->pairs);
    if (r < 0)
        return -1;
    S->props += (unsigned long long)r;
    return 0;
}

/* Failed-value probing (see engine.subsets.make_probe): each value of each
 * two-candidate cell, and with probing >= 2 each of the two places of a value
 * with two places left in a unit, is tried with singles propagation; a value
 * that fails is removed and the node settled, and passes repeat until one
 * finds nothing. The binary choice whose two probes placed the most (product)
 * is the branching choice, as in look-ahead SAT solvers, and its side that
 * placed more is tried first (on the 25x25 minimal puzzles the hardest three
 * took 5 to 10 times fewer nodes than with the lower value first; the side
 * that placed fewer first took 4 to 8 times more). */
static int probe(Search *S, uint32_t *s, int locked, int *cell, uint32_t *bit)
{
    const Kernel *k = S->k;
    const int n = k->n;
    for (;;) {
        if (run_must_stop(&S->run))
            return PROBE_STOP;
        int best = -1, failed = 0;
        uint32_t best_bit = 0;
        double best_score = -1;
        for (int c = 0; c < k->ncells; c++) {
            uint32_t m = s[c];
            if (popcount32(m) != 2)
                continue;
            uint32_t a = m & (~m + 1), vals[2] = {a, m ^ a};
            double score = 1;
            long placed[2] = {0, 0};
            int bad = 0;
            for (int i = 0; i < 2 && !bad; i++) {
                long r = try_literal(S, s, c, vals[i]);
                if (r < 0) {
                    if (refute(S, s, c, vals[i], locked) < 0)
                        return PROBE_FAIL;
                    bad = failed = 1;
                }
                placed[i] = r;
                score *= (double)(r + 1);
            }
            if (bad)
                continue;
            if (score > best_score) {
                best = c;
                best_bit = vals[placed[1] > placed[0]];
                best_score = score;
            }
        }
        for (int u = 0; S->probing >= 2 && u < k->nunits; u++) {
            const int *cells = k->units + u * n;
            uint32_t o = 0, t = 0, h = 0;
            for (int i = 0; i < n; i++) {
                uint32_t x = s[cells[i]];
                h |= t & x;
                t |= o & x;
                o |= x;
            }
            uint32_t two = t & ~h;
            while (two) {
                uint32_t v = two & (~two + 1);
                two ^= v;
                int place[2], np = 0;
                for (int i = 0; i < n && np < 2; i++)
                    if (s[cells[i]] & v)
                        place[np++] = cells[i];
                if (np != 2 || popcount32(s[place[0]]) == 2 || popcount32(s[place[1]]) == 2)
                    continue; /* gone, or already probed as a cell */
                double score = 1;
                long placed[2] = {0, 0};
                int bad = 0;
                for (int i = 0; i < 2 && !bad; i++) {
                    long r = try_literal(S, s, place[i], v);
                    if (r < 0) {
                        if (refute(S, s, place[i], v, locked) < 0)
                            return PROBE_FAIL;
                        bad = failed = 1;
                    }
                    placed[i] = r;
                    score *= (double)(r + 1);
                }
                if (bad)
                    break; /* this unit's masks changed */
                if (score > best_score) {
                    best = place[placed[1] > placed[0]];
                    best_bit = v;
                    best_score = score;
                }
            }
        }
        if (!failed) {
            if (best < 0)
                return PROBE_NONE;
            *cell = best;
            *bit = best_bit;
            return PROBE_PICK;
        }
    }
}

/* Explore the propagated state at `depth`: 1 once enough solutions are found,
 * 0 when the subtree is exhausted, -1 when the search must stop. */
static int dfs(Search *S, int depth)
{
    const Kernel *k = S->k;
    const int W = S->W;
    uint32_t *s = S->stack + (size_t)depth * W;
    const int locked = depth < S->locked_depth;
    for (;;) {
        S->nodes++;
        if (!(S->nodes & S->clock_mask) && run_must_stop(&S->run))
            return -1;
        int best = -1;
        uint32_t b = 0;
        int picked = PROBE_NONE;
        if (S->probing) {
            picked = probe(S, s, locked, &best, &b);
            if (picked == PROBE_FAIL)
                return 0;
            if (picked == PROBE_STOP)
                return -1;
        }
        if (picked == PROBE_NONE)
            best = choose(S, s, S->pairs, &b);
        if (best < 0) {
            if (run_record(&S->run, s + k->ncells) < 0)
                return -1;
            return S->run.nsols >= S->max_solutions;
        }
        S->guesses++;
        uint32_t *child = s + W;
        memcpy(child, s, (size_t)W * sizeof(uint32_t));
        child[best] = b;
        S->queue[0] = best;
        touch(S, best);
        long r = propagate(S, child, 1, locked, S->pairs);
        if (r >= 0) {
            S->props += (unsigned long long)r;
            int d = dfs(S, depth + 1);
            if (d)
                return d;
        }
        S->backtracks++;
        uint32_t m = s[best] & ~b;
        if (!m)
            return 0;
        s[best] = m;
        touch(S, best);
        int qn = 0;
        if (!(m & (m - 1)))
            S->queue[qn++] = best;
        r = propagate(S, s, qn, locked, S->pairs);
        if (r < 0)
            return 0;
        S->props += (unsigned long long)r;
    }
}

/* Keep a search's work space for the next call, or free it if one is kept already. */
static void give_back(Kernel *self, uint32_t *stack)
{
    if (self->spare == NULL)
        self->spare = stack;
    else
        PyMem_Free(stack);
}

/* The statistics' names, made once: building them on every call costs more
 * than an easy puzzle's whole search. */
static PyObject *stat_names[4];

static PyObject *statistics(const Search *S)
{
    unsigned long long values[4] = {S->nodes, S->guesses, S->backtracks, S->props};
    return counters(stat_names, values, 4);
}

/* Ready a search of the kernel: its settings and its work space (the kernel's kept
 * block unless another thread's search holds it; the GIL is held here, so taking
 * it is atomic). -1 with an error set when memory runs out. */
static int search_open(Search *S, Kernel *self, long max_solutions, int locked_depth,
                       int pairs, int probing)
{
    const int ncells = self->ncells;
    memset(S, 0, sizeof *S);
    S->k = self;
    S->run.ncells = ncells;
    S->W = 2 * ncells + self->nunits;
    S->max_solutions = max_solutions;
    S->locked_depth = locked_depth;
    S->pairs = pairs;
    S->probing = probing;
    S->clock_mask = self->n <= 9 ? 255 : 15;
    /* One block: the stack of states (one per search level), a scratch state,
     * the queue and the dirty flags. */
    size_t words = ((size_t)ncells + 3) * S->W;
    size_t flags_at = (words * sizeof(uint32_t) + (2 * (size_t)ncells + 2) * sizeof(int) + 7) / 8 * 8;
    S->stack = self->spare;
    self->spare = NULL;
    if (!S->stack)
        S->stack = PyMem_Malloc(flags_at + (size_t)self->nw * sizeof(uint64_t));
    if (!S->stack) {
        PyErr_NoMemory();
        return -1;
    }
    S->scratch = S->stack + ((size_t)ncells + 2) * S->W;
    S->queue = (int *)(S->stack + words);
    S->dirty = (uint64_t *)((char *)S->stack + flags_at);
    return 0;
}

static void search_close(Search *S)
{
    if (S->stack)
        give_back((Kernel *)S->k, S->stack);
    free(S->run.sols);
}

/* Level 0 and the flags zeroed, for the next puzzle's masks. */
static void search_clear(Search *S)
{
    memset(S->stack, 0, (size_t)S->W * sizeof(uint32_t));
    memset(S->dirty, 0, (size_t)S->k->nw * sizeof(uint64_t));
    S->any_dirty = 0;
    S->nodes = S->guesses = S->backtracks = S->props = 0;
    S->run.nsols = 0;
}

/* Search from the masks at level 0 (`qn` single-value cells queued; `empty`: a
 * mask is 0): 1 when the tree was exhausted, 0 when the search stopped early. */
static int search_masks(Search *S, int qn, int empty)
{
    if (empty)
        return 1;
    const int nunits = S->k->nunits;
    for (int u = 0; u < nunits; u++)
        S->dirty[u / 64] |= 1ull << (u % 64);
    S->any_dirty = 1;
    long r = propagate(S, S->stack, qn, S->locked_depth > 0, S->pairs);
    if (r < 0)
        return 1;
    S->props += (unsigned long long)r;
    return dfs(S, 0) == 0;
}

static PyObject *Kernel_solve(Kernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"domains", "max_solutions", "time_limit", "locked_depth", "pairs",
                             "probing", NULL};
    PyObject *domains_obj, *limit_obj = Py_None;
    long max_solutions = 1;
    int locked_depth = 0, pairs = 0, probing = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|lOiii", kwlist, &domains_obj,
                                     &max_solutions, &limit_obj, &locked_depth, &pairs,
                                     &probing))
        return NULL;
    if (probing < 0 || probing > 2) {
        PyErr_SetString(PyExc_ValueError, "probing must be 0, 1 (cells) or 2 (cells and places)");
        return NULL;
    }

    if (!self->units) {
        PyErr_SetString(PyExc_ValueError, "the Kernel was not initialised");
        return NULL;
    }
    double time_limit;
    if (read_limits(max_solutions, limit_obj, locked_depth, &time_limit) < 0)
        return NULL;
    const int ncells = self->ncells;
    PyObject *dseq = domains_of(domains_obj, ncells);
    if (!dseq)
        return NULL;

    Search S;
    if (search_open(&S, self, max_solutions, locked_depth, pairs, probing) < 0)
        goto error;
    search_clear(&S);
    int qn = 0, empty = 0;
    if (read_domains(dseq, ncells, self->full, self->n, S.stack, S.queue, &qn, &empty) < 0)
        goto error;

    run_start(&S.run, time_limit);
    int exhausted = search_masks(&S, qn, empty);
    if (run_stop(&S.run) < 0)
        goto error;
    PyObject *result = run_result(&S.run, exhausted, statistics(&S));
    Py_DECREF(dseq);
    search_close(&S);
    return result;

error:
    Py_DECREF(dseq);
    search_close(&S);
    return NULL;
}

#include "_lines.h"

static PyObject *Kernel_get_size(Kernel *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->n);
}

static PyMethodDef Kernel_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Kernel_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(domains, max_solutions=1, time_limit=None, locked_depth=0, pairs=False, "
     "probing=0) -> (solutions, exhausted, timed_out, stats); probing: 0 none, 1 two-candidate "
     "cells, 2 also the two places of a value in a unit"},
    {"solve_text", (PyCFunction)(void (*)(void))Kernel_solve_text, METH_VARARGS | METH_KEYWORDS,
     SOLVE_TEXT_DOC},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Kernel_getset[] = {
    {"size", (getter)Kernel_get_size, NULL, "number of values", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpsudoku.engine._kernel.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Kernel(size, units, peers, intersections): a checked all-different structure",
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
    .tp_init = (initproc)Kernel_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "The native engine's compiled search for all-different models.", -1, NULL,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void)
{
    if (PyType_Ready(&KernelType) < 0)
        return NULL;
    for (int m = 0; m < 512; m++)
        bits9[m] = (uint8_t)popcount32((uint32_t)m);
    const char *names[4] = {"nodes", "guesses", "backtracks", "propagations"};
    for (int i = 0; i < 4; i++)
        if (!stat_names[i] && !(stat_names[i] = PyUnicode_InternFromString(names[i])))
            return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m)
        return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_VALUES", MAX_VALUES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
