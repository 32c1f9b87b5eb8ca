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

/* The rules' links beside the houses' (`links.Links`), per literal cell * n + value:
 * the off literals its being on turns off (weak), the on literals its being off turns
 * on (strong); all NULL on a grid without rules. */
typedef struct {
    const int *weak_start, *weak, *strong_start, *strong;
} RuleLinks;

static const RuleLinks NO_RULES = {NULL, NULL, NULL, NULL};

/* The links of one grid, in the order the Python graph lists them: a rule's weak links
 * after the peers' (the same value's only, for the chains of one kind of link), its
 * strong links after the houses', each of the kinds asked for and not listed yet. */
static int graph_build(Graph *g, const uint32_t *cand, int n, const int *peer_start,
                       const int *peers, const int *ch_start, const int *cell_houses,
                       const int *house_cells, int y, int x, RuleLinks R)
{
    int same_value = !(x && y);
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
    size_t rule_strong = 0;
    if (R.strong_start)
        for (i = 0; i < L; i++) {
            int t = g->lit_cell[i] * n + g->lit_value[i];
            rule_strong += (size_t)(R.strong_start[t + 1] - R.strong_start[t]);
        }
    g->strong = malloc(sizeof(int) * ((size_t)L * (most + 1) + rule_strong + 1));
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
        if (R.strong_start)
            for (int k = R.strong_start[c * n + v]; k < R.strong_start[c * n + v + 1]; k++) {
                int t = R.strong[k], tc = t / n, tv = t % n;
                int kind_ok = (tc != c && tv == v) ? x : (tc == c) ? y : (x && y);
                int to = g->index[t];
                if (!kind_ok || to < 0)
                    continue;
                int known = 0;
                for (int j = g->strong_start[i]; j < s && !known; j++)
                    known = g->strong[j] == to;
                if (!known)
                    g->strong[s++] = to;
            }
    }
    g->strong_start[L] = s;
    free(place_count);
    /* weak links: the cell's other candidates (y), then the value in the peers */
    int w_total = 0;
    for (i = 0; i < L; i++) {
        int c = g->lit_cell[i], t = c * n + g->lit_value[i];
        w_total += (y ? popcount32(cand[c]) : 0) + (peer_start[c + 1] - peer_start[c]);
        if (R.weak_start)
            w_total += R.weak_start[t + 1] - R.weak_start[t];
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
        if (R.weak_start)
            for (int k = R.weak_start[c * n + v]; k < R.weak_start[c * n + v + 1]; k++) {
                int t = R.weak[k];
                if ((same_value && t % n != v) || g->index[t] < 0)
                    continue;
                g->weak[s++] = g->index[t];
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

/* The literal of i's weak links nearest in the search from i on (not i), the first
 * reached on a tie; -1 when none is reached. */
static int nearest_weak(const Graph *g, int i, const int16_t *dist, const int16_t *rank)
{
    int best = -1;
    for (int k = g->weak_start[i]; k < g->weak_start[i + 1]; k++) {
        int b = g->weak[k];
        int d = dist[b];
        if (d <= 0)
            continue;
        if (best < 0 || d < dist[best] || (d == dist[best] && rank[b] < rank[best]))
            best = b;
    }
    return best;
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

/* Whether the rules' rows stay inside their buffers and name literals of the grid. */
static int rule_rows_fit(RuleLinks R, Py_ssize_t lits, Py_ssize_t weak_len,
                         Py_ssize_t strong_len)
{
    if (R.weak_start[lits] * (Py_ssize_t)sizeof(int) != weak_len
        || R.strong_start[lits] * (Py_ssize_t)sizeof(int) != strong_len)
        return 0;
    for (Py_ssize_t t = 0; t < lits; t++)
        if (R.weak_start[t] > R.weak_start[t + 1] || R.strong_start[t] > R.strong_start[t + 1])
            return 0;
    for (Py_ssize_t k = 0; k < R.weak_start[lits]; k++)
        if (R.weak[k] < 0 || R.weak[k] >= lits)
            return 0;
    for (Py_ssize_t k = 0; k < R.strong_start[lits]; k++)
        if (R.strong[k] < 0 || R.strong[k] >= lits)
            return 0;
    return 1;
}

static PyObject *reach_tables(PyObject *self, PyObject *args)
{
    PyObject *cand_seq;
    Py_buffer pstart_b, peers_b, hstart_b, houses_b, cells_b;
    Py_buffer rules_b[4];
    int n, y, x;
    (void)self;
    memset(rules_b, 0, sizeof rules_b);
    if (!PyArg_ParseTuple(args, "Oiy*y*y*y*y*pp|y*y*y*y*", &cand_seq, &n, &pstart_b, &peers_b,
                          &hstart_b, &houses_b, &cells_b, &y, &x, &rules_b[0], &rules_b[1],
                          &rules_b[2], &rules_b[3]))
        return NULL;
    RuleLinks R = NO_RULES;
    if (rules_b[3].buf) {
        R.weak_start = rules_b[0].buf;
        R.weak = rules_b[1].buf;
        R.strong_start = rules_b[2].buf;
        R.strong = rules_b[3].buf;
    }
    PyObject *result = NULL;
    Graph g;
    memset(&g, 0, sizeof g);
    int ncells = n * n;
    uint32_t *cand = NULL;
    int *tmp = NULL, *queue = NULL;
    PyObject *tables[8] = {NULL};
    Py_ssize_t lits = (Py_ssize_t)ncells * n;
    if (n < 1 || n > 32 || pstart_b.len != (Py_ssize_t)sizeof(int) * (ncells + 1)
        || hstart_b.len != (Py_ssize_t)sizeof(int) * (ncells + 1)
        || (R.weak_start && (rules_b[0].len != (Py_ssize_t)sizeof(int) * (lits + 1)
                             || rules_b[2].len != (Py_ssize_t)sizeof(int) * (lits + 1)
                             || !rule_rows_fit(R, lits, rules_b[1].len, rules_b[3].len)))) {
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
                             houses_b.buf, cells_b.buf, y, x, R);
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
        nearest[i] = (int16_t)nearest_weak(&g, i, dist + row, rank + row);
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
    for (int t = 0; t < 4; t++)
        PyBuffer_Release(&rules_b[t]);
    return result;
}

/* ---------------------------------------------------------------- static chains
 *
 * `static_chains` runs on one grid the searches of SE's "forcing chains and
 * cycles", which the nested level 9.5 asks of every grid an assumption leaves:
 * bidirectional X-, Y- and XY-cycles (`chains.cycles`), then forcing X- and
 * XY-chains (`chains.forcing_chain_paths`), finding the same chains in the same
 * order as those. Each is (kind, complexity, removed, path): a KIND below, the
 * candidates it removes, its literals with their signs (True for on).
 */

enum { X_CYCLE, Y_CYCLE, XY_CYCLE, X_CHAIN, SKYSCRAPER, KITE, TURBOT, XY_CHAIN, KINDS };

/* Sets of literal sets (the cycles seen): open addressing over a pool of sorted keys. */
typedef struct {
    uint64_t *hash;
    int *at;         /* where a key starts in the pool (its length first), -1 empty */
    int cap, count;
    int *pool, pool_len, pool_cap;
} Seen;

static uint64_t key_hash(const int *key, int k)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < k; i++)
        h = (h ^ (uint32_t)key[i]) * 1099511628211ull;
    return h;
}

static int seen_grow(Seen *s)
{
    int cap = s->cap ? s->cap * 2 : 256;
    uint64_t *hash = malloc(sizeof(uint64_t) * cap);
    int *at = malloc(sizeof(int) * cap);
    if (!hash || !at) {
        free(hash); free(at);
        return -1;
    }
    memset(at, 0xff, sizeof(int) * cap);
    for (int i = 0; i < s->cap; i++)
        if (s->at[i] >= 0) {
            int j = (int)(s->hash[i] & (uint64_t)(cap - 1));
            while (at[j] >= 0)
                j = (j + 1) & (cap - 1);
            hash[j] = s->hash[i];
            at[j] = s->at[i];
        }
    free(s->hash); free(s->at);
    s->hash = hash; s->at = at; s->cap = cap;
    return 0;
}

/* 1 when the sorted `key` was not seen yet (it is now), 0 when it was, -1 no memory. */
static int seen_add(Seen *s, const int *key, int k)
{
    if (2 * (s->count + 1) > s->cap && seen_grow(s) < 0)
        return -1;
    uint64_t h = key_hash(key, k);
    int j = (int)(h & (uint64_t)(s->cap - 1));
    for (; s->at[j] >= 0; j = (j + 1) & (s->cap - 1)) {
        const int *known = s->pool + s->at[j];
        if (s->hash[j] == h && known[0] == k && !memcmp(known + 1, key, sizeof(int) * k))
            return 0;
    }
    if (s->pool_len + k + 1 > s->pool_cap) {
        int cap = 2 * (s->pool_len + k + 1);
        int *pool = realloc(s->pool, sizeof(int) * cap);
        if (!pool)
            return -1;
        s->pool = pool;
        s->pool_cap = cap;
    }
    s->hash[j] = h;
    s->at[j] = s->pool_len;
    s->pool[s->pool_len++] = k;
    memcpy(s->pool + s->pool_len, key, sizeof(int) * k);
    s->pool_len += k;
    s->count++;
    return 1;
}

static void seen_free(Seen *s)
{
    free(s->hash); free(s->at); free(s->pool);
    memset(s, 0, sizeof *s);
}

/* One grid's searches: its graph, the links read backwards, the scratch of a search. */
typedef struct {
    const Graph *g;
    const uint32_t *cand;
    const char *peer;           /* ncells x ncells: 1 where two cells are peers */
    PyObject *lits;             /* tuple: cell * n + value -> (cell, value) */
    int *back_start, *back;     /* on literal -> the off literals that force it */
    int *tob_start, *tob;       /* off literal -> its weak links, in literal order */
    int16_t *dist, *prev, *via, *rank;      /* the search from a literal on */
    int16_t *odist, *oprev, *ovia;          /* from a literal off, until it is on */
    int *queue, *path, *key, *elims;
    int *mark, *cell_mark, *elim_mark, stamp;
} Chains;

static int code_of(const Graph *g, int lit)
{
    return g->lit_cell[lit] * g->n + g->lit_value[lit];
}

/* The off literals forcing each on literal, listed as the Python graph's `forced_by`:
 * by when each off literal first got a strong link (bivalue cells in cell order, then
 * houses in order, values in order), each once per link. */
static int chains_back(Chains *C, const uint32_t *cand, const int *house_cells, int nhouses,
                       int y, int x)
{
    const Graph *g = C->g;
    int L = g->L, n = g->n, nseq = 0;
    int *seq = malloc(sizeof(int) * (L + 1));
    char *listed = calloc(L + 1, 1);
    C->back_start = calloc(L + 1, sizeof(int));
    C->back = malloc(sizeof(int) * (g->strong_start[L] + 1));
    if (!seq || !listed || !C->back_start || !C->back) {
        free(seq); free(listed);
        return -1;
    }
#define LIST(lit) do { int l_ = (lit); if (!listed[l_]) { listed[l_] = 1; seq[nseq++] = l_; } } while (0)
    if (y)
        for (int c = 0; c < g->ncells; c++)
            if (popcount32(cand[c]) == 2)
                for (int v = 0; v < n; v++)
                    if (cand[c] >> v & 1)
                        LIST(g->index[c * n + v]);
    for (int h = 0; x && h < nhouses; h++)
        for (int v = 0; v < n; v++) {
            int p = -1, q = -1, count = 0;
            for (int j = 0; j < n; j++) {
                int c = house_cells[h * n + j];
                if (cand[c] >> v & 1) {
                    if (count++ == 0)
                        p = c;
                    else
                        q = c;
                }
            }
            if (count == 2) {
                LIST(g->index[p * n + v]);
                LIST(g->index[q * n + v]);
            }
        }
#undef LIST
    for (int k = 0; k < g->strong_start[L]; k++)
        C->back_start[g->strong[k] + 1]++;
    for (int i = 0; i < L; i++)
        C->back_start[i + 1] += C->back_start[i];
    int *next = malloc(sizeof(int) * (L + 1));
    if (!next) {
        free(seq); free(listed);
        return -1;
    }
    memcpy(next, C->back_start, sizeof(int) * L);
    for (int s = 0; s < nseq; s++) {
        int off = seq[s];
        for (int k = g->strong_start[off]; k < g->strong_start[off + 1]; k++)
            C->back[next[g->strong[k]]++] = off;
    }
    free(next); free(seq); free(listed);
    return 0;
}

/* Each literal's weak links sorted, as the Python graph's `turned_off_by`. */
static int chains_sorted_weak(Chains *C)
{
    const Graph *g = C->g;
    int total = g->weak_start[g->L];
    C->tob_start = malloc(sizeof(int) * (g->L + 1));
    C->tob = malloc(sizeof(int) * (total + 1));
    if (!C->tob_start || !C->tob)
        return -1;
    memcpy(C->tob_start, g->weak_start, sizeof(int) * (g->L + 1));
    memcpy(C->tob, g->weak, sizeof(int) * total);
    for (int i = 0; i < g->L; i++)
        for (int k = C->tob_start[i] + 1; k < C->tob_start[i + 1]; k++)
            for (int j = k; j > C->tob_start[i] && C->tob[j - 1] > C->tob[j]; j--) {
                int t = C->tob[j];
                C->tob[j] = C->tob[j - 1];
                C->tob[j - 1] = t;
            }
    return 0;
}

static void sort_ints(int *a, int k)
{
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            int t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* A list of the literals of `codes` (cell * n + value). */
static PyObject *code_list(PyObject *lits, const int *codes, int k)
{
    PyObject *list = PyList_New(k);
    for (int i = 0; list && i < k; i++) {
        PyObject *lit = PyTuple_GET_ITEM(lits, codes[i]);
        Py_INCREF(lit);
        PyList_SET_ITEM(list, i, lit);
    }
    return list;
}

/* Appends (kind, complexity, removed, path) to `out`; the path's literals (graph
 * indices) alternate in sign from `first_on`. */
static int chains_emit(Chains *C, PyObject *out, int kind, int cx, const int *removed,
                       int nremoved, const int *path, int k, int first_on)
{
    PyObject *gone = code_list(C->lits, removed, nremoved), *lits = PyList_New(k);
    int status = -1;
    if (!gone || !lits)
        goto done;
    for (int i = 0; i < k; i++) {
        PyObject *sign = (i % 2 == 0) == first_on ? Py_True : Py_False;
        PyObject *item = PyTuple_Pack(2, PyTuple_GET_ITEM(C->lits, code_of(C->g, path[i])),
                                      sign);
        if (!item)
            goto done;
        PyList_SET_ITEM(lits, i, item);
    }
    PyObject *found = Py_BuildValue("(iiOO)", kind, cx, gone, lits);
    if (found) {
        status = PyList_Append(out, found);
        Py_DECREF(found);
    }
done:
    Py_XDECREF(gone);
    Py_XDECREF(lits);
    return status;
}

/* The value of cell `c` in every peer of both `a` and `b` outside the cycle's cells. */
static int seen_by_both(Chains *C, int a, int b, int v, int *elims, int nelims)
{
    const Graph *g = C->g;
    const char *pa = C->peer + a * g->ncells, *pb = C->peer + b * g->ncells;
    for (int c = 0; c < g->ncells; c++) {
        int code = c * g->n + v;
        if (pa[c] && pb[c] && C->cell_mark[c] != C->stamp && (C->cand[c] >> v & 1)
            && C->elim_mark[code] != C->stamp) {
            C->elim_mark[code] = C->stamp;
            elims[nelims++] = code;
        }
    }
    return nelims;
}

/* The cycle src -> ... -> b -> off -> src, kept when new and removing something. */
static int cycle(Chains *C, Seen *seen, PyObject *out, int kind, int y, int src, int off, int b)
{
    const Graph *g = C->g;
    int n = g->n, k = 0, *path = C->path;
    for (int node = b; node >= 0; node = C->prev[node]) {  /* b back to src, reversed below */
        path[k++] = node;
        if (C->via[node] >= 0)
            path[k++] = C->via[node];
    }
    for (int i = 0; i < k / 2; i++) {
        int t = path[i];
        path[i] = path[k - 1 - i];
        path[k - 1 - i] = t;
    }
    path[k++] = off;  /* the literals: src, ..., b, off (src closes the path) */
    C->stamp++;
    for (int i = 0; i < k; i++) {
        int c = g->lit_cell[path[i]];
        if (C->mark[path[i]] == C->stamp || (!y && C->cell_mark[c] == C->stamp))
            return 0;
        C->mark[path[i]] = C->stamp;
        C->cell_mark[c] = C->stamp;
    }
    memcpy(C->key, path, sizeof(int) * k);
    sort_ints(C->key, k);
    int fresh = seen_add(seen, C->key, k);
    if (fresh <= 0)
        return fresh;
    int nelims = 0;
    for (int i = 0; i < k; i += 2) {
        int a = path[i], o = path[i + 1], next = path[(i + 2) % k];
        int ac = g->lit_cell[a], oc = g->lit_cell[o], v = g->lit_value[a];
        if (ac == oc) {  /* a weak link inside a cell: it holds one of the two */
            for (int u = 0; u < n; u++)
                if (u != v && u != g->lit_value[o] && (C->cand[ac] >> u & 1)
                    && C->elim_mark[ac * n + u] != C->stamp) {
                    C->elim_mark[ac * n + u] = C->stamp;
                    C->elims[nelims++] = ac * n + u;
                }
        } else if (v == g->lit_value[o]) {
            nelims = seen_by_both(C, ac, oc, v, C->elims, nelims);
        }
        int nc = g->lit_cell[next];  /* the strong link o -> next, when also weak */
        if (oc != nc && g->lit_value[o] == g->lit_value[next])
            nelims = seen_by_both(C, nc, oc, g->lit_value[next], C->elims, nelims);
    }
    if (!nelims)
        return 0;
    sort_ints(C->elims, nelims);
    path[k] = src;
    return chains_emit(C, out, kind, k, C->elims, nelims, path, k + 1, 1);
}

/* The cycles through `src`, from the search from `src` on (in C->dist). */
static int cycles_from(Chains *C, Seen *seen, PyObject *out, int kind, int y, int src)
{
    for (int k = C->back_start[src]; k < C->back_start[src + 1]; k++) {
        int off = C->back[k];
        for (int j = C->tob_start[off]; j < C->tob_start[off + 1]; j++) {
            int b = C->tob[j];
            if (C->dist[b] > 0 && cycle(C, seen, out, kind, y, src, off, b) < 0)
                return -1;
        }
    }
    return 0;
}

/* SE's names of a single-value chain with two strong links (turbot fish). */
static int common_kind(const Graph *g, int first, int mid, int second, int end)
{
    int n = g->n, kinds[2], ends[2][2] = {{g->lit_cell[first], g->lit_cell[mid]},
                                           {g->lit_cell[second], g->lit_cell[end]}};
    for (int i = 0; i < 2; i++) {
        int p = ends[i][0], q = ends[i][1];
        kinds[i] = p / n == q / n ? 0 : p % n == q % n ? 1 : 2;  /* row, column, box */
    }
    if (kinds[0] == kinds[1] && kinds[0] != 2)
        return SKYSCRAPER;
    if (kinds[0] + kinds[1] == 1)
        return KITE;
    return TURBOT;
}

/* src on => src off (the nearest of its weak links reached), and src off => src on. */
static int chains_from(Chains *C, PyObject *out, int kind, int src)
{
    const Graph *g = C->g;
    int n = g->n, *path = C->path;
    int best = nearest_weak(g, src, C->dist, C->rank);
    if (best >= 0) {
        int k = 0, d = C->dist[best], code = code_of(g, src);
        for (int node = best; node >= 0; node = C->prev[node]) {
            path[k++] = node;
            if (C->via[node] >= 0)
                path[k++] = C->via[node];
        }
        for (int i = 0; i < k / 2; i++) {
            int t = path[i];
            path[i] = path[k - 1 - i];
            path[k - 1 - i] = t;
        }
        path[k++] = src;
        int named = kind;
        if (kind == X_CHAIN && d == 2) {
            int mid = C->prev[best];
            named = common_kind(g, C->via[mid], mid, C->via[best], best);
        }
        if (chains_emit(C, out, named, 2 * d + 2, &code, 1, path, k, 1) < 0)
            return -1;
    }
    memset(C->odist, 0xff, sizeof(int16_t) * g->L);
    memset(C->oprev, 0xff, sizeof(int16_t) * g->L);
    memset(C->ovia, 0xff, sizeof(int16_t) * g->L);
    int tail = 0;
    for (int k = g->strong_start[src]; k < g->strong_start[src + 1]; k++) {
        int b = g->strong[k];
        if (C->odist[b] >= 0)
            continue;
        C->odist[b] = 1;
        C->ovia[b] = (int16_t)src;
        C->queue[tail++] = b;
    }
    spread(g, C->odist, C->oprev, C->ovia, NULL, C->queue, tail, src);
    if (C->odist[src] < 0)
        return 0;
    int k = 0;
    for (int node = src; node >= 0; node = C->oprev[node]) {
        path[k++] = node;
        path[k++] = C->ovia[node];
    }
    for (int i = 0; i < k / 2; i++) {
        int t = path[i];
        path[i] = path[k - 1 - i];
        path[k - 1 - i] = t;
    }
    int c = g->lit_cell[src], v = g->lit_value[src], others[32], nothers = 0;
    for (int u = 0; u < n; u++)
        if (u != v && (C->cand[c] >> u & 1))
            others[nothers++] = c * n + u;
    return chains_emit(C, out, kind, 2 * C->odist[src], others, nothers, path, k, 0);
}

/* One graph's searches: its cycles of `cycle_kind` and chains of `chain_kind` (-1 none). */
static int chains_of_graph(const uint32_t *cand, int n, const int *pstart, const int *peers,
                           const int *hstart, const int *houses, const int *cells,
                           int nhouses, const char *peer, PyObject *lits, int y, int x,
                           int cycle_kind, int chain_kind, PyObject *cycles_out,
                           PyObject *chains_out)
{
    Graph g;
    Chains C;
    Seen seen;
    memset(&C, 0, sizeof C);
    memset(&seen, 0, sizeof seen);
    int status = graph_build(&g, cand, n, pstart, peers, hstart, houses, cells, y, x,
                             NO_RULES);
    if (status < 0)
        goto done;
    int L = g.L, ncodes = g.ncells * n;
    C.g = &g; C.cand = cand; C.peer = peer; C.lits = lits;
    C.dist = malloc(sizeof(int16_t) * 7 * (L + 1));
    C.queue = malloc(sizeof(int) * (L + 1));
    C.path = malloc(sizeof(int) * (2 * L + 4));
    C.key = malloc(sizeof(int) * (2 * L + 4));
    C.elims = malloc(sizeof(int) * (ncodes + 1));
    C.mark = calloc(L + 1, sizeof(int));
    C.cell_mark = calloc(g.ncells, sizeof(int));
    C.elim_mark = calloc(ncodes, sizeof(int));
    status = -2;
    if (!C.dist || !C.queue || !C.path || !C.key || !C.elims || !C.mark || !C.cell_mark
        || !C.elim_mark || chains_back(&C, cand, cells, nhouses, y, x) < 0
        || chains_sorted_weak(&C) < 0)
        goto done;
    C.prev = C.dist + (L + 1); C.via = C.prev + (L + 1); C.rank = C.via + (L + 1);
    C.odist = C.rank + (L + 1); C.oprev = C.odist + (L + 1); C.ovia = C.oprev + (L + 1);
    status = -3;
    for (int src = 0; src < L; src++) {
        memset(C.dist, 0xff, sizeof(int16_t) * 4 * (L + 1));
        C.dist[src] = 0;
        C.rank[src] = 0;
        C.queue[0] = src;
        spread(&g, C.dist, C.prev, C.via, C.rank, C.queue, 1, -1);
        if (cycle_kind >= 0 && cycles_from(&C, &seen, cycles_out, cycle_kind, y, src) < 0)
            goto done;
        if (chain_kind >= 0 && chains_from(&C, chains_out, chain_kind, src) < 0)
            goto done;
    }
    status = 0;
done:
    free(C.dist); free(C.queue); free(C.path); free(C.key); free(C.elims);
    free(C.mark); free(C.cell_mark); free(C.elim_mark);
    free(C.back_start); free(C.back); free(C.tob_start); free(C.tob);
    seen_free(&seen);
    graph_free(&g);
    return status;
}

static PyObject *static_chains(PyObject *self, PyObject *args)
{
    PyObject *cand_seq, *lits;
    Py_buffer pstart_b, peers_b, hstart_b, houses_b, cells_b;
    int n;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oiy*y*y*y*y*O", &cand_seq, &n, &pstart_b, &peers_b,
                          &hstart_b, &houses_b, &cells_b, &lits))
        return NULL;
    PyObject *result = NULL, *parts[5] = {NULL};
    int ncells = n * n, *tmp = NULL;
    uint32_t *cand = NULL;
    char *peer = NULL;
    if (n < 1 || n > 32 || pstart_b.len != (Py_ssize_t)sizeof(int) * (ncells + 1)
        || hstart_b.len != (Py_ssize_t)sizeof(int) * (ncells + 1) || !PyTuple_Check(lits)
        || PyTuple_GET_SIZE(lits) != (Py_ssize_t)ncells * n) {
        PyErr_SetString(PyExc_ValueError, "static_chains: tables of the wrong size");
        goto done;
    }
    int nhouses = (int)(cells_b.len / ((Py_ssize_t)sizeof(int) * n));
    const int *pstart = pstart_b.buf, *peers = peers_b.buf;
    cand = malloc(sizeof(uint32_t) * ncells);
    tmp = malloc(sizeof(int) * ncells);
    peer = calloc((size_t)ncells * ncells, 1);
    if (!cand || !tmp || !peer) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ints(cand_seq, tmp, ncells, "candidates") < 0)
        goto done;
    for (int c = 0; c < ncells; c++) {
        cand[c] = (uint32_t)tmp[c];
        for (int k = pstart[c]; k < pstart[c + 1]; k++)
            peer[c * ncells + peers[k]] = 1;
    }
    for (int i = 0; i < 5; i++)
        if (!(parts[i] = PyList_New(0)))
            goto done;
    /* X-cycles and X-chains, Y-cycles, XY-cycles and XY-chains: a graph each */
    static const int graphs[3][4] = {{0, 1, X_CYCLE, X_CHAIN}, {1, 0, Y_CYCLE, -1},
                                     {1, 1, XY_CYCLE, XY_CHAIN}};
    static const int chain_part[3] = {3, -1, 4};
    for (int i = 0; i < 3; i++) {
        int status = chains_of_graph(
            cand, n, pstart, peers, hstart_b.buf, houses_b.buf, cells_b.buf, nhouses, peer,
            lits, graphs[i][0], graphs[i][1], graphs[i][2], graphs[i][3], parts[i],
            chain_part[i] < 0 ? NULL : parts[chain_part[i]]);
        if (status == -1) {  /* past MAX_LITERALS */
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        if (status < 0) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            goto done;
        }
    }
    for (int i = 1; i < 5; i++) {  /* cycles X, Y, XY, then chains X, XY */
        Py_ssize_t end = PyList_GET_SIZE(parts[0]);
        if (PyList_SetSlice(parts[0], end, end, parts[i]) < 0)
            goto done;
    }
    result = parts[0];
    parts[0] = NULL;
