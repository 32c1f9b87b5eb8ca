/* Adding constraints to a VKernel, included by `_vkernel.c` after its structure:
 * one typed call per kind, `add_<kind>(cells, <the kind's parameters>, within=None)`,
 * whose arguments are read by name as the kind's `Kind.params` and `Kind.codes`
 * say and then built by its handler; an either/or is `add_either(cells)`, then per
 * alternative `add_alternative(either)` and its constraints added `within=either`.
 * Nothing may be added once the kernel has searched (`seal`). */

#define MAX_ARGS 8 /* cells, a kind's parameters, within */

/* A call's arguments by name, positional ones first (NULL where not given). */
static int gather(PyObject *args, PyObject *kwds, const char *const *names, int count,
                  PyObject **out, const char *method)
{
    const Py_ssize_t npos = PyTuple_GET_SIZE(args);
    if (npos > count) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", method,
                     count, npos);
        return -1;
    }
    for (int i = 0; i < count; i++)
        out[i] = i < npos ? PyTuple_GET_ITEM(args, i) : NULL;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (kwds && PyDict_Next(kwds, &pos, &key, &value)) {
        const char *name = PyUnicode_AsUTF8(key);
        if (!name)
            return -1;
        int i = 0;
        while (i < count && strcmp(names[i], name))
            i++;
        if (i == count) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'",
                         method, name);
            return -1;
        }
        if (out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
                         method, name);
            return -1;
        }
        out[i] = value;
    }
    return 0;
}

/* Integers appended to a growing array: 0, or -1 with an error set. */
static int append(int64_t **data, Py_ssize_t *nd, Py_ssize_t *cap, const int64_t *items,
                  Py_ssize_t count)
{
    if (*nd + count > *cap) {
        Py_ssize_t grown = 2 * *cap + count + 8;
        int64_t *more = realloc(*data, (size_t)grown * sizeof(int64_t));
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        *data = more;
        *cap = grown;
    }
    memcpy(*data + *nd, items, (size_t)count * sizeof(int64_t));
    *nd += count;
    return 0;
}

/* One parameter's value appended as its code says (see `Kind.codes`). */
static int pack_one(char code, PyObject *arg, const char *name, int64_t **data, Py_ssize_t *nd,
                    Py_ssize_t *cap, int64_t *total)
{
    const int optional = code >= 'A' && code <= 'Z';
    code = (char)(optional ? code - 'A' + 'a' : code);
    if (code == 'i' || code == 't') {
        long long v = PyLong_AsLongLong(arg);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "%s must be an integer", name);
            return -1;
        }
        if (code == 't') {
            *total = v;
            return 0;
        }
        int64_t item = v;
        return append(data, nd, cap, &item, 1);
    }
    if (code == 'p') { /* a sequence of tuples: their count, then their items */
        PyObject *seq = PySequence_Fast(arg, name);
        if (!seq)
            return -1;
        int64_t count = PySequence_Fast_GET_SIZE(seq);
        int r = append(data, nd, cap, &count, 1);
        for (Py_ssize_t i = 0; r == 0 && i < count; i++)
            r = pack_one('s', PySequence_Fast_GET_ITEM(seq, i), name, data, nd, cap, total);
        Py_DECREF(seq);
        return r;
    }
    Py_ssize_t len;
    int64_t *items = ints_of(arg, &len, name);
    if (!items)
        return -1;
    int r = 0;
    if (code == 'n' && !(optional && len == 0)) { /* its length first */
        int64_t count = len;
        r = append(data, nd, cap, &count, 1);
    }
    if (r == 0 && !(code == 'n' && optional && len == 0))
        r = append(data, nd, cap, items, len);
    free(items);
    return r;
}

/* The OR constraint numbered `obj` (an argument named `what`), or NULL with an
 * error set. */
static Con *either_of(VKernel *self, PyObject *obj, const char *what)
{
    long at = obj ? PyLong_AsLong(obj) : -1;
    if (at == -1 && PyErr_Occurred())
        return NULL;
    if (at < 0 || at >= self->ncons || self->cons[at].kind != K_OR) {
        PyErr_Format(PyExc_ValueError, "%s=%ld is not an either/or of this kernel", what, at);
        return NULL;
    }
    return &self->cons[at];
}

