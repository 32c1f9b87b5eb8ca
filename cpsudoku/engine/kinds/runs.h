/* Runs in a region found while solving (chaos arrows and counts): the RUNS handler
 * of `_vkernel.c`, included there after the Search state and the REGIONS handler.
 *
 * cells = (digit, start's label, each arm's labels after the start, arm by arm);
 * data = (offset, first label variable, N*N, arms, each arm's length, each
 * arm's near flag). The digit plus the offset is 1 (the start) plus, per arm,
 * its run: how many of its first labels equal the start's, up to the first
 * other one. A count is arms of length one. With near arms, at least one of
 * them must have a run (the start's orthogonal neighbours, when every one is
 * the first cell of an arm: a region of two or more cells is connected).
 *
 * The pass is domain-consistent for that, as `RegionRuns`' automaton is, without
 * its thousands of states: per label r of the start, each arm's possible run
 * lengths are a bitset, and sums of bitsets (with a flag for "a near arm has
 * run") before and after each arm say which lengths fit a digit left. Beside
 * it, the cells outside the clue already fixed to r are part of r's N cells too,
 * so the run holds at most N minus them (ISS's "off-arm budget").
 *
 * With the regions' same-region groups (`regions.h`): a cell in the start's
 * group cannot end a run, and the cells every kept run reaches join the
 * start's group (ISS's shard unions), which the regions pass then reads.
 */

/* The sums of one element of x and one of y (bit t: a total of t), below 64. */
static inline uint64_t runs_sumset(uint64_t x, uint64_t y)
{
    uint64_t out = 0;
    for (; y; y &= y - 1)
        out |= x << __builtin_ctzll(y);
    return out;
}

static int runs_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    if (nd < 4)
        return bad("constraint %d: runs need an offset, labels and arms", index);
    int64_t offset = data[0], base = data[1], npos = data[2], narms = data[3];
    if (offset < -n || offset > n || base < 0 || npos < 0 || npos > MAX_VALUES * MAX_VALUES ||
        narms < 0 || narms > 62 || nd != 4 + 2 * narms)
        return bad("constraint %d: malformed runs", index);
    int64_t cells = 2;
    for (int a = 0; a < narms; a++) {
        if (data[4 + a] < 1 || data[4 + a] > 62)
            return bad("constraint %d: an arm of no cells or more than 62", index);
        cells += data[4 + a];
    }
    if (cells != c->len || cells > 64)
        return bad("constraint %d: runs need the digit, the start and every arm's cells", index);
    c->offset = (int)offset;
    c->label_base = (int)base;
    c->npos = (int)npos;
    c->narms = (int)narms;
    c->arms = malloc((size_t)(2 * narms + npos + 1) * sizeof(int));
    c->dp = malloc((size_t)4 * (narms + 1) * sizeof(uint64_t));
    if (!c->arms || !c->dp) {
        PyErr_NoMemory();
        return -1;
    }
    for (int a = 0; a < 2 * narms; a++)
        c->arms[a] = (int)data[4 + a];
    /* outside[p]: grid position p's label is not one of the clue's */
    int *outside = c->arms + 2 * narms;
    for (int p = 0; p < npos; p++)
        outside[p] = 1;
    for (int i = 1; i < c->len; i++) {
        int p = c->cells[i] - c->label_base;
        if (p >= 0 && p < npos)
            outside[p] = 0;
    }
    c->exact = 1;
    return 0;
}

