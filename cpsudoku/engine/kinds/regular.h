/* REGULAR: the cells spell a word its automaton accepts; data = (states, start, k,
 * k accepting states, then (state, value, next state) triples). Pesant's
 * forward-backward pass over state bitsets, domain-consistent, then (while it
 * pays) a sweep for the values every accepted word holds. */

/* An automaton whose cells times states pass this waits in the slow ring: run
 * after every quick constraint has settled, it sees their narrowing at once
 * instead of being run again after each: the full-rank clues' automata, long
 * lines of hundreds of states each, are the case. */
#define SLOW_WORK 20000

static int regular_build(const VKernel *vk, Con *c, const int64_t *data, Py_ssize_t nd, int index)
{
    const int n = vk->n;
    if (nd < 3)
        return bad("constraint %d: an automaton needs states, start and accepting states",
                   index);
    int64_t nstates = data[0], start = data[1], nacc = data[2];
    if (nstates < 1 || nstates > 1 << 20 || start < 0 || start >= nstates || nacc < 0 ||
        3 + nacc > nd || (nd - 3 - nacc) % 3)
        return bad("constraint %d: a malformed automaton", index);
    c->nstates = (int)nstates;
    c->start = (int)start;
    c->sw = (int)((nstates + 63) / 64);
    c->accepting = calloc((size_t)c->sw, sizeof(uint64_t));
    c->tstart = calloc((size_t)nstates + 1, sizeof(int));
    Py_ssize_t nt = (nd - 3 - nacc) / 3;
    c->tbit = malloc((size_t)(nt ? nt : 1) * sizeof(uint32_t));
    c->tnext = malloc((size_t)(nt ? nt : 1) * sizeof(int));
    if (!c->accepting || !c->tstart || !c->tbit || !c->tnext) {
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t i = 0; i < nacc; i++) {
        int64_t s = data[3 + i];
        if (s < 0 || s >= nstates)
            return bad("constraint %d: an accepting state out of range", index);
        c->accepting[s / 64] |= 1ull << (s % 64);
    }
    const int64_t *t = data + 3 + nacc;
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (t[3 * i] < 0 || t[3 * i] >= nstates || t[3 * i + 2] < 0 || t[3 * i + 2] >= nstates)
            return bad("constraint %d: a transition's state out of range", index);
        if (t[3 * i + 1] >= 1 && t[3 * i + 1] <= n)
            c->tstart[t[3 * i] + 1]++;
    }
    for (int s = 0; s < nstates; s++)
        c->tstart[s + 1] += c->tstart[s];
    int *fill = malloc((size_t)nstates * sizeof(int));
    if (!fill) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(fill, c->tstart, (size_t)nstates * sizeof(int));
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (t[3 * i + 1] < 1 || t[3 * i + 1] > n)
            continue; /* a value the grid does not have */
        int at = fill[t[3 * i]]++;
        c->tbit[at] = 1u << (t[3 * i + 1] - 1);
        c->tnext[at] = (int)t[3 * i + 2];
    }
    /* a state's moves to one next state become one move on the set of their
     * values: a count of one digit along a line (same values) has two moves a
     * state, not one per value */
    int *slot = fill; /* per next state: its merged move in the current state, or -1 */
    for (int st = 0; st < nstates; st++)
        slot[st] = -1;
    int kept = 0;
    for (int st = 0; st < nstates; st++) {
        const int from = c->tstart[st], to = c->tstart[st + 1];
        c->tstart[st] = kept;
        for (int x = from; x < to; x++) {
            int nx = c->tnext[x];
            if (slot[nx] >= c->tstart[st]) {
                c->tbit[slot[nx]] |= c->tbit[x];
                continue;
            }
            slot[nx] = kept;
            c->tbit[kept] = c->tbit[x];
            c->tnext[kept++] = nx;
        }
    }
    c->tstart[nstates] = kept;
    free(fill);
    c->exact = 1;
    if (c->sw == 1) { /* one word of states: a move is a mask, read per value */
        c->moves = calloc((size_t)nstates * MAX_VALUES, sizeof(uint64_t));
        c->reads = calloc((size_t)nstates, sizeof(uint32_t));
        if (!c->moves || !c->reads) {
            PyErr_NoMemory();
            return -1;
        }
        for (int st = 0; st < nstates; st++)
            for (int x = c->tstart[st]; x < c->tstart[st + 1]; x++) {
                for (uint32_t m = c->tbit[x]; m; m &= m - 1)
                    c->moves[st * MAX_VALUES + __builtin_ctz(m)] |= 1ull << c->tnext[x];
                c->reads[st] |= c->tbit[x];
            }
    }
    c->slow = (long)c->len * c->nstates > SLOW_WORK;
    /* forward and backward layers (len + 1 each), two more bitsets, and the
     * sweep's per-state masks */
    c->need = (2 * (size_t)c->len + 4) * (size_t)c->sw + (size_t)c->nstates;
    return 0;
}