done:
    for (int i = 0; i < 5; i++)
        Py_XDECREF(parts[i]);
    free(cand); free(tmp); free(peer);
    PyBuffer_Release(&pstart_b);
    PyBuffer_Release(&peers_b);
    PyBuffer_Release(&hstart_b);
    PyBuffer_Release(&houses_b);
    PyBuffer_Release(&cells_b);
    return result;
}

/* ---------------------------------------------------------------- plus rules
 *
 * `plusrules.first_rule` in C, asked by `propagate` where an assumption's singles
 * run out: locked candidates, hidden pairs, naked pairs, X-wings, the first that
 * removes something, each removal with its reasons (the candidates struck out
 * since the search's grid that made the rule apply), in the Python rules' order.
 */

typedef struct {
    int n, ncells, nhouses;
    const int *house_cells;              /* per house: its n cells */
    const int *house_kind;               /* per house: HOUSE_* */
    const int *cross_start, *cross;      /* per crossing: 3 rows (see `plusrules.crossings`) */
    int ncross;
} PlusTables;

enum { HOUSE_ROW, HOUSE_COL, HOUSE_BOX, HOUSE_EXTRA };

/* Removals (literal codes), each with its reasons: a run of `why`. */
typedef struct {
    int *lit, *why_at, *why_len, count, cap;
    int *why, nwhy, why_cap;
} Found;

