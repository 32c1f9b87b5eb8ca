/* The searches of the static chain graph (`logic.techniques.chains`) in C99.
 *
 * A grid's candidates are literals, numbered in cell order and value order. An on
 * literal turns off its cell's other candidates (y links) and the value in its
 * peers (weak links); an off literal turns on the other candidate of a bivalue
 * cell (y) and the other place of a value with two places in a house (x: strong
 * links). `reach_tables` runs, from every literal, the breadth-first search over
 * on literals (weak link then strong link: one hop) that the Python graph runs,
 * visiting links in the same order, and, from every literal taken as off, the
 * search that stops when it reaches that literal on. The nested levels run these
 * searches for every grid an assumption leaves, thousands per step: in Python
 * they were most of the time.
 *
 * Returned as int16 tables of L rows of L entries (L literals): distance (-1 not
 * reached), the literal reached from and the off literal between (-1 none), the
 * order reached (on searches); and per literal the nearest literal of its own
 * weak links in its on search (-1 none), the first reached on a tie.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LITERALS 1024  /* 9x9 has at most 729; past this, tables of MBs */

typedef struct {
    int n, ncells, L;
    int *lit_cell, *lit_value;  /* per literal: its cell, its value (0-based) */
    int *index;                 /* cell * n + value -> literal, or -1 */
    int *strong_start, *strong; /* off literal -> the on literals it forces */
    int *weak_start, *weak;     /* on literal -> the off literals it forces */
    int *hop_start, *hop_to, *hop_via;
} Graph;

static void graph_free(Graph *g)
{
    free(g->lit_cell); free(g->lit_value); free(g->index);
    free(g->strong_start); free(g->strong); free(g->weak_start); free(g->weak);
    free(g->hop_start); free(g->hop_to); free(g->hop_via);
}

static int popcount32(uint32_t m)
{
    int k = 0;
    while (m) { m &= m - 1; k++; }
    return k;
}

