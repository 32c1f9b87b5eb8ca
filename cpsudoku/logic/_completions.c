/* The completions of one rule over the candidates (`logic.completions`) in C99.
 *
 * The same depth-first enumeration as the Python one, check for check: cells are set
 * in the order given, and each constraint is checked as soon as one of its cells is
 * set (a no-repeat and an order on the cells set so far, a sum by the bounds its open
 * cells still allow, a table once all its cells are set, any other constraint by its
 * own `holds` once all its cells are set). So the values tried, and where the node
 * limit stops the search, are the Python one's.
 *
 * completions(k, domains, order, checks, node_limit, max_rows)
 *   domains: k bit masks (bit v-1 for the value v); order: the cell indexes in the
 *   order they are set; checks: one tuple per constraint, (kind, indexes, extra):
 *     0 no-repeat, 1 order (increasing), 2 sum (extra: (weights, total)),
 *     3 table (extra: the rows as bytes, one byte a value), 4 other (extra: a
 *     callable taking the values in the constraint's order and telling if it holds),
 *     5 automaton (extra: (states, start, move_start, move_to, accepting): the next
 *     states of (state, value) are move_to[move_start[state * 32 + value] ...
 *     move_start[state * 32 + value + 1]], int32; accepting one byte a state), read
 *     once all its cells are set, as `Automaton.accepts` reads it.
 *   -> (status, rows): status 0 all found, 1 past node_limit values tried, 2 past
 *   max_rows completions; rows: bytes, k values per completion, in the order found.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ALLDIFF = 0, LESS = 1, SUM = 2, TABLE = 3, OTHER = 4, AUTOMATON = 5 };
#define VALUES 32  /* the moves of a state, by value 0..31 */

typedef struct {
    int kind, arity;
    int *idx;
    int *weights, total;
    const unsigned char *rows;
    Py_ssize_t nrows;
    PyObject *holds; /* borrowed: kept alive by the checks tuple */
    int nstates, start;
    const int32_t *move_start, *move_to;
    const unsigned char *accepting;
} Check;

typedef struct {
    int k;
    unsigned *dom;
    int *order;
    int *assigned;
    int *lo, *hi;  /* per cell index: the least and the most value of its domain */
    Check *checks;
    int nchecks;
    int *watch_start, *watch;  /* cell index -> the checks that read it */
    long nodes, node_limit;
    long found, max_rows;
    unsigned char *out;
    size_t out_len, out_cap;
    int status;  /* 0 going, 1 node limit, 2 row limit, -1 Python error */
    int *now, *next, *mark, stamp;  /* an automaton's states on the way, room for the most */
} Search;

static int accepts(Search *s, const Check *ch) {
    int *now = s->now, *next = s->next, count = 1;
    now[0] = ch->start;
    for (int t = 0; t < ch->arity; t++) {
        int v = s->assigned[ch->idx[t]], found = 0;
        s->stamp++;
        for (int i = 0; i < count; i++) {
            int key = now[i] * VALUES + v;
            for (int m = ch->move_start[key]; m < ch->move_start[key + 1]; m++) {
                int to = ch->move_to[m];
                if (s->mark[to] != s->stamp) {
                    s->mark[to] = s->stamp;
                    next[found++] = to;
                }
            }
        }
        if (!found) return 0;
        int *swap = now;
        now = next;
        next = swap;
        count = found;
    }
    for (int i = 0; i < count; i++)
        if (ch->accepting[now[i]]) return 1;
    return 0;
}

