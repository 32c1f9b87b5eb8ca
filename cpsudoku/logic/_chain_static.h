/* Static chains and cycles (`_chaincore.c` includes it, after `_chain_graph.h`).
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

