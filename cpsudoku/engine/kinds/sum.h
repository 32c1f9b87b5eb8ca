/* SUM: sum(w_i * x_i) == total. data = one weight per cell [, the number of
 * groups, their sizes]: a group of cells that all differ shares one weight and is
 * searched by its value sets. A dynamic programme over reachable partial totals
 * (bitsets), group by group: a lone cell by its values, a group by its value
 * sets; bounds alone when the totals span more than SUM_WORDS * 64 values. */

#define SUM_WORDS 64       /* a weighted sum spanning up to 4096 totals is solved exactly */

/* A term's contribution above its smallest: w*x - min(w, w*n), for value x. */
static inline int64_t lift(int64_t w, int x, int n) { return w > 0 ? w * (x - 1) : w * (x - n); }

/* A group's contribution above its smallest, for the value set m of its k cells. */
static inline int64_t lift_set(int64_t w, uint32_t m, int k, int n)
{
    int64_t total = 0;
    for (; m; m &= m - 1)
        total += __builtin_ctz(m) + 1;
    return w > 0 ? w * (total - k) : w * (total - (int64_t)k * n);
}

/* data: one weight per cell, optionally followed by the number of groups and
 * their sizes (the cells in group order); a group of two or more cells holds
 * cells that all differ, with one weight, searched by its value sets. */
static int sum_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    const int len = c->len;
    if (nd < len || (nd > len && (data[len] < 1 || data[len] > len ||
                                  nd != len + 1 + data[len])))
        return bad("constraint %d: a sum needs one weight per cell (and its groups)", index);
    c->ngroups = nd > len ? (int)data[len] : len;
    c->weights = malloc((size_t)(len ? len : 1) * sizeof(int64_t));
    c->gstart = malloc(((size_t)c->ngroups + 1) * sizeof(int));
    c->cstart = calloc((size_t)c->ngroups + 1, sizeof(int));
    if (!c->weights || !c->gstart || !c->cstart) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t span = 0, base = c->total;
    for (int i = 0; i < len; i++) {
        int64_t w = data[i];
        if (w > 1000000 || w < -1000000)
            return bad("constraint %d: a weight beyond one million", index);
        c->weights[i] = w;
        base -= w > 0 ? w : w * n; /* the term's smallest contribution */
        span += (w > 0 ? w : -w) * (n - 1);
    }
    c->gstart[0] = 0;
    size_t ncombos = 0;
    for (int g = 0; g < c->ngroups; g++) {
        int64_t size = nd > len ? data[len + 1 + g] : 1;
        if (size < 1 || c->gstart[g] + size > len)
            return bad("constraint %d: group sizes that do not add up to the cells", index);
        c->gstart[g + 1] = c->gstart[g] + (int)size;
        for (int i = c->gstart[g] + 1; i < c->gstart[g + 1]; i++)
            if (c->weights[i] != c->weights[c->gstart[g]])
                return bad("constraint %d: a group with two weights", index);
        if (size > 1) {
            if (n > 16 || size > n)
                return bad("constraint %d: a group too large for its value sets", index);
            for (uint32_t m = 0; m < (1u << n); m++)
                ncombos += popcount32(m) == size;
        }
    }
    if (c->gstart[c->ngroups] != len)
        return bad("constraint %d: group sizes that do not add up to the cells", index);
    c->combos = malloc((ncombos ? ncombos : 1) * sizeof(uint32_t));
    c->combo_up = malloc((ncombos ? ncombos : 1) * sizeof(int64_t));
    if (!c->combos || !c->combo_up) {
        PyErr_NoMemory();
        return -1;
    }
    int at = 0;
    for (int g = 0; g < c->ngroups; g++) {
        int size = c->gstart[g + 1] - c->gstart[g];
        for (uint32_t m = 0; size > 1 && m < (1u << n); m++)
            if (popcount32(m) == size) {
                c->combo_up[at] = lift_set(c->weights[c->gstart[g]], m, size, n);
                c->combos[at++] = m;
            }
        c->cstart[g + 1] = at;
    }
    c->base = base;
    c->words = span / 64 + 1 <= SUM_WORDS ? (int)(span / 64 + 1) : 0;
    c->exact = c->words > 0;
    /* forward and backward layers (groups + 1 each) and two more bitsets */
    c->need = ((size_t)len + 3) * (size_t)c->words;
    for (int g = 0; g < c->ngroups; g++)
        c->noptions += c->gstart[g + 1] - c->gstart[g] == 1
                           ? (size_t)n : (size_t)(c->cstart[g + 1] - c->cstart[g]);
    return 0;
}

/* dst |= src shifted up (toward larger totals) by k bits, over w words. */
static void or_up(uint64_t *dst, const uint64_t *src, int w, int64_t k)
{
    int ws = (int)(k >> 6), bs = (int)(k & 63);
    for (int i = w - 1; i >= ws; i--) {
        uint64_t v = src[i - ws] << bs;
        if (bs && i - ws - 1 >= 0)
            v |= src[i - ws - 1] >> (64 - bs);
        dst[i] |= v;
    }
}

