/* What the native engine's two compiled searches share (`_kernel.c` and
 * `_vkernel.c`, each its own extension, include it): a run's clock and Ctrl-C,
 * the solutions it found, reading a solve call's limits and candidate masks,
 * building its result, and counting bits.
 *
 * The GIL is released for the search (`run_start` .. `run_stop`); every
 * SIGNAL_PERIOD seconds `run_must_stop` takes it back briefly to let Python
 * handle signals (Ctrl-C).
 */
#ifndef CPSUDOKU_ENGINE_SEARCH_H
#define CPSUDOKU_ENGINE_SEARCH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIGNAL_PERIOD 0.02 /* seconds between two checks for Ctrl-C */

/* Bits set: the instruction where the build targets it, else a few shifts and one
 * multiply (gcc's fallback is a library call: 6% of a chaos construction's search). */
static inline int popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline int popcount32(uint32_t x) { return popcount64(x); }

typedef struct {
    int ncells;
    uint8_t *sols;         /* found solutions, ncells values each */
    long nsols, solcap;
    int has_deadline;
    double deadline, next_signal;
    int timed_out, interrupted, nomem;
    PyThreadState *ts;
} Run;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 when the search must stop: past the deadline, or a signal handler raised. */
static int run_must_stop(Run *R)
{
    if (R->timed_out || R->interrupted)
        return 1;
    double t = now_s();
    if (R->has_deadline && t > R->deadline) {
        R->timed_out = 1;
        return 1;
    }
    if (t >= R->next_signal) {
        R->next_signal = t + SIGNAL_PERIOD;
        PyEval_RestoreThread(R->ts);
        int failed = PyErr_CheckSignals();
        R->ts = PyEval_SaveThread();
        if (failed) {
            R->interrupted = 1;
            return 1;
        }
    }
    return 0;
}

/* Keep a solution (the placed values' bits): -1 when memory ran out. */
static int run_record(Run *R, const uint32_t *grid)
{
    const int ncells = R->ncells;
    if (R->nsols == R->solcap) {
        long ncap = R->solcap ? 2 * R->solcap : 4;
        uint8_t *nb = realloc(R->sols, (size_t)ncap * ncells);
        if (!nb) {
            R->nomem = 1;
            return -1;
        }
        R->sols = nb;
        R->solcap = ncap;
    }
    uint8_t *out = R->sols + (size_t)R->nsols * ncells;
    for (int c = 0; c < ncells; c++)
        out[c] = grid[c] ? (uint8_t)(32 - __builtin_clz(grid[c])) : 0;
    R->nsols++;
    return 0;
}

/* A solve call's limits: max_solutions at least 1; time_limit None (-1 here) or
 * a number, negative ones read as 0; locked_depth not negative. -1 with an error set. */
static int read_limits(long max_solutions, PyObject *limit_obj, int locked_depth,
                       double *time_limit)
{
    if (locked_depth < 0) {
        PyErr_SetString(PyExc_ValueError, "locked_depth must not be negative");
        return -1;
    }
    if (max_solutions < 1) {
        PyErr_Format(PyExc_ValueError, "max_solutions must be at least 1, not %ld",
                     max_solutions);
        return -1;
    }
    *time_limit = -1;
    if (limit_obj != Py_None) {
        double t = PyFloat_AsDouble(limit_obj);
        if (t == -1 && PyErr_Occurred())
            return -1;
        if (t != t) {
            PyErr_SetString(PyExc_ValueError, "time_limit is not a number");
            return -1;
        }
        *time_limit = t < 0 ? 0 : t;
    }
    return 0;
}

/* The candidate masks of a solve call as a fast sequence of ncells items (a new
 * reference), or NULL with an error set. */
static PyObject *domains_of(PyObject *domains_obj, int ncells)
{
    PyObject *dseq = PySequence_Fast(domains_obj, "domains must be a sequence");
    if (dseq && PySequence_Fast_GET_SIZE(dseq) != ncells) {
        PyErr_Format(PyExc_ValueError, "%zd domains for %d cells", PySequence_Fast_GET_SIZE(dseq),
                     ncells);
        Py_CLEAR(dseq);
    }
    return dseq;
}

/* Read the masks into s[0..ncells), queue the single-value cells, set *empty when
 * a mask is 0. -1 with an error set when one is not a mask of values 1..n. */
static int read_domains(PyObject *dseq, int ncells, uint32_t full, int n, uint32_t *s,
                        int *queue, int *qn, int *empty)
{
    for (int c = 0; c < ncells; c++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(dseq, c));
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "domain of cell %d is not a mask", c);
            return -1;
        }
        if (v < 0 || v > (long long)full) {
            PyErr_Format(PyExc_ValueError, "domain of cell %d: mask %lld has values beyond %d",
                         c, v, n);
            return -1;
        }
        s[c] = (uint32_t)v;
        if (!v)
            *empty = 1;
        else if (!(v & (v - 1)))
            queue[(*qn)++] = c;
    }
    return 0;
}

/* Release the GIL and start the clock (time_limit < 0: none). */
static void run_start(Run *R, double time_limit)
{
    R->ts = PyEval_SaveThread();
    double t0 = now_s();
    R->next_signal = t0 + SIGNAL_PERIOD;
    if (time_limit >= 0) {
        R->has_deadline = 1;
        R->deadline = t0 + time_limit;
    }
}

/* Take the GIL back: -1 with an error set when Ctrl-C or memory ended the search. */
static int run_stop(Run *R)
{
    PyEval_RestoreThread(R->ts);
    if (R->interrupted)
        return -1; /* the signal handler's exception is set */
    if (R->nomem) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Named counters as a dict; the names are made once by the module. */
static PyObject *counters(PyObject *const *names, const unsigned long long *values, int count)
{
    PyObject *stats = PyDict_New();
    for (int i = 0; stats && i < count; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(values[i]);
        if (!v || PyDict_SetItem(stats, names[i], v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(stats);
            break;
        }
        Py_DECREF(v);
    }
    return stats;
}

/* (solutions, exhausted, timed_out, stats), taking stats over; NULL on error. */
static PyObject *run_result(const Run *R, int exhausted, PyObject *stats)
{
    if (!stats)
        return NULL;
    PyObject *sols = PyList_New(R->nsols);
    for (long i = 0; sols && i < R->nsols; i++) {
        PyObject *tup = PyTuple_New(R->ncells);
        if (!tup) {
            Py_CLEAR(sols);
            break;
        }
        const uint8_t *vals = R->sols + (size_t)i * R->ncells;
        for (int c = 0; c < R->ncells; c++)
            PyTuple_SET_ITEM(tup, c, PyLong_FromLong(vals[c]));
        PyList_SET_ITEM(sols, i, tup);
    }
    if (!sols) {
        Py_DECREF(stats);
        return NULL;
    }
    return Py_BuildValue("(NOON)", sols, exhausted && !R->timed_out ? Py_True : Py_False,
                         R->timed_out ? Py_True : Py_False, stats);
}

#endif
