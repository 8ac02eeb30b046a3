/*
 * The compiled path of notation_tools.games.gow.rules.sides_online_python: both sides' lines of
 * communication and how many of their units they reach (spec §6.2), on the board's squares as
 * bit sets.
 *
 * Why it exists: the statistics of §18 read both sides' communication after every turn, and
 * in Python that costs about as much as a third of replaying the record (issue #14). The rules
 * read here exactly as in rules.py, which stays the reference: the tests compare the two on
 * random bit sets and along generated games. Without a compiler, `pip install .` skips this
 * file and the Python code runs instead.
 *
 * The board is 25 columns by 20 rows; square s is bit s (row-major, as in pieces.py). The
 * rays and neighbours of each square come from pieces.py through setup(), so the geometry,
 * mountains included, is written once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h>
#endif

#define COLS 25
#define SIZE 500
#define WORDS 8 /* 512 bits */
#define NBYTES (WORDS * 8)
#define MAX_RAY 32

typedef struct {
    uint64_t w[WORDS];
} bits_t;

static int ready = 0;
static int16_t rays[SIZE][8][MAX_RAY]; /* each ray's squares, nearest first; -1 ends it */
static int16_t neighbours[SIZE][9];    /* the adjacent squares; -1 ends them */
static bits_t not_west, not_east, board;
static bits_t all_rays[SIZE]; /* the squares on any ray of each square */

static inline int has(const bits_t *b, int s) { return (int)((b->w[s >> 6] >> (s & 63)) & 1); }

static inline void add(bits_t *b, int s) { b->w[s >> 6] |= (uint64_t)1 << (s & 63); }

/* The lowest square of `b`, or -1. */
static inline int lowest(const bits_t *b) {
    for (int i = 0; i < WORDS; i++)
        if (b->w[i]) return i * 64 + __builtin_ctzll(b->w[i]);
    return -1;
}

/* A non-negative int below 2**512 as bits. Where the layout of CPython's ints is known
   (3.10 to 3.13) their 30-bit digits are read directly, which is most of a call's cost
   otherwise; later versions, or a build with LINES_PORTABLE_INTS defined, take the public
   PyLong_AsNativeBytes (3.13 and later). */
#if defined(LINES_PORTABLE_INTS) || PY_VERSION_HEX >= 0x030E0000
#define PORTABLE_INTS
#endif

static int read_bits(PyObject *o, bits_t *out);

/* read_bits, refusing a square off the board (bits 500 to 511), which no table covers. */
static int to_bits(PyObject *o, bits_t *out) {
    if (read_bits(o, out) < 0) return -1;
    if (out->w[WORDS - 1] >> (SIZE - (WORDS - 1) * 64)) {
        PyErr_SetString(PyExc_ValueError, "sides_online takes squares of the board");
        return -1;
    }
    return 0;
}

static int read_bits(PyObject *o, bits_t *out) {
    if (!PyLong_CheckExact(o)) {
        PyErr_SetString(PyExc_TypeError, "sides_online takes ints");
        return -1;
    }
    memset(out, 0, sizeof *out);
#ifndef PORTABLE_INTS
#if PY_VERSION_HEX < 0x030C0000
    Py_ssize_t size = Py_SIZE(o);
    const digit *digits = ((PyLongObject *)o)->ob_digit;
#else
    uintptr_t tag = ((PyLongObject *)o)->long_value.lv_tag;
    Py_ssize_t size = (Py_ssize_t)(tag >> 3);
    if ((tag & 3) == 2) size = -size;
    const digit *digits = ((PyLongObject *)o)->long_value.ob_digit;
#endif
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "sides_online takes non-negative ints");
        return -1;
    }
    int shift = 0;
    for (Py_ssize_t i = 0; i < size; i++, shift += PyLong_SHIFT) {
        uint64_t d = digits[i];
        if (!d) continue;
        if (shift >= WORDS * 64
                || (shift + PyLong_SHIFT > WORDS * 64 && d >> (WORDS * 64 - shift))) {
            PyErr_SetString(PyExc_ValueError, "sides_online takes squares of the board");
            return -1;
        }
        int word = shift >> 6, at = shift & 63;
        out->w[word] |= d << at;
        /* the bits past the last word were found zero above */
        if (at + PyLong_SHIFT > 64 && word + 1 < WORDS) out->w[word + 1] |= d >> (64 - at);
    }
    return 0;