/* The links of one grid, in the order the Python graph lists them. */
static int graph_build(Graph *g, const uint32_t *cand, int n, const int *peer_start,
                       const int *peers, const int *ch_start, const int *cell_houses,
                       const int *house_cells, int y, int x)
{
    int ncells = n * n, L = 0;
    memset(g, 0, sizeof *g);
    g->n = n;
    g->ncells = ncells;
    for (int c = 0; c < ncells; c++)
        L += popcount32(cand[c]);
    g->L = L;
    if (L > MAX_LITERALS)
        return -1;
    g->lit_cell = malloc(sizeof(int) * (L + 1));
    g->lit_value = malloc(sizeof(int) * (L + 1));
    g->index = malloc(sizeof(int) * ncells * n);
    g->strong_start = malloc(sizeof(int) * (L + 1));
    g->weak_start = malloc(sizeof(int) * (L + 1));
    g->hop_start = malloc(sizeof(int) * (L + 1));
    if (!g->lit_cell || !g->lit_value || !g->index || !g->strong_start || !g->weak_start
        || !g->hop_start)
        return -2;
    int i = 0;
    for (int c = 0; c < ncells; c++)
        for (int v = 0; v < n; v++) {
            g->index[c * n + v] = -1;
            if (cand[c] >> v & 1) {
                g->index[c * n + v] = i;
                g->lit_cell[i] = c;
                g->lit_value[i++] = v;
            }
        }
    /* strong links: the y partner first, then one per house of the cell, in house order */
    int nh = ch_start[ncells], most = 0, nhouses = 0;
    for (int c = 0; c < ncells; c++)
        if (ch_start[c + 1] - ch_start[c] > most)
            most = ch_start[c + 1] - ch_start[c];
    for (int k = 0; k < nh; k++)
        if (cell_houses[k] + 1 > nhouses)
            nhouses = cell_houses[k] + 1;
    g->strong = malloc(sizeof(int) * ((size_t)L * (most + 1) + 1));
    int *place_count = calloc((size_t)(nhouses + 1) * n, sizeof(int));
    if (!g->strong || !place_count) {
        free(place_count);
        return -2;
    }
    /* places of each value per house, counted through the cells' houses */
    for (int c = 0; c < ncells; c++)
        for (int k = ch_start[c]; k < ch_start[c + 1]; k++)
            for (int v = 0; v < n; v++)
                if (cand[c] >> v & 1)
                    place_count[cell_houses[k] * n + v]++;
    int s = 0;
    for (i = 0; i < L; i++) {
        int c = g->lit_cell[i], v = g->lit_value[i];
        uint32_t m = cand[c];
        g->strong_start[i] = s;
        if (y && popcount32(m) == 2) {
            uint32_t other = m & ~(1u << v);
            int w = 0;
            while (!(other >> w & 1))
                w++;
            g->strong[s++] = g->index[c * n + w];
        }
        if (x)
            for (int k = ch_start[c]; k < ch_start[c + 1]; k++) {
                int h = cell_houses[k];
                if (place_count[h * n + v] != 2)
                    continue;
                for (int j = 0; j < n; j++) {
                    int q = house_cells[h * n + j];
                    if (q != c && cand[q] >> v & 1) {
                        g->strong[s++] = g->index[q * n + v];
                        break;
                    }
                }
            }
    }
    g->strong_start[L] = s;
    free(place_count);
    /* weak links: the cell's other candidates (y), then the value in the peers */
    int w_total = 0;
    for (i = 0; i < L; i++) {
        int c = g->lit_cell[i];
        w_total += (y ? popcount32(cand[c]) : 0) + (peer_start[c + 1] - peer_start[c]);
    }
    g->weak = malloc(sizeof(int) * (w_total + 1));
    if (!g->weak)
        return -2;
    s = 0;
    for (i = 0; i < L; i++) {
        int c = g->lit_cell[i], v = g->lit_value[i];
        g->weak_start[i] = s;
        if (y)
            for (int w = 0; w < n; w++)
                if (w != v && cand[c] >> w & 1)
                    g->weak[s++] = g->index[c * n + w];
        for (int k = peer_start[c]; k < peer_start[c + 1]; k++) {
            int p = peers[k];
            if (cand[p] >> v & 1)
                g->weak[s++] = g->index[p * n + v];
        }
    }
    g->weak_start[L] = s;
    /* one hop: a weak link, then a strong link from the literal it turned off */
    int h_total = 0;
    for (i = 0; i < L; i++)
        for (int k = g->weak_start[i]; k < g->weak_start[i + 1]; k++) {
            int off = g->weak[k];
            h_total += g->strong_start[off + 1] - g->strong_start[off];
        }
    g->hop_to = malloc(sizeof(int) * (h_total + 1));
    g->hop_via = malloc(sizeof(int) * (h_total + 1));
    if (!g->hop_to || !g->hop_via)
        return -2;
    s = 0;
    for (i = 0; i < L; i++) {
        g->hop_start[i] = s;
        for (int k = g->weak_start[i]; k < g->weak_start[i + 1]; k++) {
            int off = g->weak[k];
            for (int j = g->strong_start[off]; j < g->strong_start[off + 1]; j++) {
                g->hop_to[s] = g->strong[j];
                g->hop_via[s++] = off;
            }
        }
    }
    g->hop_start[L] = s;
    return 0;
}