/* Whether every cell of some unit is among the constraint's: then each value is
 * in it anyway, and where it goes is the unit's own hidden singles and locked
 * candidates (a sandwich or skyscraper clue on a row), so its required values
 * are not worth a sweep. */
static int covers_unit(const VKernel *vk, const Con *c)
{
    const int n = vk->n;
    for (int u = 0; u < vk->nunits; u++) {
        int inside = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < c->len; i++)
                if (c->cells[i] == vk->units[u * n + j]) {
                    inside++;
                    break;
                }
        if (inside == n)
            return 1;
    }
    return 0;
}


static int regular_prepare(VKernel *vk, Con *c, int index, int nested)
{
    (void)index;
    (void)nested;
    c->sweep = !covers_unit(vk, c);
    return 0;
}

/* An automaton's sweep for required values runs while it pays: after DRY_RUN
 * sweeps in a row that found nothing, the constraint sweeps on one pass in
 * DRY_EVERY (of all passes), until a sweep finds something again: some automata
 * never hold a required value (a doppelganger's), and sweeping them always costs
 * more than sweeping none. A small automaton (cells times states up to
 * SMALL_SWEEP) always sweeps, its sweep being cheap and often fruitful (a 2x2
 * square's entropy). */
#define DRY_RUN 16
#define DRY_EVERY 16
#define SMALL_SWEEP 32
static inline int sweep_due(const Search *S, const Con *c)
{
    return (int64_t)c->len * c->nstates <= SMALL_SWEEP || S->dry[c->slot] < DRY_RUN
           || S->passes % DRY_EVERY == 0;
}

/* The sweep's outcome `r` (exclude_required's, or 0 when nothing was required)
 * recorded for the constraint; the pass's result. */
static inline int swept(Search *S, const Con *c, int r)
{
    uint8_t *dry = &S->dry[c->slot];
    if (r)
        *dry = 0;
    else if (*dry < 255)
        (*dry)++;
    return r < 0 ? -1 : 0;
}


