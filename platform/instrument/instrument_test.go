package instrument_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	wazwasi "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
	"github.com/wasmsand/wasmsand/wasi"

	"github.com/wasmsand/wasmsand/internal/testguest"
	"github.com/wasmsand/wasmsand/platform/instrument"
)

// The reference runtime: wazero's compiler with every feature it has, its own WASI, and
// a "wasmsand" host module with tick, which counts calls in the run's context and ends
// the run when the context is done.

type tickKey struct{}

var (
	rtOnce sync.Once
	rt     wazero.Runtime
)

var allFeatures = api.CoreFeaturesV2 | experimental.CoreFeaturesThreads | experimental.CoreFeaturesTailCall |
	experimental.CoreFeaturesExtendedConst | experimental.CoreFeaturesExceptionHandling |
	experimental.CoreFeaturesTypedFunctionReferences

func runtime(t testing.TB) wazero.Runtime {
	rtOnce.Do(func() {
		ctx := context.Background()
		cfg := wazero.NewRuntimeConfigCompiler().WithCoreFeatures(allFeatures).WithMemoryLimitPages(4096)
		// Compiled code is cached across test runs (the Go guests take seconds to compile).
		if dir, err := os.UserCacheDir(); err == nil {
			if c, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "wasmsand-test", "wazero")); err == nil {
				cfg = cfg.WithCompilationCache(c)
			}
		}
		rt = wazero.NewRuntimeWithConfig(ctx, cfg)
		wazwasi.MustInstantiate(ctx, rt)
		_, err := rt.NewHostModuleBuilder(instrument.ImportModule).NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, _ []uint64) {
				if n, ok := ctx.Value(tickKey{}).(*atomic.Int64); ok {
					n.Add(1)
				}
				if ctx.Err() != nil {
					panic(sys.NewExitError(124))
				}
			}), nil, nil).Export(instrument.ImportName).Instantiate(ctx)
		if err != nil {
			panic(err)
		}
	})
	return rt
}

type result struct {
	stdout, stderr string
	code           int
	err            string // first line of a trap
	ticks          int64
}

type runOpt struct {
	args  []string
	stdin string
	dir   string // mounted as "/"
	ctx   context.Context
}

func run(t testing.TB, wasm []byte, o runOpt) result {
	t.Helper()
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	var ticks atomic.Int64
	ctx = context.WithValue(ctx, tickKey{}, &ticks)
	r := runtime(t)
	cm, err := r.CompileModule(ctx, wasm)
	require.NoError(t, err)
	defer cm.Close(ctx)
	var out, errb bytes.Buffer
	cfg := wazero.NewModuleConfig().WithName("").WithArgs(o.args...).WithStdout(&out).WithStderr(&errb).
		WithStdin(strings.NewReader(o.stdin)).WithSysWalltime().WithSysNanotime()
	if o.dir != "" {
		cfg = cfg.WithFSConfig(wazero.NewFSConfig().WithDirMount(o.dir, "/"))
	}
	mod, err := r.InstantiateModule(ctx, cm, cfg)
	res := result{}
	if err != nil {
		var ee *sys.ExitError
		if errors.As(err, &ee) {
			res.code = int(ee.ExitCode())
		} else {
			res.err, _, _ = strings.Cut(err.Error(), "\n")
		}
	} else {
		mod.Close(ctx)
	}
	res.stdout, res.stderr, res.ticks = out.String(), errb.String(), ticks.Load()
	return res
}

func instr(t testing.TB, wasm []byte, o instrument.Options) ([]byte, instrument.Stats) {
	t.Helper()
	out, st, err := o.Instrument(wasm)
	require.NoError(t, err)
	return out, st
}

func cGuest(t testing.TB, path string) []byte { return testguest.C(t, path) }

const nativeGuests = "../enginetest/testdata/guests/"