static int runs(Search *S, uint32_t *s, const Con *c)
{
    const int n = S->k->n, narms = c->narms, *len = c->arms, *near = c->arms + narms;
    const int *outside = c->arms + 2 * narms;
    const uint32_t control = domain(S, s, c->cells[0]), starts = domain(S, s, c->cells[1]);
    uint64_t *P0 = c->dp, *P1 = P0 + narms + 1, *Q0 = P1 + narms + 1, *Q1 = Q0 + narms + 1;
    uint32_t *support = S->support;
    int any_near = 0, fixed[MAX_VALUES] = {0};
    for (int a = 0; a < narms; a++)
        any_near |= near[a];
    for (int p = 0; p < c->npos; p++)
        if (outside[p]) {
            uint32_t m = domain(S, s, c->label_base + p);
            if (m && !(m & (m - 1)))
                fixed[__builtin_ctz(m)]++;
        }
    /* sums of the arms' runs a digit allows: digit bit i is a total of i + 1 + offset
     * cells, the start's included, so the arms hold i + offset */
    uint64_t digits = 0;
    for (uint32_t m = control; m; m &= m - 1) {
        int arms_total = __builtin_ctz(m) + c->offset;
        if (arms_total >= 0 && arms_total < 64)
            digits |= 1ull << arms_total;
    }
    for (int i = 0; i < c->len; i++)
        support[i] = 0;
    uint64_t sums_kept = 0;
    uint32_t starts_kept = 0;
    uint64_t lengths[64];
    /* the regions' groups: which arm cells share the start's; each arm's shortest run */
    uint32_t *roots = c->partner >= 0 ? s + S->k->cons[c->partner].shard_at : NULL;
    uint64_t grouped = 0; /* bit i: cell i of the clue is in the start's group */
    int shortest[64];
    if (roots) {
        const int start = shard_root(roots, c->cells[1] - c->label_base);
        for (int i = 2; i < c->len; i++)
            if (shard_root(roots, c->cells[i] - c->label_base) == start)
                grouped |= 1ull << i;
    }
    for (int a = 0; a < narms; a++)
        shortest[a] = 64;
    for (uint32_t rs = starts; rs; rs &= rs - 1) {
        const uint32_t rb = rs & (~rs + 1);
        /* cells the arms may add: in a grid of regions (npos), N less the start and
         * the cells outside the clue already in r */
        const int room = c->npos ? n - 1 - fixed[__builtin_ctz(rb)] : 63;
        if (room < 0)
            continue;
        const uint64_t allowed = digits & (room >= 63 ? ~0ull : (2ull << room) - 1);
        if (!allowed)
            continue;
        /* each arm's possible run lengths: its first L cells may be r, the next may not */
        for (int a = 0, at = 2; a < narms; at += len[a], a++) {
            uint64_t m = 0;
            for (int L = 0; L <= len[a]; L++) {
                if (L == len[a] ||
                    ((domain(S, s, c->cells[at + L]) & ~rb) && !(grouped >> (at + L) & 1)))
                    m |= 1ull << L;
                if (L < len[a] && !(domain(S, s, c->cells[at + L]) & rb))
                    break;
            }
            lengths[a] = m;
        }
        /* before arm a: P1 sums with a near run (or no near arm at all), P0 without */
        P0[0] = any_near ? 1 : 0;
        P1[0] = any_near ? 0 : 1;
        for (int a = 0; a < narms; a++) {
            const uint64_t R = lengths[a];
            if (near[a]) {
                P1[a + 1] = runs_sumset(P1[a], R) | runs_sumset(P0[a], R & ~1ull);
                P0[a + 1] = (R & 1) ? P0[a] : 0;
            } else {
                P1[a + 1] = runs_sumset(P1[a], R);
                P0[a + 1] = runs_sumset(P0[a], R);
            }
        }
        const uint64_t fit = P1[narms] & allowed;
        if (!fit)
            continue;
        starts_kept |= rb;
        sums_kept |= fit;
        /* from arm a on: Q1 sums with a near run, Q0 without */
        Q0[narms] = 1;
        Q1[narms] = 0;
        for (int a = narms - 1; a >= 0; a--) {
            const uint64_t R = lengths[a];
            if (near[a]) {
                Q1[a] = runs_sumset(Q1[a + 1], R) | runs_sumset(Q0[a + 1], R & ~1ull);
                Q0[a] = (R & 1) ? Q0[a + 1] : 0;
            } else {
                Q1[a] = runs_sumset(Q1[a + 1], R);
                Q0[a] = runs_sumset(Q0[a + 1], R);
            }
        }
        /* the lengths of arm a some run of the others completes, and what its cells keep */
        for (int a = 0, at = 2; a < narms; at += len[a], a++) {
            const uint64_t met = any_near ? runs_sumset(P1[a], Q0[a + 1] | Q1[a + 1]) |
                                                runs_sumset(P0[a], Q1[a + 1])
                                          : runs_sumset(P1[a], Q0[a + 1]);
            const uint64_t unmet = near[a] ? runs_sumset(P0[a], Q0[a + 1]) : 0;
            uint64_t ok = 0;
            for (uint64_t m = lengths[a]; m; m &= m - 1) {
                int L = __builtin_ctzll(m);
                if (((met << L) & allowed) || (L && ((unmet << L) & allowed)))
                    ok |= 1ull << L;
            }
            if (ok && __builtin_ctzll(ok) < shortest[a])
                shortest[a] = __builtin_ctzll(ok);
            for (int j = 1; j <= len[a]; j++) {
                /* cell j: r while a run reaches it or one ended before j - 1; another
                 * label to end a run of j - 1, or past an earlier end */
                const uint64_t upto_j2 = j >= 2 ? ok & ((1ull << (j - 1)) - 1) : 0;
                const int r_ok = (ok >> j) != 0 || upto_j2;
                const int other_ok = ((ok >> (j - 1)) & 1) || upto_j2;
                const uint32_t d = domain(S, s, c->cells[at + j - 1]);
                const int other = other_ok && !(grouped >> (at + j - 1) & 1);
                support[at + j - 1] |= (r_ok ? rb : 0) | (other ? d & ~rb : 0);
            }
        }
    }
    if (!starts_kept)
        return -1;
    uint32_t digits_kept = 0;
    for (uint64_t m = sums_kept; m; m &= m - 1) {
        int bit = __builtin_ctzll(m) - c->offset;
        if (bit >= 0 && bit < MAX_VALUES)
            digits_kept |= 1u << bit;
    }
    if (restrict_to(S, s, c->cells[0], digits_kept) < 0 ||
        restrict_to(S, s, c->cells[1], starts_kept) < 0)
        return -1;
    /* the cells every kept run reaches share the start's region */
    int joined = 0;
    for (int a = 0, at = 2; roots && a < narms; at += len[a], a++)
        for (int j = 0; j < shortest[a] && j < len[a]; j++)
            joined |= shard_join(roots, c->cells[1] - c->label_base,
                                 c->cells[at + j] - c->label_base);
    if (joined && !S->inq[c->partner])
        enqueue(S, c->partner);
    return keep_each(S, s, c->cells + 2, c->len - 2, support + 2);
}

/* Its labels lie among the variables; the REGIONS constraint over them (if any)
 * is its partner, whose groups it joins. */
static int runs_prepare(VKernel *vk, Con *c, int index, int nested)
{
    (void)nested;
    if (c->label_base + c->npos > vk->ncells)
        return bad("constraint %d: runs' labels beyond the variables", index);
    c->partner = -1;
    for (int x = 0; x < vk->ncons; x++) {
        const Con *r = &vk->cons[x];
        if (r->kind == K_REGIONS && r->len / 2 == c->npos && r->cells[r->len / 2] == c->label_base)
            c->partner = x;
    }
    return 0;
}

static const Kind RUNS_KIND = {
    .method = "add_runs",
    .params = {"offset", "labels", "positions", "arms", "near"}, .codes = "iiins",
    .doc = "add_runs(cells, offset, labels, positions, arms, near) -> index: the digit plus "
           "offset is 1 plus each arm's run in the start's region; labels: the first label "
           "variable, positions: how many; arms: their lengths, near: a flag each",
    .name = "RUNS",
    .build = runs_build,
    .prepare = runs_prepare,
    .propagate = runs,
};
