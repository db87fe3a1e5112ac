package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tetratelabs/wazero"
	wazwasi "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/wasmsand/wasmsand/internal/benchdata"
	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// BenchmarkFdWrite: one write(1, "x", 1) round trip, ns/op per call. The guest loops b.N
// times in one run, so instantiation is amortized away.
func BenchmarkFdWrite(b *testing.B) {
	wasm := cGuest(b, "writebench")
	b.Run("ours", func(b *testing.B) {
		m, err := testEngine(b).Compile(context.Background(), "", wasm)
		if err != nil {
			b.Fatal(err)
		}
		p := newProc(vfs.New(vfs.Options{}), []string{"w", strconv.Itoa(b.N)}, nil, io.Discard, io.Discard)
		b.ResetTimer()
		if code, err := m.Run(context.Background(), p, platform.Limits{}); code != 0 || err != nil {
			b.Fatal(code, err)
		}
	})
	b.Run("wazero-wasi", func(b *testing.B) {
		ctx := context.Background()
		rt := wazero.NewRuntime(ctx)
		defer rt.Close(ctx)
		wazwasi.MustInstantiate(ctx, rt)
		cm, err := rt.CompileModule(ctx, wasm)
		if err != nil {
			b.Fatal(err)
		}
		cfg := wazero.NewModuleConfig().WithArgs("w", strconv.Itoa(b.N)).WithStdout(io.Discard)
		b.ResetTimer()
		if _, err := rt.InstantiateModule(ctx, cm, cfg); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkRunHello: a warm run (compiled module reused) of a C hello world.
func BenchmarkRunHello(b *testing.B) {
	wasm := cGuest(b, "hello")
	fsys := vfs.New(vfs.Options{})
	b.Run("ours", func(b *testing.B) {
		m, err := testEngine(b).Compile(context.Background(), "", wasm)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			p := newProc(fsys, []string{"hello"}, nil, io.Discard, io.Discard)
			if code, err := m.Run(context.Background(), p, platform.Limits{}); code != 0 || err != nil {
				b.Fatal(code, err)
			}
			p.Close()
		}
	})
	b.Run("wazero-wasi", func(b *testing.B) {
		ctx := context.Background()
		rt := wazero.NewRuntime(ctx)
		defer rt.Close(ctx)
		wazwasi.MustInstantiate(ctx, rt)
		cm, err := rt.CompileModule(ctx, wasm)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			mod, err := rt.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName("").WithArgs("hello").WithStdout(io.Discard))
			if err != nil {
				b.Fatal(err)
			}
			mod.Close(ctx)
		}
	})
}

// BenchmarkStartup: what a new process pays to get a module ready: a cold compile, versus
// a fresh engine over a warm disk cache (the second `wasmsand` invocation).
func BenchmarkStartup(b *testing.B) {
	for _, g := range []struct {
		name string
		wasm func(testing.TB) []byte
	}{
		{"c-fsops", func(t testing.TB) []byte { return cGuest(t, "fsops") }},
		{"go-fsgo", func(t testing.TB) []byte { return goGuest(t, "fsgo") }},
	} {
		wasm := g.wasm(b)
		ctx := context.Background()
		b.Run(g.name+"/cold", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e, err := New(ctx, Options{CacheDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.Compile(ctx, "", wasm); err != nil {
					b.Fatal(err)
				}
				e.Close(ctx)
			}
		})
		b.Run(g.name+"/diskcache", func(b *testing.B) {
			dir := b.TempDir()
			e, err := New(ctx, Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Compile(ctx, "", wasm); err != nil {
				b.Fatal(err)
			}
			e.Close(ctx)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e, err := New(ctx, Options{CacheDir: dir})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.Compile(ctx, "", wasm); err != nil {
					b.Fatal(err)
				}
				e.Close(ctx)
			}
		})
	}
}

// BenchmarkHostCall measures the binding alone: a Go → host function call through our
// table without an engine (the floor under BenchmarkFdWrite/ours).
func BenchmarkHostCall(b *testing.B) {
	var fdWrite wasi.Func
	for _, f := range wasi.Funcs() {
		if f.Name == "fd_write" {
			fdWrite = f
		}
	}
	p := newProc(vfs.New(vfs.Options{}), nil, nil, io.Discard, io.Discard)
	m := &wasi.SliceMemory{Buf: make([]byte, 4096)}
	m.WriteUint32Le(0, 100)
	m.WriteUint32Le(4, 1)
	stack := make([]uint64, 4)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		stack[0], stack[1], stack[2], stack[3] = 1, 0, 1, 200
		fdWrite.Call(ctx, p, m, stack)
	}
	if stack[0] != 0 {
		b.Fatal(fmt.Sprint("errno ", stack[0]))
	}
}

