"""http.client over the wasmsand network bridge.

A sandboxed python has no sockets. HTTPConnection (and so urllib.request,
and requests when installed) sends its request to a stand-in socket; once
the request is complete, the stand-in hands it to the sandbox's
`wasmsand-http ORIGIN` command, which makes it through the bridge (the
sandbox's network policy, budgets and secrets; TLS for https is the
bridge's), and reads the answer back as the socket's stream. Failures come
back as the OSError a socket would raise (URLError around it in urllib).

Shared by the CPython WASI asset (installed at the end of http.client) and
Pyodide (installed by the worker before user code runs).
"""

import errno
import io
import socket
import subprocess
import sys

__all__ = ["install", "install_urllib3", "install_on_import"]

# wasmsand-http's exit statuses (commands/curl/rawhttp.go)
_USAGE, _DENIED, _BUDGET, _RESOLVE, _CONNECT, _TIMEOUT, _TOO_LARGE = 2, 3, 4, 5, 6, 7, 8


def _error(status, message):
    text = message.decode("utf-8", "replace").strip()
    # "wasmsand-http: KIND: message" -> message
    parts = text.split(": ", 2)
    if len(parts) == 3 and parts[0] == "wasmsand-http":
        text = parts[2]
    if status == _RESOLVE:
        return socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    if status == _TIMEOUT:
        return TimeoutError("timed out")
    if status == _DENIED:
        return PermissionError(errno.EACCES, "blocked by the sandbox's network policy: " + text)
    if status == _BUDGET:
        return OSError(errno.EDQUOT, "the sandbox's network budget is spent: " + text)
    if status == _CONNECT and "refused" in text:
        return ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    if status == _CONNECT:
        return OSError(errno.EHOSTUNREACH, text or "could not connect")
    return OSError(errno.EIO, text or "wasmsand-http failed with status %d" % status)


