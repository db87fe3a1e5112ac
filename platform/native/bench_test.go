package native

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/tetratelabs/wazero"
	wazwasi "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

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
