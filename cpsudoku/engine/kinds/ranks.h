/* Full rank (`grid/ranks.py`): the RANKS handler of `_vkernel.c`, included there
 * after the Search state (`_vstate.h`), with its branching hint.
 *
 * cells = the N*N grid, row by row; data = (ties, clues, then reading and rank per
 * clue, then every reading's N cells as places in the grid, in reading order), ties
 * 0 "only-unclued", 1 "any", 2 "none". The readings come as `grid/ranks` numbers
 * them, N per edge: rows from the left, from the right, columns from the top, from
 * the bottom; the pass relies on that order only to pair a line's two readings and
 * to find the four edge lines.
 *
 * The pass reasons as ISS's FullRank handler does, on bounds, never on a listed
 * automaton: each edge starts one reading with each digit, so the clues that start
 * with v (a rank set) share the four v-readings. Within a set, clues of lower rank
 * read smaller than those of higher rank; and a clue with b unclued v-readings below
 * it and a above it (its rank less the set's clued ranks on each side) needs b
 * unclued readings that may start with v and read smaller, at most b that surely do
 * (and as many larger): when the count is tight, the readings that may be the ones
 * are made to start with v, or those that may not be are kept from it, and a reading
 * sure to start with v but not yet ordered is ordered. Under "none" two fully fixed
 * lines may not read the same.
 *
 * A reading r is compared with a clued one c by walking both from their second cell
 * while they may still be equal: at each place, the values a cell can take less
 * those the two placed equal before (a line holds no digit twice) say whether r can
 * read smaller (its least below c's greatest), larger, or differ.
 */

enum { RANK_SET = 1, RANK_LESS = 2, RANK_MORE = 4, RANK_DIFFER = 8 };
enum { TIES_ONLY_UNCLUED, TIES_ANY, TIES_NONE };

static inline int rank_max(uint32_t m) { return m ? 32 - __builtin_clz(m) : 0; }
static inline int rank_min(uint32_t m) { return m ? __builtin_ctz(m) + 1 : 0; }

/* rank_sets layout: per set: value bit index, clues g, the edges it has no clue on
 * (4 bits: top row, left column, bottom row, right column), then per clue (sorted
 * by rank) its reading, unclued readings below, unclued readings above. */
static int ranks_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    const int64_t nclues = nd >= 2 ? data[1] : -1;
    if (nd < 2 || data[0] < 0 || data[0] > 2 || nclues < 0 || nclues > 4 * n ||
        nd != 2 + 2 * nclues + 4 * n * n)
        return bad("constraint %d: full rank needs its ties, (reading, rank) clues and "
                   "the readings' cells", index);
    if (c->len != n * n)
        return bad("constraint %d: full rank reads the whole grid", index);
    const int64_t *where = data + 2 + 2 * nclues;
    c->ties = (int)data[0];
    c->readings = malloc((size_t)4 * n * n * sizeof(int));
    c->rank_sets = malloc((size_t)(nclues * 6 + 1) * sizeof(int));
    c->unclued = malloc((size_t)8 * n * sizeof(int));
    c->rank_flags = malloc((size_t)4 * n);
    if (!c->readings || !c->rank_sets || !c->unclued || !c->rank_flags) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < 4 * n * n; k++) {
        if (where[k] < 0 || where[k] >= n * n)
            return bad("constraint %d: a full-rank reading's cell off the grid", index);
        c->readings[k] = c->cells[where[k]];
    }
    int clued[4 * MAX_VALUES] = {0};
    int reading[4 * MAX_VALUES], rank[4 * MAX_VALUES];
    for (int k = 0; k < nclues; k++) {
        reading[k] = (int)data[2 + 2 * k];
        rank[k] = (int)data[3 + 2 * k];
        if (reading[k] < 0 || reading[k] >= 4 * n || rank[k] < 1 || rank[k] > 4 * n ||
            clued[reading[k]])
            return bad("constraint %d: a full-rank clue off the grid, out of range or twice",
                       index);
        clued[reading[k]] = 1;
        for (int j = 0; j < k; j++)
            if (rank[j] == rank[k])
                return bad("constraint %d: two full-rank clues of one rank", index);
    }
    c->nunclued = 0;
    for (int r = 0; r < 4 * n; r++)
        if (!clued[r])
            c->unclued[c->nunclued++] = r;
    int at = 0;
    c->nsets = 0;
    for (int v = 0; v < n; v++) {
        int members[4], g = 0;
        for (int q = 0; q < 4; q++) /* the ranks of v in order: 4v + 1 ... 4v + 4 */
            for (int k = 0; k < nclues; k++)
                if (rank[k] == 4 * v + 1 + q)
                    members[g++] = k;
        if (!g)
            continue;
        int open = 15;
        for (int j = 0; j < g; j++) {
            const int64_t first = where[reading[members[j]] * n];
            const int row = (int)(first / n), col = (int)(first % n);
            open &= ~((row == 0) | (col == 0) << 1 | (row == n - 1) << 2 | (col == n - 1) << 3);
        }
        c->rank_sets[at++] = v;
        c->rank_sets[at++] = g;
        c->rank_sets[at++] = open;
        for (int j = 0; j < g; j++) {
            const int q = (rank[members[j]] - 1) % 4;
            c->rank_sets[at++] = reading[members[j]];
            c->rank_sets[at++] = q - j;                /* unclued below */
            c->rank_sets[at++] = (3 - q) - (g - j - 1); /* unclued above */
        }
        c->nsets++;
    }
    c->slow = 1; /* it reads every line: after the quick passes */
    return 0;
}

