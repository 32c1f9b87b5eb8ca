/* SAME_COUNT: cells = two groups of as many cells, data = a value 1..n; both groups
 * hold it as often. */

static int same_count_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd,
                            int index)
{
    c->total = nd == 1 ? data[0] : 0;
    return c->len % 2 || nd != 1 || data[0] < 1 || data[0] > vk->n
        ? bad("constraint %d: two groups of as many cells, and a value", index) : 0;
}

/* Two groups of k cells hold one value v as often each (ISS's same-value sets whose
 * values repeat, compared value by value). A group may hold v from the cells that
 * are v to those that may be: when one group's most is the other's least, its cells
 * that may be v are v; when its least is the other's most, its other cells are not
 * v. That is all the counts allow (each undecided cell can be v or not): the
 * automaton of the first group's surplus narrows as much, at far more work a node. */
static int same_count(Search *S, uint32_t *s, const Con *c)
{
    const int k = c->len / 2;
    const uint32_t v = 1u << (c->total - 1);
    int lo[2] = {0, 0}, hi[2] = {0, 0};
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < k; i++) {
            const uint32_t d = domain(S, s, c->cells[g * k + i]);
            hi[g] += (d & v) != 0;
            lo[g] += d == v;
        }
    if (hi[0] < lo[1] || hi[1] < lo[0])
        return -1;
    for (int g = 0; g < 2; g++) {
        const int *cells = c->cells + g * k, other = 1 - g;
        if (hi[g] == lo[other] && hi[g] > lo[g]) { /* every place of v is v */
            for (int i = 0; i < k; i++)
                if ((domain(S, s, cells[i]) & v) && restrict_to(S, s, cells[i], v) < 0)
                    return -1;
        } else if (lo[g] == hi[other] && hi[g] > lo[g]) { /* v is where it is decided */
            for (int i = 0; i < k; i++)
                if (domain(S, s, cells[i]) != v && restrict_to(S, s, cells[i], ~v) < 0)
                    return -1;
        }
    }
    return 0;
}

static const Kind SAME_COUNT_KIND = {
    .method = "add_same_count", .params = {"value"}, .codes = "i",
    .doc = "add_same_count(cells, value) -> index: the two halves of the cells hold the "
           "value as often",
    .name = "SAME_COUNT",
    .build = same_count_build,
    .propagate = same_count,
};
