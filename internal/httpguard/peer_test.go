package httpguard

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSameUser: a server without a token, on loopback, answers its own
// user's processes and refuses another local user's (forbidden_user).
func TestSameUser(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peer's user is read on Linux only")
	}
	for _, network := range []string{"tcp4", "tcp6"} {
		addr := "127.0.0.1:0"
		if network == "tcp6" {
			addr = "[::1]:0"
		}
		l, err := net.Listen(network, addr)
		if err != nil {
			continue // (no IPv6 here)
		}
		peers := make(chan int, 16)
		h := Handler(Options{Listen: l.Addr().String(), SameUser: true}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if uid, ok := r.Context().Value(peerKey{}).(int); ok {
				peers <- uid
			}
			io.WriteString(w, "ok")
		}))
		srv := &http.Server{Handler: h, ConnContext: ConnContext}
		go srv.Serve(l)
		res, err := http.Get("http://" + l.Addr().String() + "/")
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, "ok", string(b), network)
		select {
		case uid := <-peers:
			assert.Equal(t, os.Getuid(), uid, "%s: the peer's uid, from /proc/net", network)
		default:
			t.Errorf("%s: the peer's uid was not found", network)
		}

		node, err := exec.LookPath("node")
		if os.Getuid() != 0 || err != nil || exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "true").Run() != nil {
			srv.Close()
			continue
		}
		out, err := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", node, "-e",
			`fetch(process.argv[1]).then(async r => console.log(r.status, await r.text())).catch(e => console.log("error", e.message))`,
			"http://"+l.Addr().String()+"/").CombinedOutput()
		require.NoError(t, err, "%s", out)
		status, body, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
		assert.Equal(t, "403", status, "%s: another user's process: %s", network, out)
		var e map[string]string
		_ = json.Unmarshal([]byte(body), &e)
		assert.Equal(t, "forbidden_user", e["code"], network)
		srv.Close()
	}
}