/* `low` must read smaller than `high` (both starting with one digit): the first
 * place where they may differ is bounded on each side. -1 if they cannot. */
static int rank_order(Search *S, uint32_t *s, const int *low, const int *high, int n)
{
    uint32_t equal = ~(domain(S, s, low[0]) & domain(S, s, high[0]));
    for (int i = 1; i < n; i++) {
        uint32_t lo = domain(S, s, low[i]) & equal, hi = domain(S, s, high[i]) & equal;
        if (!lo || !hi)
            return -1;
        if (lo == hi && !(lo & (lo - 1))) {
            equal &= ~lo;
            continue;
        }
        if (rank_max(lo) > rank_max(hi)) {
            if (restrict_to(S, s, low[i], range_mask(1, rank_max(hi)) & equal) < 0)
                return -1;
            lo = domain(S, s, low[i]) & equal;
        }
        if (rank_min(hi) < rank_min(lo)) {
            if (restrict_to(S, s, high[i], range_mask(rank_min(lo), 32) & equal) < 0)
                return -1;
            hi = domain(S, s, high[i]) & equal;
        }
        if (!lo || !hi)
            return -1;
        if (!(lo == hi && !(lo & (lo - 1))))
            return 0;
        equal &= ~lo;
    }
    return -1; /* equal all along: not smaller */
}

/* One clue against the viable unclued readings (see the header). */
static int rank_clue(Search *S, uint32_t *s, const Con *c, const int *viable, int nviable,
                     int clue, int below, int above)
{
    const int n = S->k->n, *entry = c->readings + clue * n;
    const int any = c->ties == TIES_ANY;
    const uint32_t v = domain(S, s, entry[0]);
    const int sure = RANK_SET | (any ? RANK_DIFFER : 0);
    uint8_t *flags = c->rank_flags;
    int maybe_less = 0, maybe_more = 0, sure_less = 0, sure_more = 0;
    for (int i = 0; i < nviable; i++) {
        const int *e = c->readings + viable[i] * n;
        int f = domain(S, s, e[0]) == v ? RANK_SET : 0;
        uint32_t equal = ~v;
        for (int j = 1; j < n; j++) {
            const uint32_t ev = domain(S, s, e[j]) & equal, cv = domain(S, s, entry[j]) & equal;
            const int emin = rank_min(ev), emax = rank_max(ev);
            const int cmin = rank_min(cv), cmax = rank_max(cv);
            if (emax > cmin)
                f |= RANK_MORE;
            if (emin < cmax)
                f |= RANK_LESS;
            if (!(ev & cv))
                f |= RANK_DIFFER;
            if ((f & (RANK_LESS | RANK_MORE)) == (RANK_LESS | RANK_MORE) || emin > cmax ||
                emax < cmin)
                break;
            equal &= ~(ev & cv); /* one value in common: equal here, used up */
        }
        if (!any) {
            if (f == RANK_SET) /* starts with v and can only equal the clued reading */
                return -1;
            f |= RANK_DIFFER;
        }
        flags[i] = (uint8_t)f;
        const int less = (f & RANK_LESS) != 0, more = (f & RANK_MORE) != 0;
        if (more) {
            maybe_more++;
            sure_more += !less && (f & sure) == sure;
        }
        if (less) {
            maybe_less++;
            sure_less += !more && (f & sure) == sure;
        }
    }
    if (maybe_less < below || sure_less > below || sure_more > above)
        return -1;
    if (!any && maybe_more < above)
        return -1;
    const int both = RANK_LESS | RANK_MORE | RANK_SET | RANK_DIFFER;
    for (int side = 0; side < 2; side++) {
        const int bit = side ? RANK_MORE : RANK_LESS;
        const int need = side ? above : below, maybe = side ? maybe_more : maybe_less;
        const int sure_n = side ? sure_more : sure_less;
        if (maybe == need && sure_n < need && (side == 0 || !any)) {
            /* every reading that may be one of them must be */
            for (int i = 0; i < nviable; i++)
                if ((flags[i] & bit) && restrict_to(S, s, c->readings[viable[i] * n], v) < 0)
                    return -1;
        } else if (sure_n == need && maybe > need) {
            /* the places are taken: the others that may only be on this side are not
             * v-readings, and a v-reading that may be on either side is on the other */
            for (int i = 0; i < nviable; i++) {
                const int *e = c->readings + viable[i] * n;
                if (flags[i] == (bit | RANK_DIFFER)) {
                    if (restrict_to(S, s, e[0], ~v) < 0)
                        return -1;
                } else if (flags[i] == both) {
                    if ((side ? rank_order(S, s, e, entry, n) : rank_order(S, s, entry, e, n)) < 0)
                        return -1;
                }
            }
        }
    }
    return 0;
}