/* Breadth first from the queue's first `tail` entries; stops on reaching `until`. */
static void spread(const Graph *g, int16_t *dist, int16_t *prev, int16_t *via,
                   int16_t *rank, int *queue, int tail, int until)
{
    int head = 0, order = tail;
    while (head < tail) {
        int a = queue[head++];
        int d = dist[a] + 1;
        for (int k = g->hop_start[a]; k < g->hop_start[a + 1]; k++) {
            int b = g->hop_to[k];
            if (dist[b] >= 0)
                continue;
            dist[b] = (int16_t)d;
            prev[b] = (int16_t)a;
            via[b] = (int16_t)g->hop_via[k];
            if (rank)
                rank[b] = (int16_t)order++;
            if (b == until)
                return;
            queue[tail++] = b;
        }
    }
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t count, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd entries expected", what, count);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < count; i++) {
        long value = PyLong_AsLong(items[i]);
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *reach_tables(PyObject *self, PyObject *args)
{
    PyObject *cand_seq;
    Py_buffer pstart_b, peers_b, hstart_b, houses_b, cells_b;
    int n, y, x;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oiy*y*y*y*y*pp", &cand_seq, &n, &pstart_b, &peers_b,
                          &hstart_b, &houses_b, &cells_b, &y, &x))
        return NULL;
    PyObject *result = NULL;
    Graph g;
    memset(&g, 0, sizeof g);
    int ncells = n * n;
    uint32_t *cand = NULL;
    int *tmp = NULL, *queue = NULL;
    PyObject *tables[8] = {NULL};
    if (n < 1 || n > 32 || pstart_b.len != (Py_ssize_t)sizeof(int) * (ncells + 1)
        || hstart_b.len != (Py_ssize_t)sizeof(int) * (ncells + 1)) {
        PyErr_SetString(PyExc_ValueError, "reach_tables: tables of the wrong size");
        goto done;
    }
    cand = malloc(sizeof(uint32_t) * ncells);
    tmp = malloc(sizeof(int) * ncells);
    if (!cand || !tmp) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ints(cand_seq, tmp, ncells, "candidates") < 0)
        goto done;
    for (int c = 0; c < ncells; c++)
        cand[c] = (uint32_t)tmp[c];
    int status = graph_build(&g, cand, n, pstart_b.buf, peers_b.buf, hstart_b.buf,
                             houses_b.buf, cells_b.buf, y, x);
    if (status == -1) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int L = g.L;
    Py_ssize_t area = (Py_ssize_t)L * L * (Py_ssize_t)sizeof(int16_t);
    for (int t = 0; t < 7; t++) {
        tables[t] = PyBytes_FromStringAndSize(NULL, area);
        if (!tables[t])
            goto done;
    }
    tables[7] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)L * sizeof(int16_t));
    queue = malloc(sizeof(int) * (L + 1));
    if (!tables[7] || !queue) {
        if (!queue)
            PyErr_NoMemory();
        goto done;
    }
    int16_t *dist = (int16_t *)PyBytes_AS_STRING(tables[0]);
    int16_t *prev = (int16_t *)PyBytes_AS_STRING(tables[1]);
    int16_t *via = (int16_t *)PyBytes_AS_STRING(tables[2]);
    int16_t *rank = (int16_t *)PyBytes_AS_STRING(tables[3]);
    int16_t *odist = (int16_t *)PyBytes_AS_STRING(tables[4]);
    int16_t *oprev = (int16_t *)PyBytes_AS_STRING(tables[5]);
    int16_t *ovia = (int16_t *)PyBytes_AS_STRING(tables[6]);
    int16_t *nearest = (int16_t *)PyBytes_AS_STRING(tables[7]);
    memset(dist, 0xff, area);
    memset(prev, 0xff, area);
    memset(via, 0xff, area);
    memset(rank, 0xff, area);
    memset(odist, 0xff, area);
    memset(oprev, 0xff, area);
    memset(ovia, 0xff, area);
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < L; i++) {
        Py_ssize_t row = (Py_ssize_t)i * L;
        /* from i on: every literal reached */
        dist[row + i] = 0;
        rank[row + i] = 0;
        queue[0] = i;
        spread(&g, dist + row, prev + row, via + row, rank + row, queue, 1, -1);
        int best = -1;
        for (int k = g.weak_start[i]; k < g.weak_start[i + 1]; k++) {
            int b = g.weak[k];
            int d = dist[row + b];
            if (d <= 0)
                continue;
            if (best < 0 || d < dist[row + best]
                || (d == dist[row + best] && rank[row + b] < rank[row + best]))
                best = b;
        }
        nearest[i] = (int16_t)best;
        /* from i off: until i is reached on */
        int tail = 0;
        for (int k = g.strong_start[i]; k < g.strong_start[i + 1]; k++) {
            int b = g.strong[k];
            if (odist[row + b] >= 0)
                continue;
            odist[row + b] = 1;
            ovia[row + b] = (int16_t)i;
            queue[tail++] = b;
        }
        spread(&g, odist + row, oprev + row, ovia + row, NULL, queue, tail, i);
    }
    Py_END_ALLOW_THREADS
    result = PyTuple_New(8);
    if (result)
        for (int t = 0; t < 8; t++) {
            PyTuple_SET_ITEM(result, t, tables[t]);
            tables[t] = NULL;
        }
