/*
 * The compiled path of notation_tools.games.gow.keys.GowTracker: Game of War's incremental
 * position key, stepped once per turn by a replay that indexes positions.
 *
 * Why it exists: the position index's build (issue #27) spent most of its extra time in the
 * workers in the Python tracker (about 9 us a turn inside a replay), though a turn changes a
 * handful of the board's 500 cells. Here the two boards are compared word by word, each
 * changed cell keyed, and the material compared by counting the codes that left and came, in
 * well under a microsecond. The keys are exactly those of keys.py, which stays the reference:
 * each entry is StateKeys.entry's mix64(seed ^ mix64(row << 48 ^ cell << 24 ^ mix64(value)))
 * in 64-bit arithmetic (Python's ints masked to 64 bits give the same), over the rows of
 * keys.key_state: the board's unit codes (row 0), the four arsenals standing (row 1), and
 * the side to act with the square of the pending retreat, -1 for none (row 2). The tests
 * compare the two trackers along random games. Without a compiler, `pip install .` skips
 * this file and the Python tracker runs instead.
 *
 * The turn's move, which the Python tracker takes as a hint of where to look, is accepted
 * and not read: all 500 cells are 63 word comparisons, the move's squares a dozen attribute
 * reads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SIZE 500    /* the board's cells (pieces.SIZE) */
#define ARSENALS 4  /* the arsenals' flags (pieces.ARSENALS) */

static inline uint64_t mix64(uint64_t value) {
    value += 0x9E3779B97F4A7C15ULL;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
    return value ^ (value >> 31);
}

static inline uint64_t entry(uint64_t seed, uint64_t row, uint64_t cell, uint64_t value) {
    return mix64(seed ^ mix64((row << 48) ^ (cell << 24) ^ mix64(value)));
}

typedef struct {
    PyObject_HEAD
    uint64_t seed;
    uint64_t key;
    int material_same;
    /* what `before` kept: the rows of the last position */
    unsigned char board[SIZE];
    unsigned char alive[ARSENALS];
    uint64_t turn, retreat; /* Python's ints masked to 64 bits, as mix64 takes them */
} Tracker;

static PyObject *board_name, *alive_name, *turn_name, *retreat_name;

/* The rows of a position as the tracker keeps them. */
typedef struct {
    unsigned char board[SIZE];
    unsigned char alive[ARSENALS];
    uint64_t turn, retreat;
} rows_t;

/* A row of `n` bytes as `bytes(value)` reads it, into `out`, or -1 with a Python error. */
static int read_bytes(PyObject *value, unsigned char *out, Py_ssize_t n, const char *what) {
    if (PyByteArray_CheckExact(value) && PyByteArray_GET_SIZE(value) == n) {
        memcpy(out, PyByteArray_AS_STRING(value), (size_t)n);
        return 0;
    }
    if (PyList_CheckExact(value) && PyList_GET_SIZE(value) == n) {
        for (Py_ssize_t i = 0; i < n; i++) {
            long v = PyLong_AsLong(PyList_GET_ITEM(value, i));
            if (v == -1 && PyErr_Occurred()) return -1;
            if (v < 0 || v > 255) {
                PyErr_SetString(PyExc_ValueError, "bytes must be in range(0, 256)");
                return -1;
            }
            out[i] = (unsigned char)v;
        }
        return 0;
    }
    PyObject *made = PyBytes_FromObject(value);
    if (!made) return -1;
    if (PyBytes_GET_SIZE(made) != n) {
        Py_DECREF(made);
        PyErr_Format(PyExc_ValueError, "the tracker takes a position of %zd %s", n, what);
        return -1;
    }
    memcpy(out, PyBytes_AS_STRING(made), (size_t)n);
    Py_DECREF(made);
    return 0;
}

/* An int attribute masked to 64 bits; with `none_is_minus_one`, None stands for -1 (the
   retreat's "none" in key_state). */