#else
    unsigned char buf[NBYTES];
    Py_ssize_t needed = PyLong_AsNativeBytes(o, buf, NBYTES, Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                             Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                             Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0) return -1;
    if (needed > NBYTES) {
        PyErr_SetString(PyExc_ValueError, "sides_online takes squares of the board");
        return -1;
    }
    for (int i = 0; i < WORDS; i++)
        for (int k = 0; k < 8; k++) out->w[i] |= (uint64_t)buf[i * 8 + k] << (8 * k);
    return 0;
#endif
}

static void shift_up(const bits_t *a, int k, bits_t *out) {
    int q = k >> 6, r = k & 63;
    for (int i = WORDS - 1; i >= 0; i--) {
        uint64_t v = i - q >= 0 ? a->w[i - q] << r : 0;
        if (r && i - q - 1 >= 0) v |= a->w[i - q - 1] >> (64 - r);
        out->w[i] = v;
    }
}

static void shift_down(const bits_t *a, int k, bits_t *out) {
    int q = k >> 6, r = k & 63;
    for (int i = 0; i < WORDS; i++) {
        uint64_t v = i + q < WORDS ? a->w[i + q] >> r : 0;
        if (r && i + q + 1 < WORDS) v |= a->w[i + q + 1] << (64 - r);
        out->w[i] = v;
    }
}

/* rules._neighbours_of: the squares next to any square of `b`; no step wraps round a row. */
static void neighbours_of(const bits_t *b, bits_t *out) {
    bits_t e1, e2, e3, w1, w2, w3, north, south;
    shift_up(b, 1, &e1), shift_up(b, COLS + 1, &e2), shift_down(b, COLS - 1, &e3);
    shift_down(b, 1, &w1), shift_down(b, COLS + 1, &w2), shift_up(b, COLS - 1, &w3);
    shift_up(b, COLS, &north), shift_down(b, COLS, &south);
    for (int i = 0; i < WORDS; i++)
        out->w[i] = (((e1.w[i] | e2.w[i] | e3.w[i]) & not_west.w[i]) |
                     ((w1.w[i] | w2.w[i] | w3.w[i]) & not_east.w[i]) | north.w[i] | south.w[i]) &
                    board.w[i];
}

/* rules._lines: the covered and emitting squares once the emitters `pending`, and every relay
   their lines reach in turn, have emitted. A line runs along each ray of the emitter and
   stops before the first cutting square. */
static void lines(bits_t pending, const bits_t *relays, const bits_t *cutting, bits_t *covered,
                  bits_t *emitted) {
    for (int e = lowest(&pending); e >= 0; e = lowest(&pending)) {
        pending.w[e >> 6] &= ~((uint64_t)1 << (e & 63));
        add(emitted, e);
        add(covered, e);
        for (int d = 0; d < 8; d++) {
            for (const int16_t *s = rays[e][d]; *s >= 0 && !has(cutting, *s); s++) {
                add(covered, *s);
                if (has(relays, *s) && !has(emitted, *s)) add(&pending, *s);
            }
        }
    }
}

/* The last lines worked out from the sources, as rules._source_lines keeps them: by the
   sources, the relays and the cutting squares on a ray of one of them (no other cutting square
   can stop a line). Two entries, as a turn asks once for each side. */
typedef struct {
    int used;
    bits_t sources, relays, cutting, covered, emitted;
} lines_memo_t;

static lines_memo_t memo[2];
static int memo_next = 0;

static int same(const bits_t *a, const bits_t *b) { return memcmp(a, b, sizeof *a) == 0; }