done:
    for (int t = 0; t < 8; t++)
        Py_XDECREF(tables[t]);
    free(cand);
    free(tmp);
    free(queue);
    graph_free(&g);
    PyBuffer_Release(&pstart_b);
    PyBuffer_Release(&peers_b);
    PyBuffer_Release(&hstart_b);
    PyBuffer_Release(&houses_b);
    PyBuffer_Release(&cells_b);
    return result;
}

/* ---------------------------------------------------------------- propagation
 *
 * `propagate` follows one assumption as `forcing.Chaining` does (SE's way): on
 * literals before off literals, each queue first in first out, the first reason
 * found for a literal kept; an off literal makes the cell's last other candidate
 * (y) or the value's last other place in a house (box, row, column order) on, with
 * the candidates struck out before as further reasons; dynamically each off
 * literal is struck out as it is reached. When both queues run dry, `rules` (a
 * Python callable, or None) is asked what the grid left yields; its literals join
 * unchecked, as in SE. Returns the dicts of `forcing.Consequences`.
 */

typedef struct {
    int n, ncells, nlits;
    const int *order_start, *order;     /* per cell: its houses, box, row, column first */
    const int *peer_start, *peer_order; /* per cell: its peers in SE's order */
    const int *hof_start, *houses_of;   /* per cell: its houses in house order */
    const int *house_cells;             /* per house: its n cells */
    PyObject *lits;                     /* tuple: literal code -> (cell, value) */
    PyObject **on_parents, **off_parents, **nested;
    int *on_seq, *off_seq, n_on, n_off; /* literals in the order reached */
    int *cause;
    char *by_rule;
} Prop;

#define LIT(P, code) PyTuple_GET_ITEM((P)->lits, (code))

/* A tuple of the literal `first` and the literals of `rest`. */
static PyObject *parents_of(Prop *P, int first, const int *rest, int nrest)
{
    PyObject *t = PyTuple_New(1 + nrest);
    if (!t)
        return NULL;
    PyObject *item = LIT(P, first);
    Py_INCREF(item);
    PyTuple_SET_ITEM(t, 0, item);
    for (int i = 0; i < nrest; i++) {
        item = LIT(P, rest[i]);
        Py_INCREF(item);
        PyTuple_SET_ITEM(t, i + 1, item);
    }
    return t;
}

static PyObject *conflict_of(Prop *P, int lit, PyObject *on_side, PyObject *off_side)
{
    return Py_BuildValue("(OOO)", LIT(P, lit), on_side, off_side);
}

static PyObject *int_list(const uint32_t *values, int count)
{
    PyObject *list = PyList_New(count);
    if (!list)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = PyLong_FromUnsignedLong(values[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

/* Ask the rules; 1 when they added something, 0 when not, -1 on an error. */
static int ask_rules(Prop *P, PyObject *rules, PyObject *layout, PyObject *source,
                     const uint32_t *cand, int *pend_off, int *off_tail)
{
    PyObject *cand_list = int_list(cand, P->ncells);
    if (!cand_list)
        return -1;
    PyObject *found = PyObject_CallFunctionObjArgs(rules, layout, source, cand_list, NULL);
    Py_DECREF(cand_list);
    if (!found)
        return -1;
    PyObject *fast = PySequence_Fast(found, "rules must return a sequence");
    Py_DECREF(found);
    if (!fast)
        return -1;
    int added = 0, n = P->n;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) < 2) {
            PyErr_SetString(PyExc_TypeError, "a rule's result: (literal, parents, ...)");
            Py_DECREF(fast);
            return -1;
        }
        PyObject *lit = PyTuple_GET_ITEM(item, 0);
        long cell = PyLong_AsLong(PyTuple_GetItem(lit, 0));
        long value = PyLong_AsLong(PyTuple_GetItem(lit, 1));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        int t = (int)(cell * n + value - 1);
        if (P->off_parents[t])
            continue;
        PyObject *parents = PyTuple_GET_ITEM(item, 1);
        Py_INCREF(parents);
        P->off_parents[t] = parents;
        P->off_seq[P->n_off++] = t;
        P->by_rule[t] = 1;
        if (PyTuple_GET_SIZE(item) > 2 && PyTuple_GET_ITEM(item, 2) != Py_None) {
            PyObject *inner = PyTuple_GET_ITEM(item, 2);
            Py_INCREF(inner);
            P->nested[t] = inner;
        }
        pend_off[(*off_tail)++] = t;
        added = 1;
    }
    Py_DECREF(fast);
    return added;
}

