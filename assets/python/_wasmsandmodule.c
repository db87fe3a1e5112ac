/* _wasmsand — processes for CPython on wasmsand (compiled into python3.wasm).
 *
 * WASI has no fork/exec. The sandbox's "wasmsand" import module runs a child
 * by argv through the shell's exec path (a WebAssembly program, a tool, a
 * script or `sh -c`), sharing the open files we hand it (fork+exec semantics).
 * Lib/subprocess.py (patched, see patches/) uses spawn(); waiting, pipes and
 * dup2 are the posix module's (assets/shim implements them over the same
 * imports).
 *
 *   spawn(argv, env, cwd, stdin_fd, stdout_fd, stderr_fd) -> pid
 *       argv: sequence of str/bytes (argv[0] is looked up in the sandbox PATH);
 *       env: sequence of "K=V" str/bytes, or None to inherit; cwd: str/bytes or
 *       None (the current directory); fds: -1 gives the child no stream.
 *       Raises OSError (FileNotFoundError for an unknown command).
 *   wait(pid) -> exit status (0-255; 128+signal when killed)
 *   trywait(pid) -> the same, or None while the child runs
 *   kill(pid, sig)
 *   zip_directory(archive) -> dict or None (for zipimport, see below)
 *   resumed() -> bool (started from the pre-initialized image, preinit.c)
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wasmsand.h"

/* assets/shim/posix.c: lets waitpid(-1) find children we started. */
extern int __wasmsand_track_child(int pid);

/* Packs a sequence of str/bytes as NUL-terminated strings end to end. */
static int pack(PyObject *seq, const char *what, char **out, uint32_t *len) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    PyObject *parts = PyList_New(0);
    if (!parts) {
        Py_DECREF(fast);
        return -1;
    }
    size_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = NULL;
        if (!PyUnicode_FSConverter(items[i], &b)) goto fail;
        if (memchr(PyBytes_AS_STRING(b), 0, PyBytes_GET_SIZE(b))) {
            Py_DECREF(b);
            PyErr_Format(PyExc_ValueError, "embedded null byte in %s", what);
            goto fail;
        }
        total += (size_t)PyBytes_GET_SIZE(b) + 1;
        int r = PyList_Append(parts, b);
        Py_DECREF(b);
        if (r < 0) goto fail;
    }
    char *buf = PyMem_Malloc(total ? total : 1), *p = buf;
    if (!buf) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = PyList_GET_ITEM(parts, i);
        memcpy(p, PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b) + 1);
        p += PyBytes_GET_SIZE(b) + 1;
    }
    *out = buf;
    *len = (uint32_t)total;
    Py_DECREF(parts);
    Py_DECREF(fast);
    return (int)n;
fail:
    Py_DECREF(parts);
    Py_DECREF(fast);
    return -1;
}

static PyObject *wasmsand_spawn_py(PyObject *self, PyObject *args) {
    PyObject *argv, *env, *cwd;
    int in, out, err;
    if (!PyArg_ParseTuple(args, "OOOiii:spawn", &argv, &env, &cwd, &in, &out, &err)) return NULL;
    char *a = NULL, *e = NULL;
    uint32_t alen = 0, elen = 0;
    PyObject *cwdb = NULL, *arg0 = NULL;
    int n = pack(argv, "argv", &a, &alen);
    if (n < 0) return NULL;
    if (n == 0) {
        PyMem_Free(a);
        PyErr_SetString(PyExc_ValueError, "spawn: empty argv");
        return NULL;
    }
    if (env != Py_None && pack(env, "env", &e, &elen) < 0) goto done;
    char cwdbuf[4096];
    const char *c = NULL;
    if (cwd != Py_None) {
        if (!PyUnicode_FSConverter(cwd, &cwdb)) goto done;
        c = PyBytes_AS_STRING(cwdb);
    } else {
        c = getcwd(cwdbuf, sizeof cwdbuf);
    }
    int32_t pid = -1;
    uint32_t r;
    Py_BEGIN_ALLOW_THREADS
    r = __wasmsand_spawn(a, alen, e, elen, c, c ? (uint32_t)strlen(c) : 0, in, out, err, &pid);
    Py_END_ALLOW_THREADS
    if (r) {
        arg0 = PyUnicode_DecodeFSDefault(a);
        errno = (int)r;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg0);
        goto done;
    }
    __wasmsand_track_child(pid);
    PyMem_Free(a);
    PyMem_Free(e);
    Py_XDECREF(cwdb);
    return PyLong_FromLong(pid);