static void found_free(Found *F)
{
    free(F->lit); free(F->why_at); free(F->why_len); free(F->why);
    memset(F, 0, sizeof *F);
}

static int found_reason(Found *F, int code)
{
    if (F->nwhy == F->why_cap) {
        int cap = F->why_cap ? 2 * F->why_cap : 256;
        int *why = realloc(F->why, sizeof(int) * cap);
        if (!why)
            return -1;
        F->why = why;
        F->why_cap = cap;
    }
    F->why[F->nwhy++] = code;
    return 0;
}

/* `code` removed, for the reasons from `why_at` to the last one added. */
static int found_add(Found *F, int code, int why_at)
{
    if (F->count == F->cap) {
        int cap = F->cap ? 2 * F->cap : 64;
        int *lit = realloc(F->lit, sizeof(int) * cap);
        if (lit)
            F->lit = lit;
        int *at = lit ? realloc(F->why_at, sizeof(int) * cap) : NULL;
        if (at)
            F->why_at = at;
        int *len = at ? realloc(F->why_len, sizeof(int) * cap) : NULL;
        if (!len)
            return -1;
        F->why_len = len;
        F->cap = cap;
    }
    F->lit[F->count] = code;
    F->why_at[F->count] = why_at;
    F->why_len[F->count++] = F->nwhy - why_at;
    return 0;
}

