/* Regions found while solving (chaos construction): the REGIONS handler of `_vkernel.c`,
 * included there after the Search state (`_vstate.h`).
 *
 * cells = the N*N digit cells, then one label variable per cell (label k is bit
 * k - 1, as a value). To a fixpoint of its own, the pass applies what
 * `engine/regions.py` states and checks the same way:
 *
 * 1. canonical labels: label k + 1 only after some earlier cell may take label k;
 * 2. region houses: a decided (label, digit) pair leaves every other cell, a
 *    digit with one possible cell in a region goes there, a region with N decided
 *    cells takes no other, one with fewer than N possible cells fails;
 * 3. connectivity: growing from a decided cell of region k through the region's
 *    possible cells, each undecided cell costing one and decided ones nothing,
 *    within the N - decided cells left: unreached cells lose k, an unreached
 *    decided cell fails, and exactly N reachable cells are the region; a region
 *    without a decided cell keeps k only in pieces of N or more possible cells; a
 *    decided piece smaller than N with one way out takes it.
 *
 * Same-region groups (ISS's shards) are cells known to share a region whose
 * label is still open: given ones (same-region clues) and ones chaos clues find
 * while solving (a run that surely reaches a cell). They live in the search
 * state as union-find roots, a group's root its first cell, so a level's groups
 * go with it when the search backtracks. A group's cells keep the labels they
 * all have and different digits, and connectivity treats it as one piece.
 *
 * Steps 2 and 3 work on each region's cell sets as bitsets: one sweep over the
 * cells gathers every region's statistics, and connectivity grows sets by
 * shifting words. A region whose possible and decided cells are as they were the
 * last time step 3 left it unchanged is not looked at again (the result depends
 * on those two sets only); on ISS's chaos constructions that skips most of them.
 */

#define REGIONS_MAX_WIDTH 32 /* as the refusal in regions_build says */
#define REGIONS_WORDS ((REGIONS_MAX_WIDTH * REGIONS_MAX_WIDTH + 63) / 64)

/* The memo block: the grid's masks (every cell, cells not in the first column,
 * cells not in the last), then per region the possible and decided cells step 3
 * last left as they were, then one word of flags (which regions have a memo),
 * then the groups those memos saw (a root per cell, two to a word), then room
 * for the groups' cell sets. */
enum { MEMO_GRID, MEMO_NOT_FIRST, MEMO_NOT_LAST, MEMO_REGIONS };

static inline int regions_words(int n) { return (n * n + 63) / 64; }

static inline uint64_t *regions_flags(const Con *c, int n)
{
    return c->memo + (size_t)(MEMO_REGIONS + 2 * n) * regions_words(n);
}

static inline uint32_t *regions_seen_roots(const Con *c, int n)
{
    return (uint32_t *)(regions_flags(c, n) + 1);
}

static inline uint64_t *regions_groups(const Con *c, int n)
{
    return regions_flags(c, n) + 1 + (n * n + 1) / 2;
}

static int regions_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    const int N2 = n * n;
    if (nd < 2 || data[0] != n || c->len != 2 * N2)
        return bad("constraint %d: regions need the grid's width and 2 * N * N cells", index);
    if (n > REGIONS_MAX_WIDTH)
        return bad("constraint %d: regions on grids up to 32 wide", index);
    if (data[1] < 0 || data[1] > n || nd < 2 + data[1] || (nd - 2 - data[1]) % 2)
        return bad("constraint %d: regions need up to N anchors and pairs of cells", index);
    c->nanchors = (int)data[1];
    c->njoins = (int)(nd - 2 - c->nanchors) / 2;
    c->anchors = malloc((size_t)(c->nanchors + 1) * sizeof(int));
    c->joins = malloc((size_t)(2 * c->njoins + 1) * sizeof(int));
    if (!c->anchors || !c->joins) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t a = 2; a < nd; a++)
        if (data[a] < 0 || data[a] >= N2)
            return bad("constraint %d: an anchor or a same-region cell beyond the grid", index);
    for (int a = 0; a < c->nanchors; a++)
        c->anchors[a] = (int)data[2 + a];
    for (int j = 0; j < 2 * c->njoins; j++)
        c->joins[j] = (int)data[2 + c->nanchors + j];
    const int W = regions_words(n);
    c->memo = calloc((size_t)(MEMO_REGIONS + 2 * n) * W + 1 + (N2 + 1) / 2 + (size_t)N2 * W,
                     sizeof(uint64_t));
    if (!c->memo) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < N2; i++) {
        const uint64_t bit = 1ull << (i & 63);
        c->memo[MEMO_GRID * W + i / 64] |= bit;
        if (i % n)
            c->memo[MEMO_NOT_FIRST * W + i / 64] |= bit;
        if (i % n != n - 1)
            c->memo[MEMO_NOT_LAST * W + i / 64] |= bit;
    }
    c->exact = 1;
    return 0;
}