static int check_one(Search *s, Check *ch) {
    int *a = s->assigned;
    switch (ch->kind) {
    case ALLDIFF: {
        unsigned seen = 0;
        for (int t = 0; t < ch->arity; t++) {
            int v = a[ch->idx[t]];
            if (!v) continue;
            if (seen >> v & 1u) return 0;
            seen |= 1u << v;
        }
        return 1;
    }
    case LESS:
        for (int t = 0; t + 1 < ch->arity; t++) {
            int x = a[ch->idx[t]], y = a[ch->idx[t + 1]];
            if (x && y && !(x < y)) return 0;
        }
        return 1;
    case SUM: {
        long lo = 0, hi = 0;
        for (int t = 0; t < ch->arity; t++) {
            int j = ch->idx[t], w = ch->weights[t], v = a[j];
            if (v) {
                lo += (long)w * v;
                hi += (long)w * v;
            } else {
                long x = (long)w * s->lo[j], y = (long)w * s->hi[j];
                lo += x < y ? x : y;
                hi += x < y ? y : x;
            }
        }
        return lo <= ch->total && ch->total <= hi;
    }
    case TABLE: {
        for (int t = 0; t < ch->arity; t++)
            if (!a[ch->idx[t]]) return 1;
        for (Py_ssize_t r = 0; r < ch->nrows; r++) {
            const unsigned char *row = ch->rows + r * ch->arity;
            int t = 0;
            while (t < ch->arity && row[t] == a[ch->idx[t]]) t++;
            if (t == ch->arity) return 1;
        }
        return 0;
    }
    case AUTOMATON:
        for (int t = 0; t < ch->arity; t++)
            if (!a[ch->idx[t]]) return 1;
        return accepts(s, ch);
    default: {
        for (int t = 0; t < ch->arity; t++)
            if (!a[ch->idx[t]]) return 1;
        PyObject *vals = PyTuple_New(ch->arity);
        if (!vals) { s->status = -1; return 0; }
        for (int t = 0; t < ch->arity; t++)
            PyTuple_SET_ITEM(vals, t, PyLong_FromLong(a[ch->idx[t]]));
        PyObject *r = PyObject_CallOneArg(ch->holds, vals);
        Py_DECREF(vals);
        if (!r) { s->status = -1; return 0; }
        int ok = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (ok < 0) { s->status = -1; return 0; }
        return ok;
    }
    }
}

static int consistent(Search *s, int i) {
    for (int w = s->watch_start[i]; w < s->watch_start[i + 1]; w++)
        if (!check_one(s, &s->checks[s->watch[w]])) return 0;
    return 1;
}

static int emit(Search *s) {
    if (s->found >= s->max_rows) { s->status = 2; return 0; }
    if (s->out_len + (size_t)s->k > s->out_cap) {
        size_t cap = s->out_cap ? s->out_cap * 2 : 1024;
        while (cap < s->out_len + (size_t)s->k) cap *= 2;
        unsigned char *grown = realloc(s->out, cap);
        if (!grown) { PyErr_NoMemory(); s->status = -1; return 0; }
        s->out = grown;
        s->out_cap = cap;
    }
    for (int i = 0; i < s->k; i++) s->out[s->out_len++] = (unsigned char)s->assigned[i];
    s->found++;
    return 1;
}

/* 0 when the search must stop (a limit, an error), else 1 */
static int search(Search *s, int pos) {
    if (pos == s->k) return emit(s);
    int i = s->order[pos];
    unsigned m = s->dom[i];
    for (int v = 1; m; v++, m >>= 1) {
        if (!(m & 1u)) continue;
        if (++s->nodes > s->node_limit) { s->status = 1; return 0; }
        s->assigned[i] = v;
        int ok = consistent(s, i);
        if (s->status) return 0;
        if (ok && !search(s, pos + 1)) return 0;
        s->assigned[i] = 0;
    }
    return 1;
}

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    for (int t = 0; t < n; t++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(seq, t));
        if (x == -1 && PyErr_Occurred()) return 0;
        out[t] = (int)x;
    }
    (void)what;
    return 1;
}

static void search_free(Search *s) {
    if (s->checks)
        for (int c = 0; c < s->nchecks; c++) {
            free(s->checks[c].idx);
            free(s->checks[c].weights);
        }
    free(s->checks);
    free(s->dom);
    free(s->order);
    free(s->assigned);
    free(s->lo);
    free(s->hi);
    free(s->watch_start);
    free(s->watch);
    free(s->out);
    free(s->now);
    free(s->next);
    free(s->mark);
}

