"""wasmsand: the user site directory, where pip installs, is on sys.path.

The standard library is read-only, so pip (lib/pip) installs into the user
site (~/.local/lib/python3.X/site-packages), which CPython turns off on
WASI (site._getuserbase has no home for it there). This gives it one:
$PYTHONUSERBASE, else $HOME/.local, as on Linux. It runs from a .pth file
of the asset's dist-packages (build.sh; Debian's site.py), which site processes at every
start, cold or resumed from the pre-initialized image (preinit.c), so
both see the same sys.path; a sitecustomize of the user's still runs.
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


def enable():
    site._getuserbase = _getuserbase
    if sys.flags.no_user_site:
        return
    site.ENABLE_USER_SITE = True
    site.USER_BASE = site.USER_SITE = None
    site.addusersitepackages(set(sys.path))
