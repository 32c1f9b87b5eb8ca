/* Aligned pair and triplet exclusion (`logic.techniques.aligned`) in C99.
 *
 * The same search as the Python one, group for group and in its order: the base
 * cells (two candidates or more, no peer reduced to one candidate, some excluder:
 * a peer with at most `degree` candidates), the pairs of base cells with two
 * excluders or more in common (ascending), and for triplets, per pair, each base
 * cell that is an excluder of one of the two (ascending), kept when two of the
 * pair's common excluders are its own too and one of those holds only values the
 * three can take, each set of three once. A combination of the group's values is
 * possible when no two cells that see each other share a value and no excluder
 * whose candidates the group can all take is left with none.
 *
 * aligned(cand, peer_start, peers, degree)
 *   cand: a candidate mask per cell (bit v-1 for the value v); peer_start, peers:
 *   the peers of each cell as int32 rows (where each row starts, then the rows);
 *   degree: 2 (pairs) or 3 (triplets).
 *   -> [(cells, excluders, eliminations)] for every group that removes something,
 *   eliminations as (cell, value) in the cells' order then the values'.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t Mask;

typedef struct {
    int ncells, words;
    Mask *cand;
    uint64_t *excl;  /* per cell: its excluders as a bitset over cells (base cells only) */
    uint64_t *peer;  /* per cell: its peers as a bitset */
    char *is_base;
    Mask *ex;  /* room for one group's excluders */
} Grid;

static int count_bits(const uint64_t *set, int words) {
    int k = 0;
    for (int w = 0; w < words; w++) k += __builtin_popcountll(set[w]);
    return k;
}

static int has(const uint64_t *set, int cell) { return (int)(set[cell >> 6] >> (cell & 63) & 1u); }

/* Per cell of the group, the values some possible combination gives it. */
static void allowed_values(const Grid *g, const int *cells, int k, const Mask *ex, int nex,
                           Mask *allowed) {
    Mask full[3];
    int linked[3][3] = {{0}};
    for (int i = 0; i < k; i++) {
        full[i] = g->cand[cells[i]];
        allowed[i] = 0;
        for (int j = i + 1; j < k; j++) linked[i][j] = has(g->peer + (size_t)cells[i] * g->words,
                                                           cells[j]);
    }
    int v[3];
    Mask rest[3];
    /* an odometer over the cells' values, lowest first */
    for (int i = 0; i < k; i++) rest[i] = full[i];
    int depth = 0;
    while (depth >= 0) {
        if (!rest[depth]) {
            rest[depth] = full[depth];
            depth--;
            continue;
        }
        Mask low = rest[depth] & (~rest[depth] + 1);
        rest[depth] &= rest[depth] - 1;
        v[depth] = __builtin_ctzll(low);
        int clash = 0;
        for (int i = 0; i < depth && !clash; i++)
            if (linked[i][depth] && v[i] == v[depth]) clash = 1;
        if (clash) continue;
        if (depth + 1 < k) {
            depth++;
            continue;
        }
        Mask taken = 0;
        for (int i = 0; i < k; i++) taken |= (Mask)1 << v[i];
        int emptied = 0;
        for (int e = 0; e < nex && !emptied; e++)
            if (!(ex[e] & ~taken)) emptied = 1;
        if (emptied) continue;
        int all = 1;
        for (int i = 0; i < k; i++) {
            allowed[i] |= (Mask)1 << v[i];
            if (allowed[i] != full[i]) all = 0;
        }
        if (all) return;
    }
}

