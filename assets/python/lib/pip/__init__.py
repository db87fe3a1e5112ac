"""pip on wasmsand: a stub.

Installing packages needs network access, which wasmsand grants only through
its network policy (not available yet). The standard library is all there.
"""

__version__ = "0+wasmsand"

MESSAGE = (
    "pip: installing packages needs the network policy, which this sandbox "
    "does not grant yet.\n"
    "pip: only Python's standard library is available "
    "(json, csv, sqlite3, decimal, datetime, re, ...).\n"
)


def main(args=None):
    import sys
    if args is None:
        args = sys.argv[1:]
    cmd = next((a for a in args if not a.startswith("-")), None)
    if cmd is None and ("--version" in args or "-V" in args):
        print(f"pip {__version__} (wasmsand stub; installing needs the network policy)")
        return 0
    if cmd in ("list", "freeze"):
        return 0  # nothing is installed beyond the standard library
    if cmd is None or cmd == "help" or "-h" in args or "--help" in args:
        sys.stderr.write(
            "usage: pip <command> [options]\n\n" + MESSAGE)
        return 0 if cmd == "help" or "-h" in args or "--help" in args else 1
    sys.stderr.write(MESSAGE)
    return 1