#define GONE(src, cand, c, bit) (((src)[c] & (bit)) && !((cand)[c] & (bit)))
#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static int locked_candidates(const PlusTables *T, const uint32_t *src, const uint32_t *cand,
                             Found *F)
{
    int n = T->n;
    for (int x = 0; x < T->ncross; x++) {
        const int *common = T->cross + T->cross_start[3 * x];
        const int *base = T->cross + T->cross_start[3 * x + 1];
        const int *cover = T->cross + T->cross_start[3 * x + 2];
        int ncommon = (int)(base - common), nbase = (int)(cover - base);
        int ncover = T->cross_start[3 * x + 3] - T->cross_start[3 * x + 2];
        uint32_t inside = 0, outside = 0, gone = 0, covered = 0;
        for (int i = 0; i < ncommon; i++)
            inside |= cand[common[i]];
        for (int i = 0; i < nbase; i++)
            outside |= cand[base[i]];
        uint32_t locked = inside & ~outside;  /* values whose places in the base are shared */
        if (!locked)
            continue;
        for (int i = 0; i < nbase; i++)
            gone |= src[base[i]] & ~cand[base[i]];
        for (int i = 0; i < ncover; i++)
            covered |= cand[cover[i]];
        for (int v = 0; v < n; v++) {
            uint32_t bit = 1u << v;
            if (!(locked & gone & covered & bit))
                continue;
            int at = F->nwhy;
            for (int i = 0; i < nbase; i++)
                if (GONE(src, cand, base[i], bit))
                    TRY(found_reason(F, base[i] * n + v));
            for (int i = 0; i < ncover; i++)
                if (cand[cover[i]] & bit)
                    TRY(found_add(F, cover[i] * n + v, at));
        }
    }
    return F->count;
}