/* Append the group's step when it removes something; 0 on a Python error. */
static int exclusion(const Grid *g, const int *cells, int k, const uint64_t *excluders,
                     PyObject *out) {
    Mask uni = 0;
    for (int i = 0; i < k; i++) uni |= g->cand[cells[i]];
    Mask *ex = g->ex;
    int nex = 0;
    for (int e = 0; e < g->ncells; e++)
        if (has(excluders, e) && !(g->cand[e] & ~uni)) ex[nex++] = g->cand[e];
    if (!nex) return 1;
    Mask allowed[3];
    allowed_values(g, cells, k, ex, nex, allowed);
    PyObject *elims = PyList_New(0);
    if (!elims) return 0;
    for (int i = 0; i < k; i++) {
        Mask gone = g->cand[cells[i]] & ~allowed[i];
        for (int b = 0; gone; b++, gone >>= 1)
            if (gone & 1u) {
                PyObject *pair = Py_BuildValue("(ii)", cells[i], b + 1);
                if (!pair || PyList_Append(elims, pair) < 0) {
                    Py_XDECREF(pair);
                    Py_DECREF(elims);
                    return 0;
                }
                Py_DECREF(pair);
            }
    }
    if (PyList_GET_SIZE(elims) == 0) {
        Py_DECREF(elims);
        return 1;
    }
    PyObject *cells_t = PyTuple_New(k), *ex_t = PyList_New(0);
    if (!cells_t || !ex_t) goto fail;
    for (int i = 0; i < k; i++) PyTuple_SET_ITEM(cells_t, i, PyLong_FromLong(cells[i]));
    for (int e = 0; e < g->ncells; e++)
        if (has(excluders, e)) {
            PyObject *x = PyLong_FromLong(e);
            if (!x || PyList_Append(ex_t, x) < 0) { Py_XDECREF(x); goto fail; }
            Py_DECREF(x);
        }
    PyObject *item = PyTuple_Pack(3, cells_t, ex_t, elims);
    Py_DECREF(cells_t);
    Py_DECREF(ex_t);
    Py_DECREF(elims);
    if (!item) return 0;
    int bad = PyList_Append(out, item) < 0;
    Py_DECREF(item);
    return !bad;
fail:
    Py_XDECREF(cells_t);
    Py_XDECREF(ex_t);
    Py_DECREF(elims);
    return 0;
}

/* an open-addressing set of the triplets met, keyed a * n * n + b * n + c */
typedef struct {
    uint64_t *keys;
    size_t cap, used;
} Seen;

