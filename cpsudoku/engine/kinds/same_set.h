/* SAME: cells = two groups of as many cells, each of different values; both hold
 * the same values (same-value sets). */

static int same_set_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd,
                          int index)
{
    (void)vk;
    (void)data;
    (void)nd;
    return c->len % 2 ? bad("constraint %d: two groups of as many cells", index) : 0;
}

/* Two groups of k cells, each of different values, hold the same values (ISS's
 * same-value sets): a value missing from one group leaves the other; fewer than k
 * values left in both is a contradiction; a value one group surely holds (placed,
 * or its cells have only k values among them) the other holds too, so it goes to
 * its one place there or leaves the cells that see all its places. The automaton
 * of the first group's values still to match has hundreds of states; this pass
 * reads only the groups' candidates. */
static int same_set(Search *S, uint32_t *s, const Con *c)
{
    const int k = c->len / 2;
    const int *a = c->cells, *b = c->cells + k;
    uint32_t ua = 0, ub = 0;
    for (int i = 0; i < k; i++) {
        ua |= domain(S, s, a[i]);
        ub |= domain(S, s, b[i]);
    }
    const uint32_t both = ua & ub;
    if (popcount32(both) < k)
        return -1;
    if (both != ua || both != ub)
        for (int i = 0; i < c->len; i++)
            if (restrict_to(S, s, c->cells[i], both) < 0)
                return -1;
    uint32_t required = 0;
    for (int i = 0; i < c->len; i++) {
        uint32_t d = domain(S, s, c->cells[i]);
        if (!(d & (d - 1)))
            required |= d;
    }
    if (popcount32(both) == k)
        required = both;
    for (int g = 0; required && g < 2; g++)
        if (exclude_required(S, s, c->cells + g * k, k, required) < 0)
            return -1;
    return 0;
}

static const Kind SAME_KIND = {
    .method = "add_same_set", .codes = "",
    .doc = "add_same_set(cells) -> index: the two halves of the cells, each of different "
           "values, hold the same values",
    .name = "SAME",
    .build = same_set_build,
    .propagate = same_set,
};