static int hidden_pairs(const PlusTables *T, const uint32_t *src, const uint32_t *cand,
                        Found *F)
{
    int n = T->n;
    for (int h = 0; h < T->nhouses; h++) {
        const int *cells = T->house_cells + h * n;
        uint32_t places[32] = {0};  /* per value: its places, as positions in the house */
        for (int j = 0; j < n; j++)
            for (int v = 0; v < n; v++)
                if (cand[cells[j]] >> v & 1)
                    places[v] |= 1u << j;
        for (int a = 0; a < n; a++) {
            if (popcount32(places[a]) != 2)
                continue;
            for (int b = a + 1; b < n; b++) {
                if (places[b] != places[a])
                    continue;
                uint32_t keep = (1u << a) | (1u << b);
                int at = F->nwhy, first = F->count;
                for (int j = 0; j < n; j++)
                    if (!(places[a] >> j & 1))
                        for (int k = 0; k < 2; k++) {
                            int u = k ? b : a;
                            if (src[cells[j]] >> u & 1)
                                TRY(found_reason(F, cells[j] * n + u));
                        }
                if (F->nwhy == at)
                    continue;
                for (int j = 0; j < n; j++)
                    if (places[a] >> j & 1)
                        for (int u = 0; u < n; u++)
                            if ((cand[cells[j]] & ~keep) >> u & 1)
                                TRY(found_add(F, cells[j] * n + u, at));
                if (F->count == first)
                    F->nwhy = at;  /* nothing removed: no step */
            }
        }
    }
    return F->count;
}