type computeCase struct {
	name string
	wasm []byte
	args []string
}

// computeCases: compute-heavy guests reading the 5 MB log on stdin; toybox cases need
// build/assets.
func computeCases(t testing.TB) []computeCase {
	cases := []computeCase{{"sortlines", cGuest(t, "sortlines"), []string{"sortlines"}}}
	if tb, err := os.ReadFile("../../build/assets/toybox.wasm"); err == nil {
		cases = append(cases, computeCase{"toybox-sort", tb, []string{"sort"}},
			computeCase{"toybox-grep-c", tb, []string{"grep", "-c", "ERROR"}})
	}
	return cases
}

// computeModes: instrumented (what the engine does), closeondone (the fallback runtime:
// wazero's per-loop exit to Go, what the engine did before) and unguarded (not
// instrumented, no guard: the floor, unusable as such since it cannot be stopped).
var computeModes = []struct {
	name string
	inst func([]byte) ([]byte, error)
}{
	{"instrumented", instrumentWasm},
	{"closeondone", func([]byte) ([]byte, error) { return nil, errors.New("off") }},
	{"unguarded", func(b []byte) ([]byte, error) { return b, nil }},
}

// compileMode compiles wasm on a new engine in one of computeModes.
func compileMode(t testing.TB, e *Engine, inst func([]byte) ([]byte, error), wasm []byte) platform.Module {
	saved := instrumentWasm
	instrumentWasm = inst
	m, err := e.Compile(context.Background(), "", wasm)
	instrumentWasm = saved
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func runCompute(t testing.TB, m platform.Module, args []string, in []byte) {
	p := newProc(vfs.New(vfs.Options{}), args, nil, io.Discard, io.Discard)
	p.Stdin = bytes.NewReader(in)
	if code, err := m.Run(context.Background(), p, platform.Limits{}); code != 0 || err != nil {
		t.Fatal(code, err)
	}
}

// BenchmarkCompute: the compute cases, one run per op, in each mode.
func BenchmarkCompute(b *testing.B) {
	log := benchdata.Log(5 << 20)
	ctx := context.Background()
	for _, c := range computeCases(b) {
		for _, mode := range computeModes {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				e, err := New(ctx, Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close(ctx)
				m := compileMode(b, e, mode.inst, c.wasm)
				b.SetBytes(int64(len(log)))
				b.ResetTimer()
				cpu := cpuTime()
				for i := 0; i < b.N; i++ {
					runCompute(b, m, c.args, log)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
			})
		}
	}
}

// TestComputeOverhead (WASMSAND_OVERHEAD=rounds) runs the compute cases in every mode in
// turn and logs the best CPU time of each: on a shared machine the minimum of interleaved
// runs is steadier than a benchmark's mean.
func TestComputeOverhead(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("WASMSAND_OVERHEAD"))
	if rounds == 0 {
		t.Skip("WASMSAND_OVERHEAD=rounds not set")
	}
	log := benchdata.Log(5 << 20)
	ctx := context.Background()
	for _, c := range computeCases(t) {
		mods := make([]platform.Module, len(computeModes))
		for i, mode := range computeModes {
			e, err := New(ctx, Options{})
			require.NoError(t, err)
			defer e.Close(ctx)
			mods[i] = compileMode(t, e, mode.inst, c.wasm)
			runCompute(t, mods[i], c.args, log) // warm up
		}
		best := make([]time.Duration, len(mods))
		for r := 0; r < rounds; r++ {
			for i, m := range mods {
				cpu := cpuTime()
				runCompute(t, m, c.args, log)
				if d := cpuTime() - cpu; r == 0 || d < best[i] {
					best[i] = d
				}
			}
		}
		line := c.name + ":"
		for i, mode := range computeModes {
			line += fmt.Sprintf(" %s %.1f ms (%.2f×)", mode.name, float64(best[i])/1e6, float64(best[i])/float64(best[len(best)-1]))
		}
		t.Log(line)
	}
}