done:
    PyMem_Free(a);
    PyMem_Free(e);
    Py_XDECREF(cwdb);
    Py_XDECREF(arg0);
    return NULL;
}

static PyObject *wasmsand_wait_py(PyObject *self, PyObject *args) {
    int pid;
    if (!PyArg_ParseTuple(args, "i:wait", &pid)) return NULL;
    int32_t st = 0;
    uint32_t r;
    Py_BEGIN_ALLOW_THREADS
    r = __wasmsand_wait(pid, &st);
    Py_END_ALLOW_THREADS
    if (r) {
        errno = (int)r;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong(st);
}

static PyObject *wasmsand_trywait_py(PyObject *self, PyObject *args) {
    int pid;
    if (!PyArg_ParseTuple(args, "i:trywait", &pid)) return NULL;
    int st = 0;
    int r = wasmsand_trywait(pid, &st);
    if (r < 0) return PyErr_SetFromErrno(PyExc_OSError);
    if (r == 0) Py_RETURN_NONE;
    return PyLong_FromLong(st);
}

static PyObject *wasmsand_kill_py(PyObject *self, PyObject *args) {
    int pid, sig;
    if (!PyArg_ParseTuple(args, "ii:kill", &pid, &sig)) return NULL;
    uint32_t r = __wasmsand_kill(pid, sig);
    if (r) {
        errno = (int)r;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

/* zip_directory(archive) -> dict or None
 *
 * zipimport's central-directory reader in C: the same dict as
 * zipimport._read_directory ({name: (path, compress, data_size, file_size,
 * file_offset, time, date, crc)}), or None for anything unusual (a comment
 * after the end record, non-ASCII names without the UTF-8 flag, a read
 * error), where the Python version then runs and reports. In Python it
 * parses the standard library zip's 600+ entries in ~25 ms under wasm, most
 * of an interpreter start; here well under 1 ms. */
static uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return le16(p) | le16(p + 2) << 16; }

static PyObject *wasmsand_zip_directory(PyObject *self, PyObject *arg) {
    PyObject *archive_b = NULL, *files = NULL, *prefix = NULL;
    unsigned char *cd = NULL;
    FILE *f = NULL;
    if (!PyUnicode_Check(arg)) Py_RETURN_NONE;
    if (!PyUnicode_FSConverter(arg, &archive_b)) return NULL;
    f = fopen(PyBytes_AS_STRING(archive_b), "rb");
    if (!f) goto none;
    unsigned char end[22];
    if (fseek(f, -22, SEEK_END) != 0) goto none;
    long header_position = ftell(f);
    if (header_position < 0 || fread(end, 1, 22, f) != 22 || memcmp(end, "PK\x05\x06", 4) != 0) goto none;
    uint32_t cd_size = le32(end + 12), cd_offset = le32(end + 16);
    if ((uint32_t)header_position < cd_size || (uint32_t)header_position < cd_offset) goto none;
    long cd_start = header_position - (long)cd_size;
    long arc_offset = cd_start - (long)cd_offset;
    if (arc_offset < 0) goto none;
    cd = PyMem_Malloc(cd_size ? cd_size : 1);
    if (!cd) {
        PyErr_NoMemory();
        goto error;
    }
    if (fseek(f, cd_start, SEEK_SET) != 0 || fread(cd, 1, cd_size, f) != cd_size) goto none;
    /* path = archive + "/" + name, as _bootstrap_external._path_join (which
       strips trailing slashes of each part) */
    Py_ssize_t alen = PyUnicode_GET_LENGTH(arg);
    while (alen > 1 && PyUnicode_READ_CHAR(arg, alen - 1) == '/') alen--;
    PyObject *a = PyUnicode_Substring(arg, 0, alen);
    if (!a) goto error;
    prefix = PyUnicode_FromFormat("%U/", a);
    Py_DECREF(a);
    if (!prefix) goto error;
    files = PyDict_New();
    if (!files) goto error;
    size_t pos = 0;
    while (pos + 46 <= cd_size && memcmp(cd + pos, "PK\x01\x02", 4) == 0) {
        const unsigned char *h = cd + pos;
        uint32_t flags = le16(h + 8), compress = le16(h + 10), time = le16(h + 12), date = le16(h + 14);
        uint32_t crc = le32(h + 16), data_size = le32(h + 20), file_size = le32(h + 24);
        uint32_t name_size = le16(h + 28), extra_size = le16(h + 30), comment_size = le16(h + 32);
        uint32_t file_offset = le32(h + 42);
        if (file_offset > cd_offset || pos + 46 + name_size > cd_size) goto none;
        const char *nm = (const char *)h + 46;
        PyObject *name;
        if (flags & 0x800) {
            name = PyUnicode_DecodeUTF8(nm, name_size, NULL);
        } else {
            for (uint32_t i = 0; i < name_size; i++)
                if ((unsigned char)nm[i] >= 0x80) goto none; /* cp437: Python's table */
            name = PyUnicode_DecodeASCII(nm, name_size, NULL);
        }
        if (!name) goto error;
        Py_ssize_t nlen = PyUnicode_GET_LENGTH(name);
        Py_ssize_t keep = nlen;
        while (keep > 0 && PyUnicode_READ_CHAR(name, keep - 1) == '/') keep--;
        PyObject *stripped = PyUnicode_Substring(name, 0, keep);
        PyObject *path = stripped ? (keep ? PyUnicode_Concat(prefix, stripped)
                                          : PyUnicode_Substring(prefix, 0, PyUnicode_GET_LENGTH(prefix) - 1))
                                  : NULL;
        Py_XDECREF(stripped);
        PyObject *t = path ? Py_BuildValue("(NIIIlIII)", path, compress, data_size, file_size,
                                           (long)file_offset + arc_offset, time, date, crc)
                           : NULL;
        if (!t || PyDict_SetItem(files, name, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(name);
            goto error;
        }
        Py_DECREF(t);
        Py_DECREF(name);
        pos += 46 + (size_t)name_size + extra_size + comment_size;
    }
    if (pos + 4 <= cd_size && memcmp(cd + pos, "PK\x01\x02", 4) == 0) goto none; /* truncated */
    fclose(f);
    PyMem_Free(cd);
    Py_DECREF(archive_b);
    Py_DECREF(prefix);
    return files;
none:
    if (f) fclose(f);
    PyMem_Free(cd);
    Py_XDECREF(archive_b);
    Py_XDECREF(prefix);
    Py_XDECREF(files);
    Py_RETURN_NONE;
error:
    if (f) fclose(f);
    PyMem_Free(cd);
    Py_XDECREF(archive_b);
    Py_XDECREF(prefix);
    Py_XDECREF(files);
    return NULL;
}

/* preinit.c: this process was resumed from the pre-initialized image. */
extern int _wasmsand_resumed;

static PyObject *wasmsand_resumed_py(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(_wasmsand_resumed);
}

static PyMethodDef methods[] = {
    {"resumed", wasmsand_resumed_py, METH_NOARGS,
     "resumed() -> bool: this interpreter started from the pre-initialized image"},
    {"zip_directory", wasmsand_zip_directory, METH_O,
     "zip_directory(archive) -> dict or None: zipimport's central directory, read in C"},
    {"spawn", wasmsand_spawn_py, METH_VARARGS,
     "spawn(argv, env, cwd, stdin_fd, stdout_fd, stderr_fd) -> pid\n\n"
     "Run argv as a child process of the sandbox; env None inherits."},
    {"wait", wasmsand_wait_py, METH_VARARGS, "wait(pid) -> exit status (0-255)"},
    {"trywait", wasmsand_trywait_py, METH_VARARGS,
     "trywait(pid) -> exit status (0-255), or None while the child runs"},
    {"kill", wasmsand_kill_py, METH_VARARGS, "kill(pid, sig)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_wasmsand", "Processes through the wasmsand sandbox.", -1, methods,
};

PyMODINIT_FUNC PyInit__wasmsand(void) { return PyModule_Create(&module); }
