/* Pre-initialized start for python3.wasm (wasmsand's engine, platform/native).
 *
 * Starting CPython under WebAssembly costs ~20 ms, nearly all of it running
 * the interpreter's own initialization (importing encodings, io, os, site
 * from the standard library zip). That work does not depend on the process:
 * the engine runs it once per process in a pristine sandbox, by calling
 * wasmsand_preinit, keeps the guest's memory as an image, and starts later
 * runs from a copy of that image by calling wasmsand_resume instead of _start.
 *
 * wasmsand_resume makes the resumed interpreter the one a cold start would
 * have made for this process (argv, environment, cwd, standard streams,
 * site-packages that exist now), then runs it like Py_BytesMain. Whatever it
 * cannot reproduce exactly (interpreter options other than -c/-m/-u/-B/-q, any
 * PYTHON* variable other than PYTHONPATH/PYTHONUNBUFFERED/
 * PYTHONDONTWRITEBYTECODE, another locale, a PYTHONHOME other than the asset's,
 * or the zip changed), it refuses by returning before touching anything: the
 * engine then starts the process cold through _start.
 *
 * What the image does keep: the string hash secret (one per host process,
 * as with PYTHONHASHSEED fixed) and the modules a bare start imports.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"
#include "pycore_initconfig.h"  /* _PyConfig_Read, _PyConfig_Write... */
#include "pycore_pylifecycle.h" /* _PySys_UpdateConfig */
#include "pycore_pystate.h"     /* _PyRuntime */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wasi/api.h>

/* Python/pylifecycle.c (patches/c-preinit-stdio.patch). */
extern PyStatus _Py_WasmsandInitStdio(PyThreadState *tstate);

/* wasi-libc: drop the environment read so far and read it again. */
extern void __wasilibc_deinitialize_environ(void);
extern void __wasilibc_initialize_environ(void);
extern char **environ;

/* The locale a pre-initialized interpreter was made under. */
#define CANONICAL_LOCALE "C.UTF-8"

static int ready;               /* wasmsand_preinit succeeded */
int _wasmsand_resumed;          /* _wasmsand.resumed() */
static PyObject *fixup;         /* _fixup(environ_dict) from FIXUP below */
static struct stat zip_st;      /* the stdlib zip the image has read */
static char home[1024];         /* PYTHONHOME (the asset's default) */
static char zip_path[1100];

/* Python half of the resume: the parts a cold start does in Python. */
static const char FIXUP[] =
    "def _fixup(env):\n"
    "    import sys, os, posix, site\n"
    /* os.environ and os.environb share posix.environ's dict */
    "    posix.environ.clear()\n"
    "    posix.environ.update(env)\n"
    "    pp = os.environ.get('PYTHONPATH')\n"
    "    if pp:\n"
    "        sys.path[0:0] = [os.path.abspath(p) for p in pp.split(os.pathsep)]\n"
    /* a finder cached as None for a directory that did not exist in the
       pristine sandbox would hide one made since */
    "    for k in [k for k, v in sys.path_importer_cache.items() if v is None and os.path.isdir(k)]:\n"
    "        del sys.path_importer_cache[k]\n"
    /* site.main() as a cold start runs it: the user's and the global
       site-packages when they exist, then sitecustomize/usercustomize */
    "    site.USER_BASE = site.USER_SITE = None\n"
    "    known = site.removeduppaths()\n"
    "    site.addusersitepackages(known)\n"
    "    site.addsitepackages(known)\n"
    "    site.execsitecustomize()\n"
    "    if site.ENABLE_USER_SITE:\n"
    "        site.execusercustomize()\n";

