/* Propagation on its own, for the logical solver: `propagate` reads what the
 * engine's passes make of a grid of candidates (and, traced, which unit or
 * constraint removed what, in order), `probe` tries every candidate of the cells
 * asked and names those whose propagation fails: the contradictions a person
 * finds by "if this cell were 5, then ...". Both share the search's propagation,
 * so what the logical solver says follows from the rules is what the search
 * itself would conclude. Included by `_vkernel.c` after its search. */

#define PROPAGATE_DOC                                                                      \
    "propagate(domains, locked=False, trace=False) -> (domains or None, events, failure): " \
    "the domains after propagation to a fixpoint (None on contradiction); with trace, the " \
    "removals in order as (source kind, source index, cell, values mask) with source kinds " \
    "0 start, 1 a placed cell's peers (index: the cell), 2 a unit (hidden single or no " \
    "place; index: the unit), 3 a constraint (index: its place in the constraints), 4 " \
    "locked candidates (index: the intersection); failure: (source kind, index, cell or -1)"
#define PROBE_DOC                                                                          \
    "probe(domains, cells, locked=False, time_limit=None) -> (domains or None, found, "    \
    "timed_out): the propagated domains, then for each candidate of `cells` (in order) "    \
    "whose placement fails under propagation: (cell, value, removals before the failure)"

/* The domains of the first `ncells` variables: each cell's candidates, a placed
 * cell's value. */
static PyObject *domains_list(const Search *S, const uint32_t *s)
{
    const int ncells = S->k->ncells;
    PyObject *out = PyList_New(ncells);
    if (!out)
        return NULL;
    for (int c = 0; c < ncells; c++) {
        PyObject *m = PyLong_FromUnsignedLong(s[c] | s[ncells + c]);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, c, m);
    }
    return out;
}

static PyObject *events_list(const Search *S)
{
    size_t count = S->nevents / 4;
    PyObject *out = PyList_New((Py_ssize_t)count);
    if (!out)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        const int *e = S->events + 4 * i;
        PyObject *t = Py_BuildValue("(iiiI)", e[0], e[1], e[2], (unsigned)e[3]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

static PyObject *VKernel_propagate(VKernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"domains", "locked", "trace", NULL};
    PyObject *domains_obj;
    int locked = 0, trace = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pp", kwlist, &domains_obj, &locked,
                                     &trace))
        return NULL;
    Search S;
    int empty;
    if (search_open(self, domains_obj, &S, &empty) < 0)
        return NULL;
    S.tracing = trace;
    long r = -1;
    if (empty) {
        S.fail_kind = SRC_START;
        S.fail_index = 0;
    } else {
        run_start(&S.run, -1.0);
        r = propagate_all(&S, locked);
        if (run_stop(&S.run) < 0) {
            release(&S);
            return NULL;
        }
    }
    if (S.trace_nomem) {
        release(&S);
        return PyErr_NoMemory();
    }
    PyObject *domains = r < 0 ? (Py_INCREF(Py_None), Py_None) : domains_list(&S, S.stack);
    PyObject *events = trace ? events_list(&S) : PyList_New(0);
    PyObject *failure = r < 0 ? Py_BuildValue("(iii)", S.fail_kind, S.fail_index, S.fail_cell)
                              : (Py_INCREF(Py_None), Py_None);
    release(&S);
    if (!domains || !events || !failure) {
        Py_XDECREF(domains);
        Py_XDECREF(events);
        Py_XDECREF(failure);
        return NULL;
    }
    return Py_BuildValue("(NNN)", domains, events, failure);
}

/* Try each candidate of `cells` on a copy of the propagated state `s`; a failing
 * one is recorded in `found` as (cell, value, removals) triples. 0, or 1 when the
 * clock stopped the probe. */
static int probe_cells(Search *S, const int *cells, int count, int locked, long *found,
                       int *nfound)
{
    const int W = S->W;
    uint32_t *s = S->stack, *child = s + W;
    for (int i = 0; i < count; i++) {
        int c = cells[i];
        uint32_t m = s[c];
        if (!(m & (m - 1)))
            continue; /* placed, or one value left: nothing to try */
        if (run_must_stop(&S->run))
            return 1;
        for (uint32_t rest = m; rest; rest &= rest - 1) {
            uint32_t b = rest & -rest;
            memcpy(child, s, (size_t)W * sizeof(uint32_t));
            child[c] = b;
            note(S, c);
            S->queue[S->qn++] = c;
            unsigned long long before = S->removals;
            if (propagate(S, child, locked) < 0) {
                long *f = found + 3 * (*nfound)++;
                f[0] = c;
                f[1] = 32 - __builtin_clz(b);
                f[2] = (long)(S->removals - before);
            }
        }
    }
    return 0;
}

static PyObject *VKernel_probe(VKernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"domains", "cells", "locked", "time_limit", NULL};
    PyObject *domains_obj, *cells_obj, *limit_obj = Py_None;
    int locked = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|pO", kwlist, &domains_obj, &cells_obj,
                                     &locked, &limit_obj))
        return NULL;
    double time_limit;
    if (read_limits(1, limit_obj, 0, &time_limit) < 0)
        return NULL;
    Py_ssize_t count;
    int *cells = cells_of(cells_obj, self->ncells, &count, "probe cells");
    if (!cells)
        return NULL;
    long *found = malloc(((size_t)count * MAX_VALUES + 1) * 3 * sizeof(long));
    if (!found) {
        free(cells);
        return PyErr_NoMemory();
    }
    Search S;
    int empty, nfound = 0, timed_out = 0;
    if (search_open(self, domains_obj, &S, &empty) < 0) {
        free(cells);
        free(found);
        return NULL;
    }
    long r = -1;
    if (!empty) {
        run_start(&S.run, time_limit);
        r = propagate_all(&S, locked);
        if (r >= 0)
            timed_out = probe_cells(&S, cells, (int)count, locked, found, &nfound);
        if (run_stop(&S.run) < 0) {
            free(cells);
            free(found);
            release(&S);
            return NULL;
        }
    }
    PyObject *domains = r < 0 ? (Py_INCREF(Py_None), Py_None) : domains_list(&S, S.stack);
    PyObject *list = PyList_New(nfound);
    for (int i = 0; list && i < nfound; i++) {
        PyObject *t = Py_BuildValue("(lll)", found[3 * i], found[3 * i + 1], found[3 * i + 2]);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, t);
    }
    free(cells);
    free(found);
    release(&S);
    if (!domains || !list) {
        Py_XDECREF(domains);
        Py_XDECREF(list);
        return NULL;
    }
    return Py_BuildValue("(NNO)", domains, list, timed_out ? Py_True : Py_False);
}