/* dst |= src shifted down by k bits. */
static void or_down(uint64_t *dst, const uint64_t *src, int w, int64_t k)
{
    int ws = (int)(k >> 6), bs = (int)(k & 63);
    for (int i = 0; i + ws < w; i++) {
        uint64_t v = src[i + ws] >> bs;
        if (bs && i + ws + 1 < w)
            v |= src[i + ws + 1] << (64 - bs);
        dst[i] |= v;
    }
}

/* Whether some total of a, raised by k, lies in b. */
static int meets_up(const uint64_t *a, const uint64_t *b, int w, int64_t k)
{
    int ws = (int)(k >> 6), bs = (int)(k & 63);
    for (int i = w - 1; i >= ws; i--) {
        uint64_t v = a[i - ws] << bs;
        if (bs && i - ws - 1 >= 0)
            v |= a[i - ws - 1] >> (64 - bs);
        if (v & b[i])
            return 1;
    }
    return 0;
}

/* The options of group g, appended at opts/ups: each value bit of a lone cell's
 * domain, or each value set of the group that fits every cell's candidates,
 * with its lift. Returns how many. */
static int options(Search *S, const uint32_t *s, const Con *c, int g, uint32_t *opts,
                   int64_t *ups)
{
    const int n = S->k->n, first = c->gstart[g], k = c->gstart[g + 1] - first;
    const int64_t w = c->weights[first];
    int count = 0;
    if (k == 1) {
        for (uint32_t d = domain(S, s, c->cells[first]); d; d &= d - 1) {
            opts[count] = d & (~d + 1);
            ups[count++] = lift(w, __builtin_ctz(d) + 1, n);
        }
        return count;
    }
    uint32_t any = 0, d[MAX_VALUES];
    for (int i = 0; i < k; i++)
        any |= d[i] = domain(S, s, c->cells[first + i]);
    if (k == 2) { /* the pairs of values the two cells can take, each set once */
        for (uint32_t ma = d[0]; ma; ma &= ma - 1) {
            uint32_t a = ma & (~ma + 1);
            for (uint32_t mb = d[1] & ~a; mb; mb &= mb - 1) {
                uint32_t b = mb & (~mb + 1);
                if (a > b && (d[0] & b) && (d[1] & a))
                    continue; /* found as (b, a) */
                opts[count] = a | b;
                int total = __builtin_ctz(a) + __builtin_ctz(b) + 2;
                ups[count++] = w > 0 ? w * (total - 2) : w * (total - 2 * n);
            }
        }
        return count;
    }
    for (int j = c->cstart[g]; j < c->cstart[g + 1]; j++) {
        uint32_t m = c->combos[j];
        if (m & ~any)
            continue;
        int fits = 1;
        for (int i = 0; i < k && fits; i++)
            fits = (d[i] & m) != 0;
        if (fits) {
            opts[count] = m;
            ups[count++] = c->combo_up[j];
        }
    }
    return count;
}

/* Exact over groups: forward, the partial totals each prefix of groups can
 * reach; backward, those from which the rest can still reach the total; a value
 * (or a group's value set) stays if it links the two. */
static int sum_exact_word(Search *S, uint32_t *s, const Con *c);

static int sum_exact(Search *S, uint32_t *s, const Con *c)
{
    if (c->words == 1)
        return sum_exact_word(S, s, c);
    const int w = c->words, ng = c->ngroups;
    if (c->base < 0 || c->base >= (int64_t)w * 64)
        return -1;
    uint64_t *fw = S->bits; /* (ngroups + 1) layers */
    uint64_t *back = fw + (size_t)(ng + 1) * w, *prev = back + w;
    int *at = S->option_at; /* ngroups + 1 offsets into the options */
    memset(fw, 0, (size_t)(ng + 1) * w * sizeof(uint64_t));
    fw[0] = 1;
    at[0] = 0;
    for (int g = 0; g < ng; g++) {
        int count = options(S, s, c, g, S->opts + at[g], S->ups + at[g]);
        if (!count)
            return -1;
        at[g + 1] = at[g] + count;
        for (int j = at[g]; j < at[g + 1]; j++)
            or_up(fw + (size_t)(g + 1) * w, fw + (size_t)g * w, w, S->ups[j]);
    }
    if (!(fw[(size_t)ng * w + c->base / 64] >> (c->base % 64) & 1))
        return -1;
    memset(back, 0, (size_t)w * sizeof(uint64_t));
    back[c->base / 64] = 1ull << (c->base % 64);
    for (int g = ng - 1; g >= 0; g--) {
        uint32_t kept = 0;
        memcpy(prev, back, (size_t)w * sizeof(uint64_t));
        memset(back, 0, (size_t)w * sizeof(uint64_t));
        for (int j = at[g]; j < at[g + 1]; j++)
            if (meets_up(fw + (size_t)g * w, prev, w, S->ups[j])) {
                kept |= S->opts[j];
                or_down(back, prev, w, S->ups[j]);
            }
        S->support[g] = kept;
    }
    for (int g = 0; g < ng; g++)
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++)
            if (restrict_to(S, s, c->cells[i], S->support[g]) < 0)
                return -1;
    return 0;
}