static void source_lines(const bits_t *sources, const bits_t *relays, const bits_t *cutting,
                         bits_t *covered, bits_t *emitted) {
    bits_t rays_mask = {{0}}, key;
    for (int i = 0; i < WORDS; i++) {
        for (uint64_t m = sources->w[i] | relays->w[i]; m; m &= m - 1) {
            const bits_t *r = &all_rays[i * 64 + __builtin_ctzll(m)];
            for (int k = 0; k < WORDS; k++) rays_mask.w[k] |= r->w[k];
        }
    }
    for (int i = 0; i < WORDS; i++) key.w[i] = cutting->w[i] & rays_mask.w[i];
    for (int k = 0; k < 2; k++) {
        lines_memo_t *m = &memo[k];
        if (m->used && same(&m->cutting, &key) && same(&m->sources, sources) &&
            same(&m->relays, relays)) {
            *covered = m->covered;
            *emitted = m->emitted;
            return;
        }
    }
    memset(covered, 0, sizeof *covered);
    memset(emitted, 0, sizeof *emitted);
    lines(*sources, relays, &key, covered, emitted);
    lines_memo_t *m = &memo[memo_next];
    memo_next ^= 1;
    m->used = 1;
    m->sources = *sources;
    m->relays = *relays;
    m->cutting = key;
    m->covered = *covered;
    m->emitted = *emitted;
}

/* The online fighting units and relays of a side, whose lines are cut by `cutting`. */
static void side(const bits_t *sources, const bits_t *relays, const bits_t *fighting,
                 const bits_t *cutting, int via_relays, int relay_adjacent, int relay_status,
                 bits_t *online, bits_t *relays_online) {
    bits_t covered, emitted, members, chain;
    for (int i = 0; i < WORDS; i++) chain.w[i] = fighting->w[i] | (via_relays ? relays->w[i] : 0);
    source_lines(sources, relays, cutting, &covered, &emitted);
    int16_t queue[SIZE];
    for (;;) {
        /* rules._connected: the units of the chain joined to a covered one, unit by unit (a
           side has a few dozen units at most: a queue of them beats shifting whole boards) */
        int head = 0, tail = 0;
        for (int i = 0; i < WORDS; i++) {
            uint64_t m = members.w[i] = covered.w[i] & chain.w[i];
            for (; m; m &= m - 1) queue[tail++] = (int16_t)(i * 64 + __builtin_ctzll(m));
        }
        while (head < tail) {
            for (const int16_t *n = neighbours[queue[head++]]; *n >= 0; n++) {
                if (has(&chain, *n) && !has(&members, *n)) {
                    add(&members, *n);
                    queue[tail++] = *n;
                }
            }
        }
        if (!relay_adjacent) break;
        /* relay-activation=line-or-adjacent: a relay next to an online fighting unit emits */
        bits_t online_now, near, extra;
        for (int i = 0; i < WORDS; i++) online_now.w[i] = members.w[i] & fighting->w[i];
        neighbours_of(&online_now, &near);
        int any = 0;
        for (int i = 0; i < WORDS; i++) {
            extra.w[i] = relays->w[i] & ~emitted.w[i] & near.w[i];
            any |= extra.w[i] != 0;
        }
        if (!any) break;
        lines(extra, relays, cutting, &covered, &emitted);
    }
    for (int i = 0; i < WORDS; i++) {
        online->w[i] = members.w[i] & fighting->w[i];
        relays_online->w[i] =
            relay_status == 0 ? relays->w[i] : relays->w[i] & (covered.w[i] | members.w[i]);
    }
    if (relay_status == 2) { /* covered-or-adjacent: a relay next to an online unit too */
        for (int i = 0; i < WORDS; i++) {
            for (uint64_t m = relays->w[i] & ~relays_online->w[i]; m; m &= m - 1) {
                int s = i * 64 + __builtin_ctzll(m);
                for (const int16_t *n = neighbours[s]; *n >= 0; n++) {
                    if (has(online, *n)) {
                        add(relays_online, s);
                        break;
                    }
                }
            }
        }
    }
}

/* The set bits of a word (without a call to the compiler's library, as a portable build has
   no popcount instruction to use). */
