/* TABLE: the allowed tuples of its cells (data: the rows, flattened), kept to
 * generalized arc consistency; over two distinct cells, by each value's partners. */

static int table_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    if (!(c->masks = new_words((size_t)nd)))
        return -1;
    /* rows with a value outside 1..n can never fit and are left out */
    if (c->len == 0 || nd % c->len)
        return bad("constraint %d: a table's data is not whole rows of its cells", index);
    int kept = 0;
    for (Py_ssize_t r = 0; r < nd / c->len; r++) {
        int ok = 1;
        for (int i = 0; i < c->len; i++)
            ok &= data[r * c->len + i] >= 1 && data[r * c->len + i] <= n;
        if (!ok)
            continue;
        for (int i = 0; i < c->len; i++)
            c->masks[kept * c->len + i] = 1u << (data[r * c->len + i] - 1);
        kept++;
    }
    c->nmasks = kept;
    c->exact = 1;
    if (c->len == 2 && c->cells[0] != c->cells[1]) {
        c->pair = calloc(2 * MAX_VALUES, sizeof(uint32_t));
        if (!c->pair) {
            PyErr_NoMemory();
            return -1;
        }
        for (int r = 0; r < kept; r++) {
            uint32_t a = c->masks[2 * r], b = c->masks[2 * r + 1];
            c->pair[__builtin_ctz(a)] |= b;
            c->pair[MAX_VALUES + __builtin_ctz(b)] |= a;
        }
    }
    return 0;
}

/* A table over two cells: a value stays while the other cell has a partner for it. */
static int pair_table(Search *S, uint32_t *s, const Con *c)
{
    const int a = c->cells[0], b = c->cells[1];
    const uint32_t da = domain(S, s, a), db = domain(S, s, b);
    uint32_t keep_a = 0, keep_b = 0;
    for (uint32_t m = db; m; m &= m - 1)
        keep_a |= c->pair[MAX_VALUES + __builtin_ctz(m)];
    for (uint32_t m = da; m; m &= m - 1)
        keep_b |= c->pair[__builtin_ctz(m)];
    if (restrict_to(S, s, a, keep_a) < 0 || restrict_to(S, s, b, keep_b) < 0)
        return -1;
    return 0;
}

static int table(Search *S, uint32_t *s, const Con *c)
{
    const int len = c->len;
    uint32_t d[MAX_VALUES * MAX_VALUES];
    uint32_t *support = S->support;
    if (len > MAX_VALUES * MAX_VALUES)
        return 0;
    for (int i = 0; i < len; i++) {
        d[i] = domain(S, s, c->cells[i]);
        support[i] = 0;
    }
    int found = 0;
    for (int r = 0; r < c->nmasks; r++) {
        const uint32_t *row = c->masks + (size_t)r * len;
        int fits = 1;
        for (int i = 0; i < len && fits; i++)
            fits = (row[i] & d[i]) != 0;
        if (!fits)
            continue;
        found = 1;
        for (int i = 0; i < len; i++)
            support[i] |= row[i];
    }
    return found ? keep_each(S, s, c->cells, len, support) : -1;
}

static int table_propagate(Search *S, uint32_t *s, const Con *c)
{
    return c->pair ? pair_table(S, s, c) : table(S, s, c);
}

static const Kind TABLE_KIND = {
    .method = "add_table", .params = {"rows"}, .codes = "s",
    .doc = "add_table(cells, rows, within=None) -> index: the cells take one of the rows "
           "(flattened, len(cells) values a row)",
    .name = "TABLE",
    .build = table_build,
    .propagate = table_propagate,
    .nested = 1,
};
