package native

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
)

// Every test guest is instrumented (none falls back to wazero's per-loop guard).
func TestGuestsAreInstrumented(t *testing.T) {
	for _, g := range []string{"hello", "spin", "cat", "fsops", "trap", "sortlines", "spawn"} {
		m, err := testEngine(t).Compile(context.Background(), "", cGuest(t, g))
		require.NoError(t, err)
		assert.True(t, m.(*Module).Instrumented(), g)
	}
	m, err := testEngine(t).Compile(context.Background(), "", goGuest(t, "fsgo"))
	require.NoError(t, err)
	assert.True(t, m.(*Module).Instrumented(), "fsgo")
}

// recursionGuest: f(n) calls f(n-1) twice and has no loop; _start calls f(40) (2^41 calls,
// hours). Only the ticks at function entries can stop it.
func recursionGuest() []byte {
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 8, 2, 0x60, 1, 0x7f, 0, 0x60, 0, 0, // types: (i32) -> (), () -> ()
		3, 3, 2, 0, 1, // functions
		7, 10, 1, 6, '_', 's', 't', 'a', 'r', 't', 0, 1, // export _start
		10, 32, 2,
		23, 0, 0x20, 0, 0x45, 0x04, 0x40, 0x0f, 0x0b, // if n == 0 return
		0x20, 0, 0x41, 1, 0x6b, 0x10, 0, // f(n-1)
		0x20, 0, 0x41, 1, 0x6b, 0x10, 0, 0x0b, // f(n-1)
		6, 0, 0x41, 40, 0x10, 0, 0x0b, // _start: f(40)
	}
	return b
}

func TestTimeoutStopsLoopFreeRecursion(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := runOurs(t, recursionGuest(), vfs.New(vfs.Options{}), runOpt{args: []string{"rec"}, ctx: ctx})
	require.ErrorIs(t, r.err, platform.ErrTimeout)
	assert.Equal(t, platform.ExitTimeout, r.code)
	assert.Less(t, time.Since(start), 2*time.Second)
}

// A spinning guest does not stall the rest of the process: with two Ps, another
// goroutine's timers fire on time and forced GCs (stop-the-world) complete, because the
// guest comes back to Go at every tick.
func TestSpinDoesNotStallProcess(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	m, err := testEngine(t).Compile(context.Background(), "", cGuest(t, "spin"))
	require.NoError(t, err)
	worstGC, worstSleep, n := stallRounds(nil, 300*time.Millisecond)
	t.Logf("idle: %d rounds: worst runtime.GC() %v, worst time.Sleep(10ms) overshoot %v", n, worstGC, worstSleep)

	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := m.Run(ctx, newProc(vfs.New(vfs.Options{}), []string{"spin"}, nil, nil, nil), platform.Limits{})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // the guest is spinning now
	worstGC, worstSleep, n = stallRounds(ctx, 0)
	require.ErrorIs(t, <-done, platform.ErrTimeout)
	t.Logf("spinning: %d rounds: worst runtime.GC() %v, worst time.Sleep(10ms) overshoot %v", n, worstGC, worstSleep)
	assert.Less(t, worstGC, time.Second)
	assert.Less(t, worstSleep, time.Second)
	assert.Greater(t, n, 10)
}

// stallRounds forces GCs and sleeps 10ms in turn until ctx ends (or for d) and returns the
// worst GC time and the worst oversleep.
func stallRounds(ctx context.Context, d time.Duration) (worstGC, worstSleep time.Duration, n int) {
	end := time.Now().Add(d)
	for (ctx != nil && ctx.Err() == nil) || (ctx == nil && time.Now().Before(end)) {
		t0 := time.Now()
		runtime.GC()
		t1 := time.Now()
		time.Sleep(10 * time.Millisecond)
		worstGC = max(worstGC, t1.Sub(t0))
		worstSleep = max(worstSleep, time.Since(t1)-10*time.Millisecond)
		n++
	}
	return
}

// A module the instrumenter refuses runs on the fallback runtime, which still stops it.
func TestFallbackRuntime(t *testing.T) {
	saved := instrumentWasm
	instrumentWasm = func([]byte) ([]byte, error) { return nil, errors.New("refused") }
	defer func() { instrumentWasm = saved }()
	ctx := context.Background()
	e, err := New(ctx, Options{})
	require.NoError(t, err)
	defer e.Close(ctx)
	m, err := e.Compile(ctx, "", cGuest(t, "spin"))
	require.NoError(t, err)
	assert.False(t, m.(*Module).Instrumented())

	tctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	code, err := m.Run(tctx, newProc(vfs.New(vfs.Options{}), []string{"spin"}, nil, nil, nil), platform.Limits{})
	require.ErrorIs(t, err, platform.ErrTimeout)
	assert.Equal(t, platform.ExitTimeout, code)

	h, err := e.Compile(ctx, "", cGuest(t, "hello"))
	require.NoError(t, err)
	r := result{}
	var out []byte
	w := writerFunc(func(p []byte) (int, error) { out = append(out, p...); return len(p), nil })
	r.code, r.err = h.Run(ctx, newProc(vfs.New(vfs.Options{}), []string{"hello"}, nil, w, nil), platform.Limits{})
	require.NoError(t, r.err)
	assert.Equal(t, "hello, world\n", string(out))

	_, err = e.Compile(ctx, "", []byte("garbage"))
	require.ErrorIs(t, err, platform.ErrInvalidModule)

	time.AfterFunc(50*time.Millisecond, func() { e.Close(ctx) })
	code, err = m.Run(ctx, newProc(vfs.New(vfs.Options{}), []string{"spin"}, nil, nil, nil), platform.Limits{})
	require.ErrorIs(t, err, platform.ErrKilled)
	assert.Equal(t, platform.ExitKilled, code)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
