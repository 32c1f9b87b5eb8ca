/* Regions found while solving (chaos construction): the REGIONS pass of `_vkernel.c`,
 * included there after the Search state and `restrict_to`.
 *
 * cells = the N*N digit cells, then one label variable per cell (label k is bit
 * k - 1, as a value). To a fixpoint of its own, the pass applies what
 * `engine/regions.py` states and checks the same way:
 *
 * 1. canonical labels: label k + 1 only after some earlier cell may take label k;
 * 2. region houses: a decided (label, digit) pair leaves every other cell, a
 *    digit with one possible cell in a region goes there, a region with N decided
 *    cells takes no other, one with fewer than N possible cells fails;
 * 3. connectivity: from a decided cell of region k, a 0-1 breadth-first search
 *    (undecided cells cost one, decided ones of k nothing) within the N - decided
 *    cells left: unreached cells lose k, an unreached decided cell fails, and
 *    exactly N reachable cells are the region; a region without a decided cell
 *    keeps k only in pieces of N or more possible cells; a decided piece smaller
 *    than N with one way out takes it.
 *
 * Scratch: 4 * N*N ints per constraint, allocated at build (`build_regions`).
 */

#define REGIONS_MAX_WIDTH 32

static int build_regions(Con *c, const int64_t *data, Py_ssize_t nd, int n, int index)
{
    if (nd < 1 || nd > 1 + n || data[0] != n || c->len != 2 * n * n)
        return bad("constraint %d: regions need the grid's width and 2 * N * N cells", index);
    for (Py_ssize_t a = 1; a < nd; a++)
        if (data[a] < 0 || data[a] >= n * n)
            return bad("constraint %d: an anchor beyond the grid", index);
    c->nanchors = (int)nd - 1;
    c->anchors = malloc((size_t)nd * sizeof(int));
    if (!c->anchors) {
        PyErr_NoMemory();
        return -1;
    }
    for (int a = 0; a < c->nanchors; a++)
        c->anchors[a] = (int)data[a + 1];
    c->scratch = malloc((size_t)4 * n * n * sizeof(int));
    if (!c->scratch) {
        PyErr_NoMemory();
        return -1;
    }
    c->exact = 1;
    return 0;
}

/* Narrow variable v to `keep`; *moved set when it changed. -1 when nothing is left. */
static inline int regions_keep(Search *S, uint32_t *s, int v, uint32_t keep, int *moved)
{
    uint32_t before = domain(S, s, v);
    if ((before & keep) == before)
        return 0;
    if (restrict_to(S, s, v, keep) < 0)
        return -1;
    *moved = 1;
    return 0;
}

/* Orthogonal neighbours of grid position i in a width-n grid: up to 4 into nb. */
static inline int regions_near(int i, int n, int *nb)
{
    int r = i / n, col = i % n, k = 0;
    if (r > 0)
        nb[k++] = i - n;
    if (r < n - 1)
        nb[k++] = i + n;
    if (col > 0)
        nb[k++] = i - 1;
    if (col < n - 1)
        nb[k++] = i + 1;
    return k;
}

/* Region `bit`'s connectivity (step 3). L: the labels' domains, read at the start. */
static int regions_connect(Search *S, uint32_t *s, const Con *c, const uint32_t *L,
                           uint32_t bit, int *moved)
{
    const int n = S->k->n, N2 = n * n;
    const int *lab = c->cells + N2;
    int *cost = c->scratch, *dq = c->scratch + N2, *piece = c->scratch + 3 * N2;
    int nb[4];
    int first = -1, nfixed = 0;
    for (int i = 0; i < N2; i++)
        if (L[i] == bit) {
            if (first < 0)
                first = i;
            nfixed++;
        }
    if (first < 0) { /* no decided cell: pieces too small to hold the region lose it */
        int viable = 0;
        for (int i = 0; i < N2; i++)
            cost[i] = 0; /* 0: unseen */
        for (int st = 0; st < N2; st++) {
            if (cost[st] || !(L[st] & bit))
                continue;
            int len = 0, top = 0;
            cost[st] = 1;
            piece[len++] = st;
            dq[top++] = st;
            while (top) {
                int i = dq[--top];
                for (int q = regions_near(i, n, nb) - 1; q >= 0; q--) {
                    int j = nb[q];
                    if (!cost[j] && (L[j] & bit)) {
                        cost[j] = 1;
                        piece[len++] = j;
                        dq[top++] = j;
                    }
                }
            }
            if (len < n) {
                for (int q = 0; q < len; q++)
                    if (regions_keep(S, s, lab[piece[q]], ~bit, moved) < 0)
                        return -1;
            } else {
                viable = 1;
            }
        }
        return viable ? 0 : -1;
    }
    /* 0-1 breadth-first search from the first decided cell, on a deque in dq[0, 2*N2) */
    const int budget = n - nfixed, far = budget + 1;
    for (int i = 0; i < N2; i++)
        cost[i] = far;
    int head = N2, tail = N2; /* the deque's live part is dq[head, tail) */
    cost[first] = 0;
    dq[tail++] = first;
    while (head < tail) {
        int i = dq[head++], here = cost[i];
        for (int q = regions_near(i, n, nb) - 1; q >= 0; q--) {
            int j = nb[q];
            uint32_t m = L[j];
            if (!(m & bit))
                continue;
            int step = m == bit ? here : here + 1;
            if (step > budget || cost[j] <= step)
                continue;
            cost[j] = step;
            if (m == bit)
                dq[--head] = j;
            else
                dq[tail++] = j;
        }
    }
    int reached = 0;
    for (int i = 0; i < N2; i++) {
        if (cost[i] < far)
            reached++;
        else if (L[i] == bit)
            return -1; /* a decided cell the region cannot join */
    }
    if (reached < n)
        return -1;
    for (int i = 0; i < N2; i++)
        if (cost[i] == far && (L[i] & bit) && regions_keep(S, s, lab[i], ~bit, moved) < 0)
            return -1;
    if (reached == n) {
        for (int i = 0; i < N2; i++)
            if (cost[i] < far && regions_keep(S, s, lab[i], bit, moved) < 0)
                return -1;
        return 0;
    }
    /* doors: a decided piece smaller than N with one way out takes it */
    int *mark = cost; /* reused: 0 unseen, 1 in a piece, 2 counted as an exit */
    for (int i = 0; i < N2; i++)
        mark[i] = 0;
    for (int st = 0; st < N2; st++) {
        if (L[st] != bit || mark[st])
            continue;
        int len = 0, top = 0, exits = 0, door = -1, nexit = 0;
        mark[st] = 1;
        dq[top++] = st;
        while (top) {
            int i = dq[--top];
            len++;
            for (int q = regions_near(i, n, nb) - 1; q >= 0; q--) {
                int j = nb[q];
                if (L[j] == bit) {
                    if (!mark[j]) {
                        mark[j] = 1;
                        dq[top++] = j;
                    }
                } else if ((L[j] & bit) && mark[j] != 2) {
                    mark[j] = 2;
                    piece[nexit++] = j;
                    exits++;
                    door = j;
                }
            }
        }
        for (int q = 0; q < nexit; q++)
            mark[piece[q]] = 0; /* exits are counted per piece */
        if (len >= n)
            continue;
        if (!exits)
            return -1;
        if (exits == 1 && regions_keep(S, s, lab[door], bit, moved) < 0)
            return -1;
    }
    return 0;
}

