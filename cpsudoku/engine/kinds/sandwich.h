/* SANDWICH: cells = a line holding every value once, data = the sets of values
 * between its crusts (1 and n) that make the total. */

/* A sandwich: its line holds every value once (n cells); its sets of values between
 * the crusts, kept by size (gstart: n + 1 offsets into masks). */
static int sandwich_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    if (c->len != n || n < 2)
        return bad("constraint %d: a sandwich's line holds every value once", index);
    const uint32_t middle = (n == 32 ? 0xffffffffu : (1u << n) - 1) & ~(1u | 1u << (n - 1));
    c->masks = malloc(((size_t)nd + 1) * sizeof(uint32_t));
    c->gstart = calloc((size_t)n + 2, sizeof(int));
    if (!c->masks || !c->gstart) {
        PyErr_NoMemory();
        return -1;
    }
    for (int size = 0, at = 0; size <= n; size++) {
        c->gstart[size] = at;
        for (Py_ssize_t i = 0; i < nd; i++) {
            if (data[i] < 0 || (uint64_t)data[i] & ~(uint64_t)middle)
                return bad("constraint %d: a set between the crusts holds a crust or more", index);
            if (popcount32((uint32_t)data[i]) == size)
                c->masks[at++] = (uint32_t)data[i];
        }
        c->gstart[size + 1] = at;
    }
    c->nmasks = (int)nd;
    return 0;
}

/* The values between the crusts 1 and n of a line holding every value once add up
 * to the total (as ISS's sandwich handler): each pair of places the crusts may
 * take, with each set of values between that makes the total, holds when the cells
 * between can hold the set, each some value of it, and the cells outside the values
 * it leaves; a cell keeps the values some such placement gives it. The cells
 * between are checked one by one (each holds some value of the set), the cells
 * outside only as a whole: that check costs more than it finds. */
static int sandwich(Search *S, uint32_t *s, const Con *c)
{
    const int len = c->len, n = S->k->n;
    const uint32_t lo = 1u, hi = 1u << (n - 1), ends = lo | hi, middle = S->k->full & ~ends;
    uint32_t v[MAX_VALUES], pre[MAX_VALUES + 1], suf[MAX_VALUES + 1], keep[MAX_VALUES];
    int crusts = 0;
    pre[0] = 0;
    for (int i = 0; i < len; i++) {
        v[i] = domain(S, s, c->cells[i]);
        crusts += (v[i] & ends) != 0;
        pre[i + 1] = pre[i] | v[i];
        keep[i] = 0;
    }
    if (crusts < 2)
        return -1;
    suf[len] = 0;
    for (int i = len - 1; i >= 0; i--)
        suf[i] = suf[i + 1] | v[i];
    for (int i = 0; i < len - 1; i++) {
        const uint32_t vi = v[i] & ends;
        if (!vi)
            continue;
        uint32_t inner = 0; /* the values the cells between i and j may take */
        for (int j = i + 1; j < len; j++) {
            if (j > i + 1)
                inner |= v[j - 1] & middle;
            const uint32_t vj = v[j] & ends;
            uint32_t at_i = 0, at_j = 0;
            if ((vi & lo) && (vj & hi)) {
                at_i |= lo;
                at_j |= hi;
            }
            if ((vi & hi) && (vj & lo)) {
                at_i |= hi;
                at_j |= lo;
            }
            if (!at_i)
                continue;
            const int between = j - i - 1;
            const uint32_t outer = (pre[i] | suf[j + 1]) & middle;
            uint32_t in = 0, out = 0;
            int fits = 0;
            for (int x = c->gstart[between]; x < c->gstart[between + 1]; x++) {
                const uint32_t set = c->masks[x], rest = middle & ~set;
                if ((set & ~inner) || (rest & ~outer))
                    continue; /* a value between, or one left outside, has no place */
                int each = 1;
                for (int k = i + 1; k < j && each; k++)
                    each = (v[k] & set) != 0;
                if (!each)
                    continue;
                fits = 1;
                in |= set;
                out |= rest;
            }
            if (!fits)
                continue;
            for (int k = 0; k < i; k++)
                keep[k] |= out;
            keep[i] |= at_i;
            for (int k = i + 1; k < j; k++)
                keep[k] |= in;
            keep[j] |= at_j;
            for (int k = j + 1; k < len; k++)
                keep[k] |= out;
        }
    }
    return keep_each(S, s, c->cells, len, keep);
}

static const Kind SANDWICH_KIND = {
    .method = "add_sandwich", .params = {"sets", "total"}, .codes = "st",
    .doc = "add_sandwich(cells, sets, total) -> index: a line holding every value once; sets: "
           "the value sets (masks) between its crusts 1 and n that make the total",
    .name = "SANDWICH",
    .build = sandwich_build,
    .propagate = sandwich,
};
