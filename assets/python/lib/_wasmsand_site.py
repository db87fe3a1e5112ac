"""wasmsand: the user site directory, where pip installs, is on sys.path.

The standard library is read-only, so pip (lib/pip) installs into the user
site (~/.local/lib/python3.X/site-packages), which CPython turns off on
WASI (site._getuserbase has no home for it there). This gives it one:
$PYTHONUSERBASE, else $HOME/.local, as on Linux. It runs from a .pth file
of the asset's dist-packages (build.sh; Debian's site.py), which site processes at every
start, cold or resumed from the pre-initialized image (preinit.c), so
both see the same sys.path; a sitecustomize of the user's still runs.
It also prints uncaught exceptions through the traceback module, so that
they show the standard library's source lines as native python does.
"""
import os
import site
import sys


def _getuserbase():
    base = os.environ.get("PYTHONUSERBASE")
    if base:
        return base
    home = os.environ.get("HOME")
    return os.path.join(home, ".local") if home else None


def _excepthook(typ, value, tb):
    # The interpreter's own printer (C) reads source lines from files only;
    # traceback's goes through linecache, which finds the stdlib's in
    # python311-src.zip (patches/lib-linecache-zip-sources.patch).
    import traceback
    traceback.print_exception(typ, value, tb)


def enable():
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook
    site._getuserbase = _getuserbase
    if sys.flags.no_user_site:
        return
    site.ENABLE_USER_SITE = True
    site.USER_BASE = site.USER_SITE = None
    site.addusersitepackages(set(sys.path))