static int naked_pairs(const PlusTables *T, const uint32_t *src, const uint32_t *cand,
                       Found *F)
{
    int n = T->n;
    for (int h = 0; h < T->nhouses; h++) {
        const int *cells = T->house_cells + h * n;
        for (int i = 0; i < n; i++) {
            int p = cells[i];
            uint32_t mask = cand[p];
            if (popcount32(mask) != 2)
                continue;
            for (int j = i + 1; j < n; j++) {
                int q = cells[j];
                if (cand[q] != mask)
                    continue;
                int at = F->nwhy, first = F->count;
                for (int k = 0; k < 2; k++) {
                    int c = k ? q : p;
                    for (int u = 0; u < n; u++)
                        if ((src[c] & ~mask) >> u & 1)
                            TRY(found_reason(F, c * n + u));
                }
                if (F->nwhy == at)
                    continue;
                for (int k = 0; k < n; k++) {
                    int c = cells[k];
                    if (c == p || c == q)
                        continue;
                    for (int u = 0; u < n; u++)
                        if ((cand[c] & mask) >> u & 1)
                            TRY(found_add(F, c * n + u, at));
                }
                if (F->count == first)
                    F->nwhy = at;
            }
        }
    }
    return F->count;
}

static int x_wings(const PlusTables *T, const uint32_t *src, const uint32_t *cand, Found *F)
{
    int n = T->n;
    for (int kind = HOUSE_ROW; kind <= HOUSE_COL; kind++)
        for (int v = 0; v < n; v++) {
            uint32_t bit = 1u << v;
            int two[64][3], ntwo = 0;  /* lines with two places: the line, its places */
            for (int h = 0; h < T->nhouses && ntwo < 64; h++) {
                if (T->house_kind[h] != kind)
                    continue;
                int count = 0, at[2] = {-1, -1};
                for (int j = 0; j < n; j++) {
                    int c = T->house_cells[h * n + j];
                    if (cand[c] & bit) {
                        if (count < 2)
                            at[count] = c;
                        count++;
                    }
                }
                if (count == 2) {
                    two[ntwo][0] = h;
                    two[ntwo][1] = at[0];
                    two[ntwo++][2] = at[1];
                }
            }
#define CROSS(c) (kind == HOUSE_ROW ? (c) % n : (c) / n)
            for (int i = 0; i < ntwo; i++)
                for (int j = i + 1; j < ntwo; j++) {
                    if (CROSS(two[i][1]) != CROSS(two[j][1])
                        || CROSS(two[i][2]) != CROSS(two[j][2]))
                        continue;
                    int at = F->nwhy, first = F->count;
                    for (int k = 0; k < 2; k++) {
                        const int *cells = T->house_cells + two[k ? j : i][0] * n;
                        for (int m = 0; m < n; m++)
                            if (GONE(src, cand, cells[m], bit))
                                TRY(found_reason(F, cells[m] * n + v));
                    }
                    if (F->nwhy == at)
                        continue;
                    for (int c = 0; c < T->ncells; c++) {
                        if (c == two[i][1] || c == two[i][2] || c == two[j][1] || c == two[j][2]
                            || !(cand[c] & bit))
                            continue;
                        if (CROSS(c) == CROSS(two[i][1]) || CROSS(c) == CROSS(two[i][2]))
                            TRY(found_add(F, c * n + v, at));
                    }
                    if (F->count == first)
                        F->nwhy = at;
                }
#undef CROSS
        }
    return F->count;
}

