# The python side of a tool invocation (toolruntime, runs inside the sandbox): imports
# the tool's module from /tools, calls its function with the request's arguments
# and a context object, and writes what happened to /work/result.json.
# (imports are few and late: each costs the tool's start-up, in every invocation; the
# arguments and the result cross as marshal data, not JSON: see toolruntime/marshal.go)
import marshal
import os
import sys

WORK = "/work"
STATUS_MARK = "\x1e"  # a stderr line starting with it is a status update


def _name(name):
    name = str(name)
    if name != os.path.basename(name) or name in ("", ".", ".."):
        raise ValueError("bad artifact name %r" % name)
    return name


class ToolContext:
    """What a tool gets besides its arguments."""

    def __init__(self, spec):
        self.user_id = spec.get("user_id") or ""
        self.session_id = spec.get("session_id") or ""
        self.task_id = spec.get("task_id") or ""
        self.tool_name = spec.get("tool_name") or ""
        self._config = spec.get("tool_config") or {}

    def send_status(self, text):
        sys.stderr.write(STATUS_MARK + '{"status_text": ' + _jstr(str(text)) + "}\n")
        sys.stderr.flush()

    def load_artifact(self, name, as_text=False):
        with open(os.path.join(WORK, "input", _name(name)), "rb") as f:
            data = f.read()
        return data.decode() if as_text else data

    def list_artifacts(self):
        return sorted(os.listdir(os.path.join(WORK, "input")))

    def save_artifact(self, name, data, mime_type=None):
        if isinstance(data, str):
            data = data.encode()
        path = os.path.join(WORK, "output", _name(name))
        with open(path, "wb") as f:
            f.write(data)
        if mime_type:
            with open(os.path.join(WORK, "mime", _name(name)), "w") as f:
                f.write(str(mime_type))
        return {"filename": name, "size_bytes": len(data)}

    def get_config(self, key, default=None):
        return self._config.get(key, default)


def _jstr(s):
    """s as a JSON string (json itself costs ~35 ms to import here)."""
    out = ['"']
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _plain(v, depth=0):
    """v is JSON data: what marshal can carry for toolruntime/marshal.go."""
    if depth > 100:
        return False
    if v is None or isinstance(v, (bool, int, str)):
        return type(v) in (bool, int, str) or v is None
    if type(v) is float:
        return v == v and v not in (float("inf"), float("-inf"))
    if type(v) in (list, tuple):
        return all(_plain(x, depth + 1) for x in v)
    if type(v) is dict:
        return all(type(k) is str and _plain(x, depth + 1) for k, x in v.items())
    return False


def _finish(doc):
    if _plain(doc):
        with open(os.path.join(WORK, "result.marshal"), "wb") as f:
            marshal.dump(doc, f)
    else:
        import json
        with open(os.path.join(WORK, "result.json"), "w") as f:
            json.dump(_finite(doc), f, default=str)
    sys.exit(0)


def _finite(v, depth=0):
    """v with its NaNs and infinities as strings (they are not JSON)."""
    if depth > 100:
        return str(v)
    if type(v) is float and (v != v or v in (float("inf"), float("-inf"))):
        return str(v)
    if isinstance(v, dict):
        return {k: _finite(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_finite(x, depth + 1) for x in v]
    return v


def _tb():
    import traceback
    return traceback.format_exc()


def _error(code, message, tb=None):
    err = {"code": code, "message": message}
    if tb:
        err["traceback"] = tb
    _finish({"error": err})


def _drive(awaitable):
    """Runs a coroutine to its end without an event loop: asyncio's loop needs a
    socketpair, which WASI lacks; a tool that awaits only other coroutines (not timers
    or sockets) completes."""
    it = awaitable.__await__()
    try:
        while True:
            it.send(None)
    except StopIteration as e:
        return e.value


def _params(fn):
    """The names fn takes by keyword, and whether it takes **kwargs (inspect costs
    ~40 ms to import here; a function's code object says as much)."""
    f = getattr(fn, "__func__", fn)
    code = getattr(f, "__code__", None)
    if code is None:  # a callable object, a builtin: its signature then
        import inspect

        ps = inspect.signature(fn).parameters
        return list(ps), any(p.kind == p.VAR_KEYWORD for p in ps.values())
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    if f is not fn:  # a bound method: self is given
        names = names[1:]
    return list(names), bool(code.co_flags & 0x08)


def main():
    with open(os.path.join(WORK, "runner_args.marshal"), "rb") as f:
        spec = marshal.load(f)
    sys.path[0:0] = ["/tools", "/pkgs"]  # the tools' code, then the packages the worker installed
    try:
        __import__(spec["module"])
        fn = getattr(sys.modules[spec["module"]], spec["function"])
    except BaseException as e:
        _error("IMPORT_ERROR", "cannot import %s.%s: %s: %s" % (spec["module"], spec["function"], type(e).__name__, e), _tb())
    ctx = ToolContext(spec)
    args = spec.get("args") or {}
    try:
        params, var_kw = _params(fn)
        if isinstance(args, dict) and (var_kw or set(args) <= set(params)):
            kw = dict(args)
            for name in ("ctx", "context", "tool_context"):
                if name in params and name not in kw:
                    kw[name] = ctx
                    break
            result = fn(**kw)
        else:
            result = fn(args, ctx) if len(params) >= 2 else fn(args)
        if hasattr(result, "__await__"):
            result = _drive(result)
    except SystemExit as e:
        _error("EXECUTION_ERROR", "Tool called exit(%s)" % (e.code,))
    except BaseException as e:
        _error("EXECUTION_ERROR", "Tool raised %s: %s" % (type(e).__name__, e), _tb())
    if isinstance(result, dict) and result.get("status") == "error":
        _error("TOOL_ERROR", str(result.get("message") or result.get("error") or "the tool returned an error"))
    _finish({"tool_result": result})


main()
