/* The plus rules (`_chaincore.c` includes it, after `_chain_static.h`).
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