/* sum_exact when the partial totals fit one word (most sums on 9x9 grids). */
static int sum_exact_word(Search *S, uint32_t *s, const Con *c)
{
    const int ng = c->ngroups;
    if (c->base < 0 || c->base >= 64)
        return -1;
    uint64_t *fw = S->bits;
    int *at = S->option_at;
    fw[0] = 1;
    at[0] = 0;
    for (int g = 0; g < ng; g++) {
        int count = options(S, s, c, g, S->opts + at[g], S->ups + at[g]);
        if (!count)
            return -1;
        at[g + 1] = at[g] + count;
        uint64_t next = 0;
        for (int j = at[g]; j < at[g + 1]; j++)
            next |= fw[g] << S->ups[j];
        fw[g + 1] = next;
    }
    uint64_t back = 1ull << c->base;
    if (!(fw[ng] & back))
        return -1;
    for (int g = ng - 1; g >= 0; g--) {
        uint32_t kept = 0;
        uint64_t prev = back;
        back = 0;
        for (int j = at[g]; j < at[g + 1]; j++)
            if ((fw[g] << S->ups[j]) & prev) {
                kept |= S->opts[j];
                back |= prev >> S->ups[j];
            }
        S->support[g] = kept;
    }
    for (int g = 0; g < ng; g++)
        for (int i = c->gstart[g]; i < c->gstart[g + 1]; i++)
            if (restrict_to(S, s, c->cells[i], S->support[g]) < 0)
                return -1;
    return 0;
}

static inline uint32_t range_mask(int lo, int hi)
{
    if (lo < 1)
        lo = 1;
    if (hi > 32)
        hi = 32;
    if (hi < lo)
        return 0;
    uint32_t upto = hi == 32 ? 0xffffffffu : (1u << hi) - 1;
    return upto & ~((1u << (lo - 1)) - 1);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Bounds: each term must fit what the others leave, until nothing moves. */
static int sum_bounds(Search *S, uint32_t *s, const Con *c)
{
    for (int round = 0; round < 64; round++) {
        int64_t low = 0, high = 0;
        for (int i = 0; i < c->len; i++) {
            uint32_t d = domain(S, s, c->cells[i]);
            int64_t w = c->weights[i], lo = __builtin_ctz(d) + 1, hi = 32 - __builtin_clz(d);
            low += w > 0 ? w * lo : w * hi;
            high += w > 0 ? w * hi : w * lo;
        }
        if (low > c->total || high < c->total)
            return -1;
        int again = 0;
        for (int i = 0; i < c->len; i++) {
            int64_t w = c->weights[i];
            if (!w)
                continue;
            uint32_t d = domain(S, s, c->cells[i]);
            int64_t lo = __builtin_ctz(d) + 1, hi = 32 - __builtin_clz(d);
            int64_t mine_lo = w > 0 ? w * lo : w * hi, mine_hi = w > 0 ? w * hi : w * lo;
            int64_t a = c->total - (high - mine_hi), b = c->total - (low - mine_lo);
            int64_t vlo, vhi; /* w * x in [a, b] */
            if (w > 0) {
                vlo = -floor_div(-a, w);
                vhi = floor_div(b, w);
            } else {
                vlo = -floor_div(-b, w);
                vhi = floor_div(a, w);
            }
            uint32_t keep = range_mask((int)(vlo < 1 ? 1 : vlo > 33 ? 33 : vlo),
                                       (int)(vhi > 32 ? 32 : vhi < 0 ? 0 : vhi));
            if ((d & keep) != d) {
                if (restrict_to(S, s, c->cells[i], keep) < 0)
                    return -1;
                again = 1;
            }
        }
        if (!again)
            return 0;
    }
    return 0;
}

static int sum_propagate(Search *S, uint32_t *s, const Con *c)
{
    return c->words ? sum_exact(S, s, c) : sum_bounds(S, s, c);
}

static const Kind SUM_KIND = {
    .method = "add_sum", .params = {"weights", "total", "groups"}, .codes = "stN",
    .doc = "add_sum(cells, weights, total, groups=(), within=None) -> index: sum(weights[i] * "
           "cells[i]) == total; groups: sizes of runs of cells (in order) that all differ, "
           "with one weight",
    .name = "SUM",
    .build = sum_build,
    .propagate = sum_propagate,
    .nested = 1,
};
