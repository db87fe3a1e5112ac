"""Builds python3.11's standard library zip for wasmsand: every pure-Python
module compiled to .pyc (no sources), reproducibly.

    python3.11 mkzip.py OUT.zip LIBDIR EXTRA_DIR SYSCONFIGDATA [SOURCES.zip]

Run by build.sh with the build Python (the same 3.11 bytecode). LIBDIR is
CPython's Lib/ (patched); EXTRA_DIR holds our modules (assets/python/lib);
SYSCONFIGDATA is the target's _sysconfigdata module from the interpreter
build, shipped under both names sysconfig may look for. SOURCES.zip gets
the same modules' .py files, for source lines in tracebacks (linecache reads
it: patches/lib-linecache-zip-sources.patch).
"""

import importlib.util
import marshal
import os
import sys
import zipfile

# Left out: tests, the GUI, and packages whose C half cannot exist on WASI
# (ctypes needs libffi and dlopen, curses a terminal library) or that make
# no sense in the sandbox (venv, ensurepip, msilib).
EXCLUDE_DIRS = {
    "test", "tests", "idle_test", "idlelib", "tkinter", "turtledemo",
    "ensurepip", "lib2to3/tests", "distutils/tests", "unittest/test",
    "ctypes/test", "sqlite3/test", "__pycache__", "site-packages",
    "ctypes", "curses", "venv", "msilib",
}
EXCLUDE_FILES = {"turtle.py", "antigravity.py", "this.py", "__phello__.foo.py"}

# Fixed timestamp for reproducible zips (zip stores local DOS times).
DATE = (2023, 1, 1, 0, 0, 0)


def pyc(source_path, name_in_zip):
    src = open(source_path, "rb").read()
    code = compile(src, "/usr/lib/wasmsand/python/lib/python311.zip/" + name_in_zip, "exec",
                   dont_inherit=True, optimize=0)
    # Unchecked hash-based pyc (PEP 552): never stats a source.
    flags = 0b01
    return (importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") +
            importlib.util.source_hash(src) + marshal.dumps(code))


def walk(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel = "" if rel == "." else rel
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in EXCLUDE_DIRS and (rel + "/" + d).lstrip("/") not in EXCLUDE_DIRS)
        for f in sorted(filenames):
            if f.endswith(".py") and f not in EXCLUDE_FILES:
                yield (rel + "/" + f).lstrip("/"), os.path.join(dirpath, f)


def main():
    out, libdir, extra, sysconfigdata = sys.argv[1:5]
    sources = sys.argv[5] if len(sys.argv) > 5 else None
    entries = {}
    for name, path in walk(libdir):
        entries[name] = path
    for name, path in walk(extra):
        entries[name] = path  # ours win
    base = os.path.basename(sysconfigdata)
    entries[base] = sysconfigdata
    # Debian's sysconfig.py names it without the platform; upstream with it.
    entries["_sysconfigdata__wasm32-wasi.py"] = sysconfigdata
    entries["_sysconfigdata__wasi_wasm32-wasi.py"] = sysconfigdata
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(entries):
            data = pyc(entries[name], name)
            info = zipfile.ZipInfo(name[:-3] + ".pyc", DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    os.replace(tmp, out)
    print(f"{out}: {len(entries)} modules")
    if sources:
        tmp = sources + ".tmp"
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for name in sorted(entries):
                info = zipfile.ZipInfo(name, DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, open(entries[name], "rb").read())
        os.replace(tmp, sources)
        print(f"{sources}: {len(entries)} sources")


if __name__ == "__main__":
    main()