/* The dicts and sets of the result, in the order reached. */
static PyObject *result_of(Prop *P, PyObject *conflict)
{
    PyObject *ons = PyDict_New(), *offs = PyDict_New(), *causes = PyDict_New();
    PyObject *nested = PyDict_New(), *by_rule = PyFrozenSet_New(NULL), *out = NULL;
    if (!ons || !offs || !causes || !nested || !by_rule)
        goto fail;
    for (int i = 0; i < P->n_on; i++) {
        int t = P->on_seq[i];
        if (PyDict_SetItem(ons, LIT(P, t), P->on_parents[t]) < 0)
            goto fail;
        if (P->cause[t] != INT32_MIN) {
            PyObject *why = PyLong_FromLong(P->cause[t]);
            if (!why || PyDict_SetItem(causes, LIT(P, t), why) < 0) {
                Py_XDECREF(why);
                goto fail;
            }
            Py_DECREF(why);
        }
    }
    for (int i = 0; i < P->n_off; i++) {
        int t = P->off_seq[i];
        if (PyDict_SetItem(offs, LIT(P, t), P->off_parents[t]) < 0)
            goto fail;
        if (P->by_rule[t] && PySet_Add(by_rule, LIT(P, t)) < 0)
            goto fail;
        if (P->nested[t] && PyDict_SetItem(nested, LIT(P, t), P->nested[t]) < 0)
            goto fail;
    }
    out = PyTuple_Pack(6, ons, offs, conflict ? conflict : Py_None, by_rule, causes, nested);
fail:
    Py_XDECREF(ons); Py_XDECREF(offs); Py_XDECREF(causes);
    Py_XDECREF(nested); Py_XDECREF(by_rule);
    return out;
}

