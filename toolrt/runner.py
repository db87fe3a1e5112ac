# The python side of a tool invocation (toolrt, runs inside the sandbox): imports
# the tool's module from /tools, calls its function with the request's arguments
# and a context object, and writes what happened to /work/result.json.
import asyncio
import importlib
import inspect
import json
import os
import sys
import traceback

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
        sys.stderr.write(STATUS_MARK + json.dumps({"status_text": str(text)}) + "\n")
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


def _finish(doc):
    with open(os.path.join(WORK, "result.json"), "w") as f:
        json.dump(doc, f, default=str)
    sys.exit(0)


def _error(code, message, tb=None):
    err = {"code": code, "message": message}
    if tb:
        err["traceback"] = tb
    _finish({"error": err})


def main():
    with open(os.path.join(WORK, "runner_args.json")) as f:
        spec = json.load(f)
    sys.path.insert(0, "/tools")
    try:
        mod = importlib.import_module(spec["module"])
        fn = getattr(mod, spec["function"])
    except BaseException as e:
        _error("IMPORT_ERROR", "cannot import %s.%s: %s: %s" % (spec["module"], spec["function"], type(e).__name__, e),
               traceback.format_exc())
    ctx = ToolContext(spec)
    args = spec.get("args") or {}
    try:
        params = inspect.signature(fn).parameters
        kinds = {p.kind for p in params.values()}
        if isinstance(args, dict) and (inspect.Parameter.VAR_KEYWORD in kinds or set(args) <= set(params)):
            kw = dict(args)
            for name in ("ctx", "context", "tool_context"):
                if name in params and name not in kw:
                    kw[name] = ctx
                    break
            result = fn(**kw)
        else:
            result = fn(args, ctx) if len(params) >= 2 else fn(args)
        if inspect.isawaitable(result):
            result = asyncio.run(result)
    except SystemExit as e:
        _error("EXECUTION_ERROR", "Tool called exit(%s)" % (e.code,))
    except BaseException as e:
        _error("EXECUTION_ERROR", "Tool raised %s: %s" % (type(e).__name__, e), traceback.format_exc())
    if isinstance(result, dict) and result.get("status") == "error":
        _error("TOOL_ERROR", str(result.get("message") or result.get("error") or "the tool returned an error"))
    _finish({"tool_result": result})


main()