static int seen_add(Seen *s, uint64_t key) {  /* 1 new, 0 known, -1 no memory */
    if ((s->used + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        uint64_t *keys = malloc(cap * sizeof *keys);
        if (!keys) return -1;
        memset(keys, 0xff, cap * sizeof *keys);
        for (size_t i = 0; i < s->cap; i++)
            if (s->keys[i] != UINT64_MAX) {
                size_t h = (size_t)(s->keys[i] * 0x9E3779B97F4A7C15ull) & (cap - 1);
                while (keys[h] != UINT64_MAX) h = (h + 1) & (cap - 1);
                keys[h] = s->keys[i];
            }
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & (s->cap - 1);
    while (s->keys[h] != UINT64_MAX) {
        if (s->keys[h] == key) return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->keys[h] = key;
    s->used++;
    return 1;
}

static PyObject *aligned(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cand_list;
    Py_buffer start_buf, peers_buf;
    int degree;
    if (!PyArg_ParseTuple(args, "O!y*y*i", &PyList_Type, &cand_list, &start_buf, &peers_buf,
                          &degree))
        return NULL;
    Grid g;
    memset(&g, 0, sizeof g);
    PyObject *out = NULL;
    uint64_t *common = NULL, *shared = NULL;
    Seen seen = {NULL, 0, 0};
    g.ncells = (int)PyList_GET_SIZE(cand_list);
    g.words = (g.ncells + 63) / 64;
    const int32_t *start = start_buf.buf, *peers = peers_buf.buf;
    if (degree < 2 || degree > 3
        || start_buf.len != (Py_ssize_t)sizeof(int32_t) * (g.ncells + 1)
        || (Py_ssize_t)sizeof(int32_t) * start[g.ncells] != peers_buf.len) {
        PyErr_SetString(PyExc_ValueError, "aligned: degree 2 or 3, and a peer row per cell");
        goto done;
    }
    size_t n = (size_t)g.ncells, words = (size_t)(g.words ? g.words : 1);
    g.cand = calloc(n ? n : 1, sizeof(Mask));
    g.excl = calloc(n * words + 1, sizeof(uint64_t));
    g.peer = calloc(n * words + 1, sizeof(uint64_t));
    g.is_base = calloc(n ? n : 1, 1);
    g.ex = calloc(n ? n : 1, sizeof(Mask));
    common = calloc(words, sizeof(uint64_t));
    shared = calloc(words, sizeof(uint64_t));
    if (!g.cand || !g.excl || !g.peer || !g.is_base || !g.ex || !common || !shared) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < g.ncells; c++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(cand_list, c));
        if (PyErr_Occurred()) goto done;
        g.cand[c] = (Mask)m;
    }
    for (int c = 0; c < g.ncells; c++)
        for (int t = start[c]; t < start[c + 1]; t++) {
            int p = peers[t];
            if (p < 0 || p >= g.ncells) {
                PyErr_SetString(PyExc_ValueError, "aligned: a peer out of range");
                goto done;
            }
            g.peer[(size_t)c * words + (p >> 6)] |= (uint64_t)1 << (p & 63);
        }
    /* the base cells and their excluders; SE skips cells next to a single */
    for (int c = 0; c < g.ncells; c++) {
        if (__builtin_popcountll(g.cand[c]) < 2) continue;
        int next_to_single = 0, any = 0;
        uint64_t *ex = g.excl + (size_t)c * words;
        for (int t = start[c]; t < start[c + 1]; t++) {
            int p = peers[t], k = __builtin_popcountll(g.cand[p]);
            if (!g.cand[p]) continue;
            if (k == 1) { next_to_single = 1; break; }
            if (k <= degree) {
                ex[p >> 6] |= (uint64_t)1 << (p & 63);
                any = 1;
            }
        }
        if (next_to_single || !any) {
            memset(ex, 0, words * sizeof(uint64_t));
            continue;
        }
        g.is_base[c] = 1;
    }
    out = PyList_New(0);
    if (!out) goto done;
    for (int a = 0; a < g.ncells; a++) {
        if (!g.is_base[a]) continue;
        const uint64_t *ea = g.excl + (size_t)a * words;
        for (int b = a + 1; b < g.ncells; b++) {
            if (!g.is_base[b]) continue;
            const uint64_t *eb = g.excl + (size_t)b * words;
            for (size_t w = 0; w < words; w++) common[w] = ea[w] & eb[w];
            if (count_bits(common, g.words) < 2) continue;
            if (degree == 2) {
                int pair[2] = {a, b};
                if (!exclusion(&g, pair, 2, common, out)) goto fail;
                continue;
            }
            Mask ab = g.cand[a] | g.cand[b];
            for (int c = 0; c < g.ncells; c++) {
                if (!g.is_base[c] || c == a || c == b || !(has(ea, c) || has(eb, c))) continue;
                const uint64_t *ec = g.excl + (size_t)c * words;
                for (size_t w = 0; w < words; w++) shared[w] = ec[w] & common[w];
                if (count_bits(shared, g.words) < 2) continue;
                Mask uni = ab | g.cand[c];
                int holds_only_theirs = 0;
                for (int e = 0; e < g.ncells && !holds_only_theirs; e++)
                    if (has(shared, e) && !(g.cand[e] & ~uni)) holds_only_theirs = 1;
                if (!holds_only_theirs) continue;
                int t[3] = {a, b, c};
                for (int i = 0; i < 2; i++)  /* sorted */
                    for (int j = 0; j < 2 - i; j++)
                        if (t[j] > t[j + 1]) { int x = t[j]; t[j] = t[j + 1]; t[j + 1] = x; }
                uint64_t key = ((uint64_t)t[0] * n + (uint64_t)t[1]) * n + (uint64_t)t[2];
                int fresh = seen_add(&seen, key);
                if (fresh < 0) { PyErr_NoMemory(); goto fail; }
                if (fresh && !exclusion(&g, t, 3, shared, out)) goto fail;
            }
        }
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    PyBuffer_Release(&start_buf);
    PyBuffer_Release(&peers_buf);
    free(g.cand);
    free(g.excl);
    free(g.peer);
    free(g.is_base);
    free(g.ex);
    free(common);
    free(shared);
    free(seen.keys);
    return out;
}

static PyMethodDef methods[] = {
    {"aligned", aligned, METH_VARARGS,
     "aligned(cand, peer_start, peers, degree) -> [(cells, excluders, eliminations)];"
     " see the module's comment"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef aligned_module = {
    PyModuleDef_HEAD_INIT, "_aligned",
    "Aligned pair and triplet exclusion in C (optional; logic.techniques.aligned has "
    "the same search in Python)",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__aligned(void) { return PyModule_Create(&aligned_module); }