__attribute__((export_name("wasmsand_preinit"))) int wasmsand_preinit(void) {
    if (ready || Py_IsInitialized()) return 1;
    /* The pristine process has only the asset's environment (PYTHONHOME):
       add what a sandbox shell gives by default that a start depends on. */
    const char *h = getenv("PYTHONHOME");
    if (!h || strlen(h) >= sizeof home) return 1;
    strcpy(home, h);
    setenv("LANG", CANONICAL_LOCALE, 1);
    setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);

    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    char *argv[] = {"python3", NULL};
    PyStatus st = PyConfig_SetBytesArgv(&config, 1, argv);
    if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) return 2;

    snprintf(zip_path, sizeof zip_path, "%s/lib/python%d%d.zip", home, PY_MAJOR_VERSION,
             PY_MINOR_VERSION);
    if (stat(zip_path, &zip_st) != 0) return 3;

    PyObject *ns = PyDict_New();
    if (!ns) return 4;
    PyObject *r = PyRun_String(FIXUP, Py_file_input, ns, ns);
    if (!r) {
        PyErr_Print();
        Py_DECREF(ns);
        return 5;
    }
    Py_DECREF(r);
    fixup = PyDict_GetItemString(ns, "_fixup");
    Py_XINCREF(fixup);
    Py_DECREF(ns);
    if (!fixup) return 6;

    /* Nothing seeded from randomness may be in the image, but the hash
       secret: such a module would repeat its numbers in every run. */
    PyObject *mods = PyImport_GetModuleDict();
    static const char *const unseeded[] = {"random", "secrets", "uuid", "tempfile", NULL};
    for (const char *const *m = unseeded; *m; m++)
        if (PyDict_GetItemString(mods, *m)) return 7;

    /* gc.freeze(): the collector leaves the image's objects alone, so that
       every collection of a run (three at exit) walks only the run's own. */
    PyObject *gc = PyImport_ImportModule("gc");
    PyObject *fr = gc ? PyObject_CallMethod(gc, "freeze", NULL) : NULL;
    Py_XDECREF(gc);
    if (!fr) return 9;
    Py_DECREF(fr);
    if (PyDict_DelItemString(mods, "gc") < 0) return 9; /* a cold start has not imported it */

    PyObject *out = PySys_GetObject("stdout"), *err = PySys_GetObject("stderr");
    if (out && !PyObject_CallMethod(out, "flush", NULL)) return 8;
    if (err && !PyObject_CallMethod(err, "flush", NULL)) return 8;
    ready = 1;
    return 0;
}

/* argv from WASI, as wasi-libc's _start would pass it to main. */
static int get_args(int *argc, char ***argv) {
    __wasi_size_t n, size;
    if (__wasi_args_sizes_get(&n, &size) != 0) return -1;
    char **v = malloc((n + 1) * sizeof(char *));
    char *buf = malloc(size ? size : 1);
    if (!v || !buf || __wasi_args_get((uint8_t **)v, (uint8_t *)buf) != 0) return -1;
    v[n] = NULL;
    *argc = (int)n;
    *argv = v;
    return 0;
}

/* The options a resumed interpreter takes (everything else changes what
   initialization did): -c CMD, -m MOD, a script or -, after -u, -B, -q. */
static int resumable_argv(int argc, char **argv) {
    if (argc < 1) return 0;
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (strcmp(base, "pip") == 0 || strcmp(base, "pip3") == 0) return 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || strcmp(a, "-") == 0) return 1; /* a script or stdin */
        if (strcmp(a, "-c") == 0 || strcmp(a, "-m") == 0) return i + 1 < argc;
        if (strcmp(a, "--") == 0) return 1;
        for (const char *f = a + 1; *f; f++)
            if (!strchr("uBq", *f)) return 0;
    }
    return 1; /* the REPL or stdin */
}

static int resumable_env(void) {
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "PYTHON", 6) != 0) continue;
        if (!strncmp(*e, "PYTHONPATH=", 11) || !strncmp(*e, "PYTHONUNBUFFERED=", 17) ||
            !strncmp(*e, "PYTHONDONTWRITEBYTECODE=", 24))
            continue;
        if (!strncmp(*e, "PYTHONHOME=", 11)) continue; /* compared below */
        return 0;
    }
    const char *h = getenv("PYTHONHOME");
    if (!h || strcmp(h, home) != 0) return 0;
    /* The locale decides UTF-8 mode and the streams' error handlers. */
    const char *loc = getenv("LC_ALL");
    if (!loc || !*loc) loc = getenv("LC_CTYPE");
    if (!loc || !*loc) loc = getenv("LANG");
    if (!loc || strcmp(loc, CANONICAL_LOCALE) != 0) return 0;
    struct stat st;
    return stat(zip_path, &st) == 0 && st.st_size == zip_st.st_size &&
           st.st_mtim.tv_sec == zip_st.st_mtim.tv_sec && st.st_ino == zip_st.st_ino;
}