static inline int shard_root(const uint32_t *roots, int i)
{
    while ((int)roots[i] != i)
        i = (int)roots[i];
    return i;
}

/* Cells a and b share a region: join their groups (the smaller root stays, so a
 * root is its group's first cell). 1 when they were apart. */
static inline int shard_join(uint32_t *roots, int a, int b)
{
    a = shard_root(roots, a);
    b = shard_root(roots, b);
    if (a == b)
        return 0;
    if (b < a) {
        const int t = a;
        a = b;
        b = t;
    }
    roots[b] = (uint32_t)a;
    return 1;
}

/* The search's first state: each cell alone, then the pairs given joined. */
static void shards_start(const Con *c, int n, uint32_t *s)
{
    uint32_t *roots = s + c->shard_at;
    for (int i = 0; i < n * n; i++)
        roots[i] = (uint32_t)i;
    for (int j = 0; j < c->njoins; j++)
        shard_join(roots, c->joins[2 * j], c->joins[2 * j + 1]);
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

/* Cell sets of a width-n grid as W words of bits (cell i is bit i % 64 of word i / 64). */
typedef struct {
    int n, W;
    const uint64_t *grid, *not_first, *not_last;
} Plane;

/* out = the orthogonal neighbours of x's cells */
static inline void plane_near(const Plane *p, const uint64_t *x, uint64_t *out)
{
    const int W = p->W, n = p->n;
    for (int w = 0; w < W; w++) {
        uint64_t right = (x[w] & p->not_last[w]) << 1, left = (x[w] & p->not_first[w]) >> 1;
        uint64_t down = x[w] << n, up = x[w] >> n;
        if (w > 0) {
            right |= (x[w - 1] & p->not_last[w - 1]) >> 63;
            down |= x[w - 1] >> (64 - n);
        }
        if (w + 1 < W) {
            left |= (x[w + 1] & p->not_first[w + 1]) << 63;
            up |= x[w + 1] << (64 - n);
        }
        out[w] = (right | left | down | up) & p->grid[w];
    }
}

/* Grow x through the orthogonal neighbours it has in `within`, to a fixpoint. */
static inline void plane_flood(const Plane *p, uint64_t *x, const uint64_t *within)
{
    uint64_t near[REGIONS_WORDS];
    for (int grew = 1; grew;) {
        grew = 0;
        plane_near(p, x, near);
        for (int w = 0; w < p->W; w++) {
            const uint64_t y = x[w] | (near[w] & within[w]);
            grew |= y != x[w];
            x[w] = y;
        }
    }
}

static inline int plane_count(const Plane *p, const uint64_t *x)
{
    int k = 0;
    for (int w = 0; w < p->W; w++)
        k += popcount64(x[w]);
    return k;
}

/* x = the lowest cell of `from` alone; 0 when `from` is empty */
static inline int plane_lowest(const Plane *p, const uint64_t *from, uint64_t *x)
{
    int found = 0;
    for (int w = 0; w < p->W; w++) {
        x[w] = found ? 0 : from[w] & (~from[w] + 1);
        found |= x[w] != 0;
    }
    return found;
}

/* The next piece of `rest` (its lowest cell and the cells joined to it within
 * `within`) into `piece`, taken out of rest; 0 when rest is empty. */
static inline int plane_next_piece(const Plane *p, uint64_t *rest, const uint64_t *within,
                                   uint64_t *piece)
{
    if (!plane_lowest(p, rest, piece))
        return 0;
    plane_flood(p, piece, within);
    for (int w = 0; w < p->W; w++)
        rest[w] &= ~piece[w];
    return 1;
}

/* Narrow the label of every cell in x to `keep`. */
static int plane_keep(Search *S, uint32_t *s, const Plane *p, const int *lab, const uint64_t *x,
                      uint32_t keep, int *moved)
{
    for (int w = 0; w < p->W; w++)
        for (uint64_t m = x[w]; m; m &= m - 1)
            if (regions_keep(S, s, lab[w * 64 + __builtin_ctzll(m)], keep, moved) < 0)
                return -1;
    return 0;
}

/* Region `bit`'s connectivity (step 3), from its possible cells P0 and decided ones
 * F0. A same-region group is one piece: a group with a decided cell is decided,
 * one with a cell outside the region is out of it, and entering one costs the
 * region all its cells (ISS's shards). */
static int regions_connect(Search *S, uint32_t *s, const Plane *p, const Con *c,
                           const uint64_t *groups, int ngroups, const uint64_t *linked,
                           const uint64_t *P0, const uint64_t *F0, uint32_t bit, int *moved)
{
    const int n = p->n, W = p->W;
    const int *lab = c->cells + n * n;
    uint64_t P[REGIONS_WORDS], F[REGIONS_WORDS];
    uint64_t piece[REGIONS_WORDS], rest[REGIONS_WORDS], near[REGIONS_WORDS];
    memcpy(P, P0, (size_t)W * sizeof(uint64_t));
    memcpy(F, F0, (size_t)W * sizeof(uint64_t));
    for (int g = 0; g < ngroups; g++) {
        const uint64_t *x = groups + (size_t)g * W;
        int decided = 0, out = 0;
        for (int w = 0; w < W; w++) {
            decided |= (x[w] & F[w]) != 0;
            out |= (x[w] & ~P[w]) != 0;
        }
        if (decided && out)
            return -1;
        for (int w = 0; decided && w < W; w++)
            F[w] |= x[w];
        for (int w = 0; out && w < W; w++)
            P[w] &= ~x[w];
    }
    if (!plane_count(p, F)) { /* no decided cell: pieces too small to hold the region lose it */
        int viable = 0;
        for (int w = 0; w < W; w++)
            rest[w] = P0[w] & ~P[w];
        if (plane_keep(S, s, p, lab, rest, ~bit, moved) < 0)
            return -1;
        memcpy(rest, P, (size_t)W * sizeof(uint64_t));
        while (plane_next_piece(p, rest, P, piece)) {
            if (plane_count(p, piece) >= n)
                viable = 1;
            else if (plane_keep(S, s, p, lab, piece, ~bit, moved) < 0)
                return -1;
        }
        return viable ? 0 : -1;
    }
    /* reach: the cells within `budget` undecided cells of the first decided one;
     * wait[d]: cells that join at distance d (a group, all at once) */
    const int budget = n - plane_count(p, F);
    if (budget < 0)
        return -1;
    uint64_t reach[REGIONS_WORDS], wait[REGIONS_MAX_WIDTH + 1][REGIONS_WORDS];
    for (int d = 0; d <= budget; d++)
        memset(wait[d], 0, (size_t)W * sizeof(uint64_t));
    int last = 0; /* the farthest distance anything waits at */
    plane_lowest(p, F, reach);
    plane_flood(p, reach, F);
    for (int step = 0; step < budget; step++) {
        plane_near(p, reach, near);
        for (int w = 0; w < W; w++) {
            near[w] &= P[w] & ~reach[w];
            wait[step + 1][w] |= near[w] & ~linked[w];
        }
        if (last < step + 1)
            last = step + 1;
        for (int g = 0; g < ngroups; g++) {
            const uint64_t *x = groups + (size_t)g * W;
            int touched = 0, size = 0;
            for (int w = 0; w < W; w++) {
                touched |= (x[w] & near[w]) != 0;
                size += popcount64(x[w]);
            }
            if (!touched || step + size > budget)
                continue;
            for (int w = 0; w < W; w++)
                wait[step + size][w] |= x[w];
            if (last < step + size)
                last = step + size;
        }
        int grew = 0;
        for (int w = 0; w < W; w++) {
            grew |= (wait[step + 1][w] & ~reach[w]) != 0;
            reach[w] |= wait[step + 1][w];
        }
        if (grew)
            plane_flood(p, reach, F);
        else if (step + 1 >= last)
            break;
    }
    int reached = 0;
    for (int w = 0; w < W; w++) {
        if (F[w] & ~reach[w])
            return -1; /* a decided cell the region cannot join */
        rest[w] = P0[w] & ~reach[w];
        reached += popcount64(reach[w]);
    }
    if (reached < n || plane_keep(S, s, p, lab, rest, ~bit, moved) < 0)
        return -1;
    if (reached == n)
        return plane_keep(S, s, p, lab, reach, bit, moved);
    /* doors: a decided piece smaller than N with one way out takes it */
    memcpy(rest, F, (size_t)W * sizeof(uint64_t));
    while (plane_next_piece(p, rest, F, piece)) {
        if (plane_count(p, piece) >= n)
            continue;
        plane_near(p, piece, near);
        int exits = 0;
        for (int w = 0; w < W; w++) {
            near[w] &= P[w] & ~F[w];
            exits += popcount64(near[w]);
        }
        if (!exits)
            return -1;
        if (exits == 1 && plane_keep(S, s, p, lab, near, bit, moved) < 0)
            return -1;
    }
    return 0;
}

static int regions(Search *S, uint32_t *s, const Con *c)
{
    const int n = S->k->n, N2 = n * n, W = regions_words(n);
    const uint32_t full = S->k->full;
    const int *dig = c->cells, *lab = c->cells + N2;
    uint64_t *memo = c->memo, *seen = memo + (size_t)MEMO_REGIONS * W;
    uint64_t *has_memo = regions_flags(c, n), *groups = regions_groups(c, n);
    uint32_t *roots = s + c->shard_at, *seen_roots = regions_seen_roots(c, n);
    uint64_t linked[REGIONS_WORDS];
    int slot[REGIONS_MAX_WIDTH * REGIONS_MAX_WIDTH];
    const Plane p = {n, W, memo + MEMO_GRID * W, memo + MEMO_NOT_FIRST * W,
                     memo + MEMO_NOT_LAST * W};
    uint32_t L[REGIONS_MAX_WIDTH * REGIONS_MAX_WIDTH], D[REGIONS_MAX_WIDTH * REGIONS_MAX_WIDTH];
    uint64_t P[REGIONS_MAX_WIDTH][REGIONS_WORDS], F[REGIONS_MAX_WIDTH][REGIONS_WORDS];
    int nfixed[REGIONS_MAX_WIDTH], nmaybe[REGIONS_MAX_WIDTH];
    uint32_t taken[REGIONS_MAX_WIDTH], once[REGIONS_MAX_WIDTH], twice[REGIONS_MAX_WIDTH];
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
            L[i] = domain(S, s, lab[i]);
            D[i] = domain(S, s, dig[i]);
            allowed = (allowed | (L[i] << 1)) & full;
        }
        /* the groups: their cell sets; the memos of step 3 hold for these only */
        int ngroups = 0;
        memset(linked, 0, (size_t)W * sizeof(uint64_t));
        for (int i = 0; i < N2; i++) {
            roots[i] = roots[roots[i]]; /* a root comes first: it is flat already */
            slot[i] = -1;
            const int r = (int)roots[i];
            if (r == i)
                continue;
            if (slot[r] < 0) {
                slot[r] = ngroups++;
                memset(groups + (size_t)slot[r] * W, 0, (size_t)W * sizeof(uint64_t));
                groups[(size_t)slot[r] * W + r / 64] |= 1ull << (r & 63);
                linked[r / 64] |= 1ull << (r & 63);
            }
            groups[(size_t)slot[r] * W + i / 64] |= 1ull << (i & 63);
            linked[i / 64] |= 1ull << (i & 63);
        }
        if (memcmp(roots, seen_roots, (size_t)N2 * sizeof(uint32_t))) {
            memcpy(seen_roots, roots, (size_t)N2 * sizeof(uint32_t));
            *has_memo = 0;
        }
        /* a group's cells: the labels they all have, different digits */
        for (int g = 0; g < ngroups; g++) {
            const uint64_t *x = groups + (size_t)g * W;
            uint32_t both = full, placed = 0;
            for (int w = 0; w < W; w++)
                for (uint64_t m = x[w]; m; m &= m - 1) {
                    const int i = w * 64 + __builtin_ctzll(m);
                    both &= L[i];
                    if (!(D[i] & (D[i] - 1))) {
                        if (placed & D[i])
                            return -1;
                        placed |= D[i];
                    }
                }
            for (int w = 0; w < W; w++)
                for (uint64_t m = x[w]; m; m &= m - 1) {
                    const int i = w * 64 + __builtin_ctzll(m);
                    if (regions_keep(S, s, lab[i], both, &moved) < 0)
                        return -1;
                    if ((D[i] & (D[i] - 1)) && regions_keep(S, s, dig[i], ~placed, &moved) < 0)
                        return -1;
                }
        }
        if (moved)
            continue;
        /* 2. region houses: every region's statistics in one sweep */
        for (int k = 0; k < n; k++) {
            nfixed[k] = nmaybe[k] = 0;
            taken[k] = once[k] = twice[k] = 0;
            memset(P[k], 0, (size_t)W * sizeof(uint64_t));
            memset(F[k], 0, (size_t)W * sizeof(uint64_t));
        }
        for (int i = 0; i < N2; i++) {
            const uint32_t l = L[i], d = D[i];
            const uint64_t cell = 1ull << (i & 63);
            if (!(l & (l - 1))) {
                const int k = __builtin_ctz(l);
                nfixed[k]++;
                F[k][i / 64] |= cell;
                if (!(d & (d - 1))) {
                    if (taken[k] & d)
                        return -1;
                    taken[k] |= d;
                }
            }
            for (uint32_t m = l; m; m &= m - 1) {
                const int k = __builtin_ctz(m);
                nmaybe[k]++;
                twice[k] |= once[k] & d;
                once[k] |= d;
                P[k][i / 64] |= cell;
            }
        }
        uint32_t region_full = 0;
        for (int k = 0; k < n; k++) {
            if (nfixed[k] > n || nmaybe[k] < n || once[k] != full)
                return -1;
            if (nfixed[k] == n && nmaybe[k] > n)
                region_full |= 1u << k;
        }
        for (int i = 0; i < N2; i++) {
            const uint32_t l = L[i], d = D[i];
            if (!(l & (l - 1))) {
                const uint32_t t = taken[__builtin_ctz(l)];
                if ((d & (d - 1)) && (d & t) && regions_keep(S, s, dig[i], ~t, &moved) < 0)
                    return -1;
                continue;
            }
            uint32_t drop = l & region_full;
            if (!(d & (d - 1)))
                for (uint32_t m = l; m; m &= m - 1)
                    if (taken[__builtin_ctz(m)] & d)
                        drop |= m & (~m + 1);
            if (drop && regions_keep(S, s, lab[i], ~drop, &moved) < 0)
                return -1;
        }
        /* a digit with one possible cell in the region goes there */
        for (int k = 0; k < n; k++)
            for (uint32_t one = once[k] & ~twice[k] & ~taken[k]; one; one &= one - 1) {
                const uint32_t v = one & (~one + 1);
                for (int w = 0, done = 0; w < W && !done; w++)
                    for (uint64_t m = P[k][w]; m; m &= m - 1) {
                        const int i = w * 64 + __builtin_ctzll(m);
                        if (D[i] & v) {
                            if (regions_keep(S, s, lab[i], 1u << k, &moved) < 0 ||
                                regions_keep(S, s, dig[i], v, &moved) < 0)
                                return -1;
                            done = 1;
                            break;
                        }
                    }
            }
        if (moved)
            continue;
        /* 3. connectivity, for the regions whose cells changed since it last held */
        for (int k = 0; k < n; k++) {
            uint64_t *was = seen + (size_t)2 * k * W;
            if ((*has_memo >> k & 1) && !memcmp(was, P[k], (size_t)W * sizeof(uint64_t)) &&
                !memcmp(was + W, F[k], (size_t)W * sizeof(uint64_t)))
                continue;
            int changed = 0;
            if (regions_connect(S, s, &p, c, groups, ngroups, linked, P[k], F[k], 1u << k,
                                &changed) < 0)
                return -1;
            if (changed) {
                moved = 1;
                continue;
            }
            memcpy(was, P[k], (size_t)W * sizeof(uint64_t));
            memcpy(was + W, F[k], (size_t)W * sizeof(uint64_t));
            *has_memo |= 1ull << k;
        }
        if (!moved)
            return 0;
    }
}