static inline int ones(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static int count(const bits_t *b) {
    int n = 0;
    for (int i = 0; i < WORDS; i++)
        if (b->w[i]) n += ones(b->w[i]); /* boards are sparse */
    return n;
}

static int count_in(const bits_t *a, const bits_t *b) {
    int n = 0;
    for (int i = 0; i < WORDS; i++) {
        uint64_t both = a->w[i] & b->w[i];
        if (both) n += ones(both);
    }
    return n;
}

#define MAX_COUNTED 4
#define SLOTS (6 + MAX_COUNTED) /* the sources, relays and fighting units of each side, counted */

/* The ints of the last call, held (so that no other object can take their address) with their
   bits: from one turn to the next most are the same objects (the side that did not move, the
   arsenals, the squares counted), and reading them again is most of a call's cost. */
static PyObject *seen[SLOTS];
static bits_t seen_bits[SLOTS];
static PyObject *seen_options;
static int seen_flags[3];

static int bits_of(PyObject *o, int slot, bits_t *out) {
    if (o == seen[slot]) {
        *out = seen_bits[slot];
        return 0;
    }
    if (to_bits(o, out) < 0) return -1;
    Py_INCREF(o);
    Py_XSETREF(seen[slot], o);
    seen_bits[slot] = *out;
    return 0;
}

/* Item `i` of a list or tuple of `n` items (a borrowed reference), or NULL with TypeError. */
static PyObject *item(PyObject *seq, Py_ssize_t n, Py_ssize_t i, const char *what) {
    if (PyList_CheckExact(seq) && PyList_GET_SIZE(seq) == n) return PyList_GET_ITEM(seq, i);
    if (PyTuple_CheckExact(seq) && PyTuple_GET_SIZE(seq) == n) return PyTuple_GET_ITEM(seq, i);
    PyErr_Format(PyExc_TypeError, "sides_online: %s is a list or tuple of %zd", what, n);
    return NULL;
}

/* The options' (adjacency_via_relays, relay_adjacent, relay_status) as 0/1, 0/1 and 0
   (always), 1 (covered) or 2 (covered-or-adjacent). */
static int read_options(PyObject *options, int flags[3]) {
    if (options == seen_options) {
        memcpy(flags, seen_flags, sizeof seen_flags);
        return 0;
    }
    PyObject *via = item(options, 3, 0, "options"), *adjacent, *status;
    if (!via) return -1;
    adjacent = item(options, 3, 1, "options");
    status = item(options, 3, 2, "options");
    flags[0] = PyObject_IsTrue(via);
    flags[1] = PyObject_IsTrue(adjacent);
    if (flags[0] < 0 || flags[1] < 0) return -1;
    if (!PyUnicode_Check(status)) {
        PyErr_SetString(PyExc_TypeError, "sides_online: relay_status is a str");
        return -1;
    }
    flags[2] = PyUnicode_CompareWithASCIIString(status, "always") == 0    ? 0
               : PyUnicode_CompareWithASCIIString(status, "covered") == 0 ? 1
                                                                          : 2;
    Py_INCREF(options);
    Py_XSETREF(seen_options, options);
    memcpy(seen_flags, flags, sizeof seen_flags);
    return 0;
}

/* sides_online(sources, relays, fighting, options, counted): see rules.sides_online_python,
   whose arguments and answer these are. */
static PyObject *sides_online(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "sides_online before setup");
        return NULL;
    }
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "sides_online takes 5 arguments");
        return NULL;
    }
    bits_t sources[2], relays[2], fighting[2], counted[MAX_COUNTED];
    for (int k = 0; k < 2; k++) {
        PyObject *source = item(args[0], 2, k, "sources"), *relay, *unit;
        if (!source || bits_of(source, k, &sources[k]) < 0) return NULL;
        relay = item(args[1], 2, k, "relays");
        if (!relay || bits_of(relay, 2 + k, &relays[k]) < 0) return NULL;
        unit = item(args[2], 2, k, "fighting");
        if (!unit || bits_of(unit, 4 + k, &fighting[k]) < 0) return NULL;
    }
    int flags[3];
    if (read_options(args[3], flags) < 0) return NULL;
    if (!PyTuple_CheckExact(args[4]) || PyTuple_GET_SIZE(args[4]) > MAX_COUNTED) {
        PyErr_SetString(PyExc_TypeError, "sides_online: counted is a tuple of at most 4 ints");
        return NULL;
    }
    int n_counted = (int)PyTuple_GET_SIZE(args[4]);
    for (int c = 0; c < n_counted; c++)
        if (bits_of(PyTuple_GET_ITEM(args[4], c), 6 + c, &counted[c]) < 0) return NULL;
    int per_side = 3 + n_counted;
    PyObject *out = PyTuple_New(2);
    if (!out) return NULL;
    for (int k = 0; k < 2; k++) {
        bits_t online, relays_online, units;
        side(&sources[k], &relays[k], &fighting[k], &fighting[1 - k], flags[0], flags[1],
             flags[2], &online, &relays_online);
        for (int i = 0; i < WORDS; i++) units.w[i] = fighting[k].w[i] | relays[k].w[i];
        int values[3 + MAX_COUNTED] = {count(&online), count(&relays_online), count(&fighting[k])};
        for (int c = 0; c < n_counted; c++) values[3 + c] = count_in(&units, &counted[c]);
        PyObject *numbers = PyTuple_New(per_side);
        if (!numbers) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, numbers);
        for (int v = 0; v < per_side; v++) {
            PyObject *number = PyLong_FromLong(values[v]);
            if (!number) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(numbers, v, number);
        }
    }
    return out;
}