/* sys.executable as getpath computes it: argv[0] made absolute, or found
   on PATH. */
static wchar_t *executable(const char *argv0) {
    char buf[4096];
    if (strchr(argv0, '/')) {
        if (argv0[0] == '/') snprintf(buf, sizeof buf, "%s", argv0);
        else {
            char cwd[2048];
            if (!getcwd(cwd, sizeof cwd)) return NULL;
            snprintf(buf, sizeof buf, "%s/%s", cwd, argv0);
        }
        return Py_DecodeLocale(buf, NULL);
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, argv0);
        struct stat st;
        if (n && stat(buf, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111))
            return Py_DecodeLocale(buf, NULL);
        path = end ? end + 1 : NULL;
    }
    return Py_DecodeLocale("", NULL);
}

static PyObject *environ_dict(void) {
    PyObject *d = PyDict_New();
    for (char **e = environ; d && e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        PyObject *k = PyBytes_FromStringAndSize(*e, eq - *e);
        PyObject *v = PyBytes_FromString(eq + 1);
        int bad = !k || !v || PyDict_SetDefault(d, k, v) == NULL;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (bad) {
            Py_CLEAR(d);
            break;
        }
    }
    return d;
}

/* Returns only when this process cannot be resumed (nothing was changed);
   otherwise runs Python and exits with its status. */
__attribute__((export_name("wasmsand_resume"))) int wasmsand_resume(void) {
    if (!ready) return 1;
    __wasilibc_deinitialize_environ();
    __wasilibc_initialize_environ();
    int argc;
    char **argv;
    if (get_args(&argc, &argv) != 0 || !resumable_argv(argc, argv) || !resumable_env())
        return 1;

    /* From here on this is the process: a failure is Python's fatal error. */
    _wasmsand_resumed = 1;
    const char *pwd = getenv("PWD");
    if (pwd && pwd[0] == '/') chdir(pwd);

    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    if (_PyInterpreterState_GetConfigCopy(&config) < 0) Py_FatalError("resume: config copy");
    _PyWideStringList_Clear(&config.orig_argv);
    PyStatus st = PyConfig_SetBytesArgv(&config, argc, argv);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    config.parse_argv = 1;
    wchar_t *exe = executable(argv[0]);
    if (!exe) Py_FatalError("resume: executable");
    PyConfig_SetString(&config, &config.executable, exe);
    PyConfig_SetString(&config, &config.base_executable, exe);
    PyMem_RawFree(exe);
    /* _PyInterpreterState_SetConfig without its second run of getpath: the
       paths are the image's (PYTHONPATH is added by the fixup). */
    PyThreadState *ts = PyThreadState_Get();
    st = _PyConfig_Read(&config, 0);
    if (!PyStatus_Exception(st)) st = _PyConfig_Copy(&ts->interp->config, &config);
    if (!PyStatus_Exception(st)) st = _PyConfig_Write(&ts->interp->config, &_PyRuntime);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    if (_PySys_UpdateConfig(ts) < 0) {
        PyErr_Print();
        Py_FatalError("resume: sys");
    }

    st = _Py_WasmsandInitStdio(ts);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    PyObject *env = environ_dict();
    PyObject *r = env ? PyObject_CallOneArg(fixup, env) : NULL;
    Py_XDECREF(env);
    if (!r) {
        PyErr_Print();
        Py_FatalError("resume: site");
    }
    Py_DECREF(r);
    exit(Py_RunMain());
}
