/* The searches of the static chain graph (`logic.techniques.chains`) in C99.
 *
 * A grid's candidates are literals, numbered in cell order and value order. An on
 * literal turns off its cell's other candidates (y links) and the value in its
 * peers (weak links); an off literal turns on the other candidate of a bivalue
 * cell (y) and the other place of a value with two places in a house (x: strong
 * links). `reach_tables` runs, from every literal, the breadth-first search over
 * on literals (weak link then strong link: one hop) that the Python graph runs,
 * visiting links in the same order, and, from every literal taken as off, the
 * search that stops when it reaches that literal on.
 *
 * Returned as int16 tables of L rows of L entries (L literals): distance (-1 not
 * reached), the literal reached from and the off literal between (-1 none), the
 * order reached (on searches); and per literal the nearest literal of its own
 * weak links in its on search (-1 none), the first reached on a tie.
 *
 * The nested levels ask every grid an assumption leaves, thousands per step, so
 * their parts are here whole: `static_chains` (the chains and cycles of a grid, read
 * from the same searches), the plus rules, and `propagate` (one assumption of
 * `forcing.Chaining`, the plus rules asked where its singles run out).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_chain_graph.h"
#include "_chain_static.h"
#include "_chain_plus.h"

/* ---------------------------------------------------------------- propagation
 *
 * `propagate` follows one assumption as `forcing.Chaining` does (SE's way): on
 * literals before off literals, each queue first in first out, the first reason
 * found for a literal kept; an off literal makes the cell's last other candidate
 * (y) or the value's last other place in a house (box, row, column order) on, with
 * the candidates struck out before as further reasons; dynamically each off
 * literal is struck out as it is reached. When both queues run dry, the plus rules
 * (`plus`), then `rules` (a Python callable, or None) if those find nothing, are
 * asked what the grid left yields; their literals join unchecked, as in SE.
 * Returns the dicts of `forcing.Consequences`.
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

/* The plus rules' removals join the off literals: 1 when one is new, 0 when none, -1
 * on an error. */
static int add_found(Prop *P, const Found *F, int *pend_off, int *off_tail)
{
    PyObject *why = NULL;
    int added = 0, why_at = -1;
    for (int i = 0; i < F->count; i++) {
        int t = F->lit[i];
        if (P->off_parents[t])
            continue;
        if (F->why_at[i] != why_at) {  /* a rule's removals share their reasons */
            Py_XDECREF(why);
            why_at = F->why_at[i];
            why = PyTuple_New(F->why_len[i]);
            if (!why)
                return -1;
            for (int k = 0; k < F->why_len[i]; k++) {
                PyObject *lit = LIT(P, F->why[why_at + k]);
                Py_INCREF(lit);
                PyTuple_SET_ITEM(why, k, lit);
            }
        }
        Py_INCREF(why);
        P->off_parents[t] = why;
        P->off_seq[P->n_off++] = t;
        P->by_rule[t] = 1;
        pend_off[(*off_tail)++] = t;
        added = 1;
    }
    Py_XDECREF(why);
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
    int start, on, n, y, dynamic, plus;
    PyObject *source, *counts_seq, *lits, *rules, *layout;
    Py_buffer b[14];
    (void)self;
    memset(b, 0, sizeof b);
    if (!PyArg_ParseTuple(args, "iiOOiy*y*y*y*y*y*y*y*y*y*OppOOp|y*y*y*y*", &start, &on,
                          &source, &counts_seq, &n, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                          &b[6], &b[7], &b[8], &b[9], &lits, &y, &dynamic, &rules, &layout,
                          &plus, &b[10], &b[11], &b[12], &b[13]))
        return NULL;
    PlusTables T;
    Found F;
    memset(&F, 0, sizeof F);
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
    /* the variant rules' links (optional): per literal, the literals its being on turns
     * off (weak) and those its being off turns on (strong), as offsets and items */
    const int *weak_start = NULL, *weak = NULL, *strong_start = NULL, *strong = NULL;
    if (b[13].obj) {
        if (b[10].len != (Py_ssize_t)sizeof(int) * (nlits + 1)
            || b[12].len != (Py_ssize_t)sizeof(int) * (nlits + 1)) {
            PyErr_SetString(PyExc_ValueError, "propagate: link tables of the wrong size");
            goto done;
        }
        weak_start = b[10].buf; weak = b[11].buf;
        strong_start = b[12].buf; strong = b[13].buf;
    }
    if (plus_tables(&T, n, &b[6], &b[7], &b[8], &b[9]) < 0)
        goto done;
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
                /* the cell's other candidates (y), the value in the peers, then what
                 * the rules forbid beside it (only the same value's, without y) */
                for (int pass = 0; pass < 3; pass++) {
                    int kstart = pass == 2 ? (weak ? weak_start[p] : 0)
                                 : pass ? P.peer_start[c] : 0;
                    int kend = pass == 2 ? (weak ? weak_start[p + 1] : 0)
                               : pass ? P.peer_start[c + 1] : (y ? n : 0);
                    for (int k = kstart; k < kend; k++) {
                        int t;
                        if (pass == 2) {
                            t = weak[k];
                            if ((!y && t % n != v) || !(cand[t / n] >> (t % n) & 1))
                                continue;
                        } else if (pass) {
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
                for (int k = strong ? strong_start[p] : 0;
                     strong && k < strong_start[p + 1] && (m & bit) && nmade < 40; k++) {
                    int t = strong[k]; /* what a rule then needs: no cause, it holds on any
                                        * grid with fewer candidates */
                    if (!y && t % n != v)
                        continue;
                    made_t[nmade] = t;
                    made_why[nmade] = INT32_MIN;
                    if (!(made_parents[nmade++] = parents_of(&P, p, NULL, 0))) {
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
        int added = 0;
        if (plus) {
            F.count = F.nwhy = 0;
            added = first_rule(&T, src, cand, &F);
            if (added < 0) {
                PyErr_NoMemory();
                goto done;
            }
            if (added > 0) {  /* the Python rules are asked only when these find nothing */
                if ((added = add_found(&P, &F, pend_off, &off_tail)) < 0)
                    goto done;
                if (!added)
                    break;
                continue;
            }
        }
        if (rules == Py_None)
            break;
        added = ask_rules(&P, rules, layout, source, cand, pend_off, &off_tail);
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
    found_free(&F);
    for (int i = 0; i < 14; i++)
        if (b[i].obj)
            PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"reach_tables", reach_tables, METH_VARARGS,
     "reach_tables(cand, n, peer_start, peers, house_start, cell_houses, house_cells, y, x)"
     " -> 8 int16 tables (see the module's comment), or None past MAX_LITERALS"},
    {"static_chains", static_chains, METH_VARARGS,
     "static_chains(cand, n, peer_start, peers, house_start, cell_houses, house_cells,"
     " literals) -> [(kind, complexity, removed, path)], or None past MAX_LITERALS"},
    {"plus_rules", plus_rules, METH_VARARGS,
     "plus_rules(source, cand, n, house_cells, house_kinds, crossing_start, crossings,"
     " literals) -> [(literal, reasons)] as plusrules.first_rule"},
    {"propagate", propagate, METH_VARARGS,
     "propagate(literal, on, cand, counts, n, order_start, order, peer_start, peer_order,"
     " houses_of_start, houses_of, house_cells, house_kinds, crossing_start, crossings,"
     " literals, y, dynamic, rules, layout, plus)"
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
