package cluster

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/natstest"
)

func join(t *testing.T, urls, name string) (*Node, *nats.Conn) {
	t.Helper()
	nc, err := nats.Connect(urls)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := Join(ctx, Options{Conn: nc, Name: name, LeaseTTL: 2 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { n.Close(); nc.Close() })
	return n, nc
}

func newSandbox(t *testing.T) *core.Sandbox {
	t.Helper()
	sb, err := core.New(context.Background(), core.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	return sb
}

// restoreInto restores a claimed session into a new sandbox, which it
// also puts in *got when got is not nil.
func restoreInto(t *testing.T, got ...**core.Sandbox) func(*State) (*core.Sandbox, error) {
	return func(st *State) (*core.Sandbox, error) {
		sb := newSandbox(t)
		for _, g := range got {
			*g = sb
		}
		return sb, st.Apply(sb)
	}
}

func run(t *testing.T, sb *core.Sandbox, script string) string {
	t.Helper()
	res, err := sb.Run(context.Background(), script, core.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, "%s: %s", script, res.Stderr)
	return string(res.Stdout)
}

// A chain of checkpoints, compacted along the way, restores the files and
// the shell as they were at the last one; a snapshot keeps its own state.
func TestCheckpointChain(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a, _ := join(t, urls, "a")
	b, _ := join(t, urls, "b")
	ctx := context.Background()
	sb := newSandbox(t)
	require.NoError(t, sb.Mkdir("/home/user/d", 0o755))
	run(t, sb, "n=0")
	require.NoError(t, a.Create(ctx, "c1", "s1", []byte(`{"x":1}`), sb, 0))
	var snap string
	for i := range 40 { // (past MaxChain: at least two compactions)
		run(t, sb, "n=$((n+1)); echo $n > /home/user/d/f$((n % 7))")
		_ = sb.Remove("/home/user/d/gone", false)
		require.NoError(t, sb.WriteFile("/home/user/d/gone", []byte("x"), 0))
		require.NoError(t, a.Checkpoint(ctx, "s1"))
		if i == 10 {
			var err error
			snap, err = a.TakeSnapshot(ctx, "s1", 0)
			require.NoError(t, err)
			assert.Equal(t, "snap1", snap)
		}
	}
	rec, err := a.Describe(ctx, "c1", "s1")
	require.NoError(t, err)
	assert.LessOrEqual(t, len(rec.Chain), 16)
	assert.JSONEq(t, `{"x":1}`, string(rec.Spec))

	// b takes it over once a is gone
	a.Close()
	var got *core.Sandbox
	owner, err := b.Open(ctx, "c1", "s1", func() bool { return false }, restoreInto(t, &got))
	require.NoError(t, err)
	assert.Equal(t, "", owner)
	assert.Equal(t, run(t, sb, "echo $n; cat_=$(</home/user/d/f5); echo $cat_; echo ${#n}"), run(t, got, "echo $n; cat_=$(</home/user/d/f5); echo $cat_; echo ${#n}"))
	files, err := b.Snapshot(ctx, "s1", "snap1")
	require.NoError(t, err)
	old := core.SnapshotOf(files)
	require.NoError(t, got.Restore(old))
	assert.Equal(t, "11\n", run(t, got, "v=$(</home/user/d/f4); echo $v"))
	// another client does not find it
	_, err = b.Open(ctx, "c2", "s1", func() bool { return false }, restoreInto(t))
	assert.True(t, isNotFound(err), "%v", err)
	require.NoError(t, b.Delete(ctx, "c1", "s1"))
	_, err = b.Describe(ctx, "c1", "s1")
	assert.True(t, isNotFound(err))
}

// Two nodes claiming a session at once: one wins, the other forwards to it.
func TestClaimRace(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a, _ := join(t, urls, "a")
	ctx := context.Background()
	sb := newSandbox(t)
	run(t, sb, "x=1")
	require.NoError(t, a.Create(ctx, "c", "s1", nil, sb, 0))
	a.Close()
	var nodes []*Node
	for _, name := range []string{"b", "c", "d"} {
		n, _ := join(t, urls, name)
		nodes = append(nodes, n)
	}
	var wg sync.WaitGroup
	var restored atomic.Int32
	owners := make([]string, len(nodes))
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := n.Open(ctx, "c", "s1", func() bool { return false }, func(st *State) (*core.Sandbox, error) {
				restored.Add(1)
				return restoreInto(t)(st)
			})
			assert.NoError(t, err)
			owners[i] = o
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1, restored.Load(), "one node restores it")
	winners := 0
	for i, o := range owners {
		if o == "" {
			winners++
		} else {
			assert.Contains(t, []string{"b", "c", "d"}, o, "node %d forwards to the winner", i)
		}
	}
	assert.Equal(t, 1, winners)
}

// A node that lost a session (another claimed it while it was cut off)
// fails its next checkpoint with node_lost and forgets the session.
func TestFencing(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a, _ := join(t, urls, "a")
	b, _ := join(t, urls, "b")
	ctx := context.Background()
	sb := newSandbox(t)
	require.NoError(t, a.Create(ctx, "c", "s1", nil, sb, 0))
	var dropped []string
	a.OnLost(func(id string) { dropped = append(dropped, id) })
	b.markGone("a") // (as after a forward that found no subscriber)
	var bsb *core.Sandbox
	owner, err := b.Open(ctx, "c", "s1", func() bool { return false }, restoreInto(t, &bsb))
	require.NoError(t, err)
	assert.Equal(t, "", owner)
	// both write checkpoint 2: the new owner's stands, the old one's fails
	run(t, bsb, "echo fresh > /tmp/x")
	require.NoError(t, b.Checkpoint(ctx, "s1"))
	run(t, sb, "echo stale > /tmp/x")
	err = a.Checkpoint(ctx, "s1")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, CodeNodeLost, e.Code)
	assert.Equal(t, []string{"s1"}, dropped)
	assert.Empty(t, a.Held())
	b.Close()
	c, _ := join(t, urls, "c")
	var csb *core.Sandbox
	_, err = c.Open(ctx, "c", "s1", func() bool { return false }, restoreInto(t, &csb))
	require.NoError(t, err)
	assert.Equal(t, "fresh\n", run(t, csb, "v=$(</tmp/x); echo $v"))
}

