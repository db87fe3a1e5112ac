package sessions

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
)

func newSandbox(t *testing.T) *core.Sandbox {
	t.Helper()
	sb, err := core.New(context.Background(), core.Options{})
	require.NoError(t, err)
	return sb
}

func codeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		require.Regexp(t, `^s[a-z2-7]{26}$`, id)
		require.False(t, seen[id])
		seen[id] = true
	}
}

func TestOwners(t *testing.T) {
	r := New(Options{})
	defer r.Close()
	a, made, err := r.Add("alice", "", newSandbox(t), nil)
	require.NoError(t, err)
	require.True(t, made)
	shared, _, err := r.Add(nil, "team", newSandbox(t), nil)
	require.NoError(t, err)

	_, ok := r.Get("bob", a.ID)
	assert.False(t, ok, "another owner's session is not found")
	assert.False(t, r.Remove("bob", a.ID), "nor removed")
	got, ok := r.Get("alice", a.ID)
	assert.True(t, ok)
	assert.Same(t, a, got)
	_, ok = r.Get("bob", "team")
	assert.True(t, ok, "a shared session is anyone's")

	other, made, err := r.Add(nil, "team", newSandbox(t), nil)
	require.NoError(t, err)
	assert.False(t, made, "a taken id gives the session holding it")
	assert.Same(t, shared, other)

	assert.Len(t, r.List("alice"), 1)
	assert.Empty(t, r.List("bob"))
	assert.True(t, r.Remove("alice", a.ID))
	_, err = a.Sandbox.Run(context.Background(), "true", core.RunOptions{})
	assert.Error(t, err, "a removed session's sandbox is closed")
	assert.Equal(t, 1, r.Len())
}

func TestBounds(t *testing.T) {
	r := New(Options{MaxSessions: 3, MaxPerOwner: 2, MaxSnapshots: 2})
	defer r.Close()
	for range 2 {
		require.NoError(t, r.Reserve("alice"))
		_, _, err := r.Add("alice", "", newSandbox(t), nil)
		require.NoError(t, err)
	}
	assert.Equal(t, CodeQuotaExceeded, codeOf(r.Reserve("alice")), "per owner")
	sb := newSandbox(t)
	_, _, err := r.Add("alice", "", sb, nil)
	assert.Equal(t, CodeQuotaExceeded, codeOf(err), "Add checks again")
	sb.Close()
	b, _, err := r.Add("bob", "", newSandbox(t), nil)
	require.NoError(t, err)
	assert.Equal(t, CodeQuotaExceeded, codeOf(r.Reserve("carol")), "in all")

	b.Lock()
	for _, want := range []string{"snap1", "snap2"} {
		id, err := r.Snapshot(b)
		require.NoError(t, err)
		assert.Equal(t, want, id)
	}
	_, err = r.Snapshot(b)
	assert.Equal(t, CodeQuotaExceeded, codeOf(err))
	b.Unlock()
	_, err = b.SnapshotOf("snap9")
	assert.Equal(t, CodeNotFound, codeOf(err))
	_, err = r.Fork(context.Background(), b, nil)
	assert.Equal(t, CodeQuotaExceeded, codeOf(err), "a fork is a session too")
}

func TestMemory(t *testing.T) {
	r := New(Options{MaxMemory: 4 << 20, Limit: "--max-memory"})
	defer r.Close()
	x, _, err := r.Add("alice", "", newSandbox(t), nil)
	require.NoError(t, err)
	require.NoError(t, x.Sandbox.WriteFile("big", make([]byte, 3<<20), 0))
	assert.NoError(t, r.Room(0))
	err = r.Room(2 << 20)
	assert.Equal(t, CodeResourceExhausted, codeOf(err))
	assert.Contains(t, err.Error(), "(--max-memory)")
	x.Lock()
	_, err = r.Snapshot(x) // (a snapshot keeps nothing more at first)
	x.Unlock()
	require.NoError(t, err)
	require.NoError(t, x.Sandbox.WriteFile("big2", make([]byte, 2<<20), 0))
	assert.Equal(t, CodeResourceExhausted, codeOf(r.Reserve("bob")), "the sessions keep all they may")
}

func TestSnapshotsAndForks(t *testing.T) {
	r := New(Options{})
	defer r.Close()
	x, _, err := r.Add("alice", "", newSandbox(t), "value")
	require.NoError(t, err)
	require.NoError(t, x.Sandbox.WriteFile("f", []byte("one"), 0))
	x.Lock()
	id, err := r.Snapshot(x)
	x.Unlock()
	require.NoError(t, err)
	require.NoError(t, x.Sandbox.WriteFile("f", []byte("two"), 0))

	x.Lock()
	y, err := r.Fork(context.Background(), x, "child")
	x.Unlock()
	require.NoError(t, err)
	assert.Equal(t, "alice", y.Owner)
	assert.Equal(t, "child", y.Value)
	assert.NotEqual(t, x.ID, y.ID)

	snap, err := x.SnapshotOf(id)
	require.NoError(t, err)
	require.NoError(t, x.Sandbox.Restore(snap))
	b, _ := x.Sandbox.ReadFile("f")
	assert.Equal(t, "one", string(b))
	b, _ = y.Sandbox.ReadFile("f")
	assert.Equal(t, "two", string(b), "the fork is its own")
}

func TestExpire(t *testing.T) {
	r := New(Options{})
	defer r.Close()
	idle, _, _ := r.Add("a", "", newSandbox(t), nil)
	busy, _, _ := r.Add("a", "", newSandbox(t), nil)
	busy.Lock()
	time.Sleep(20 * time.Millisecond)
	assert.Equal(t, 1, r.Expire(10*time.Millisecond), "a running session is not expired")
	_, ok := r.Get("a", idle.ID)
	assert.False(t, ok)
	busy.Unlock() // (a use)
	assert.Equal(t, 0, r.Expire(10*time.Millisecond))
	_, ok = r.Get("a", busy.ID)
	assert.True(t, ok)
}

func TestClose(t *testing.T) {
	r := New(Options{})
	x, _, _ := r.Add("a", "", newSandbox(t), nil)
	r.Close()
	assert.Equal(t, 0, r.Len())
	_, err := x.Sandbox.Run(context.Background(), "true", core.RunOptions{})
	assert.Error(t, err)
	sb := newSandbox(t)
	defer sb.Close()
	_, _, err = r.Add("a", "", sb, nil)
	assert.Equal(t, CodeClosed, codeOf(err))
}

// Many clients at once: the bounds hold (run with -race).
func TestConcurrentAdds(t *testing.T) {
	r := New(Options{MaxSessions: 10})
	defer r.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	added := 0
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb := newSandbox(t)
			if _, _, err := r.Add(i%4, "", sb, nil); err != nil {
				sb.Close()
				return
			}
			mu.Lock()
			added++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, 10, added)
	assert.Equal(t, 10, r.Len())
}