static PyObject *propagate(PyObject *self, PyObject *args)
{
    int start, on, n, y, dynamic;
    PyObject *source, *counts_seq, *lits, *rules, *layout;
    Py_buffer b[7];
    (void)self;
    memset(b, 0, sizeof b);
    if (!PyArg_ParseTuple(args, "iiOOiy*y*y*y*y*y*y*OppOO", &start, &on, &source, &counts_seq,
                          &n, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &lits, &y,
                          &dynamic, &rules, &layout))
        return NULL;
    Prop P;
    memset(&P, 0, sizeof P);
    PyObject *result = NULL, *conflict = NULL;
    uint32_t *src = NULL, *cand = NULL;
    int *counts = NULL, *pend_on = NULL, *pend_off = NULL, *tmp = NULL;
    int ncells = n * n, nlits = ncells * n;
    Py_ssize_t ncounts = PySequence_Size(counts_seq);
    if (n < 1 || n > 31 || ncounts < 0 || !PyTuple_Check(lits)
        || PyTuple_GET_SIZE(lits) != nlits) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "propagate: tables of the wrong size");
        goto done;
    }
    P.n = n; P.ncells = ncells; P.nlits = nlits; P.lits = lits;
    P.order_start = b[0].buf; P.order = b[1].buf;
    P.peer_start = b[2].buf; P.peer_order = b[3].buf;
    P.hof_start = b[4].buf; P.houses_of = b[5].buf; P.house_cells = b[6].buf;
    src = malloc(sizeof(uint32_t) * ncells);
    cand = malloc(sizeof(uint32_t) * ncells);
    tmp = malloc(sizeof(int) * (ncells > ncounts ? ncells : ncounts) + 1);
    counts = malloc(sizeof(int) * (ncounts + 1));
    pend_on = malloc(sizeof(int) * nlits);
    pend_off = malloc(sizeof(int) * nlits);
    P.on_seq = malloc(sizeof(int) * nlits);
    P.off_seq = malloc(sizeof(int) * nlits);
    P.cause = malloc(sizeof(int) * nlits);
    P.by_rule = calloc(nlits, 1);
    P.on_parents = calloc(nlits, sizeof(PyObject *));
    P.off_parents = calloc(nlits, sizeof(PyObject *));
    P.nested = calloc(nlits, sizeof(PyObject *));
    if (!src || !cand || !tmp || !counts || !pend_on || !pend_off || !P.on_seq || !P.off_seq
        || !P.cause || !P.by_rule || !P.on_parents || !P.off_parents || !P.nested) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ints(source, tmp, ncells, "candidates") < 0)
        goto done;
    for (int c = 0; c < ncells; c++)
        src[c] = cand[c] = (uint32_t)tmp[c];
    if (read_ints(counts_seq, counts, ncounts, "counts") < 0)
        goto done;
    for (int i = 0; i < nlits; i++)
        P.cause[i] = INT32_MIN;
    if (start < 0 || start >= nlits) {
        PyErr_SetString(PyExc_ValueError, "propagate: no such literal");
        goto done;
    }
    int on_head = 0, on_tail = 0, off_head = 0, off_tail = 0;
    PyObject *empty = PyTuple_New(0);
    if (!empty)
        goto done;
    if (on) {
        P.on_parents[start] = empty;
        P.on_seq[P.n_on++] = start;
        pend_on[on_tail++] = start;
    } else {
        P.off_parents[start] = empty;
        P.off_seq[P.n_off++] = start;
        pend_off[off_tail++] = start;
    }
    int hidden[64];
    for (;;) {
        while (on_head < on_tail || off_head < off_tail) {
            if (on_head < on_tail) {
                int p = pend_on[on_head++], c = p / n, v = p % n;
                uint32_t bit = 1u << v;
                /* the cell's other candidates (y), then the value in the peers */
                for (int pass = 0; pass < 2; pass++) {
                    int kstart = pass ? P.peer_start[c] : 0;
                    int kend = pass ? P.peer_start[c + 1] : (y ? n : 0);
                    for (int k = kstart; k < kend; k++) {
                        int t;
                        if (pass) {
                            int q = P.peer_order[k];
                            if (!(cand[q] & bit))
                                continue;
                            t = q * n + v;
                        } else {
                            if (k == v || !(cand[c] >> k & 1))
                                continue;
                            t = c * n + k;
                        }
                        if (P.on_parents[t]) {
                            PyObject *mine = parents_of(&P, p, NULL, 0);
                            if (!mine)
                                goto done;
                            conflict = conflict_of(&P, t, P.on_parents[t], mine);
                            Py_DECREF(mine);
                            goto finish;
                        }
                        if (!P.off_parents[t]) {
                            if (!(P.off_parents[t] = parents_of(&P, p, NULL, 0)))
                                goto done;
                            P.off_seq[P.n_off++] = t;
                            pend_off[off_tail++] = t;
                        }
                    }
                }
            } else {
                int p = pend_off[off_head++], c = p / n, v = p % n;
                uint32_t bit = 1u << v, m = cand[c];
                int made_t[40], made_why[40], nmade = 0;
                PyObject *made_parents[40];
                if (y && popcount32(m) == 2 && (m & bit)) {
                    uint32_t other = m & ~bit, gone = src[c] & ~m;
                    int w = 0, nh = 0;
                    while (!(other >> w & 1))
                        w++;
                    for (int u = 0; u < n; u++)
                        if (gone >> u & 1)
                            hidden[nh++] = c * n + u;
                    made_t[nmade] = c * n + w;
                    made_why[nmade] = -1;
                    if (!(made_parents[nmade++] = parents_of(&P, p, hidden, nh)))
                        goto done;
                }
                for (int k = P.order_start[c]; k < P.order_start[c + 1] && (m & bit); k++) {
                    int h = P.order[k];
                    if (counts[h * n + v] != 2 || nmade >= 40)
                        continue;
                    const int *cells = P.house_cells + h * n;
                    int other = -1, nh = 0;
                    for (int j = 0; j < n; j++) {
                        int q = cells[j];
                        if (other < 0 && q != c && (cand[q] & bit))
                            other = q;
                        if ((src[q] & bit) && !(cand[q] & bit))
                            hidden[nh++] = q * n + v;
                    }
                    if (other < 0)
                        continue;
                    made_t[nmade] = other * n + v;
                    made_why[nmade] = h;
                    if (!(made_parents[nmade++] = parents_of(&P, p, hidden, nh))) {
                        for (int i = 0; i < nmade - 1; i++)
                            Py_DECREF(made_parents[i]);
                        goto done;
                    }
                }
                if (dynamic && (m & bit)) { /* struck out now: later singles see it gone */
                    cand[c] = m & ~bit;
                    for (int k = P.hof_start[c]; k < P.hof_start[c + 1]; k++)
                        counts[P.houses_of[k] * n + v]--;
                }
                for (int i = 0; i < nmade; i++) {
                    int t = made_t[i];
                    if (P.off_parents[t]) {
                        conflict = conflict_of(&P, t, made_parents[i], P.off_parents[t]);
                        for (int j = i; j < nmade; j++)
                            Py_DECREF(made_parents[j]);
                        goto finish;
                    }
                    if (!P.on_parents[t]) {
                        P.on_parents[t] = made_parents[i];
                        P.cause[t] = made_why[i];
                        P.on_seq[P.n_on++] = t;
                        pend_on[on_tail++] = t;
                    } else {
                        Py_DECREF(made_parents[i]);
                    }
                }
            }
        }
        if (rules == Py_None)
            break;
        int added = ask_rules(&P, rules, layout, source, cand, pend_off, &off_tail);
        if (added < 0)
            goto done;
        if (!added)
            break;
    }