// writeTree makes the tree fsops expects under /data (see platform/native/harness_test.go).
func writeTree(t testing.TB) string {
	root := t.TempDir()
	for _, d := range []string{"data/dir/sub", "data/empty", "tmp"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	for p, s := range map[string]string{"data/a.txt": "alpha\n", "data/b.txt": "bravo\n", "data/dir/a": "dir/a\n",
		"data/dir/b": "dir/b\n", "data/dir/sub/deep": "deep\n"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, p), []byte(s), 0o644))
	}
	require.NoError(t, os.Symlink("a.txt", filepath.Join(root, "data/link-to-a")))
	require.NoError(t, os.Symlink("dir", filepath.Join(root, "data/link-to-dir")))
	return root
}

// Real guests run identically once instrumented.
func TestGuestsRunIdentically(t *testing.T) {
	lines := make([]string, 0, 20000)
	for i := 0; i < 20000; i++ {
		lines = append(lines, strings.Repeat(string(rune('a'+i*7%26)), 1+i%13)+" "+string(rune('A'+i*31%26)))
	}
	sortInput := strings.Join(lines, "\n") + "\n"
	for _, tc := range []struct {
		name, guest string
		args        []string
		stdin       string
		fs          bool
	}{
		{"hello", "hello", []string{"hello"}, "", false},
		{"args", "args", []string{"args", "x", "two words"}, "", false},
		{"exit 42", "exitcode", []string{"exitcode", "42"}, "", false},
		{"cat", "cat", []string{"cat"}, strings.Repeat("some input\n", 5000), false},
		{"sortlines", "sortlines", []string{"sortlines"}, sortInput, false},
		{"trap unreachable", "trap", []string{"trap", "unreachable"}, "", false},
		{"trap oob", "trap", []string{"trap", "oob"}, "", false},
		{"trap stack", "trap", []string{"trap", "stack"}, "", false},
		{"trap div", "trap", []string{"trap", "div"}, "", false},
		{"fsops readwrite", "fsops", []string{"fsops", "readwrite", "readdir", "stat", "mkdir", "rename", "errors"}, "", true},
		{"oom", "oom", []string{"oom"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wasm := cGuest(t, nativeGuests+tc.guest+".c")
			o := runOpt{args: tc.args, stdin: tc.stdin}
			if tc.fs {
				o.dir = writeTree(t)
			}
			want := run(t, wasm, o)
			inst, _ := instr(t, wasm, instrument.Options{Interval: 1000})
			if tc.fs {
				o.dir = writeTree(t)
			}
			got := run(t, inst, o)
			assert.Equal(t, want.stdout, got.stdout)
			assert.Equal(t, want.stderr, got.stderr)
			assert.Equal(t, want.code, got.code)
			assert.Equal(t, want.err, got.err)
			assert.Zero(t, want.ticks)
			if tc.guest == "sortlines" {
				assert.Greater(t, got.ticks, int64(100), "a compute loop ticks")
			}
			t.Logf("ticks: %d, %d bytes → %d", got.ticks, len(wasm), len(inst))
		})
	}
}

func TestGoGuestRunsIdentically(t *testing.T) {
	for _, dir := range []string{"testdata/gocompute", "../native/testdata/goguests/fsgo"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			wasm := testguest.Go(t, dir)
			o := runOpt{args: []string{"g", "arg"}}
			if strings.HasSuffix(dir, "fsgo") {
				o.dir = writeTree(t)
			}
			want := run(t, wasm, o)
			inst, st := instr(t, wasm, instrument.Options{})
			if o.dir != "" {
				o.dir = writeTree(t)
			}
			got := run(t, inst, o)
			assert.Equal(t, want, result{stdout: got.stdout, stderr: got.stderr, code: got.code, err: got.err})
			assert.NotEmpty(t, want.stdout)
			t.Logf("%+v, ticks %d, %d → %d bytes\n%s", st, got.ticks, len(wasm), len(inst), got.stdout)
		})
	}
}

// An infinite loop ticks, and the tick ends it when the context is done.
func TestSpinTicksAndStops(t *testing.T) {
	inst, st := instr(t, cGuest(t, nativeGuests+"spin.c"), instrument.Options{})
	assert.NotZero(t, st.Loops)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	got := run(t, inst, runOpt{args: []string{"spin"}, ctx: ctx})
	assert.Equal(t, 124, got.code)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Greater(t, got.ticks, int64(10))
	t.Logf("%d ticks in %v", got.ticks, time.Since(start))
}

