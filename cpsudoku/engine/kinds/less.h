/* LESS: x0 < x1 < ... (thermometers, greater-than): bounds forward and backward. */

static int less(Search *S, uint32_t *s, const Con *c)
{
    int low = 0; /* each value exceeds the previous cell's smallest */
    for (int i = 0; i < c->len; i++) {
        uint32_t keep = low >= 32 ? 0 : ~((1u << low) - 1);
        if (restrict_to(S, s, c->cells[i], keep) < 0)
            return -1;
        low = __builtin_ctz(domain(S, s, c->cells[i])) + 1;
    }
    int high = 33; /* each value is below the next cell's largest */
    for (int i = c->len - 1; i >= 0; i--) {
        uint32_t keep = high >= 33 ? 0xffffffffu : (1u << (high - 1)) - 1;
        if (restrict_to(S, s, c->cells[i], keep) < 0)
            return -1;
        high = 32 - __builtin_clz(domain(S, s, c->cells[i]));
    }
    return 0;
}

static const Kind LESS_KIND = {
    .method = "add_less", .codes = "",
    .doc = "add_less(cells, within=None) -> index: cells[0] < cells[1] < ...",
    .name = "LESS",
    .propagate = less,
    .nested = 1,
};
