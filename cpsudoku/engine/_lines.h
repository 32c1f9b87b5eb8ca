/* The classic lane of the kernel (`Kernel.solve_text`, included by `_kernel.c`):
 * a buffer of puzzle lines in, the records of `solve` and `count` out, as text,
 * many puzzles per call.
 *
 * It reads only what it can read exactly as the shared parser does: a line of
 * exactly ncells symbols, digits 1..n with '.' or '0' for blanks (one of the two
 * only). Blank lines and '#' comments are skipped, as the batch reader skips them.
 * Any other line, and any puzzle with no solution (whose record names the broken
 * rule, which only the model knows), is refused: the call returns where it stopped,
 * and the caller hands that line to the ordinary path. So a record written here is
 * the record the ordinary path writes, timings aside.
 *
 * Formats: line, jsonl and csv as `solve` and `count` write them, and `grids`, the
 * bulk API's: `status nodes guesses backtracks propagations microseconds solution...`.
 */
#ifndef CPSUDOKU_ENGINE_LINES_H
#define CPSUDOKU_ENGINE_LINES_H

#include <math.h>
#include <stdio.h>

enum { FMT_LINE, FMT_JSONL, FMT_CSV, FMT_GRIDS, FMT_COUNT_OF };
enum { SEEN_SOLVED = 1, SEEN_UNIQUE = 2, SEEN_MULTIPLE = 4 };

typedef struct {
    char *p;
    size_t n, cap;
    int nomem;
} Text;