/* `regular` for automata of up to 64 states: each layer one word. */
static int regular_word(Search *S, uint32_t *s, const Con *c)
{
    const int len = c->len;
    uint64_t *fw = S->bits;        /* (len + 1) layers of states reached */
    uint64_t *bk = fw + len + 1;   /* and of those that still reach acceptance */
    uint32_t short_of = 0;         /* a value some reached state cannot read */
    fw[0] = 1ull << c->start;
    for (int i = 0; i < len; i++) {
        uint32_t d = domain(S, s, c->cells[i]);
        uint64_t next = 0;
        for (uint64_t b = fw[i]; b; b &= b - 1) {
            int st = __builtin_ctzll(b);
            const uint64_t *move = c->moves + (size_t)st * MAX_VALUES;
            short_of |= d & ~c->reads[st];
            for (uint32_t m = d & c->reads[st]; m; m &= m - 1)
                next |= move[__builtin_ctz(m)];
        }
        if (!next)
            return -1;
        fw[i + 1] = next;
    }
    uint64_t alive = fw[len] & c->accepting[0];
    if (!alive)
        return -1;
    /* Every word the domains spell is accepted: the constraint holds on this branch
     * whatever is decided, so it is not run again below (ISS's Doppelganger [easier]:
     * the 81 cells' "at a 0, the missing digits differ" automata, entailed once a
     * cell is not 0). Not for an OR's alternative, whose state is a scratch copy. */
    if (!short_of && alive == fw[len] && !S->quiet && c->slot < S->k->ncons)
        s[S->k->done_at + c->slot / 32] |= 1u << (c->slot % 32);
    bk[len] = alive;
    for (int i = len - 1; i >= 0; i--) {
        uint32_t d = domain(S, s, c->cells[i]), kept = 0;
        uint64_t back = 0;
        for (uint64_t b = fw[i]; b; b &= b - 1) {
            int st = __builtin_ctzll(b);
            const uint64_t *move = c->moves + (size_t)st * MAX_VALUES;
            for (uint32_t m = d & c->reads[st]; m; m &= m - 1)
                if (move[__builtin_ctz(m)] & alive) {
                    kept |= m & (~m + 1);
                    back |= 1ull << st;
                }
        }
        S->support[i] = kept;
        bk[i] = alive = back;
    }
    uint32_t any = 0;
    for (int i = 0; i < len; i++) {
        if (restrict_to(S, s, c->cells[i], S->support[i]) < 0)
            return -1;
        any |= S->support[i];
    }
    if (!c->sweep || !sweep_due(S, c))
        return 0;
    /* the values every accepted word holds: per state of a layer, the values some
     * path to it avoids (a value is avoided along a path that never reads it) */
    uint32_t a0[64], a1[64], *avoid = a0, *next = a1;
    avoid[c->start] = 0xffffffffu;
    for (int i = 0; i < len; i++) {
        const uint32_t d = S->support[i];
        for (uint64_t b = bk[i + 1]; b; b &= b - 1)
            next[__builtin_ctzll(b)] = 0;
        for (uint64_t b = bk[i]; b; b &= b - 1) {
            int st = __builtin_ctzll(b);
            const uint64_t *move = c->moves + (size_t)st * MAX_VALUES;
            for (uint32_t m = d & c->reads[st]; m; m &= m - 1) {
                const uint32_t keep = avoid[st] & ~(m & (~m + 1));
                for (uint64_t t = move[__builtin_ctz(m)] & bk[i + 1]; t; t &= t - 1)
                    next[__builtin_ctzll(t)] |= keep;
            }
        }
        uint32_t *t = avoid;
        avoid = next;
        next = t;
    }
    uint32_t avoided = 0;
    for (uint64_t b = bk[len]; b; b &= b - 1)
        avoided |= avoid[__builtin_ctzll(b)];
    return swept(S, c, any & ~avoided ? exclude_required(S, s, c->cells, len, any & ~avoided) : 0);
}

