/* The chain graph of one grid (`_chaincore.c` includes it): literals, the weak and
 * strong links in the order the Python graph lists them, the rules' links beside the
 * houses', and `reach_tables`, its searches from every literal. */

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