/* Under "none": two fully placed lines may not read the same (either way round). */
static int rank_no_ties(Search *S, const uint32_t *s, const Con *c)
{
    const int n = S->k->n;
    const int *lines[2 * MAX_VALUES];
    int nlines = 0;
    for (int edge = 0; edge < 4; edge += 2) /* rows, then columns, each read forwards */
        for (int i = 0; i < n; i++) {
            const int *fwd = c->readings + (edge * n + i) * n;
            int placed = 1;
            for (int k = 0; placed && k < n; k++)
                placed = s[fwd[k]] == 0;
            if (!placed)
                continue;
            /* the way round that starts with the smaller digit */
            lines[nlines++] = s[S->k->ncells + fwd[0]] < s[S->k->ncells + fwd[n - 1]]
                                  ? fwd
                                  : c->readings + ((edge + 1) * n + i) * n;
        }
    for (int a = 0; a < nlines; a++)
        for (int b = 0; b < a; b++) {
            int same = 1;
            for (int k = 0; same && k < n; k++)
                same = s[S->k->ncells + lines[a][k]] == s[S->k->ncells + lines[b][k]];
            if (same)
                return -1;
        }
    return 0;
}

static int ranks(Search *S, uint32_t *s, const Con *c)
{
    const int n = S->k->n;
    int viable[4 * MAX_VALUES];
    for (int k = 0, at = 0; k < c->nsets; k++) {
        const int v = c->rank_sets[at], g = c->rank_sets[at + 1];
        const int *clue = c->rank_sets + at + 3;
        at += 3 + 3 * g;
        for (int j = 1; j < g; j++)
            if (rank_order(S, s, c->readings + clue[3 * (j - 1)] * n,
                           c->readings + clue[3 * j] * n, n) < 0)
                return -1;
        if (g == 4)
            continue;
        int nviable = 0;
        for (int i = 0; i < c->nunclued; i++)
            if (domain(S, s, c->readings[c->unclued[i] * n]) & (1u << v))
                viable[nviable++] = c->unclued[i];
        if (nviable < 4 - g)
            return -1;
        for (int j = 0; j < g; j++)
            if (rank_clue(S, s, c, viable, nviable, clue[3 * j], clue[3 * j + 1],
                          clue[3 * j + 2]) < 0)
                return -1;
    }
    return c->ties == TIES_NONE ? rank_no_ties(S, s, c) : 0;
}

/* ISS's branching on full rank: where digit v goes on an edge line that no clue of
 * v's set starts on (the line's cells are the first cells of that edge's readings),
 * scored as the busiest such cell's conflicts, times the edges the set's clues
 * settle, over the places left. Replaces the choice when it beats `*most`. */
static int ranks_hint(const Search *S, const uint32_t *cands, const Con *c, double *most,
                      int best, uint32_t *bit)
{
    const int n = S->k->n;
    /* the four edge lines: top row, left column, bottom row, right column */
    const int *line[4] = {c->readings, c->readings + 2 * n * n, c->readings + (n - 1) * n,
                          c->readings + (3 * n - 1) * n};
    for (int k = 0, at = 0; k < c->nsets; k++) {
        const uint32_t vb = 1u << c->rank_sets[at];
        const int g = c->rank_sets[at + 1], open = c->rank_sets[at + 2];
        at += 3 + 3 * g;
        const int weight = 4 - popcount32((uint32_t)open);
        for (int e = 0; e < 4; e++) {
            if (!(open >> e & 1))
                continue;
            int count = 0, top = -1;
            for (int i = 0; i < n; i++) {
                const int cell = line[e][i];
                const uint32_t m = cands[cell];
                if (!(m & vb))
                    continue;
                count++;
                if (top < 0 || S->conflicts[cell] > S->conflicts[top])
                    top = cell;
            }
            if (count < 2)
                continue;
            const double score = (double)S->conflicts[top] * weight / count;
            if (score > *most) {
                *most = score;
                best = top;
                *bit = vb;
            }
        }
    }
    return best;
}

static const Kind RANKS_KIND = {
    .method = "add_ranks", .params = {"ties", "clues", "readings"},
    .codes = "ips",
    .doc = "add_ranks(cells, ties, clues, readings) -> index: full rank; clues: (reading, "
           "rank) pairs; readings: every reading's N cells, flattened",
    .name = "RANKS",
    .build = ranks_build,
    .propagate = ranks,
    .hint = ranks_hint,
    .everywhere = 1,
};
