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
 *   kill(pid, sig)
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#include <errno.h>
#include <stdint.h>
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

static PyMethodDef methods[] = {
    {"spawn", wasmsand_spawn_py, METH_VARARGS,
     "spawn(argv, env, cwd, stdin_fd, stdout_fd, stderr_fd) -> pid\n\n"
     "Run argv as a child process of the sandbox; env None inherits."},
    {"wait", wasmsand_wait_py, METH_VARARGS, "wait(pid) -> exit status (0-255)"},
    {"kill", wasmsand_kill_py, METH_VARARGS, "kill(pid, sig)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_wasmsand", "Processes through the wasmsand sandbox.", -1, methods,
};

PyMODINIT_FUNC PyInit__wasmsand(void) { return PyModule_Create(&module); }