static int read_number(PyObject *position, PyObject *name, int none_is_minus_one,
                       uint64_t *out) {
    PyObject *value = PyObject_GetAttr(position, name);
    if (!value) return -1;
    if (value == Py_None && none_is_minus_one) {
        *out = (uint64_t)-1;
    } else if (PyLong_Check(value)) {
        *out = (uint64_t)PyLong_AsUnsignedLongLongMask(value);
    } else {
        PyErr_Format(PyExc_TypeError, "the position's %U is an int", name);
        Py_DECREF(value);
        return -1;
    }
    Py_DECREF(value);
    return (*out == (uint64_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

static int read_rows(PyObject *position, rows_t *rows) {
    PyObject *board = PyObject_GetAttr(position, board_name);
    if (!board) return -1;
    int bad = read_bytes(board, rows->board, SIZE, "cells");
    Py_DECREF(board);
    if (bad) return -1;
    PyObject *alive = PyObject_GetAttr(position, alive_name);
    if (!alive) return -1;
    bad = read_bytes(alive, rows->alive, ARSENALS, "arsenals");
    Py_DECREF(alive);
    if (bad) return -1;
    if (read_number(position, turn_name, 0, &rows->turn) < 0) return -1;
    return read_number(position, retreat_name, 1, &rows->retreat);
}

static void keep(Tracker *self, const rows_t *rows) {
    memcpy(self->board, rows->board, SIZE);
    memcpy(self->alive, rows->alive, ARSENALS);
    self->turn = rows->turn;
    self->retreat = rows->retreat;
}

/* The key of `rows` from the tracker's key and kept rows, and whether the board's changed
   cells hold the same units before and after (the multiset of their codes is the same). */
static uint64_t changed_key(Tracker *self, const rows_t *rows, int *material_same) {
    uint64_t key = self->key, seed = self->seed;
    int16_t balance[256]; /* per code: how many came less how many left */
    uint16_t cells[SIZE];
    int n = 0;
    /* Whole words of a constant width, then the cells past the last whole word: a width
       the compiler cannot see made each word a call to the library's memcpy, and those
       calls were most of a step. */
    int at = 0;
    for (; at + 8 <= SIZE; at += 8) {
        uint64_t old_word, new_word;
        memcpy(&old_word, self->board + at, 8);
        memcpy(&new_word, rows->board + at, 8);
        if (old_word == new_word) continue;
        for (int cell = at; cell < at + 8; cell++)
            if (self->board[cell] != rows->board[cell]) cells[n++] = (uint16_t)cell;
    }
    for (int cell = at; cell < SIZE; cell++)
        if (self->board[cell] != rows->board[cell]) cells[n++] = (uint16_t)cell;
    for (int i = 0; i < n; i++) {
        unsigned was = self->board[cells[i]], now = rows->board[cells[i]];
        balance[was] = 0;
        balance[now] = 0;
    }
    for (int i = 0; i < n; i++) {
        unsigned cell = cells[i], was = self->board[cell], now = rows->board[cell];
        key ^= entry(seed, 0, cell, was) ^ entry(seed, 0, cell, now);
        balance[was]--;
        balance[now]++;
    }
    int same = 1;
    for (int i = 0; i < n && same; i++)
        same = !balance[self->board[cells[i]]] && !balance[rows->board[cells[i]]];
    *material_same = same;
    for (int cell = 0; cell < ARSENALS; cell++)
        if (self->alive[cell] != rows->alive[cell])
            key ^= entry(seed, 1, (uint64_t)cell, self->alive[cell]) ^
                   entry(seed, 1, (uint64_t)cell, rows->alive[cell]);
    if (self->turn != rows->turn)
        key ^= entry(seed, 2, 0, self->turn) ^ entry(seed, 2, 0, rows->turn);
    if (self->retreat != rows->retreat)
        key ^= entry(seed, 2, 1, self->retreat) ^ entry(seed, 2, 1, rows->retreat);
    return key;
}

/* Tracker(seed, key, position): `key` is the position's, which it keeps as `before` would. */
static int Tracker_init(Tracker *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"seed", "key", "position", NULL};
    PyObject *seed, *key, *position;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!O:Tracker", names, &PyLong_Type, &seed,
                                     &PyLong_Type, &key, &position))
        return -1;
    self->seed = (uint64_t)PyLong_AsUnsignedLongLongMask(seed);
    if (self->seed == (uint64_t)-1 && PyErr_Occurred()) return -1;
    self->key = (uint64_t)PyLong_AsUnsignedLongLong(key);
    if (self->key == (uint64_t)-1 && PyErr_Occurred()) return -1;
    self->material_same = 0;
    rows_t rows;
    if (read_rows(position, &rows) < 0) return -1;
    keep(self, &rows);
    return 0;
}