static int regular(Search *S, uint32_t *s, const Con *c)
{
    if (c->moves)
        return regular_word(S, s, c);
    const int sw = c->sw, len = c->len;
    uint64_t *fw = S->bits;                   /* (len + 1) layers of states reached */
    uint64_t *bk = fw + (size_t)(len + 1) * sw; /* and of those that still reach acceptance */
    uint64_t *alive = bk + (size_t)(len + 1) * sw, *back = alive + sw;
    memset(fw, 0, (size_t)(len + 1) * sw * sizeof(uint64_t));
    fw[c->start / 64] = 1ull << (c->start % 64);
    for (int i = 0; i < len; i++) {
        uint32_t d = domain(S, s, c->cells[i]);
        const uint64_t *layer = fw + (size_t)i * sw;
        uint64_t *next = fw + (size_t)(i + 1) * sw;
        int any = 0;
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = layer[wd]; b; b &= b - 1) {
                int st = 64 * wd + __builtin_ctzll(b);
                for (int t = c->tstart[st]; t < c->tstart[st + 1]; t++)
                    if (c->tbit[t] & d) {
                        next[c->tnext[t] / 64] |= 1ull << (c->tnext[t] % 64);
                        any = 1;
                    }
            }
        if (!any)
            return -1;
    }
    int any = 0;
    for (int wd = 0; wd < sw; wd++) {
        alive[wd] = fw[(size_t)len * sw + wd] & c->accepting[wd];
        any |= alive[wd] != 0;
    }
    if (!any)
        return -1;
    memcpy(bk + (size_t)len * sw, alive, (size_t)sw * sizeof(uint64_t));
    for (int i = len - 1; i >= 0; i--) {
        uint32_t d = domain(S, s, c->cells[i]), kept = 0;
        const uint64_t *layer = fw + (size_t)i * sw;
        memset(back, 0, (size_t)sw * sizeof(uint64_t));
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = layer[wd]; b; b &= b - 1) {
                int st = 64 * wd + __builtin_ctzll(b);
                for (int t = c->tstart[st]; t < c->tstart[st + 1]; t++) {
                    int nx = c->tnext[t];
                    if ((c->tbit[t] & d) && (alive[nx / 64] >> (nx % 64) & 1)) {
                        kept |= c->tbit[t] & d;
                        back[wd] |= 1ull << (st % 64);
                    }
                }
            }
        S->support[i] = kept;
        memcpy(alive, back, (size_t)sw * sizeof(uint64_t));
        memcpy(bk + (size_t)i * sw, back, (size_t)sw * sizeof(uint64_t));
    }
    uint32_t values = 0;
    for (int i = 0; i < len; i++) {
        if (restrict_to(S, s, c->cells[i], S->support[i]) < 0)
            return -1;
        values |= S->support[i];
    }
    if (!c->sweep || !sweep_due(S, c))
        return 0;
    /* the values every accepted word holds, as in regular_word: per state of a
     * layer, the values some path to it avoids (a move avoids a value unless it
     * reads only that value) */
    uint32_t *avoid = (uint32_t *)(back + sw), *next = avoid + c->nstates;
    avoid[c->start] = 0xffffffffu;
    for (int i = 0; i < len; i++) {
        const uint32_t d = S->support[i];
        const uint64_t *from = bk + (size_t)i * sw, *to = from + sw;
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = to[wd]; b; b &= b - 1)
                next[64 * wd + __builtin_ctzll(b)] = 0;
        for (int wd = 0; wd < sw; wd++)
            for (uint64_t b = from[wd]; b; b &= b - 1) {
                int st = 64 * wd + __builtin_ctzll(b);
                for (int t = c->tstart[st]; t < c->tstart[st + 1]; t++) {
                    const int nx = c->tnext[t];
                    const uint32_t read = c->tbit[t] & d;
                    if (read && (to[nx / 64] >> (nx % 64) & 1))
                        next[nx] |= read & (read - 1) ? avoid[st] : avoid[st] & ~read;
                }
            }
        uint32_t *t = avoid;
        avoid = next;
        next = t;
    }
    uint32_t avoided = 0;
    const uint64_t *last = bk + (size_t)len * sw;
    for (int wd = 0; wd < sw; wd++)
        for (uint64_t b = last[wd]; b; b &= b - 1)
            avoided |= avoid[64 * wd + __builtin_ctzll(b)];
    return swept(S, c, values & ~avoided ? exclude_required(S, s, c->cells, len, values & ~avoided)
                                      : 0);
}

static const Kind REGULAR_KIND = {
    .method = "add_automaton",
    .params = {"states", "start", "accepting", "moves"}, .codes = "iins",
    .doc = "add_automaton(cells, states, start, accepting, moves, within=None) -> index: the "
           "cells spell a word the automaton accepts; moves: (state, value, next state) "
           "triples, flattened",
    .name = "REGULAR",
    .build = regular_build,
    .prepare = regular_prepare,
    .propagate = regular,
    .nested = 1,
};
