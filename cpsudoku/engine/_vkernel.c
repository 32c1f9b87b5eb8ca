/* The compiled search of the native engine for models with every constraint kind.
 *
 * `_kernel.c` is the all-different hot path, tuned around one fixed state
 * layout and a scan of dirty units; this module adds what variants need
 * without slowing it: a constraint queue, a handler per constraint kind, and
 * conflict counts for branching. A VKernel holds a checked structure: the
 * all-different units, peers and intersections of a plan, plus its other
 * constraints, each added by its kind's typed call.
 *
 * This file is the core: the structure read and checked, the search (its queues,
 * singles, locked candidates, branching, conflict counts, clock and solutions)
 * and the extension's type. Each kind's handler is a header of its own in
 * `kinds/` (what its data means, its build, its pass), and the core reaches them
 * only through `KINDS`, the table of handlers indexed by kind (`_vstate.h` says
 * what a handler gives). Adding constraints, one typed call per kind, is in
 * `_vadd.h`; propagation on its own, for the logical solver, in `_probe.h`.
 *
 * Variables beyond the N*N cells (`nvars`: a chaos construction's region
 * labels) have no units and no peers.
 *
 * State per search level: cands[ncells] (0 once placed), grid[ncells] (the
 * placed value's bit), placed[nunits], then the words handlers keep (a chaos
 * construction's same-region groups, an OR's living alternatives) and the
 * constraints entailed; copied when the search branches. A cell's domain is
 * cands | grid. The GIL is released during the search; the clock, the
 * solutions found and the call's arguments are handled as in the all-different
 * kernel (`_search.h`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_search.h"
#include "_vstate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kinds/sum.h"
#include "kinds/cage.h"
#include "kinds/less.h"
#include "kinds/table.h"
#include "kinds/regular.h"
#include "kinds/count.h"
#include "kinds/regions.h"
#include "kinds/runs.h"
#include "kinds/ranks.h"
#include "kinds/any_of.h"
#include "kinds/same_set.h"
#include "kinds/sandwich.h"
#include "kinds/same_count.h"

/* The handler of each kind, by the kind's number (the extension's constants). */
static const Kind *const KINDS[K_KINDS] = {
    [K_SUM] = &SUM_KIND,           [K_CAGE] = &CAGE_KIND,       [K_LESS] = &LESS_KIND,
    [K_TABLE] = &TABLE_KIND,       [K_REGULAR] = &REGULAR_KIND, [K_COUNT] = &COUNT_KIND,
    [K_REGIONS] = &REGIONS_KIND,   [K_RUNS] = &RUNS_KIND,       [K_RANKS] = &RANKS_KIND,
    [K_OR] = &OR_KIND,             [K_SAME] = &SAME_KIND,       [K_SANDWICH] = &SANDWICH_KIND,
    [K_SAME_COUNT] = &SAME_COUNT_KIND,
};

#define DECAY_PERIOD 512   /* failures between two halvings of the conflict counts */
/* With regions found while solving, as ISS does: a cell whose partner (its region
 * label, or the label's cell) is decided counts its conflicts LINK_BOOST times
 * over, and every variable starts with the lengths of the constraints it is in
 * (ISS's cell priorities), so the search settles a region's cells and labels
 * together rather than wandering (docs/benchmarks.md, the variant kernel's
 * choices). */
#define LINK_BOOST 4
#define BRANCH_BLAME 2     /* conflicts a branching cell counts when its value fails at once */

/* ------------------------------------------------------------------------ */
/* building and checking a structure                                        */

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