static int regions(Search *S, uint32_t *s, const Con *c)
{
    const int n = S->k->n, N2 = n * n;
    const uint32_t full = S->k->full;
    const int *dig = c->cells, *lab = c->cells + N2;
    uint32_t L[REGIONS_MAX_WIDTH * REGIONS_MAX_WIDTH], D[REGIONS_MAX_WIDTH * REGIONS_MAX_WIDTH];
    for (;;) {
        int moved = 0;
        /* 1. canonical order: anchor a has label a + 1, the others follow */
        for (int a = 0; a < c->nanchors; a++)
            if (regions_keep(S, s, lab[c->anchors[a]], 1u << a, &moved) < 0)
                return -1;
        uint32_t allowed = (2u << c->nanchors) - 1;
        for (int i = 0; i < N2; i++) {
            if (regions_keep(S, s, lab[i], allowed, &moved) < 0)
                return -1;
            allowed = (allowed | (domain(S, s, lab[i]) << 1)) & full;
        }
        for (int i = 0; i < N2; i++) {
            L[i] = domain(S, s, lab[i]);
            D[i] = domain(S, s, dig[i]);
        }
        /* 2. region houses */
        for (int k = 0; k < n && !moved; k++) {
            const uint32_t bit = 1u << k;
            int nfixed = 0, nmaybe = 0;
            uint32_t taken = 0, once = 0, twice = 0;
            for (int i = 0; i < N2; i++) {
                if (!(L[i] & bit))
                    continue;
                nmaybe++;
                twice |= once & D[i];
                once |= D[i];
                if (L[i] == bit) {
                    nfixed++;
                    if (!(D[i] & (D[i] - 1))) {
                        if (taken & D[i])
                            return -1;
                        taken |= D[i];
                    }
                }
            }
            if (nfixed > n || nmaybe < n || once != full)
                return -1;
            const int region_full = nfixed == n && nmaybe > n;
            for (int i = 0; i < N2; i++) {
                if (!(L[i] & bit))
                    continue;
                const uint32_t d = D[i];
                if (L[i] == bit) {
                    if ((d & (d - 1)) && (d & taken) &&
                        regions_keep(S, s, dig[i], ~taken, &moved) < 0)
                        return -1;
                } else if (region_full || (!(d & (d - 1)) && (d & taken))) {
                    if (regions_keep(S, s, lab[i], ~bit, &moved) < 0)
                        return -1;
                }
            }
            /* a digit with one possible cell in the region goes there */
            for (uint32_t one = once & ~twice & ~taken; one; one &= one - 1) {
                const uint32_t v = one & (~one + 1);
                for (int i = 0; i < N2; i++)
                    if ((L[i] & bit) && (D[i] & v)) {
                        if (regions_keep(S, s, lab[i], bit, &moved) < 0 ||
                            regions_keep(S, s, dig[i], v, &moved) < 0)
                            return -1;
                        break;
                    }
            }
        }
        if (moved)
            continue;
        /* 3. connectivity */
        for (int k = 0; k < n && !moved; k++)
            if (regions_connect(S, s, c, L, 1u << k, &moved) < 0)
                return -1;
        if (!moved)
            return 0;
    }
}