#undef TRY
#undef GONE

/* The first rule that removes something (SE stops there, even when all of it is
 * already known): the number of removals in F, or -1 without memory. */
static int first_rule(const PlusTables *T, const uint32_t *src, const uint32_t *cand,
                      Found *F)
{
    static int (*const rules[])(const PlusTables *, const uint32_t *, const uint32_t *,
                                Found *) = {locked_candidates, hidden_pairs, naked_pairs,
                                            x_wings};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        int count = rules[i](T, src, cand, F);
        if (count != 0)
            return count;
    }
    return 0;
}

/* The rules' tables from a layout's buffers: houses' cells and kinds, crossings. */
static int plus_tables(PlusTables *T, int n, const Py_buffer *cells, const Py_buffer *kinds,
                       const Py_buffer *cross_start, const Py_buffer *cross)
{
    T->n = n;
    T->ncells = n * n;
    T->nhouses = (int)(cells->len / ((Py_ssize_t)sizeof(int) * n));
    T->house_cells = cells->buf;
    T->house_kind = kinds->buf;
    T->cross_start = cross_start->buf;
    T->cross = cross->buf;
    T->ncross = (int)((cross_start->len / (Py_ssize_t)sizeof(int) - 1) / 3);
    if (kinds->len != (Py_ssize_t)sizeof(int) * T->nhouses || T->ncross < 0) {
        PyErr_SetString(PyExc_ValueError, "the plus rules' tables are of the wrong size");
        return -1;
    }
    return 0;
}