static void put(Text *t, const char *s, size_t k)
{
    if (t->nomem)
        return;
    if (t->n + k > t->cap) {
        size_t cap = 2 * t->cap + k + 4096;
        char *p = realloc(t->p, cap);
        if (!p) {
            t->nomem = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->n, s, k);
    t->n += k;
}

static void puts_(Text *t, const char *s) { put(t, s, strlen(s)); }

static void put_int(Text *t, unsigned long long v)
{
    char b[24];
    put(t, b, (size_t)snprintf(b, sizeof b, "%llu", v));
}

/* Seconds given in whole microseconds, as Python's repr writes the float us / 1e6:
 * 0.0, 9.3e-05, 0.000228, 1.5 (shortest digits; exponent form below 1e-4). */
static void put_seconds(Text *t, long long us)
{
    char b[40];
    if (us <= 0) {
        puts_(t, "0.0");
        return;
    }
    if (us < 100) {
        int digits = us < 10 ? 1 : 2, exponent = digits - 7;
        long long m = us;
        while (m % 10 == 0)
            m /= 10;
        if (m >= 10)
            snprintf(b, sizeof b, "%lld.%llde-%02d", m / 10, m % 10, -exponent);
        else
            snprintf(b, sizeof b, "%llde-%02d", m, -exponent);
        puts_(t, b);
        return;
    }
    int len = snprintf(b, sizeof b, "%lld.%06lld", us / 1000000, us % 1000000);
    while (b[len - 1] == '0' && b[len - 2] != '.')
        len--;
    put(t, b, (size_t)len);
}

static int blank_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The line from `pos` to its newline, without the surrounding blanks. */
static void line_at(const char *d, Py_ssize_t len, Py_ssize_t pos, Py_ssize_t *start,
                    Py_ssize_t *stop, Py_ssize_t *next)
{
    Py_ssize_t e = pos;
    while (e < len && d[e] != '\n')
        e++;
    *next = e < len ? e + 1 : e;
    while (pos < e && (blank_space(d[pos]) || d[pos] == '\n'))
        pos++;
    while (e > pos && blank_space(d[e - 1]))
        e--;
    *start = pos;
    *stop = e;
}

/* The masks of a line of ncells symbols; 0 when the shared parser must read it. */
static int read_line(const char *s, Py_ssize_t k, int ncells, int n, uint32_t full, uint32_t *cands,
                     int *queue, int *qn)
{
    if (k != ncells || n > 9)
        return 0;
    int dots = 0, zeros = 0;
    *qn = 0;
    for (int c = 0; c < ncells; c++) {
        char ch = s[c];
        if (ch >= '1' && ch < '1' + n) {
            cands[c] = 1u << (ch - '1');
            queue[(*qn)++] = c;
        } else if (ch == '.' || ch == '0') {
            dots += ch == '.';
            zeros += ch == '0';
            cands[c] = full;
        } else {
            return 0;
        }
    }
    return !(dots && zeros);
}

static void put_grid(Text *t, const uint8_t *vals, int ncells)
{
    char b[MAX_CELLS];
    for (int c = 0; c < ncells; c++)
        b[c] = (char)('0' + vals[c]);
    put(t, b, (size_t)ncells);
}

typedef struct {
    int fmt, count;          /* the format; count's records rather than solve's */
    long max_solutions;
    const char *source;      /* the label's file part, as written in line records */
    const char *source_json; /* the same, escaped for a JSON string */
} Layout;

/* "found" in words, as `formats.write.verdict` says it. */
static void put_verdict(Text *t, int status, long found, long limit)
{
    if (status == SEEN_UNIQUE)
        puts_(t, "unique solution");
    else if (status == SEEN_SOLVED)
        puts_(t, "solved");
    else {
        puts_(t, found >= limit ? "not unique: at least " : "not unique: ");
        put_int(t, (unsigned long long)found);
        puts_(t, found >= limit ? " solutions" : " solutions found");
    }
}

static const char *status_name(int status)
{
    return status == SEEN_UNIQUE ? "unique" : status == SEEN_SOLVED ? "solved" : "multiple";
}

/* One puzzle's record. */
static void put_record(Text *t, const Layout *L, const Search *S, int status, long line,
                       long index, const char *puzzle, int ncells, long long time_us,
                       long long setup_us)
{
    const Run *R = &S->run;
    const long found = R->nsols;
    if (L->fmt == FMT_GRIDS) {
        unsigned long long figures[5] = {S->nodes, S->guesses, S->backtracks, S->props,
                                         (unsigned long long)time_us};
        put(t, status == SEEN_UNIQUE ? "u" : status == SEEN_SOLVED ? "s" : "m", 1);
        for (int i = 0; i < 5; i++) {
            put(t, " ", 1);
            put_int(t, figures[i]);
        }
        for (long i = 0; i < found; i++) {
            put(t, " ", 1);
            put_grid(t, R->sols + (size_t)i * ncells, ncells);
        }
        put(t, "\n", 1);
        return;
    }
    if (L->fmt == FMT_LINE) {
        if (!L->count)
            for (long i = 0; i < found; i++) {
                put_grid(t, R->sols + (size_t)i * ncells, ncells);
                put(t, "\n", 1);
            }
        if (L->count || status != SEEN_SOLVED) {
            puts_(t, L->count ? "" : "# ");
            puts_(t, L->source);
            put(t, ":", 1);
            put_int(t, (unsigned long long)line);
            puts_(t, ": ");
            put_verdict(t, status, found, L->max_solutions);
            put(t, "\n", 1);
        }
        return;
    }
    if (L->fmt == FMT_CSV) {
        put_int(t, (unsigned long long)index);
        put(t, ",", 1);
        puts_(t, L->source);
        put(t, ":", 1);
        put_int(t, (unsigned long long)line);
        put(t, ",", 1);
        put(t, puzzle, (size_t)ncells);
        put(t, ",", 1);
        puts_(t, status_name(status));
        put(t, ",", 1);
        put_int(t, (unsigned long long)found);
        put(t, ",", 1);
        if (L->count)
            put_verdict(t, status, found, L->max_solutions);
        else
            put_grid(t, R->sols, ncells);
        puts_(t, ",native,");
        put_seconds(t, time_us);
        put(t, ",", 1);
        put_int(t, S->nodes);
        put(t, ",", 1);
        put_int(t, S->backtracks);
        puts_(t, ",,\n");
        return;
    }
    puts_(t, "{\"index\": ");
    put_int(t, (unsigned long long)index);
    puts_(t, ", \"status\": \"");
    puts_(t, status_name(status));
    puts_(t, "\", \"solutions\": [");
    for (long i = 0; i < found; i++) {
        puts_(t, i ? ", \"" : "\"");
        put_grid(t, R->sols + (size_t)i * ncells, ncells);
        put(t, "\"", 1);
    }
    puts_(t, "], \"backend\": \"native\", \"time_s\": ");
    put_seconds(t, time_us);
    const unsigned long long figures[4] = {S->nodes, S->guesses, S->backtracks, S->props};
    const char *names[4] = {"{\"nodes\": ", ", \"guesses\": ", ", \"backtracks\": ",
                            ", \"propagations\": "};
    puts_(t, ", \"stats\": ");
    for (int i = 0; i < 4; i++) {
        puts_(t, names[i]);
        put_int(t, figures[i]);
    }
    puts_(t, ", \"kernel\": \"c\", \"timed_out\": false, \"setup_s\": ");
    put_seconds(t, setup_us);
    puts_(t, ", \"search_s\": ");
    put_seconds(t, time_us - setup_us);
    puts_(t, "}, \"puzzle\": \"");
    put(t, puzzle, (size_t)ncells);
    puts_(t, "\", \"source\": \"");
    puts_(t, L->source_json);
    put(t, ":", 1);
    put_int(t, (unsigned long long)line);
    put(t, "\"", 1);
    if (L->count) {
        puts_(t, ", \"count\": ");
        put_int(t, (unsigned long long)found);
        puts_(t, ", \"verdict\": \"");
        put_verdict(t, status, found, L->max_solutions);
        put(t, "\"", 1);
    }
    puts_(t, "}\n");
}

#define SOLVE_TEXT_DOC \
    "solve_text(data, pos, line, index, max_solutions, locked_depth, fmt, count, source, " \
    "source_json) -> (text, pos, line, index, seen, refused): the records of the puzzle " \
    "lines of data (bytes) from offset pos (line number `line`, record number `index`) in " \
    "fmt 0 line, 1 jsonl, 2 csv or 3 grids; seen: the statuses written (1 solved, 2 unique, " \
    "4 multiple); refused: the line at the returned pos is the shared parser's to read"

static PyObject *Kernel_solve_text(Kernel *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"data", "pos", "line", "index", "max_solutions", "locked_depth",
                             "fmt", "count", "source", "source_json", NULL};
    Py_buffer data;
    Py_ssize_t pos;
    long line, index, max_solutions;
    int locked_depth, fmt, count;
    const char *source, *source_json;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*nllliipyy", kwlist, &data, &pos, &line,
                                     &index, &max_solutions, &locked_depth, &fmt, &count,
                                     &source, &source_json))
        return NULL;
    PyObject *result = NULL;
    Search S;
    memset(&S, 0, sizeof S);
    double unused;
    if (read_limits(max_solutions, Py_None, locked_depth, &unused) < 0)
        goto done;
    if (fmt < 0 || fmt >= FMT_COUNT_OF || pos < 0 || pos > data.len) {
        PyErr_SetString(PyExc_ValueError, "solve_text: a format 0..3 and a position in data");
        goto done;
    }
    if (!self->units) {
        PyErr_SetString(PyExc_ValueError, "the Kernel was not initialised");
        goto done;
    }
    if (search_open(&S, self, max_solutions, locked_depth, 0, 0) < 0)
        goto done;
    const Layout L = {fmt, count, max_solutions, source, source_json};
    const char *d = data.buf;
    const int ncells = self->ncells;
    Text out = {NULL, 0, 0, 0};
    int seen = 0, refused = 0;
    run_start(&S.run, -1);
    while (pos < data.len && !out.nomem) {
        Py_ssize_t a, b, next;
        line_at(d, data.len, pos, &a, &b, &next);
        if (a == b || d[a] == '#') {
            pos = next;
            line++;
            continue;
        }
        if (run_must_stop(&S.run))
            break;
        double t0 = now_s();
        search_clear(&S);
        int qn = 0;
        if (!read_line(d + a, b - a, ncells, self->n, self->full, S.stack, S.queue, &qn)) {
            refused = 1;
            break;
        }
        double t1 = now_s();
        int exhausted = search_masks(&S, qn, 0);
        if (S.run.interrupted || S.run.nomem)
            break;
        if (S.run.nsols == 0) {
            refused = 1; /* no solution: its reason is the model's to give */
            break;
        }
        double t2 = now_s();
        int status = S.run.nsols >= 2 ? SEEN_MULTIPLE
                   : max_solutions == 1 ? SEEN_SOLVED
                   : exhausted ? SEEN_UNIQUE : 0;
        if (!status) {
            refused = 1;
            break;
        }
        seen |= status;
        put_record(&out, &L, &S, status, line, index, d + a, ncells,
                   llround((t2 - t0) * 1e6), llround((t1 - t0) * 1e6));
        index++;
        pos = next;
        line++;
    }
    if (run_stop(&S.run) == 0) {
        if (out.nomem)
            PyErr_NoMemory();
        else {
            PyObject *text = PyUnicode_DecodeUTF8(out.p ? out.p : "", (Py_ssize_t)out.n,
                                                  "replace");
            if (text)
                result = Py_BuildValue("(NnlliO)", text, pos, line, index, seen,
                                       refused ? Py_True : Py_False);
        }
    }
    free(out.p);
done:
    search_close(&S);
    PyBuffer_Release(&data);
    return result;
}

#endif