/* A new constraint's record: the next of the kernel's own, or (within an OR) the
 * next of its last alternative's. NULL with an error set when there is none to
 * take it. */
static Con *new_con(VKernel *self, PyObject *within, int *index)
{
    if (!within) {
        if (self->ncons == self->cap_cons) {
            int cap = 2 * self->cap_cons + 8;
            Con *grown = realloc(self->cons, (size_t)cap * sizeof(Con));
            if (!grown) {
                PyErr_NoMemory();
                return NULL;
            }
            self->cons = grown;
            self->cap_cons = cap;
        }
        *index = self->ncons;
        Con *c = &self->cons[self->ncons++];
        memset(c, 0, sizeof *c);
        return c;
    }
    Con *either = either_of(self, within, "within");
    if (!either)
        return NULL;
    const long at = either - self->cons;
    if (!either->nalts) {
        PyErr_Format(PyExc_ValueError, "constraint %ld: an alternative is opened "
                     "(add_alternative) before its constraints", at);
        return NULL;
    }
    Con *subs = realloc(either->subs, ((size_t)either->nsubs + 1) * sizeof(Con));
    if (!subs) {
        PyErr_NoMemory();
        return NULL;
    }
    either->subs = subs;
    *index = (int)at;
    Con *c = &either->subs[either->nsubs++];
    either->alt_start[either->nalts] = either->nsubs;
    memset(c, 0, sizeof *c);
    return c;
}

/* The record last taken back, after its build failed. */
static void drop_con(VKernel *self, PyObject *within, int index)
{
    Con *either = within ? &self->cons[index] : NULL;
    Con *c = either ? &either->subs[--either->nsubs] : &self->cons[--self->ncons];
    free_con(c);
    if (either)
        either->alt_start[either->nalts] = either->nsubs;
}

/* Whether a constraint fits an OR's alternative: a kind that may be nested, over
 * the OR's cells. */
static int fits_either(const Con *either, const Con *c, int index)
{
    int fits = KINDS[c->kind]->nested;
    for (int i = 0; fits && i < c->len; i++) {
        int mine = 0;
        for (int x = 0; x < either->len && !mine; x++)
            mine = either->cells[x] == c->cells[i];
        fits = mine;
    }
    return fits ? 0 : bad("constraint %d: an alternative of an OR must be a sum, cage, less, "
                          "table or regular constraint over the OR's cells", index);
}

static int open_to_constraints(const VKernel *self)
{
    if (!self->units) {
        PyErr_SetString(PyExc_ValueError, "the VKernel was not initialised");
        return -1;
    }
    if (self->sealed) {
        PyErr_SetString(PyExc_ValueError, "a VKernel's constraints are added before it "
                                          "first searches or propagates");
        return -1;
    }
    return 0;
}

/* add_<kind>(cells, <the kind's parameters>, within=None) -> its index: the
 * arguments read as the kind's codes say, then built by its handler. */
static PyObject *add_typed(VKernel *self, int kind, PyObject *args, PyObject *kwds)
{
    const Kind *h = KINDS[kind];
    const char *names[MAX_ARGS + 1] = {"cells"};
    int count = 1;
    while (h->params[count - 1])
        names[count] = h->params[count - 1], count++;
    names[count++] = "within";
    PyObject *arg[MAX_ARGS];
    if (gather(args, kwds, names, count, arg, h->method) < 0 || open_to_constraints(self) < 0)
        return NULL;
    for (int i = 0; i < count - 1; i++)
        if (!arg[i] && !(i && h->codes[i - 1] >= 'A' && h->codes[i - 1] <= 'Z')) {
            PyErr_Format(PyExc_TypeError, "%s() missing argument '%s'", h->method, names[i]);
            return NULL;
        }
    int64_t *data = NULL, total = 0;
    Py_ssize_t nd = 0, cap = 0;
    for (int i = 1; i < count - 1; i++)
        if (arg[i] && pack_one(h->codes[i - 1], arg[i], names[i], &data, &nd, &cap, &total) < 0) {
            free(data);
            return NULL;
        }
    PyObject *within = arg[count - 1] == Py_None ? NULL : arg[count - 1]; /* its own */
    int index;
    Con *c = new_con(self, within, &index);
    if (!c) {
        free(data);
        return NULL;
    }
    c->kind = kind;
    c->total = total;
    Py_ssize_t len;
    c->cells = cells_of(arg[0], self->ncells, &len, "constraint cells");
    int r = c->cells ? 0 : -1;
    if (r == 0) {
        c->len = c->inner = (int)len;
        r = h->build ? h->build(self, c, data, nd, index) : 0;
    }
    if (r == 0 && within)
        r = fits_either(&self->cons[index], c, index);
    free(data);
    if (r < 0) {
        drop_con(self, within, index);
        return NULL;
    }
    return PyLong_FromLong(within ? (long)self->cons[index].nsubs - 1 : index);
}

