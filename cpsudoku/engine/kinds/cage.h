/* CAGE: cells all different whose values form one of the given value sets (a
 * killer cage's, a renban line's); data = the sets, as masks. A value stays while
 * some set fitting every cell's candidates holds it, and a value every such set
 * holds goes to the one cell left for it. A cage inside a unit also reads the
 * unit's other cells (kept after its own, `inner` first): they hold the values
 * the set leaves, so a set is out when a value it leaves has no place among them,
 * and they keep only the values some fitting set leaves. */

static int cage_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const uint32_t full = vk->full;
    if (!(c->masks = new_words((size_t)nd)))
        return -1;
    for (Py_ssize_t i = 0; i < nd; i++) {
        if (data[i] <= 0 || data[i] > (int64_t)full)
            return bad("constraint %d: a value set beyond the grid's values", index);
        c->masks[i] = (uint32_t)data[i];
    }
    c->nmasks = (int)nd;
    c->exact = 1;
    return 0;
}

/* A cage lying in one unit reads the unit's other cells too: they are appended to
 * its cells, after its own `inner`, since the values a set leaves must find room
 * there, which the cage's own cells cannot tell. */
static int house_cage(const VKernel *vk, Con *c)
{
    const int n = vk->n;
    if (c->len >= n)
        return 0;
    for (int i = 0; i < c->len; i++)
        for (int j = 0; j < i; j++)
            if (c->cells[i] == c->cells[j])
                return 0;
    for (int u = 0; u < vk->nunits; u++) {
        const int *unit = vk->units + u * n;
        int inside = 0;
        for (int i = 0; i < c->len; i++)
            for (int j = 0; j < n; j++)
                inside += unit[j] == c->cells[i];
        if (inside != c->len)
            continue;
        int *cells = realloc(c->cells, (size_t)n * sizeof(int));
        if (!cells) {
            PyErr_NoMemory();
            return -1;
        }
        c->cells = cells;
        int at = c->len;
        for (int j = 0; j < n; j++) {
            int mine = 0;
            for (int i = 0; i < c->inner; i++)
                mine |= cells[i] == unit[j];
            if (!mine)
                cells[at++] = unit[j];
        }
        c->len = n;
        c->exact = 0; /* what it takes from the others may narrow its own cells again */
        return 0;
    }
    return 0;
}

/* An OR's alternative keeps its own cells: they must stay among the OR's. */
static int cage_prepare(VKernel *vk, Con *c, int index, int nested)
{
    (void)index;
    return nested ? 0 : house_cage(vk, c);
}

/* Distinct values adding up to the total: the sets that fit every cell. */
static int cage(Search *S, uint32_t *s, const Con *c)
{
    const uint32_t full = S->k->full;
    uint32_t *d = S->support, uni = 0, rest = 0, support = 0, required = 0xffffffffu;
    uint32_t left = 0; /* the values some fitting set leaves to the unit's others */
    for (int i = 0; i < c->inner; i++) {
        d[i] = domain(S, s, c->cells[i]);
        uni |= d[i];
    }
    for (int i = c->inner; i < c->len; i++)
        rest |= domain(S, s, c->cells[i]);
    const int house = c->inner < c->len;
    for (int j = 0; j < c->nmasks; j++) {
        uint32_t set = c->masks[j];
        if (set & ~uni)
            continue;
        if (house && (full & ~set & ~rest))
            continue; /* a value it leaves has no place in the unit */
        int fits = 1;
        for (int i = 0; i < c->inner && fits; i++)
            fits = (d[i] & set) != 0;
        if (fits) {
            support |= set;
            required &= set;
            left |= full & ~set;
        }
    }
    if (!support)
        return -1;
    for (int i = 0; i < c->inner; i++)
        if (restrict_to(S, s, c->cells[i], support) < 0)
            return -1;
    for (int i = c->inner; i < c->len; i++)
        if (restrict_to(S, s, c->cells[i], left) < 0)
            return -1;
    return exclude_required(S, s, c->cells, c->inner, required) < 0 ? -1 : 0;
}

static const Kind CAGE_KIND = {
    .method = "add_cage", .params = {"sets", "total"}, .codes = "sT",
    .doc = "add_cage(cells, sets, total=0, within=None) -> index: cells all different whose "
           "values form one of the value sets (masks)",
    .name = "CAGE",
    .build = cage_build,
    .prepare = cage_prepare,
    .propagate = cage,
    .nested = 1,
};