def _complete(buf):
    """Whether buf holds a whole HTTP/1.x request (headers and body)."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return False
    head = bytes(buf[:end]).lower()
    body = len(buf) - end - 4
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip(), value.strip()
        if name == b"content-length":
            try:
                return body >= int(value)
            except ValueError:
                return True
        if name == b"transfer-encoding" and b"chunked" in value:
            return buf.endswith(b"0\r\n\r\n")
    return True


class BridgeSocket:
    """What http.client takes for a connected socket."""

    def __init__(self, origin, timeout=None):
        self._origin = origin
        self._timeout = timeout
        self._out = bytearray()
        self._answer = None

    def settimeout(self, timeout):
        self._timeout = timeout

    def gettimeout(self):
        return self._timeout

    def setsockopt(self, *args):
        pass

    def sendall(self, data):
        if self._answer is not None:
            raise ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")
        self._out += data
        if _complete(self._out):
            # the exchange happens here, inside HTTPConnection.request, so
            # that urllib reports a failure as URLError as it would a
            # refused connection
            self._answer = io.BytesIO(self._exchange())

    def send(self, data):
        self.sendall(data)
        return len(data)

    def _exchange(self):
        args = ["wasmsand-http"]
        t = self._timeout
        if isinstance(t, (int, float)) and t > 0:
            args += ["--timeout", repr(float(t))]
        args.append(self._origin)
        try:
            p = subprocess.run(args, input=bytes(self._out), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except FileNotFoundError:
            raise OSError(errno.ENETUNREACH, "Network is unreachable (the sandbox has no network)") from None
        if p.returncode == 127 or (p.returncode != 0 and not p.stdout):
            if p.returncode == 127:
                raise OSError(errno.ENETUNREACH, "Network is unreachable (the sandbox has no network)")
            raise _error(p.returncode, p.stderr)
        return p.stdout

    def makefile(self, mode="rb", *args, **kwargs):
        if self._answer is None:
            # a request http.client thought complete but _complete did not
            self._answer = io.BytesIO(self._exchange())
        return self._answer

    def recv(self, n):
        return self.makefile().read(n)

    def fileno(self):
        return -1

    def shutdown(self, how):
        pass

    def close(self):
        pass


def _origin(scheme, host, port, default):
    if ":" in host and not host.startswith("["):
        host = "[%s]" % host
    return "%s://%s" % (scheme, host if port in (None, default) else "%s:%d" % (host, port))


def install(client):
    """Makes http.client (the module) connect through the bridge."""
    if getattr(client, "_wasmsand_bridge", False):
        return

    def connect(self):
        sys.audit("http.client.connect", self, self.host, self.port)
        https = isinstance(self, client.HTTPSConnection)
        scheme, default = ("https", client.HTTPS_PORT) if https else ("http", client.HTTP_PORT)
        if self._tunnel_host:
            raise OSError(errno.EOPNOTSUPP, "proxies are not available in the sandbox")
        self.sock = BridgeSocket(_origin(scheme, self.host, self.port, default), self.timeout)

    client.HTTPConnection.connect = connect
    if not hasattr(client, "HTTPSConnection"):
        # without an ssl module http.client leaves HTTPSConnection out; TLS
        # is the bridge's, so it is an HTTPConnection with another scheme
        class HTTPSConnection(client.HTTPConnection):
            "HTTPS through the sandbox's network bridge (which does the TLS)."

            default_port = client.HTTPS_PORT

            def __init__(self, host, port=None, *args, context=None, check_hostname=None, **kwargs):
                if sys.version_info < (3, 12):
                    args = args[2:]  # key_file, cert_file
                    kwargs.pop("key_file", None)
                    kwargs.pop("cert_file", None)
                super().__init__(host, port, *args, **kwargs)
                self._context = context

        client.HTTPSConnection = HTTPSConnection
        client.__all__.append("HTTPSConnection")
        if not hasattr(client, "_create_https_context"):
            client._create_https_context = lambda http_version: None
    client.HTTPSConnection.connect = connect
    client._wasmsand_bridge = True
    _watch()  # (urllib3, which requests uses, as it loads)


def install_urllib3(connection):
    """Makes urllib3's connections (urllib3.connection, 1.26 or 2.x) use
    the bridge too: they make their own sockets (and TLS) instead of
    calling http.client's connect, so requests would miss the bridge."""
    if getattr(connection, "_wasmsand_bridge", False):
        return
    http_cls, https_cls = connection.HTTPConnection, connection.HTTPSConnection

    def _new_conn(self):
        https = isinstance(self, https_cls)
        scheme, default = ("https", 443) if https else ("http", 80)
        if getattr(self, "_tunnel_host", None):
            raise OSError(errno.EOPNOTSUPP, "proxies are not available in the sandbox")
        t = self.timeout if isinstance(self.timeout, (int, float)) else None
        return BridgeSocket(_origin(scheme, self.host, self.port, default), t)

    def https_connect(self):
        self.sock = self._new_conn()
        # (what urllib3's own connect records: the bridge verified the certificate)
        self.is_verified = True
        if hasattr(self, "proxy_is_verified"):
            self.proxy_is_verified = None
        self._has_connected_to_proxy = False

    http_cls._new_conn = _new_conn
    https_cls.connect = https_connect
    connection._wasmsand_bridge = True
    connection._wasmsand_classes = (http_cls, https_cls)


def _urllib3_loaded(urllib3):
    """Undoes urllib3's own way out under Pyodide (a fetch through the JS
    engine, outside the policy): its pools get the bridged classes back."""
    connection = sys.modules.get("urllib3.connection")
    classes = getattr(connection, "_wasmsand_classes", None)
    if classes is None:
        return
    http_cls, https_cls = classes
    if connection.HTTPConnection is not http_cls:
        connection.HTTPConnection, connection.HTTPSConnection = http_cls, https_cls
        pools = sys.modules.get("urllib3.connectionpool")
        if pools is not None:
            pools.HTTPConnectionPool.ConnectionCls = http_cls
            pools.HTTPSConnectionPool.ConnectionCls = https_cls


# what to do to a module as it is first imported
_HOOKS = {"http.client": install, "urllib3.connection": install_urllib3, "urllib3": _urllib3_loaded}


class _OnImport:
    """A meta path finder that applies _HOOKS to a module as it is first
    imported (so that Pyodide does not import http.client up front, which
    costs a start ~0.4 s)."""

    def find_spec(self, name, path=None, target=None):
        hook = _HOOKS.get(name)
        if hook is None:
            return None
        import importlib.util
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader

        class Loader:
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                module.__spec__.loader = module.__loader__ = loader
                loader.exec_module(module)
                hook(module)

        spec.loader = Loader()
        return spec


def _watch():
    if not any(isinstance(f, _OnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _OnImport())


def install_on_import():
    """Applies _HOOKS to the modules loaded already, and to the others as they load."""
    for name in ("http.client", "urllib3.connection", "urllib3"):
        if name in sys.modules:
            _HOOKS[name](sys.modules[name])
    _watch()