/* add_either(cells) -> index: an OR over the cells, its alternatives added after it. */
static PyObject *VKernel_add_either(VKernel *self, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"cells"};
    PyObject *arg[1];
    if (gather(args, kwds, names, 1, arg, "add_either") < 0 || open_to_constraints(self) < 0)
        return NULL;
    if (!arg[0]) {
        PyErr_SetString(PyExc_TypeError, "add_either() missing argument 'cells'");
        return NULL;
    }
    int index;
    Con *c = new_con(self, NULL, &index);
    if (!c)
        return NULL;
    c->kind = K_OR;
    Py_ssize_t len;
    c->cells = cells_of(arg[0], self->ncells, &len, "constraint cells");
    c->alt_start = calloc(1, sizeof(int));
    if (!c->cells || !c->alt_start) {
        if (c->cells)
            PyErr_NoMemory();
        drop_con(self, NULL, index);
        return NULL;
    }
    c->len = c->inner = (int)len;
    return PyLong_FromLong(index);
}

/* add_alternative(either) -> its number: a new alternative of the OR, which the
 * constraints added `within=either` join until the next. */
static PyObject *VKernel_add_alternative(VKernel *self, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"either"};
    PyObject *arg[1];
    if (gather(args, kwds, names, 1, arg, "add_alternative") < 0 ||
        open_to_constraints(self) < 0)
        return NULL;
    Con *c = either_of(self, arg[0], "either");
    if (!c)
        return NULL;
    int *grown = realloc(c->alt_start, ((size_t)c->nalts + 2) * sizeof(int));
    if (!grown)
        return PyErr_NoMemory();
    c->alt_start = grown;
    c->alt_start[++c->nalts] = c->nsubs;
    return PyLong_FromLong(c->nalts - 1);
}

/* One add_<kind> method per kind, and the kernel's methods with them. */
#define ADDER(kind)                                                                   \
    static PyObject *add_##kind(VKernel *self, PyObject *args, PyObject *kwds)        \
    {                                                                                 \
        return add_typed(self, K_##kind, args, kwds);                                 \
    }
ADDER(SUM)
ADDER(CAGE)
ADDER(LESS)
ADDER(TABLE)
ADDER(REGULAR)
ADDER(COUNT)
ADDER(REGIONS)
ADDER(RUNS)
ADDER(RANKS)
ADDER(SAME)
ADDER(SANDWICH)
ADDER(SAME_COUNT)
#undef ADDER

typedef PyObject *(*Adder)(VKernel *, PyObject *, PyObject *);
static const Adder ADDERS[K_KINDS] = {
    [K_SUM] = add_SUM,         [K_CAGE] = add_CAGE,       [K_LESS] = add_LESS,
    [K_TABLE] = add_TABLE,     [K_REGULAR] = add_REGULAR, [K_COUNT] = add_COUNT,
    [K_REGIONS] = add_REGIONS, [K_RUNS] = add_RUNS,       [K_RANKS] = add_RANKS,
    [K_SAME] = add_SAME,       [K_SANDWICH] = add_SANDWICH, [K_SAME_COUNT] = add_SAME_COUNT,
};
