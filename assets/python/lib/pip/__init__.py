"""pip on wasmsand: installs pure-Python wheels through the sandbox's network.

The real pip does not run here (no sockets, no C compiler, no build
isolation); this one covers what agents do with it: install, uninstall,
list, freeze, show, download. Requests go through urllib, and so through
the sandbox's network bridge and its policy: the index (PyPI's simple API
by default, or --index-url) and the host its files come from must be
allowed. Only wheels that need no compiled code (py3-none-any) can be
installed; packages go to ~/.local/lib/python3.X/site-packages (the
standard library is read-only), which python3 puts on sys.path
(sitecustomize) when it exists.
"""

import email.parser
import hashlib
import html.parser
import io
import json
import os
import re
import shutil
import sys
import urllib.error
import urllib.parse
import urllib.request
import zipfile

__version__ = "23.0+wasmsand"

DEFAULT_INDEX = "https://pypi.org/simple"
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"


class PipError(Exception):
    pass


def site_packages():
    import site
    return site.getusersitepackages() or os.path.join(
        os.environ.get("HOME", "/"), ".local", "lib", "python%d.%d" % sys.version_info[:2], "site-packages")


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


# -- versions (PEP 440, the parts packages use) --

_VERSION = re.compile(
    r"^v?(?:(\d+)!)?(\d+(?:\.\d+)*)"
    r"(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d*))?"
    r"(?:-(\d+)|[-_.]?(?:post|rev|r)[-_.]?(\d*))?"
    r"(?:[-_.]?dev[-_.]?(\d*))?(?:\+[a-z0-9.]+)?$", re.I)


class Version:
    def __init__(self, text):
        m = _VERSION.match(text.strip())
        if not m:
            raise ValueError("invalid version: %r" % text)
        epoch, rel, pre_l, pre_n, post1, post2, dev = m.groups()
        r = [int(x) for x in rel.split(".")]
        while len(r) > 1 and r[-1] == 0:
            r.pop()
        pre = None
        if pre_l:
            pre_l = {"alpha": "a", "beta": "b", "c": "rc", "pre": "rc", "preview": "rc"}.get(pre_l.lower(), pre_l.lower())
            pre = ({"a": 0, "b": 1, "rc": 2}[pre_l], int(pre_n or 0))
        post = post1 or post2
        self.text = text
        self.release = tuple(int(x) for x in rel.split("."))
        self.prerelease = pre is not None or dev is not None
        inf = (float("inf"),)
        self.key = (int(epoch or 0), tuple(r),
                    pre if pre is not None else ((-1,) if dev is not None and post is None else inf),
                    int(post) if post is not None else -1,
                    int(dev) if dev is not None else float("inf"))

    def __lt__(self, o): return self.key < o.key
    def __le__(self, o): return self.key <= o.key
    def __gt__(self, o): return self.key > o.key
    def __ge__(self, o): return self.key >= o.key
    def __eq__(self, o): return self.key == o.key
    def __hash__(self): return hash(self.key)
    def __str__(self): return self.text


def _matches(version, op, want):
    if op == "===":
        return version.text == want
    if want.endswith(".*"):
        prefix = [int(x) for x in want[:-2].split(".")]
        eq = list(version.release[:len(prefix)]) + [0] * (len(prefix) - len(version.release)) == prefix
        return eq if op == "==" else not eq
    w = Version(want)
    if op == "==":
        return version == w
    if op == "!=":
        return version != w
    if op == ">=":
        return version >= w
    if op == "<=":
        return version <= w
    if op == ">":
        return version > w
    if op == "<":
        return version < w
    if op == "~=":
        rel = want.split(".")
        upper = ".".join(rel[:-1]) + ".*"
        return version >= w and _matches(version, "==", upper)
    raise PipError("unsupported version operator %s" % op)


