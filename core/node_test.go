package core_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
)

// A hostile or runaway JavaScript program ends as one guest process with a
// clear status, never taking the host down: memory past the limit is
// JavaScript's "out of memory", runaway recursion Node's RangeError, an
// endless loop the run's timeout, and without a network rule fetch, http
// and npm say the network is unreachable (node is QuickJS, assets/quickjs).
func TestNodeGuestBounded(t *testing.T) {
	tools := pythonTools(t)
	if !slices.Contains(tools.Commands(), "node") {
		t.Skip("no node in the assets")
	}
	ctx := context.Background()
	sb, err := core.New(ctx, core.Options{Programs: tools, MemoryLimitMB: 128, Timeout: 60 * time.Second})
	require.NoError(t, err)
	defer sb.Close()
	for _, c := range []struct{ script, want string }{
		{`node -e 'const a = []; for (;;) a.push(new Array(1e6).fill(1))' 2>&1 | grep -o 'out of memory' | head -1; echo "status ${PIPESTATUS[0]}"`, "out of memory\nstatus 1\n"},
		{`node -e 'function f() { return f() } try { f() } catch (e) { console.log(e.name, e.message) }'`, "RangeError Maximum call stack size exceeded\n"},
		{`timeout 1 node -e 'for (;;) {}'; echo "status $?"`, "status 124\n"},
		{`node -e 'fetch("http://127.0.0.1:8080/").catch((e) => console.log(e.message, e.cause.code))'`, "fetch failed ENETUNREACH\n"},
		{`npm install left-pad 2>&1 | head -1; echo "status ${PIPESTATUS[0]}"`, "npm error code ENETUNREACH\nstatus 1\n"},
		{`node -e 'console.log(require("fs").existsSync("/etc/passwd") ? require("fs").readFileSync("/etc/passwd", "utf8").includes(require("os").hostname()) : "none")'`, ""},
		{`node -e 'require("child_process").execSync("exit 3")' 2>/dev/null; echo "status $?"`, "status 1\n"},
	} {
		res, err := sb.Run(ctx, c.script, core.RunOptions{})
		require.NoError(t, err, c.script)
		if c.want == "" {
			// the host's files are not the sandbox's
			assert.NotContains(t, string(res.Stdout), "true", c.script)
			continue
		}
		assert.Equal(t, c.want, string(res.Stdout), "%s\nstderr: %s", c.script, strings.TrimSpace(string(res.Stderr)))
	}
}