/* setup(rays, neighbours): pieces.RAYS and pieces.NEIGHBOURS, read once. */
static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *ray_table, *neighbour_table;
    if (!PyArg_ParseTuple(args, "OO", &ray_table, &neighbour_table)) return NULL;
    ready = 0; /* until the tables are whole again */
    if (PySequence_Size(ray_table) != SIZE || PySequence_Size(neighbour_table) != SIZE) {
        PyErr_SetString(PyExc_ValueError, "setup takes a table of 500 squares");
        return NULL;
    }
    for (int s = 0; s < SIZE; s++) {
        PyObject *square_rays = PySequence_GetItem(ray_table, s);
        PyObject *near = PySequence_GetItem(neighbour_table, s);
        int bad = !square_rays || !near || PySequence_Size(square_rays) != 8 ||
                  PySequence_Size(near) > 8;
        for (int d = 0; !bad && d < 8; d++) {
            PyObject *ray = PySequence_GetItem(square_rays, d);
            Py_ssize_t n = ray ? PySequence_Size(ray) : -1;
            bad = n < 0 || n >= MAX_RAY;
            for (Py_ssize_t k = 0; !bad && k < n; k++) {
                PyObject *x = PySequence_GetItem(ray, k);
                long v = x ? PyLong_AsLong(x) : -1;
                Py_XDECREF(x);
                bad = v < 0 || v >= SIZE;
                rays[s][d][k] = (int16_t)v;
            }
            if (!bad) rays[s][d][n] = -1;
            Py_XDECREF(ray);
        }
        Py_ssize_t n = bad ? 0 : PySequence_Size(near);
        for (Py_ssize_t k = 0; !bad && k < n; k++) {
            PyObject *x = PySequence_GetItem(near, k);
            long v = x ? PyLong_AsLong(x) : -1;
            Py_XDECREF(x);
            bad = v < 0 || v >= SIZE;
            neighbours[s][k] = (int16_t)v;
        }
        if (!bad) neighbours[s][n] = -1;
        Py_XDECREF(square_rays);
        Py_XDECREF(near);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "setup: a bad table");
            return NULL;
        }
    }
    memset(&not_west, 0, sizeof not_west);
    memset(&not_east, 0, sizeof not_east);
    memset(&board, 0, sizeof board);
    for (int s = 0; s < SIZE; s++) {
        add(&board, s);
        if (s % COLS) add(&not_west, s);
        if (s % COLS != COLS - 1) add(&not_east, s);
    }
    for (int s = 0; s < SIZE; s++) {
        memset(&all_rays[s], 0, sizeof all_rays[s]);
        for (int d = 0; d < 8; d++)
            for (const int16_t *r = rays[s][d]; *r >= 0; r++) add(&all_rays[s], *r);
    }
    memset(memo, 0, sizeof memo);
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"sides_online", (PyCFunction)(void (*)(void))sides_online, METH_FASTCALL,
     "sides_online(sources, relays, fighting, options, counted) -> counts per side"},
    {"setup", setup, METH_VARARGS, "setup(rays, neighbours): the board's geometry"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lines",
    "Game of War lines of communication, compiled (see rules.sides_online_python).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__lines(void) { return PyModule_Create(&module); }