static PyObject *Tracker_before(Tracker *self, PyObject *position) {
    rows_t rows;
    if (read_rows(position, &rows) < 0) return NULL;
    keep(self, &rows);
    Py_RETURN_NONE;
}

/* after(position): the key of `position`, the rows kept as they were (a branch). */
static PyObject *Tracker_after(Tracker *self, PyObject *position) {
    rows_t rows;
    if (read_rows(position, &rows) < 0) return NULL;
    self->key = changed_key(self, &rows, &self->material_same);
    return PyLong_FromUnsignedLongLong(self->key);
}

/* step(position, move=None): after(position) then before(position); `move` is not read. */
static PyObject *Tracker_step(Tracker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "step takes a position and an optional move");
        return NULL;
    }
    rows_t rows;
    if (read_rows(args[0], &rows) < 0) return NULL;
    self->key = changed_key(self, &rows, &self->material_same);
    keep(self, &rows);
    return PyLong_FromUnsignedLongLong(self->key);
}

static PyObject *Tracker_get_key(Tracker *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->key);
}

static int Tracker_set_key(Tracker *self, PyObject *value, void *closure) {
    if (!value || !PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "key is an int");
        return -1;
    }
    uint64_t key = (uint64_t)PyLong_AsUnsignedLongLong(value);
    if (key == (uint64_t)-1 && PyErr_Occurred()) return -1;
    self->key = key;
    return 0;
}

static PyObject *Tracker_get_material_same(Tracker *self, void *closure) {
    return PyBool_FromLong(self->material_same);
}

static PyGetSetDef Tracker_getset[] = {
    {"key", (getter)Tracker_get_key, (setter)Tracker_set_key,
     "the key of the position last seen (unsigned 64 bits)", NULL},
    {"material_same", (getter)Tracker_get_material_same, NULL,
     "after after() or step(): whether the board's changed cells hold the same units", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Tracker_methods[] = {
    {"before", (PyCFunction)Tracker_before, METH_O, "before(position): keep its rows"},
    {"after", (PyCFunction)Tracker_after, METH_O,
     "after(position) -> the key of position, from the rows kept"},
    {"step", (PyCFunction)(void (*)(void))Tracker_step, METH_FASTCALL,
     "step(position, move=None) -> after(position), then before(position)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject TrackerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "notation_tools.games.gow._keys.Tracker",
    .tp_basicsize = sizeof(Tracker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Tracker(seed, key, position): Game of War's incremental key (keys.GowTracker)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tracker_init,
    .tp_methods = Tracker_methods,
    .tp_getset = Tracker_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_keys",
    "Game of War's key tracker, compiled (see keys.GowTracker).", -1, NULL,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__keys(void) {
    if (PyType_Ready(&TrackerType) < 0) return NULL;
    board_name = PyUnicode_InternFromString("board");
    alive_name = PyUnicode_InternFromString("alive");
    turn_name = PyUnicode_InternFromString("turn");
    retreat_name = PyUnicode_InternFromString("retreat");
    if (!board_name || !alive_name || !turn_name || !retreat_name) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TrackerType);
    if (PyModule_AddObject(m, "Tracker", (PyObject *)&TrackerType) < 0) {
        Py_DECREF(&TrackerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