static PyObject *plus_rules(PyObject *self, PyObject *args)
{
    PyObject *source, *cand_seq, *lits, *result = NULL;
    Py_buffer b[4];
    int n;
    (void)self;
    memset(b, 0, sizeof b);
    if (!PyArg_ParseTuple(args, "OOiy*y*y*y*O", &source, &cand_seq, &n, &b[0], &b[1], &b[2],
                          &b[3], &lits))
        return NULL;
    PlusTables T;
    Found F;
    memset(&F, 0, sizeof F);
    int ncells = n * n, *tmp = NULL;
    uint32_t *src = NULL, *cand;
    if (n < 1 || n > 31 || !PyTuple_Check(lits) || PyTuple_GET_SIZE(lits) != ncells * n) {
        PyErr_SetString(PyExc_ValueError, "plus_rules: tables of the wrong size");
        goto done;
    }
    tmp = malloc(sizeof(int) * 2 * ncells);
    src = malloc(sizeof(uint32_t) * 2 * ncells);
    if (!tmp || !src) {
        PyErr_NoMemory();
        goto done;
    }
    cand = src + ncells;
    if (plus_tables(&T, n, &b[0], &b[1], &b[2], &b[3]) < 0
        || read_ints(source, tmp, ncells, "candidates") < 0
        || read_ints(cand_seq, tmp + ncells, ncells, "candidates") < 0)
        goto done;
    for (int c = 0; c < 2 * ncells; c++)
        src[c] = (uint32_t)tmp[c];
    if (first_rule(&T, src, cand, &F) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyList_New(F.count);
    for (int i = 0; result && i < F.count; i++) {
        PyObject *why = code_list(lits, F.why + F.why_at[i], F.why_len[i]);
        PyObject *item = why ? Py_BuildValue("(ON)", PyTuple_GET_ITEM(lits, F.lit[i]),
                                             PyList_AsTuple(why)) : NULL;
        Py_XDECREF(why);
        if (!item) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, item);
    }
done:
    found_free(&F);
    free(tmp);
    free(src);
    for (int i = 0; i < 4; i++)
        if (b[i].obj)
            PyBuffer_Release(&b[i]);
    return result;
}

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