finish:
    if (PyErr_Occurred())
        goto done;
    result = result_of(&P, conflict);
done:
    Py_XDECREF(conflict);
    if (P.on_parents)
        for (int i = 0; i < nlits; i++) {
            Py_XDECREF(P.on_parents[i]);
            Py_XDECREF(P.off_parents[i]);
            Py_XDECREF(P.nested[i]);
        }
    free(src); free(cand); free(tmp); free(counts); free(pend_on); free(pend_off);
    free(P.on_seq); free(P.off_seq); free(P.cause); free(P.by_rule);
    free(P.on_parents); free(P.off_parents); free(P.nested);
    for (int i = 0; i < 7; i++)
        if (b[i].obj)
            PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"reach_tables", reach_tables, METH_VARARGS,
     "reach_tables(cand, n, peer_start, peers, house_start, cell_houses, house_cells, y, x)"
     " -> 8 int16 tables (see the module's comment), or None past MAX_LITERALS"},
    {"propagate", propagate, METH_VARARGS,
     "propagate(literal, on, cand, counts, n, order_start, order, peer_start, peer_order,"
     " houses_of_start, houses_of, house_cells, literals, y, dynamic, rules, layout)"
     " -> (on, off, conflict, by rule, causes, nested), as forcing.Consequences takes them"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef chaincore_module = {
    PyModuleDef_HEAD_INIT, "_chaincore",
    "The static chain graph's searches in C (optional; logic.techniques.chains "
    "falls back to Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__chaincore(void)
{
    PyObject *module = PyModule_Create(&chaincore_module);
    if (module && PyModule_AddIntConstant(module, "MAX_LITERALS", MAX_LITERALS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
