/* COUNT: counts of values among cells that each hold one; data = per value 1..n
 * the counts it may take among the cells (a bit per count), then the number of
 * groups and their sizes (cells in group order, a group's cells all peers): the
 * counts add up to the cells, and a value is in at most one cell of a group.
 * Counting circles, quadruples, and the counting automata of one line joined. */

static int count_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd,
                       int index)
{
    const int len = c->len, n = vk->n;
    if (len > 63 || nd < n + 1 || data[n] < 1 || data[n] > len || nd != n + 1 + data[n])
        return bad("constraint %d: counts need up to 63 cells, a count set per value and "
                   "their groups", index);
    c->counts = malloc((size_t)n * sizeof(uint64_t));
    c->ngroups = (int)data[n];
    c->gstart = malloc(((size_t)c->ngroups + 1) * sizeof(int));
    if (!c->counts || !c->gstart) {
        PyErr_NoMemory();
        return -1;
    }
    for (int v = 0; v < n; v++) {
        if (data[v] < 0 || (uint64_t)data[v] >> (len + 1))
            return bad("constraint %d: a count beyond its cells", index);
        c->counts[v] = (uint64_t)data[v];
    }
    c->gstart[0] = 0;
    for (int g = 0; g < c->ngroups; g++) {
        int64_t size = data[n + 1 + g];
        if (size < 1 || c->gstart[g] + size > len)
            return bad("constraint %d: group sizes that do not add up to the cells", index);
        c->gstart[g + 1] = c->gstart[g] + (int)size;
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++)
            for (int j = c->gstart[g]; j < i; j++) {
                int a = c->cells[i], b = c->cells[j];
                if (!(vk->peer_set[(size_t)a * vk->pw + b / 64] >> (b % 64) & 1))
                    return bad("constraint %d: a group of counted cells that are not all "
                               "peers", index);
            }
    }
    if (c->gstart[c->ngroups] != len)
        return bad("constraint %d: group sizes that do not add up to the cells", index);
    for (int i = 0; i < len; i++)
        for (int j = 0; j < i; j++)
            if (c->cells[i] == c->cells[j])
                return bad("constraint %d: counts over a cell listed twice", index);
    c->need = (size_t)n + 1;
    return 0;
}


/* Value `bit` goes in every group of the counted cells that can hold it: in
 * the one place a group has left, or else not in the cells that see every
 * place the group has. */
static int settle_groups(Search *S, uint32_t *s, const Con *c, uint32_t bit)
{
    for (int g = 0; g < c->ngroups; g++) {
        const int *cells = c->cells + c->gstart[g], len = c->gstart[g + 1] - c->gstart[g];
        int can = 0;
        for (int i = 0; i < len && !can; i++)
            can = (domain(S, s, cells[i]) & bit) != 0;
        if (can && exclude_required(S, s, cells, len, bit) < 0)
            return -1;
    }
    return 0;
}

/* Counts of values among cells that each hold one: a value's count lies
 * between the cells placed on it and the groups that can still hold it, the
 * counts add up to the cells (a subset-sum over the values, as bitsets of
 * totals), and a count at its lowest or highest possible settles the rest. */
static int count_values(Search *S, uint32_t *s, const Con *c)
{
    const int n = S->k->n, len = c->len, ng = c->ngroups;
    int lo[MAX_VALUES] = {0}, hi[MAX_VALUES] = {0};
    uint64_t can[MAX_VALUES];
    for (int g = 0; g < ng; g++) {
        uint32_t any = 0;
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++) {
            uint32_t d = domain(S, s, c->cells[i]);
            any |= d;
            if (!(d & (d - 1)))
                lo[__builtin_ctz(d)]++;
        }
        for (uint32_t m = any; m; m &= m - 1)
            hi[__builtin_ctz(m)]++;
    }
    uint64_t *fw = S->bits; /* fw[v]: totals the values before v can make */
    fw[0] = 1;
    for (int v = 0; v < n; v++) {
        uint64_t range = (hi[v] >= 63 ? ~0ull : (2ull << hi[v]) - 1) & ~((1ull << lo[v]) - 1);
        can[v] = c->counts[v] & range;
        if (!can[v])
            return -1;
        uint64_t next = 0;
        for (uint64_t m = can[v]; m; m &= m - 1)
            next |= fw[v] << __builtin_ctzll(m);
        fw[v + 1] = next & ((2ull << len) - 1);
    }
    uint64_t need = 1ull << len;
    if (!(fw[n] & need))
        return -1;
    for (int v = n - 1; v >= 0; v--) {
        uint64_t kept = 0, back = 0;
        for (uint64_t m = can[v]; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            if ((fw[v] << k) & need) {
                kept |= 1ull << k;
                back |= need >> k;
            }
        }
        can[v] = kept;
        need = back;
    }
    uint32_t required = 0;
    for (int v = 0; v < n; v++) {
        const uint32_t bit = 1u << v;
        const int most = 63 - __builtin_clzll(can[v]), least = __builtin_ctzll(can[v]);
        if (least > lo[v])
            required |= bit;
        if (most == lo[v]) { /* every cell it takes is placed: the others lose it */
            for (int i = 0; i < len; i++) {
                uint32_t d = domain(S, s, c->cells[i]);
                if (d != bit && (d & bit) && restrict_to(S, s, c->cells[i], ~bit) < 0)
                    return -1;
            }
        } else if (least == hi[v] && least > lo[v] && settle_groups(S, s, c, bit) < 0) {
            return -1; /* every group that can hold it does */
        }
    }
    /* A value the cells must hold once more goes to its one place, or leaves the
     * cells that see all its places, as the sweep of the counting automata this
     * count stands for did. */
    return required && exclude_required(S, s, c->cells, len, required) < 0 ? -1 : 0;
}

/* A joint count weighs as the automata it stands for, one a value counted (see
 * add_priority). */
static void count_priority(const VKernel *vk, const Con *c, uint32_t *prio)
{
    const uint64_t all = c->len >= 63 ? ~0ull : (2ull << c->len) - 1;
    uint32_t weight = 0;
    for (int v = 0; v < vk->n; v++)
        weight += (c->counts[v] & all) != all ? (uint32_t)c->len : 0;
    add_priority(vk, c, weight, prio);
}

static const Kind COUNT_KIND = {
    .method = "add_count", .params = {"counts", "groups"}, .codes = "sn",
    .doc = "add_count(cells, counts, groups) -> index: per value 1..n the counts it may take "
           "among the cells (bit k: k cells); groups: sizes of runs of cells (in order) "
           "that are peers",
    .name = "COUNT",
    .build = count_build,
    .priority = count_priority,
    .propagate = count_values,
};