static int load_check(Check *ch, PyObject *spec, int k) {
    PyObject *idx, *extra;
    if (!PyArg_ParseTuple(spec, "iO!O", &ch->kind, &PyTuple_Type, &idx, &extra)) return 0;
    ch->arity = (int)PyTuple_GET_SIZE(idx);
    ch->idx = malloc(sizeof(int) * (ch->arity ? ch->arity : 1));
    if (!ch->idx) { PyErr_NoMemory(); return 0; }
    if (!read_ints(idx, ch->idx, ch->arity, "indexes")) return 0;
    for (int t = 0; t < ch->arity; t++)
        if (ch->idx[t] < 0 || ch->idx[t] >= k) {
            PyErr_SetString(PyExc_ValueError, "a check reads a cell index out of range");
            return 0;
        }
    if (ch->kind == SUM) {
        PyObject *weights;
        if (!PyArg_ParseTuple(extra, "O!i", &PyTuple_Type, &weights, &ch->total)) return 0;
        if (PyTuple_GET_SIZE(weights) != ch->arity) {
            PyErr_SetString(PyExc_ValueError, "a sum's weights and cells differ in number");
            return 0;
        }
        ch->weights = malloc(sizeof(int) * (ch->arity ? ch->arity : 1));
        if (!ch->weights) { PyErr_NoMemory(); return 0; }
        if (!read_ints(weights, ch->weights, ch->arity, "weights")) return 0;
    } else if (ch->kind == TABLE) {
        if (!PyBytes_Check(extra) || !ch->arity
            || PyBytes_GET_SIZE(extra) % ch->arity) {
            PyErr_SetString(PyExc_ValueError, "a table's rows are bytes, arity per row");
            return 0;
        }
        ch->rows = (const unsigned char *)PyBytes_AS_STRING(extra);
        ch->nrows = PyBytes_GET_SIZE(extra) / ch->arity;
    } else if (ch->kind == OTHER) {
        if (!PyCallable_Check(extra)) {
            PyErr_SetString(PyExc_TypeError, "another constraint's check is a callable");
            return 0;
        }
        ch->holds = extra;
    } else if (ch->kind == AUTOMATON) {
        PyObject *sb, *tb, *ab;  /* bytes: kept alive by the checks tuple */
        if (!PyArg_ParseTuple(extra, "iiO!O!O!", &ch->nstates, &ch->start, &PyBytes_Type, &sb,
                              &PyBytes_Type, &tb, &PyBytes_Type, &ab))
            return 0;
        Py_ssize_t keys = (Py_ssize_t)ch->nstates * VALUES;
        const int32_t *ms = (const int32_t *)PyBytes_AS_STRING(sb);
        if (ch->nstates < 1 || ch->start < 0 || ch->start >= ch->nstates
            || PyBytes_GET_SIZE(sb) != (keys + 1) * (Py_ssize_t)sizeof(int32_t)
            || PyBytes_GET_SIZE(ab) != ch->nstates
            || ms[keys] * (Py_ssize_t)sizeof(int32_t) != PyBytes_GET_SIZE(tb)) {
            PyErr_SetString(PyExc_ValueError, "an automaton's tables are of the wrong size");
            return 0;
        }
        ch->move_start = ms;
        ch->move_to = (const int32_t *)PyBytes_AS_STRING(tb);
        ch->accepting = (const unsigned char *)PyBytes_AS_STRING(ab);
        for (Py_ssize_t key = 0; key < keys; key++)
            if (ms[key] < 0 || ms[key] > ms[key + 1]) {
                PyErr_SetString(PyExc_ValueError, "an automaton's moves are out of order");
                return 0;
            }
        for (int32_t m = 0; m < ms[keys]; m++)
            if (ch->move_to[m] < 0 || ch->move_to[m] >= ch->nstates) {
                PyErr_SetString(PyExc_ValueError, "an automaton moves to a state it lacks");
                return 0;
            }
    } else if (ch->kind != ALLDIFF && ch->kind != LESS) {
        PyErr_SetString(PyExc_ValueError, "unknown check kind");
        return 0;
    }
    return 1;
}