class Specifier:
    def __init__(self, text):
        self.parts = []
        for p in filter(None, (x.strip() for x in (text or "").split(","))):
            m = re.match(r"^(===|==|!=|~=|>=|<=|>|<)\s*(.+)$", p)
            if not m:
                raise PipError("invalid version specifier: %r" % p)
            self.parts.append(m.groups())
        self.text = ",".join(op + v for op, v in self.parts)

    def allows_prereleases(self):
        return any(Version(v.rstrip(".*") or "0").prerelease for op, v in self.parts if op in ("==", ">=", "<=", "~=", "==="))

    def contains(self, version):
        return all(_matches(version, op, v) for op, v in self.parts)


# -- requirements and markers (PEP 508) --

_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(\(?[^;()]*\)?)?\s*(?:;\s*(.*))?$")


class Requirement:
    def __init__(self, text):
        text = text.split(" #", 1)[0].strip()
        m = _REQ.match(text)
        if not m or "@" in (m.group(3) or ""):
            raise PipError("invalid requirement: %r" % text)
        self.name = m.group(1)
        self.extras = [e.strip() for e in (m.group(2) or "[]")[1:-1].split(",") if e.strip()]
        self.spec = Specifier((m.group(3) or "").strip().strip("()"))
        self.marker = m.group(4)
        self.text = text
        # as pip names it in "Collecting ..."
        self.short = self.name + ("[%s]" % ",".join(self.extras) if self.extras else "") + ",".join(sorted(op + v for op, v in self.spec.parts))

    def applies(self, extras=()):
        if not self.marker:
            return True
        if not extras:
            return Marker(self.marker).evaluate({"extra": ""})
        return any(Marker(self.marker).evaluate({"extra": e}) for e in extras)


def _environment():
    v = sys.version_info
    return {
        "python_version": "%d.%d" % v[:2], "python_full_version": "%d.%d.%d" % v[:3],
        "os_name": os.name, "sys_platform": sys.platform, "platform_system": "",
        "platform_machine": "wasm32", "platform_release": "", "platform_version": "",
        "platform_python_implementation": "CPython", "implementation_name": sys.implementation.name,
        "implementation_version": "%d.%d.%d" % v[:3], "extra": "",
    }


