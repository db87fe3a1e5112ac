# subprocess for python3 on Pyodide (jsapi/python.js runs this file after
# runner.py, in the interpreter's globals; the JS holds its text in
# jsapi/python/sources.gen.js, made by scripts/pysources.mjs). Child
# processes run in the sandbox's shell, synchronously (Pyodide has no
# processes, and the host's _wasmsand.spawn runs a child to its end and
# returns its output): Popen runs its command when it starts, or at
# communicate() when it was given stdin=PIPE; run, call, check_output,
# check_call, os.system and os.popen go through it. (The native python3 asset
# has its own, assets/python/lib/_wasmsand_subprocess.py: real pipes and fds
# through its spawn/wait imports, a different process model.)

import os, sys, io, subprocess

class _Popen:
    def __init__(self, args, bufsize=-1, executable=None, stdin=None, stdout=None, stderr=None,
                 preexec_fn=None, close_fds=True, shell=False, cwd=None, env=None,
                 universal_newlines=None, startupinfo=None, creationflags=0, restore_signals=True,
                 start_new_session=False, pass_fds=(), *, user=None, group=None, extra_groups=None,
                 encoding=None, errors=None, text=None, umask=-1, pipesize=-1, process_group=None):
        self.args = args
        self.returncode = None
        self.pid = 0
        self._text = bool(text or universal_newlines or encoding or errors)
        self._encoding = encoding or "utf-8"
        self._errors = errors or "strict"
        self._shell = shell
        self._cwd = os.path.abspath(os.fsdecode(cwd)) if cwd is not None else os.getcwd()
        if not os.path.isdir(self._cwd):
            raise FileNotFoundError(2, "No such file or directory", os.fsdecode(cwd))
        self._env = dict(os.environ if env is None else env)
        if isinstance(args, (str, bytes, os.PathLike)):
            argv = [os.fsdecode(args)]
        else:
            argv = [os.fsdecode(a) for a in args]
        if shell:
            argv = ["/bin/sh", "-c"] + argv
        if executable is not None:
            argv[0] = os.fsdecode(executable)
        self._argv = argv
        self._how = (stdin, stdout, stderr)
        self.stdin = self.stdout = self.stderr = None
        self._out = self._err = None
        if stdin == subprocess.PIPE:
            self.stdin = io.BytesIO()
            if self._text:
                self.stdin = io.TextIOWrapper(self.stdin, encoding=self._encoding, errors=self._errors)
        else:
            data = None
            if stdin not in (None, subprocess.DEVNULL):
                f = stdin if hasattr(stdin, "read") else os.fdopen(os.dup(stdin), "rb")
                data = f.read()
                if isinstance(data, str):
                    data = data.encode()
            elif stdin is None and not sys.stdin.closed:
                data = b""
            self._start(data)

    def _start(self, data):
        _, out, err = self._how
        for s in (sys.stdout, sys.stderr):
            s.flush()
        import _wasmsand
        r = _wasmsand.spawn(self._argv, self._shell, data, self._cwd, self._env,
                            out not in (None,), err not in (None, subprocess.STDOUT), err == subprocess.STDOUT)
        r = list(r)
        if r[0] == -2:
            raise FileNotFoundError(2, "No such file or directory", self._argv[0])
        self.returncode = r[0]
        outb, errb = bytes(r[1]), bytes(r[2])
        self._out = self._deliver(out, outb)
        self._err = self._deliver(err, errb)
        if out == subprocess.PIPE:
            self.stdout = self._stream(outb)
        if err == subprocess.PIPE:
            self.stderr = self._stream(errb)

    def _deliver(self, how, data):
        if how == subprocess.PIPE:
            return data
        if how in (None, subprocess.DEVNULL, subprocess.STDOUT):
            return None
        f = how if hasattr(how, "write") else os.fdopen(os.dup(how), "wb")
        try:
            f.write(data if "b" in getattr(f, "mode", "b") or not isinstance(f, io.TextIOBase) else data.decode(self._encoding, self._errors))
        except TypeError:
            f.write(data.decode(self._encoding, self._errors))
        f.flush()
        return None

    def _stream(self, data):
        b = io.BytesIO(data)
        return io.TextIOWrapper(b, encoding=self._encoding, errors=self._errors) if self._text else b

    def _decode(self, data):
        if data is None or not self._text:
            return data
        return data.decode(self._encoding, self._errors).replace("\r\n", "\n")

    def communicate(self, input=None, timeout=None):
        if self.returncode is None:
            data = b""
            if isinstance(self.stdin, io.TextIOWrapper):
                self.stdin.flush()
                data = self.stdin.buffer.getvalue()
            elif self.stdin is not None:
                data = self.stdin.getvalue()
            if input is not None:
                data += input.encode(self._encoding, self._errors) if isinstance(input, str) else bytes(input)
            self._start(data)
        out, err = self._out, self._err
        self._out = self._err = None
        if out is None and self.stdout is not None:
            out = self.stdout.read()
            return out if self._text else out, (self.stderr.read() if self.stderr else None)
        return self._decode(out), self._decode(err)

    def wait(self, timeout=None):
        if self.returncode is None:
            self.communicate()
        return self.returncode

    def poll(self):
        return self.returncode

    def send_signal(self, sig):
        pass

    terminate = kill = lambda self: None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.wait()

subprocess.Popen = _Popen

def _system(cmd):
    return subprocess.call(cmd, shell=True) << 8

class _PopenFile(io.TextIOWrapper):
    def close(self):
        super().close()
        rc = self._proc.wait()
        return None if rc == 0 else rc << 8

def _popen(cmd, mode="r", buffering=-1):
    if mode not in ("r", "w"):
        raise ValueError("invalid mode %r" % mode)
    if mode == "w":
        raise OSError(95, "os.popen(mode='w') is not supported in this sandbox")
    p = _Popen(cmd, shell=True, stdout=subprocess.PIPE)
    f = _PopenFile(io.BytesIO(p._out or b""))
    f._proc = p
    return f

os.system = _system
os.popen = _popen