static PyObject *completions(PyObject *self, PyObject *args) {
    (void)self;
    int k;
    PyObject *domains, *order, *checks;
    long node_limit, max_rows;
    if (!PyArg_ParseTuple(args, "iO!O!O!ll", &k, &PyTuple_Type, &domains, &PyTuple_Type,
                          &order, &PyTuple_Type, &checks, &node_limit, &max_rows))
        return NULL;
    if (k < 0 || PyTuple_GET_SIZE(domains) != k || PyTuple_GET_SIZE(order) != k) {
        PyErr_SetString(PyExc_ValueError, "k domains and k cells in the order");
        return NULL;
    }
    Search s;
    memset(&s, 0, sizeof s);
    s.k = k;
    s.node_limit = node_limit;
    s.max_rows = max_rows;
    s.nchecks = (int)PyTuple_GET_SIZE(checks);
    size_t kk = (size_t)(k ? k : 1);
    s.dom = calloc(kk, sizeof(unsigned));
    s.order = calloc(kk, sizeof(int));
    s.assigned = calloc(kk, sizeof(int));
    s.lo = calloc(kk, sizeof(int));
    s.hi = calloc(kk, sizeof(int));
    s.checks = calloc(s.nchecks ? (size_t)s.nchecks : 1, sizeof(Check));
    s.watch_start = calloc(kk + 1, sizeof(int));
    PyObject *result = NULL;
    if (!s.dom || !s.order || !s.assigned || !s.lo || !s.hi || !s.checks || !s.watch_start) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < k; i++) {
        unsigned long m = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(domains, i));
        if (PyErr_Occurred()) goto done;
        if (m >> 31) {
            PyErr_SetString(PyExc_ValueError, "values above 31 are not enumerated here");
            goto done;
        }
        s.dom[i] = (unsigned)m;
        int v = 1;
        unsigned x = (unsigned)m;
        while (x && !(x & 1u)) { x >>= 1; v++; }
        s.lo[i] = m ? v : 0;
        int top = 0;
        for (int u = 1; u <= 31; u++)
            if (m >> (u - 1) & 1u) top = u;
        s.hi[i] = top;
    }
    if (!read_ints(order, s.order, k, "order")) goto done;
    for (int i = 0; i < k; i++)
        if (s.order[i] < 0 || s.order[i] >= k) {
            PyErr_SetString(PyExc_ValueError, "the order names a cell index out of range");
            goto done;
        }
    int most = 1;
    for (int c = 0; c < s.nchecks; c++) {
        if (!load_check(&s.checks[c], PyTuple_GET_ITEM(checks, c), k)) goto done;
        if (s.checks[c].kind == AUTOMATON && s.checks[c].nstates > most)
            most = s.checks[c].nstates;
    }
    s.now = malloc(sizeof(int) * (size_t)most);
    s.next = malloc(sizeof(int) * (size_t)most);
    s.mark = calloc((size_t)most, sizeof(int));
    if (!s.now || !s.next || !s.mark) {
        PyErr_NoMemory();
        goto done;
    }
    /* cell index -> its checks, in the checks' order (as the Python watch lists) */
    for (int c = 0; c < s.nchecks; c++)
        for (int t = 0; t < s.checks[c].arity; t++) s.watch_start[s.checks[c].idx[t] + 1]++;
    for (int i = 0; i < k; i++) s.watch_start[i + 1] += s.watch_start[i];
    s.watch = malloc(sizeof(int) * (s.watch_start[k] ? (size_t)s.watch_start[k] : 1));
    int *fill = calloc(kk, sizeof(int));
    if (!s.watch || !fill) {
        free(fill);
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < s.nchecks; c++)
        for (int t = 0; t < s.checks[c].arity; t++) {
            int i = s.checks[c].idx[t];
            s.watch[s.watch_start[i] + fill[i]++] = c;
        }
    free(fill);
    search(&s, 0);
    if (s.status == -1) goto done;
    result = Py_BuildValue("(iy#)", s.status, s.out ? (const char *)s.out : "",
                           (Py_ssize_t)s.out_len);
done:
    search_free(&s);
    return result;
}

static PyMethodDef methods[] = {
    {"completions", completions, METH_VARARGS,
     "completions(k, domains, order, checks, node_limit, max_rows) -> (status, rows);"
     " see the module's comment"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef completions_module = {
    PyModuleDef_HEAD_INIT, "_completions",
    "A rule's completions over the candidates in C (optional; logic.completions has "
    "the same search in Python)",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__completions(void) { return PyModule_Create(&completions_module); }
