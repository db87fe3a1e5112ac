"""subprocess on wasmsand: children run through the sandbox's spawn import.

WASI has no fork/exec. The `_wasmsand` module (compiled into python3.wasm)
starts a child by argv through the sandbox shell's exec path -- a WebAssembly
program, a tool, a script, or `/bin/sh -c CMD` for shell=True -- sharing the
file descriptors given as its stdin/stdout/stderr (pipes from os.pipe(), files,
/dev/null). subprocess.py calls install() at import time on wasmsand.

Differences from POSIX, all from the sandbox's process model:
- preexec_fn, start_new_session, process_group, user/group, umask and
  pass_fds are accepted and ignored; a child gets exactly fds 0-2.
- A child killed with Popen.send_signal/kill/terminate reports -signal; a
  child's own status is its exit code (0-255).
"""

import errno
import os
import sys

import _wasmsand


def _find(executable, env):
    """Like execvp's lookup: the path to run, or raise FileNotFoundError."""
    name = os.fsdecode(executable)
    if os.path.dirname(name):
        if os.path.isfile(name):
            return name
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    for d in os.get_exec_path(env):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)


def _execute_child(self, args, executable, preexec_fn, close_fds,
                   pass_fds, cwd, env,
                   startupinfo, creationflags, shell,
                   p2cread, p2cwrite,
                   c2pread, c2pwrite,
                   errread, errwrite,
                   restore_signals,
                   gid, gids, uid, umask,
                   start_new_session, process_group):
    """Execute program (wasmsand version: the sandbox's spawn import)."""
    if isinstance(args, (str, bytes)):
        args = [args]
    elif isinstance(args, os.PathLike):
        if shell:
            raise TypeError('path-like args is not allowed when '
                            'shell is true')
        args = [args]
    else:
        args = list(args)

    if shell:
        args = ["/bin/sh", "-c"] + args
        if executable:
            args[0] = executable
    if executable is None:
        executable = args[0]

    sys.audit("subprocess.Popen", executable, args, cwd, env)

    if env is not None:
        env_list = []
        for k, v in env.items():
            k = os.fsencode(k)
            if b'=' in k:
                raise ValueError("illegal environment variable name")
            env_list.append(k + b'=' + os.fsencode(v))
    else:
        # The host only knows our initial environment: pass the current one.
        env_list = [k + b'=' + v for k, v in os.environb.items()]

    if cwd is not None:
        cwd = os.fsdecode(cwd)
        if not os.path.isdir(cwd):
            err = errno.ENOTDIR if os.path.exists(cwd) else errno.ENOENT
            raise OSError(err, os.strerror(err), cwd)

    # exec's lookup (the child's PATH; a relative path from the child's
    # cwd), so a missing program raises FileNotFoundError as on POSIX.
    prog = os.fsdecode(executable)
    if cwd is not None and os.path.dirname(prog) and not os.path.isabs(prog):
        _find(os.path.join(cwd, prog), env)
    else:
        _find(prog, env)
    # The spawn import runs argv[0]: a separate `executable` replaces it.
    argv = [os.fsencode(executable)] + [os.fsencode(a) for a in args[1:]]

    self.pid = _wasmsand.spawn(
        argv, env_list, cwd,
        p2cread if p2cread != -1 else 0,
        c2pwrite if c2pwrite != -1 else 1,
        errwrite if errwrite != -1 else 2)
    self._child_created = True
    self._wasmsand_signal = None
    self._close_pipe_fds(p2cread, p2cwrite,
                         c2pread, c2pwrite,
                         errread, errwrite)


def _returncode(self, status):
    sig = getattr(self, "_wasmsand_signal", None)
    if sig is not None and status == 128 + 9:
        return -sig
    return status


def _reap(self):
    """All callers hold self._waitpid_lock."""
    try:
        status = _wasmsand.wait(self.pid)
    except ChildProcessError:
        status = 0
    self.returncode = _returncode(self, status)


def _internal_poll(self, _deadstate=None, _waitpid=None, _WNOHANG=None,
                   _ECHILD=None):
    if self.returncode is None:
        if not self._waitpid_lock.acquire(False):
            return None  # another thread is waiting for it
        try:
            if self.returncode is None:
                status = _wasmsand.trywait(self.pid)
                if status is not None:
                    self.returncode = _returncode(self, status)
        except ChildProcessError:
            if _deadstate is not None:
                self.returncode = _deadstate
        finally:
            self._waitpid_lock.release()
    return self.returncode


def _wait(self, timeout):
    if self.returncode is not None:
        return self.returncode
    if timeout is None:
        with self._waitpid_lock:
            if self.returncode is None:
                _reap(self)
        return self.returncode
    # As CPython does on POSIX: poll with a growing delay until the deadline.
    import subprocess
    import time
    endtime = time.monotonic() + timeout
    delay = 0.0005
    while self._internal_poll() is None:
        remaining = endtime - time.monotonic()
        if remaining <= 0:
            raise subprocess.TimeoutExpired(self.args, timeout)
        delay = min(delay * 2, remaining, .05)
        time.sleep(delay)
    return self.returncode


def send_signal(self, sig):
    if self.returncode is not None:
        return
    if sig == 0:
        return
    try:
        _wasmsand.kill(self.pid, sig)
        self._wasmsand_signal = sig
    except ProcessLookupError:
        pass


def install(subprocess):
    P = subprocess.Popen
    P._execute_child = _execute_child
    P._internal_poll = _internal_poll
    P._wait = _wait
    P.send_signal = send_signal
    P.terminate = lambda self: self.send_signal(15)
    P.kill = lambda self: self.send_signal(9)
