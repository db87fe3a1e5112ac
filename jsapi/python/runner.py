# The Python half of python3 on Pyodide (jsapi/python.js; the JS holds this
# file's text in jsapi/python/sources.gen.js, made by scripts/pysources.mjs).
# It runs once per runtime in the interpreter's globals, where the JS finds
# _wasmsand_run and _wasmsand_module, or is found run already in the memory
# snapshot scripts/npm/pyodide-snapshot.mjs makes. _wasmsand_run is one call
# per run: it resets what a new interpreter would start without (argv,
# environment, cwd, __main__, the user's modules, stdio buffers, atexit) and
# turns the ways a program ends into an exit status. _wasmsand is the host's
# module (jsapi/python.js registers it at each start).

import sys, os, io, types, builtins, importlib, atexit, signal, traceback, time, runpy, gc
_base_modules = set(sys.modules)
_base_path = [p for p in sys.path if p]

class _Exit(BaseException):
    pass

def _os_exit(n):
    raise _Exit(n)

os._exit = _os_exit
def _sleep(s):
    if s < 0:
        raise ValueError("sleep length must be non-negative")
    import _wasmsand  # (registered from JS at each start: not kept in a snapshot)
    _wasmsand.sleep(float(s))

time.sleep = _sleep

def _wasmsand_module(name, source, then):
    # a module of ours (ensureModules), kept when the snapshot made it already
    m = sys.modules.get(name)
    if getattr(m, "_wasmsand_made", None) == (source, then):
        return
    m = types.ModuleType(name)
    m.__file__ = "/lib/wasmsand/" + name + ".py"
    exec(compile(source, m.__file__, "exec"), m.__dict__)
    sys.modules[name] = m
    exec(then, {})
    m._wasmsand_made = (source, then)

def _stdio():
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding="utf-8", errors="surrogateescape")
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "wb", closefd=False)), encoding="utf-8", errors="surrogateescape")
    sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "wb", closefd=False)), encoding="utf-8", errors="backslashreplace", line_buffering=True)
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr

def _drop_user_modules():
    # (_wasmsand, the host's module, stays: importing it again made a new
    # proxy of it each run, 10 ms and more)
    for k in [k for k in sys.modules if k not in _base_modules and k != "_wasmsand"]:
        f = getattr(sys.modules[k], "__file__", None) or ""
        if not f.startswith("/lib/"):
            del sys.modules[k]

def _reset(argv, env, cwd, path0, executable):
    _drop_user_modules()
    sys.executable = sys._base_executable = executable
    sys.path[:] = [path0] + _base_path
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    os.environ.clear()
    os.environ.update(env)
    try:
        os.chdir(cwd)
    except OSError:
        os.chdir("/")
    sys.argv = list(argv)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.settrace(None)
    sys.setprofile(None)
    _stdio()
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    return main

def _status(e):
    c = e.code
    if c is None:
        return 0
    if isinstance(c, int):
        return c & 0xff
    print(c, file=sys.stderr)
    return 1

def _interact(main):
    # python3 alone on a terminal: the interactive interpreter, as CPython's (banner and
    # prompts on stderr, a line at a time as it is typed; end of input leaves it)
    import code
    class Console(code.InteractiveConsole):
        def raw_input(self, prompt=""):
            sys.stderr.write(prompt)
            sys.stderr.flush()
            try:
                line = sys.stdin.readline()
            except KeyboardInterrupt:
                # a Ctrl-C drops the line being typed, as a terminal flushes its input
                sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding="utf-8", errors="surrogateescape")
                raise
            if not line:
                raise EOFError  # (interact writes the newline)
            return line.rstrip("\n")
    sys.ps1, sys.ps2 = ">>> ", "... "
    sys.stdout.reconfigure(line_buffering=True)  # (as on a terminal: each result as it comes)
    banner = f'Python {sys.version} on {sys.platform}\nType "help", "copyright", "credits" or "license" for more information.'
    Console(main.__dict__, filename="<stdin>").interact(banner=banner, exitmsg="")

def _wasmsand_run(mode, arg, argv, env, cwd, executable="/usr/bin/python3"):
    argv = list(argv)
    path0 = ""
    if mode == "file":
        path0 = os.path.dirname(os.path.abspath(os.path.join(cwd, arg)))
    elif mode == "module":
        path0 = cwd
    main = _reset(argv, dict(env), cwd, path0, executable)
    rc = 0
    try:
        if mode == "c":
            main.__file__ = None
            del main.__file__
            exec(compile(arg, "<string>", "exec"), main.__dict__)
        elif mode == "file":
            path = os.path.abspath(arg)  # CPython's __main__ names its file in full
            with open(path, "rb") as f:
                code = f.read()
            main.__file__ = path
            exec(compile(code, path, "exec"), main.__dict__)
        elif mode == "module":
            runpy.run_module(arg, run_name="__main__", alter_sys=True)
        elif mode == "interactive":
            _interact(main)
        else:
            code = sys.stdin.read()
            exec(compile(code, "<stdin>", "exec"), main.__dict__)
    except SystemExit as e:
        rc = _status(e)
    except _Exit as e:
        rc = int(e.args[0]) & 0xff
    except KeyboardInterrupt as e:
        import _wasmsand
        if _wasmsand.stopped():
            rc = 137  # timed out or cancelled: the sandbox says so
        else:
            traceback.print_exception(e)
            rc = 130
    except BaseException as e:
        tb = e.__traceback__
        if tb is not None and tb.tb_frame.f_code is _wasmsand_run.__code__:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        rc = 1
    finally:
        try:
            atexit._run_exitfuncs()
        except BaseException:
            pass
        atexit._clear()
        # what the program left open is flushed and closed now, as at an
        # interpreter's exit, while its files are still at hand
        main.__dict__.clear()
        _drop_user_modules()
        import _wasmsand
        if _wasmsand.open_files() > 0:
            gc.collect()
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except BaseException:
                pass
        # between runs the VFS is not at hand: nothing may look there (an
        # import searching the cwd, say, while packages load)
        os.chdir("/")
        sys.path[:] = _base_path
        importlib.invalidate_caches()
    return rc