/* The units (n cells each, no cell twice) and, per cell, the units it is in. */
static int read_units(VKernel *self, PyObject *units_obj)
{
    const int n = self->n, ncells = self->ncells;
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
    self->cu_start = calloc((size_t)ncells + 1, sizeof(int));
    self->cell_units = malloc((size_t)(self->nunits * n + 1) * sizeof(int));
    int *fill = malloc((size_t)ncells * sizeof(int) + 1);
    if (!self->cu_start || !self->cell_units || !fill) {
        free(fill);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->nunits * n; i++)
        self->cu_start[self->units[i] + 1]++;
    for (int c = 0; c < ncells; c++)
        self->cu_start[c + 1] += self->cu_start[c];
    memcpy(fill, self->cu_start, (size_t)ncells * sizeof(int));
    for (int u = 0; u < self->nunits; u++)
        for (int i = 0; i < n; i++)
            self->cell_units[fill[self->units[u * n + i]]++] = u;
    free(fill);
    return 0;
}

/* Each cell's peers, as a list and as a set of cells. */
static int read_peers(VKernel *self, PyObject *peers_obj)
{
    const int ncells = self->ncells;
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
    return 0;
}

/* The intersections: (shared, rest a, rest b) each, flattened into three lists. */
static int read_intersections(VKernel *self, PyObject *ints_obj)
{
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
    int count;
    int r = csr_of(parts, self->ncells, &count, &self->int_start, &self->int_cells,
                   "intersection");
    Py_DECREF(parts);
    self->nints = count / 3;
    return r;
}

/* The constraints added, each prepared in order: its place in the search's
 * counters, what it keeps in the state, its branching hint. */
static int prepare_constraints(VKernel *self)
{
    self->nslots = self->ncons;
    for (int k = 0; k < self->ncons; k++) {
        Con *c = &self->cons[k];
        const Kind *handler = KINDS[c->kind];
        c->slot = k;
        if (handler->prepare && handler->prepare(self, c, k, 0) < 0)
            return -1;
        if (handler->hint) {
            int *hinted = realloc(self->hinted, (size_t)(self->nhinted + 1) * sizeof(int));
            if (!hinted) {
                PyErr_NoMemory();
                return -1;
            }
            self->hinted = hinted;
            self->hinted[self->nhinted++] = k;
        }
    }
    self->done_at = reserve(self, (self->ncons + 31) / 32);
    return 0;
}

/* With regions found while solving (variables linked in pairs): every variable's
 * first conflict count, its priority (see LINK_BOOST), from the units and the
 * constraints it is in. */
static int set_priorities(VKernel *self)
{
    if (!self->link)
        return 0;
    self->prio = calloc((size_t)self->ncells, sizeof(uint32_t));
    if (!self->prio) {
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; u < self->nunits; u++)
        for (int i = 0; i < self->n; i++)
            self->prio[self->units[u * self->n + i]] += (uint32_t)self->n;
    for (int k = 0; k < self->ncons; k++) {
        const Con *c = &self->cons[k];
        if (KINDS[c->kind]->priority)
            KINDS[c->kind]->priority(self, c, self->prio);
        else
            add_priority(self, c, (uint32_t)c->len, self->prio);
    }
    return 0;
}

/* The scratch a constraint's pass needs: its cells' masks, its bitsets, a sum's options. */
static void size_scratch(VKernel *self, const Con *c, size_t *scratch)
{
    if (c->len > self->max_len)
        self->max_len = c->len;
    if (c->need > *scratch)
        *scratch = c->need;
    if (c->noptions > self->max_options)
        self->max_options = c->noptions;
}

/* Cell -> the constraints it wakes (each once), and the scratch the largest pass needs. */
static int index_constraints(VKernel *self)
{
    const int ncells = self->ncells;
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

static int VKernel_init(VKernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "units", "peers", "intersections", "nvars", NULL};
    int n, nvars = 0;
    PyObject *units_obj, *peers_obj, *ints_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOO|i", kwlist, &n, &units_obj, &peers_obj,
                                     &ints_obj, &nvars))
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
    self->n = n;
    self->ncells = nvars ? nvars : n * n; /* the cells, then any auxiliary variables */
    self->full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    if (read_units(self, units_obj) < 0 || read_peers(self, peers_obj) < 0 ||
        read_intersections(self, ints_obj) < 0)
        return -1;
    return 0;
}