/* The state keeps its same-region groups; each cell and its label are partners
 * in branching (see LINK_BOOST). */
static int regions_prepare(VKernel *vk, Con *c, int index, int nested)
{
    (void)index;
    (void)nested;
    c->shard_at = reserve(vk, c->len / 2);
    if (!vk->link) {
        vk->link = malloc((size_t)vk->ncells * sizeof(int));
        if (!vk->link) {
            PyErr_NoMemory();
            return -1;
        }
        for (int i = 0; i < vk->ncells; i++)
            vk->link[i] = -1;
    }
    for (int i = 0, half = c->len / 2; i < half; i++) {
        vk->link[c->cells[i]] = c->cells[half + i];
        vk->link[c->cells[half + i]] = c->cells[i];
    }
    return 0;
}

static void regions_priority(const VKernel *vk, const Con *c, uint32_t *prio)
{
    (void)vk;
    for (int i = 0; i < c->len; i++)
        prio[c->cells[i]] += 2;
}

static const Kind REGIONS_KIND = {
    .method = "add_regions", .params = {"width", "anchors", "joins"},
    .codes = "ins",
    .doc = "add_regions(cells, width, anchors, joins) -> index: regions found while solving; "
           "cells: the N*N cells then their labels; joins: pairs of cells in one region, "
           "flattened",
    .name = "REGIONS",
    .build = regions_build,
    .prepare = regions_prepare,
    .priority = regions_priority,
    .start = shards_start,
    .propagate = regions,
    .everywhere = 1,
};