class Marker:
    _TOKEN = re.compile(r"\s*(\(|\)|===|==|!=|~=|>=|<=|<|>|not\s+in\b|in\b|and\b|or\b|'[^']*'|\"[^\"]*\"|[A-Za-z_.]+)")

    def __init__(self, text):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = self._TOKEN.match(text, pos)
            if not m:
                raise PipError("invalid marker: %r" % text)
            self.tokens.append(re.sub(r"\s+", " ", m.group(1)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1

    def evaluate(self, extra):
        env = _environment()
        env.update(extra)
        self.env, self.i = env, 0
        return self._or()

    def _next(self):
        t = self.tokens[self.i] if self.i < len(self.tokens) else None
        self.i += 1
        return t

    def _peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _or(self):
        v = self._and()
        while self._peek() == "or":
            self._next()
            v = self._and() or v
        return v

    def _and(self):
        v = self._atom()
        while self._peek() == "and":
            self._next()
            v = self._atom() and v
        return v

    def _atom(self):
        if self._peek() == "(":
            self._next()
            v = self._or()
            self._next()
            return v
        left, op, right = self._value(), self._next(), self._value()
        if op in ("in", "not in"):
            return (left in right) == (op == "in")
        try:
            return _matches(Version(left), op, right)
        except (ValueError, PipError):
            return {"==": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
                    ">": left > right, ">=": left >= right, "===": left == right}.get(op, False)

    def _value(self):
        t = self._next() or ""
        if t[:1] in "'\"":
            return t[1:-1]
        v = self.env.get(t, "")
        return canonical(v) if t == "extra" else v


# -- the index --

class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            a = dict(attrs)
            if a.get("href"):
                self.links.append(a)


def _get(url, accept=None):
    req = urllib.request.Request(url, headers={"User-Agent": "pip/%s" % __version__, **({"Accept": accept} if accept else {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.read(), r.headers.get("Content-Type", ""), r.geturl()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None, "", url
        raise PipError("HTTP error %d while getting %s" % (e.code, url))
    except urllib.error.URLError as e:
        reason = e.reason
        if isinstance(reason, PermissionError):
            host = urllib.parse.urlsplit(url)
            raise PipError("the sandbox's network policy does not allow %s (%s); allow the index and the host of its files, "
                           "e.g. --allow-net https://pypi.org/simple/ --allow-net https://files.pythonhosted.org/"
                           % (host.scheme + "://" + host.netloc + host.path, reason.strerror))
        if isinstance(reason, OSError) and reason.errno == 101:
            raise PipError("the sandbox has no network: it needs a network policy that allows the package index "
                           "(e.g. --allow-net https://pypi.org/simple/ --allow-net https://files.pythonhosted.org/)")
        raise PipError("could not reach %s: %s" % (url, reason))


def _files(index, name):
    """The files the index has for a project: [{filename, url, sha256, requires_python, yanked}]."""
    url = index.rstrip("/") + "/" + canonical(name) + "/"
    body, ctype, final = _get(url, SIMPLE_JSON + ", text/html;q=0.1")
    if body is None:
        return []
    out = []
    if ctype.split(";")[0].strip() == SIMPLE_JSON:
        for f in json.loads(body).get("files", []):
            out.append({"filename": f["filename"], "url": urllib.parse.urljoin(final, f["url"]),
                        "sha256": f.get("hashes", {}).get("sha256"), "requires_python": f.get("requires-python"),
                        "yanked": bool(f.get("yanked"))})
        return out
    p = _Links()
    p.feed(body.decode("utf-8", "replace"))
    for a in p.links:
        href = urllib.parse.urljoin(final, a["href"])
        frag = urllib.parse.urlsplit(href).fragment
        sha = frag[len("sha256="):] if frag.startswith("sha256=") else None
        href = href.split("#", 1)[0]
        out.append({"filename": urllib.parse.unquote(href.rsplit("/", 1)[-1]), "url": href, "sha256": sha,
                    "requires_python": a.get("data-requires-python"), "yanked": "data-yanked" in a})
    return out


_WHEEL = re.compile(r"^(?P<name>.+?)-(?P<ver>[^-]+)(?:-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")


def _pure(py, abi, plat):
    v = sys.version_info
    pys = py.split(".")
    return plat == "any" and abi == "none" and any(t in ("py3", "py%d%d" % v[:2], "cp%d%d" % v[:2]) for t in pys)


def _candidates(index, req):
    """Installable wheels for req, best first, and every version seen."""
    seen, good = set(), []
    here = Version("%d.%d.%d" % sys.version_info[:3])
    for f in _files(index, req.name):
        m = _WHEEL.match(f["filename"])
        ver = m.group("ver") if m else None
        if not m:
            m2 = re.match(r"^(.+?)-(\d[^-]*)\.(tar\.gz|zip)$", f["filename"])
            if m2:
                seen.add(m2.group(2))
            continue
        seen.add(ver)
        try:
            v = Version(ver)
        except ValueError:
            continue
        if f["yanked"] or not _pure(m.group("py"), m.group("abi"), m.group("plat")):
            continue
        if f["requires_python"]:
            try:
                if not Specifier(f["requires_python"]).contains(here):
                    continue
            except (PipError, ValueError):
                pass
        if not req.spec.contains(v) or (v.prerelease and not req.spec.allows_prereleases()):
            continue
        good.append((v, f))
    good.sort(key=lambda x: x[0], reverse=True)
    return good, seen


# -- installed distributions --

def _installed(target):
    """canonical name → (name, version, dist-info path)."""
    out = {}
    if not os.path.isdir(target):
        return out
    for d in os.listdir(target):
        if d.endswith(".dist-info"):
            meta = os.path.join(target, d, "METADATA")
            try:
                with open(meta, encoding="utf-8") as f:
                    m = email.parser.Parser().parse(f, headersonly=True)
            except OSError:
                continue
            out[canonical(m["Name"])] = (m["Name"], m["Version"], os.path.join(target, d))
    return out


def _metadata(dist_info):
    with open(os.path.join(dist_info, "METADATA"), encoding="utf-8") as f:
        return email.parser.Parser().parse(f)


def _install_wheel(data, filename, target):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        info = next((n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info") and n.endswith("/METADATA")), None)
        if info is None:
            raise PipError("%s is not a wheel (no .dist-info/METADATA)" % filename)
        data_dir = info[: -len(".dist-info")] + ".data"
        written = []
        for n in names:
            if n.endswith("/"):
                continue
            rel = n
            if n.startswith(data_dir + "/"):
                kind, _, rest = n[len(data_dir) + 1:].partition("/")
                if kind not in ("purelib", "platlib") or not rest:
                    continue  # (scripts, headers and data have no place here)
                rel = rest
            dest = os.path.normpath(os.path.join(target, rel))
            if not dest.startswith(os.path.normpath(target) + os.sep):
                raise PipError("%s: %s would be written outside site-packages" % (filename, n))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(n) as src, open(dest, "wb") as out:
                shutil.copyfileobj(src, out)
            written.append(os.path.relpath(dest, target))
        with open(os.path.join(target, info, "INSTALLER"), "w") as f:
            f.write("pip\n")
        with open(os.path.join(target, info, "RECORD"), "w") as f:
            for w in written + [os.path.join(info, "INSTALLER")]:
                f.write(w + ",,\n")
        return os.path.join(target, info)


def _remove(dist_info, target):
    try:
        with open(os.path.join(dist_info, "RECORD"), encoding="utf-8") as f:
            files = [line.split(",")[0] for line in f if line.strip()]
    except OSError:
        files = []
    dirs = set()
    for rel in files:
        p = os.path.normpath(os.path.join(target, rel))
        if p.startswith(os.path.normpath(target) + os.sep) and os.path.isfile(p):
            os.remove(p)
            dirs.add(os.path.dirname(p))
            if p.endswith(".py"):
                # (and what importing it compiled)
                cache = os.path.join(os.path.dirname(p), "__pycache__")
                stem = os.path.basename(p)[:-3] + "."
                for c in os.listdir(cache) if os.path.isdir(cache) else ():
                    if c.startswith(stem) and c.endswith(".pyc"):
                        os.remove(os.path.join(cache, c))
                dirs.add(cache)
    shutil.rmtree(dist_info, ignore_errors=True)
    for d in sorted(dirs, key=len, reverse=True):
        while d.startswith(os.path.normpath(target) + os.sep):
            try:
                os.rmdir(d)
            except OSError:
                break
            d = os.path.dirname(d)


def _size(n):
    return "%d kB" % max(1, round(n / 1000)) if n < 1000000 else "%.1f MB" % (n / 1e6)


# -- commands --

def install(args):
    index, target, reqs, deps, upgrade, quiet, only_download = DEFAULT_INDEX, site_packages(), [], True, False, False, None
    it = iter(args)
    for a in it:
        if a in ("-i", "--index-url"):
            index = next(it, "")
        elif a.startswith("--index-url="):
            index = a.split("=", 1)[1]
        elif a in ("-r", "--requirement"):
            path = next(it, "")
            try:
                with open(path) as f:
                    reqs += [l.strip() for l in f if l.strip() and not l.strip().startswith(("#", "-"))]
            except OSError as e:
                raise PipError("Could not open requirements file: %s" % e)
        elif a in ("-t", "--target"):
            target = os.path.abspath(next(it, ""))
        elif a == "--no-deps":
            deps = False
        elif a in ("-U", "--upgrade"):
            upgrade = True
        elif a in ("-q", "--quiet"):
            quiet = True
        elif a in ("--user", "--no-cache-dir", "--disable-pip-version-check", "--no-input", "--break-system-packages", "--progress-bar=off"):
            pass
        elif a in ("-d", "--dest"):
            only_download = os.path.abspath(next(it, ""))
        elif a.startswith("-"):
            raise PipError("no such option: %s" % a)
        else:
            reqs.append(a)
    if not reqs:
        raise PipError("You must give at least one requirement to install (see \"pip help install\")")
    say = (lambda *a: None) if quiet else print
    have = {} if only_download else _installed(target)
    chosen = {}  # canonical → (version, file, requirement)
    todo = [(Requirement(r), None) for r in reqs]
    while todo:
        req, parent = todo.pop(0)
        key = canonical(req.name)
        if key in chosen:
            v = chosen[key][0]
            if not req.spec.contains(v):
                raise PipError("Cannot install %s: %s %s is needed (by %s) but %s was chosen" % (req.name, req.name, req.spec.text, parent, v))
            continue
        if key in have and not (upgrade and parent is None):
            name, ver, _ = have[key]
            if req.spec.contains(Version(ver)):
                say("Requirement already satisfied: %s in %s (%s)" % (req.text if parent is None else req.name, target, ver))
                continue
        say("Collecting %s" % (req.text.split(";")[0].strip() if parent is None else "%s (from %s)" % (req.short, parent)))
        good, seen = _candidates(index, req)
        if not good:
            versions = ", ".join(sorted(seen, key=lambda s: Version(s) if _VERSION.match(s) else Version("0"))) or "none"
            hint = ""
            if seen:
                hint = " (wasmsand installs wheels that need no compiled code: py3-none-any)"
            sys.stderr.write("ERROR: Could not find a version that satisfies the requirement %s (from versions: %s)%s\n"
                             "ERROR: No matching distribution found for %s\n" % (req.text, versions, hint, req.name))
            return 1
        v, f = good[0]
        if key in have and have[key][1] == str(v) and not only_download:
            say("Requirement already satisfied: %s in %s (%s)" % (req.name, target, v))
            continue
        chosen[key] = (v, f, req)
        if deps:
            data = _download(f, say)
            chosen[key] = (v, f, req, data)
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
                m = email.parser.Parser().parsestr(z.read(meta).decode("utf-8", "replace"))
            for r in m.get_all("Requires-Dist") or []:
                dep = Requirement(r)
                if dep.applies(req.extras):
                    todo.append((dep, "%s==%s" % (m["Name"], v) if parent is None else m["Name"]))
    if not chosen:
        return 0
    for key, c in chosen.items():
        if len(c) == 3:
            chosen[key] = c + (_download(c[1], say),)
    if only_download:
        os.makedirs(only_download, exist_ok=True)
        for v, f, req, data in chosen.values():
            with open(os.path.join(only_download, f["filename"]), "wb") as out:
                out.write(data)
            say("Saved %s" % os.path.join(only_download, f["filename"]))
        say("Successfully downloaded %s" % " ".join(canonical(r.name) for v, f, r, d in chosen.values()))
        return 0
    os.makedirs(target, exist_ok=True)
    # dependencies first, as pip does
    order = list(chosen.items())[::-1]
    say("Installing collected packages: %s" % ", ".join(_WHEEL.match(c[1]["filename"]).group("name") for _, c in order))
    done = []
    for key, (v, f, req, data) in order:
        if key in have:
            old = have[key]
            say("  Attempting uninstall: %s\n    Found existing installation: %s %s" % (old[0], old[0], old[1]))
            _remove(old[2], target)
            say("    Successfully uninstalled %s-%s" % (old[0], old[1]))
        info = _install_wheel(data, f["filename"], target)
        done.append("%s-%s" % (_metadata(info)["Name"], v))
    done.sort(key=str.lower)
    say("Successfully installed %s" % " ".join(done))
    return 0


def _download(f, say):
    body, _, _ = _get(f["url"])
    if body is None:
        raise PipError("%s: not found (404)" % f["url"])
    if f["sha256"] and hashlib.sha256(body).hexdigest() != f["sha256"]:
        raise PipError("THESE PACKAGES DO NOT MATCH THE HASHES FROM THE INDEX: %s (expected sha256 %s, got %s)"
                       % (f["filename"], f["sha256"], hashlib.sha256(body).hexdigest()))
    say("  Downloading %s (%s)" % (f["filename"], _size(len(body))))
    return body


def uninstall(args):
    names = [a for a in args if not a.startswith("-")]
    if not names:
        raise PipError("You must give at least one requirement to uninstall (see \"pip help uninstall\")")
    target = site_packages()
    have = _installed(target)
    for n in names:
        d = have.get(canonical(n))
        if d is None:
            print("WARNING: Skipping %s as it is not installed." % n)
            continue
        print("Found existing installation: %s %s" % (d[0], d[1]))
        _remove(d[2], target)
        print("Successfully uninstalled %s-%s" % (d[0], d[1]))
    return 0


def listing(args, freeze=False):
    have = sorted(_installed(site_packages()).values(), key=lambda d: d[0].lower())
    if "--format=json" in args or ("--format" in args and "json" in args):
        print(json.dumps([{"name": n, "version": v} for n, v, _ in have]))
    elif freeze:
        for n, v, _ in have:
            print("%s==%s" % (n, v))
    elif have:
        w = max([len("Package")] + [len(n) for n, _, _ in have])
        wv = max([len("Version")] + [len(v) for _, v, _ in have])
        print("%-*s %s" % (w, "Package", "Version"))
        print("%s %s" % ("-" * w, "-" * wv))
        for n, v, _ in have:
            print("%-*s %s" % (w, n, v))
    return 0


def show(args):
    have = _installed(site_packages())
    status = 0
    for i, n in enumerate(a for a in args if not a.startswith("-")):
        d = have.get(canonical(n))
        if d is None:
            sys.stderr.write("WARNING: Package(s) not found: %s\n" % n)
            status = 1
            continue
        m = _metadata(d[2])
        if i:
            print("---")
        reqs = sorted({Requirement(r).name for r in (m.get_all("Requires-Dist") or []) if Requirement(r).applies()})
        for k, v in (("Name", m["Name"]), ("Version", m["Version"]), ("Summary", m["Summary"] or ""),
                     ("Home-page", m["Home-page"] or ""), ("Author", m["Author"] or ""), ("License", m["License"] or ""),
                     ("Location", site_packages()), ("Requires", ", ".join(reqs))):
            print("%s: %s" % (k, v))
    return status


USAGE = """
Usage:
  pip <command> [options]

Commands:
  install                     Install packages (pure-Python wheels, through the sandbox's network policy).
  download                    Download packages (install -d DIR).
  uninstall                   Uninstall packages.
  freeze                      Output installed packages in requirements format.
  list                        List installed packages.
  show                        Show information about installed packages.
  help                        Show help for commands.

Options:
  -i, --index-url <url>       Base URL of the Python Package Index (default %s).
  -r, --requirement <file>    Install from the given requirements file.
  -t, --target <dir>          Install packages into <dir>.
  -U, --upgrade               Upgrade the named packages to the newest available version.
  --no-deps                   Don't install package dependencies.
  -q, --quiet                 Give less output.
  -V, --version               Show version and exit.
""" % DEFAULT_INDEX


def main(args=None):
    if args is None:
        args = sys.argv[1:]
    cmd = next((a for a in args if not a.startswith("-")), None)
    rest = list(args)
    if cmd is not None:
        rest.remove(cmd)
    try:
        if cmd is None and ("--version" in args or "-V" in args):
            print("pip %s from %s (python %d.%d)" % (__version__, os.path.dirname(__file__), *sys.version_info[:2]))
            return 0
        if cmd == "install":
            return install(rest)
        if cmd == "download":
            dest = "."
            if "-d" in rest or "--dest" in rest:
                return install(rest)
            return install(rest + ["-d", dest])
        if cmd == "uninstall":
            return uninstall(rest)
        if cmd in ("list", "freeze"):
            return listing(rest, freeze=cmd == "freeze")
        if cmd == "show":
            return show(rest)
        if cmd is None or cmd == "help" or "-h" in args or "--help" in args:
            print(USAGE.strip("\n"))
            return 0 if (cmd == "help" or "-h" in args or "--help" in args) else 1
        sys.stderr.write('ERROR: unknown command "%s"\n' % cmd)
        return 1
    except PipError as e:
        sys.stderr.write("ERROR: %s\n" % e)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("ERROR: Operation cancelled by user\n")
        return 1