/* Ready to search, once: the constraints added are prepared and indexed, and no
 * more may be added. 0, or -1 with an error set (then for good). */
static int seal(VKernel *self)
{
    if (self->sealed > 0)
        return 0;
    if (self->sealed < 0) {
        PyErr_SetString(PyExc_ValueError, "the VKernel's constraints were refused");
        return -1;
    }
    self->sealed = -1;
    if (prepare_constraints(self) < 0 || set_priorities(self) < 0 ||
        index_constraints(self) < 0)
        return -1;
    self->sealed = 1;
    return 0;
}

#include "_vadd.h"

/* ------------------------------------------------------------------------ */
/* the search                                                               */


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
 * now. The branching cell is blamed beside the failed constraint's cells: the
 * constraint says where the trouble is, the branch what caused it, and either
 * alone searched longer on most of ISS's puzzles (docs/benchmarks.md). */
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
                /* a pass over every cell (regions, full rank): blaming them all says
                 * nothing of where the conflict is, and drowns the counts that do */
                if (!KINDS[k->cons[x].kind]->everywhere)
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
 * that; the busier place is tried first. Where a clue pins a value to two places
 * (skyscrapers, killers' combinations) that choice splits the search in two
 * halves where a cell of many candidates splits it in many; it loses on a few
 * puzzles and gains far more on others (docs/benchmarks.md). */
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
            for (int i = 0; i < k->nhinted; i++) {
                const Con *h = &k->cons[k->hinted[i]];
                best = KINDS[h->kind]->hint(S, cands, h, &top, best, &pick);
            }
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
    if (seal(self) < 0)
        return -1;
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
        if (KINDS[c->kind]->start)
            KINDS[c->kind]->start(c, self->n, s);
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

#define METHOD(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS
/* solve, propagate, probe, add_either, add_alternative, an add_<kind> per kind (filled
 * in from KINDS when the module loads), the end */
static PyMethodDef VKernel_methods[5 + K_KINDS + 1] = {
    {"solve", METHOD(VKernel_solve),
     "solve(domains, max_solutions=1, time_limit=None, locked_depth=0, choice=0) -> "
     "(solutions, exhausted, timed_out, stats); choice: 0 fewest candidates, 1 fewest with "
     "ties broken by conflicts, 2 most conflicts per candidate"},
    {"propagate", METHOD(VKernel_propagate), PROPAGATE_DOC},
    {"probe", METHOD(VKernel_probe), PROBE_DOC},
    {"add_either", METHOD(VKernel_add_either),
     "add_either(cells) -> index: at least one of its alternatives holds"},
    {"add_alternative", METHOD(VKernel_add_alternative),
     "add_alternative(either) -> its number: the constraints added within=either join it"},
};

static void fill_methods(void)
{
    int at = 5;
    for (int k = 0; k < K_KINDS; k++)
        if (ADDERS[k])
            VKernel_methods[at++] = (PyMethodDef){KINDS[k]->method, METHOD(ADDERS[k]),
                                                  KINDS[k]->doc};
}

static PyGetSetDef VKernel_getset[] = {
    {"size", (getter)VKernel_get_size, NULL, "number of values", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject VKernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpsudoku.engine._vkernel.VKernel",
    .tp_basicsize = sizeof(VKernel),
    .tp_dealloc = (destructor)VKernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "VKernel(size, units, peers, intersections, nvars=N*N): a checked structure, "
              "then its constraints of every kind added by kind (add_sum, add_table, ...) "
              "before the first search",
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
    fill_methods();
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
    for (int i = 0; i < K_KINDS; i++)
        if (PyModule_AddIntConstant(m, KINDS[i]->name, i) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    if (PyModule_AddIntConstant(m, "MAX_VALUES", MAX_VALUES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