func wat(t testing.TB, name string, flags ...string) []byte {
	t.Helper()
	tool, err := exec.LookPath("wat2wasm")
	if err != nil {
		t.Fatalf("wat2wasm (wabt) is not installed: run `make deps`")
	}
	out := filepath.Join(t.TempDir(), name+".wasm")
	cmd := exec.Command(tool, append(flags, "--debug-names", "-o", out, filepath.Join("testdata", name+".wat"))...)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

func validate(t testing.TB, wasm []byte, flags ...string) {
	t.Helper()
	tool, err := exec.LookPath("wasm-validate")
	if err != nil {
		t.Fatalf("wasm-validate (wabt) is not installed: run `make deps`")
	}
	f := filepath.Join(t.TempDir(), "m.wasm")
	require.NoError(t, os.WriteFile(f, wasm, 0o644))
	msg, err := exec.Command(tool, append(flags, f)...).CombinedOutput()
	require.NoError(t, err, "%s", msg)
}

// features.wat runs identically instrumented: loops with block parameters, tail calls,
// tables filled by every element segment form, ref.func in globals, SIMD, bulk memory,
// atomics, a start function.
func TestFeaturesModule(t *testing.T) {
	wasm := wat(t, "features", "--enable-threads", "--enable-tail-call")
	want := run(t, wasm, runOpt{})
	require.Empty(t, want.err)
	require.NotEmpty(t, want.stdout)
	inst, st := instr(t, wasm, instrument.Options{Interval: 100})
	validate(t, inst, "--enable-threads", "--enable-tail-call")
	got := run(t, inst, runOpt{})
	assert.Equal(t, want.stdout, got.stdout)
	assert.Equal(t, want.code, got.code)
	assert.Empty(t, got.err)
	// $loops runs 100000 iterations, $rec 2^17 calls: ~2300 ticks at interval 100.
	assert.Greater(t, got.ticks, int64(2000))
	t.Logf("%+v, %d ticks, checksum %s", st, got.ticks, got.stdout)
	compareExports(t, wasm, inst)
}

// branches.wat: labels crossing loops, which the instrumenter wraps, are renumbered;
// every export returns the same at any interval (1 ticks at every loop header).
func TestBranchesModule(t *testing.T) {
	wasm := wat(t, "branches")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a wrong label loops
	defer cancel()
	r := runtime(t)
	call := func(bin []byte) map[string]uint64 {
		cm, err := r.CompileModule(ctx, bin)
		require.NoError(t, err)
		defer cm.Close(ctx)
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
		require.NoError(t, err)
		defer mod.Close(ctx)
		got := map[string]uint64{}
		for _, name := range []string{"nested", "results", "table", "early"} {
			res, err := mod.ExportedFunction(name).Call(ctx)
			require.NoError(t, err, name)
			got[name] = res[0]
		}
		return got
	}
	want := call(wasm)
	for _, interval := range []uint32{1, 3, 1000} {
		inst, st := instr(t, wasm, instrument.Options{Interval: interval})
		validate(t, inst)
		assert.Equal(t, 7, st.Loops)
		assert.Equal(t, want, call(inst), "interval %d", interval)
	}
	t.Logf("%v", want)
}

// validate.wat (legacy exceptions, multi-memory, memory64, relaxed SIMD, atomics) still
// validates instrumented.
func TestValidateModule(t *testing.T) {
	wasm := wat(t, "validate", "--enable-all")
	inst, st := instr(t, wasm, instrument.Options{})
	validate(t, inst, "--enable-all")
	assert.Equal(t, 3, st.Loops)
}

// compareExports checks through wazero's decoder that every export kept its name, type
// and (renumbered) function.
func compareExports(t *testing.T, orig, inst []byte) {
	t.Helper()
	ctx := context.Background()
	r := runtime(t)
	a, err := r.CompileModule(ctx, orig)
	require.NoError(t, err)
	defer a.Close(ctx)
	b, err := r.CompileModule(ctx, inst)
	require.NoError(t, err)
	defer b.Close(ctx)
	nimp := uint32(len(a.ImportedFunctions()))
	require.Len(t, b.ImportedFunctions(), int(nimp)+1)
	tick := b.ImportedFunctions()[nimp]
	mod, name, _ := tick.Import()
	assert.Equal(t, instrument.ImportModule+"."+instrument.ImportName, mod+"."+name)
	assert.Empty(t, tick.ParamTypes())
	assert.Empty(t, tick.ResultTypes())
	ea, eb := a.ExportedFunctions(), b.ExportedFunctions()
	require.Equal(t, len(ea), len(eb))
	for n, fa := range ea {
		fb := eb[n]
		require.NotNil(t, fb, n)
		want := fa.Index()
		if want >= nimp {
			want++
		}
		assert.Equal(t, want, fb.Index(), n)
		assert.Equal(t, fa.Name(), fb.Name(), n)
		assert.Equal(t, fa.ParamTypes(), fb.ParamTypes(), n)
		assert.Equal(t, fa.ResultTypes(), fb.ResultTypes(), n)
	}
	assert.Equal(t, len(a.ExportedMemories()), len(b.ExportedMemories()))
}

func TestGuestExports(t *testing.T) {
	for _, g := range []string{"hello", "sortlines"} {
		wasm := cGuest(t, nativeGuests+g+".c")
		inst, _ := instr(t, wasm, instrument.Options{})
		compareExports(t, wasm, inst)
	}
	wasm := testguest.Go(t, "testdata/gocompute")
	inst, _ := instr(t, wasm, instrument.Options{})
	compareExports(t, wasm, inst)
}

// ImportMemory: the one defined memory becomes an import with the same
// limits; the module still validates, and other modules are left alone.
func TestImportMemory(t *testing.T) {
	wasm := testguest.Go(t, "testdata/gocompute")
	out, st, err := instrument.Options{ImportMemory: true}.Instrument(wasm)
	require.NoError(t, err)
	validate(t, out)
	require.NotNil(t, st.Memory)
	cm, err := runtime(t).CompileModule(context.Background(), out)
	require.NoError(t, err)
	defer cm.Close(context.Background())
	imp := cm.ImportedMemories()
	require.Len(t, imp, 1)
	mod, name, ok := imp[0].Import()
	require.True(t, ok)
	assert.Equal(t, instrument.ImportModule+"."+instrument.MemoryImportName, mod+"."+name)
	assert.Equal(t, st.Memory.Min, imp[0].Min())
	assert.Contains(t, cm.ExportedMemories(), "memory", "the export still names it")
	var grow bool
	for _, f := range cm.ImportedFunctions() {
		if m, n, _ := f.Import(); m == instrument.ImportModule && n == instrument.MemoryGrowName {
			grow = true
			assert.Equal(t, []api.ValueType{api.ValueTypeI32}, f.ParamTypes())
			assert.Equal(t, []api.ValueType{api.ValueTypeI32}, f.ResultTypes())
		}
	}
	assert.True(t, grow, "memory.grow goes through wasmsand.memory_grow")

	// without the option nothing is imported
	out, st, err = instrument.Options{}.Instrument(wasm)
	require.NoError(t, err)
	assert.Nil(t, st.Memory)
	cm2, err := runtime(t).CompileModule(context.Background(), out)
	require.NoError(t, err)
	defer cm2.Close(context.Background())
	assert.Empty(t, cm2.ImportedMemories())

	// a module with two memories keeps them
	out, st, err = instrument.Options{ImportMemory: true}.Instrument(wat(t, "validate", "--enable-all"))
	require.NoError(t, err)
	assert.Nil(t, st.Memory)
}

// The import the rewritten modules call is the wasi table's tick.
func TestImportIsWasiTick(t *testing.T) {
	if instrument.ImportModule != wasi.ModuleWasmsand || instrument.ImportName != wasi.TickName {
		t.Fatalf("instrument imports %s.%s, the wasi table has %s.%s", instrument.ImportModule, instrument.ImportName, wasi.ModuleWasmsand, wasi.TickName)
	}
}