// Hostile names never become subjects or keys; damaged checkpoints fail
// the restore with unavailable.
func TestHostileInput(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a, _ := join(t, urls, "a")
	ctx := context.Background()
	for _, id := range []string{"", "a.b", "a*", ">", "a b", "../x", strings.Repeat("x", 65), "s\x00"} {
		_, err := a.Open(ctx, "c", id, func() bool { return false }, restoreInto(t))
		assert.True(t, isNotFound(err), "%q: %v", id, err)
		assert.Error(t, a.Create(ctx, "c", id, nil, newSandbox(t), 0), "%q", id)
	}
	_, err := a.Snapshot(ctx, "s1", "a.>")
	assert.True(t, isNotFound(err))
	for _, raw := range [][]byte{nil, []byte("junk"), []byte(ckpMagic), []byte(ckpMagic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"),
		append([]byte(ckpMagic+"\x10"), bytes.Repeat([]byte{0xaa}, 16)...)} {
		_, _, err := unpack(raw)
		if err == nil {
			files, _, _ := unpack(raw)
			assert.Len(t, files, 16)
		}
	}
	// a checkpoint object overwritten with garbage: the claim fails cleanly
	sb := newSandbox(t)
	require.NoError(t, a.Create(ctx, "c", "s2", nil, sb, 0))
	rec, _, err := a.record(ctx, "s2")
	require.NoError(t, err)
	_, err = a.obj.PutBytes(ctx, rec.Chain[0].Obj, pack([]byte("WSVFS\x00garbage"), nil))
	require.NoError(t, err)
	a.Close()
	b, _ := join(t, urls, "b")
	_, err = b.Open(ctx, "c", "s2", func() bool { return false }, restoreInto(t))
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, CodeUnavailable, e.Code)
	// and the session stays claimable (a later try may succeed)
	rec, _, err = b.record(ctx, "s2")
	require.NoError(t, err)
	assert.Equal(t, "", rec.Node)
}

// Forwarding: bodies of any size both ways, streamed answers, a client
// that goes away cancels the handler, a node with no subscriber is gone.
func TestForward(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a, _ := join(t, urls, "a")
	b, _ := join(t, urls, "b")
	canceled := make(chan struct{}, 1)
	require.NoError(t, b.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Len", strings.Repeat("9", 1)+string(rune('0'+len(body)%10)))
			w.WriteHeader(201)
			_, _ = w.Write(body)
		case "/slow":
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				canceled <- struct{}{}
			case <-time.After(10 * time.Second):
			}
		}
	})))
	for _, size := range []int{0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 17} {
		body := make([]byte, size)
		for i := range body {
			body[i] = byte(rand.IntN(256))
		}
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("PUT", "/echo?x=1", bytes.NewReader(body))
		require.NoError(t, a.Forward(rec, r, "b"))
		assert.Equal(t, 201, rec.Code)
		assert.True(t, bytes.Equal(body, rec.Body.Bytes()), "size %d: got %d bytes", size, rec.Body.Len())
	}
	// the client goes away: the handler's context ends
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequest("GET", "/slow", nil).WithContext(ctx)
	done := make(chan error)
	go func() { done <- a.Forward(httptest.NewRecorder(), r, "b") }()
	time.Sleep(200 * time.Millisecond)
	cancel()
	<-done
	select {
	case <-canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled")
	}
	// a node nobody serves
	err := a.Forward(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil), "nobody")
	assert.ErrorIs(t, err, ErrGone)
}
