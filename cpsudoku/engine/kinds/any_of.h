/* OR: at least one of its alternatives holds (either/or of rules), each a sequence of
 * constraints of the kinds that may be nested (SUM to REGULAR) over the OR's cells:
 * `add_either(cells)`, then per alternative `add_alternative(either)` and its
 * constraints added `within=either`. Constructive disjunction, see `any_of`. The
 * state keeps which alternatives are still alive, a bit each. */

/* At least one alternative holds (constructive disjunction, as ISS's Or): each
 * alternative's constraints run once each on a copy of the domains, quietly
 * (waking nothing); one that fails is out, and each cell of the OR keeps the
 * values some surviving alternative leaves it. No automaton of the alternatives'
 * product is built: for many either/ors its building alone outweighs the search.
 * As ISS's Or, the state remembers which alternatives failed (they stay failed
 * below, domains only narrowing), and the last one left runs on the state itself,
 * waking what it narrows, as a plain constraint would. */
static int any_of(Search *S, uint32_t *s, const Con *c)
{
    const int ncells = S->k->ncells, len = c->len;
    uint32_t *alt = S->alt, *kept = S->alt_union, *living = s + c->alive_at;
    int left = 0, last = 0;
    for (int w = 0; w < (c->nalts + 31) / 32; w++)
        if (living[w]) {
            left += popcount32(living[w]);
            last = 32 * w + __builtin_ctz(living[w]);
        }
    if (left == 1) { /* the one alternative left simply holds, waking what it narrows */
        for (int j = c->alt_start[last]; j < c->alt_start[last + 1]; j++)
            if (run_pass(S, s, &c->subs[j]) < 0)
                return -1;
        return 0;
    }
    memset(kept, 0, (size_t)len * sizeof(uint32_t));
    int alive = 0;
    S->quiet = 1;
    for (int a = 0; a < c->nalts; a++) {
        /* an alternative that failed stays failed below: domains only narrow */
        if (!(living[a / 32] >> (a % 32) & 1))
            continue;
        memcpy(alt, s, 2 * (size_t)ncells * sizeof(uint32_t));
        /* each of its constraints once, as ISS's And: a fixpoint of each
         * alternative costs more passes than the narrowing it adds is worth */
        int ok = 1;
        for (int j = c->alt_start[a]; ok && j < c->alt_start[a + 1]; j++)
            ok = run_pass(S, alt, &c->subs[j]) >= 0;
        if (!ok) {
            living[a / 32] &= ~(1u << (a % 32));
            continue;
        }
        alive = 1;
        int covered = 1;
        for (int i = 0; i < len; i++) {
            kept[i] |= alt[c->cells[i]] | alt[ncells + c->cells[i]];
            covered &= (domain(S, s, c->cells[i]) & ~kept[i]) == 0;
        }
        /* every value some alternative keeps: the others can narrow nothing more,
         * and most passes of an either/or narrow nothing */
        if (covered)
            break;
    }
    S->quiet = 0;
    return alive ? keep_each(S, s, c->cells, len, kept) : -1;
}

/* Its alternatives' constraints take their places in the search's counters, and
 * are prepared as nested ones; the state keeps a bit per living alternative. */
static int any_of_prepare(VKernel *vk, Con *c, int index, int nested)
{
    (void)nested;
    if (!c->nalts)
        return bad("constraint %d: an OR without alternatives", index);
    for (int j = 0; j < c->nsubs; j++) {
        Con *sub = &c->subs[j];
        sub->slot = vk->nslots++;
        if (KINDS[sub->kind]->prepare && KINDS[sub->kind]->prepare(vk, sub, index, 1) < 0)
            return -1;
    }
    c->alive_at = reserve(vk, (c->nalts + 31) / 32);
    return 0;
}

/* Every alternative alive. */
static void any_of_start(const Con *c, int n, uint32_t *s)
{
    (void)n;
    for (int a = 0; a < c->nalts; a++)
        s[c->alive_at + a / 32] |= 1u << (a % 32);
}

static const Kind OR_KIND = {.name = "OR", .prepare = any_of_prepare,
                             .start = any_of_start, .propagate = any_of};
