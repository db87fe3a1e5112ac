package instrument_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"

	"github.com/wasmsand/wasmsand/platform/instrument"
)

// Hand-assembled modules for what wat2wasm cannot write (try_table) and for shapes the
// compilers never emit (no import, no global section, no loops at all).

func uleb(v uint32) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func vec(items ...[]byte) []byte {
	b := uleb(uint32(len(items)))
	for _, it := range items {
		b = append(b, it...)
	}
	return b
}

func sec(id byte, payload []byte) []byte {
	return append(append([]byte{id}, uleb(uint32(len(payload)))...), payload...)
}

func str(s string) []byte { return append(uleb(uint32(len(s))), s...) }

func body(locals []byte, code ...byte) []byte {
	b := append(append([]byte{}, locals...), code...)
	return append(uleb(uint32(len(b))), b...)
}

func module(sections ...[]byte) []byte {
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	for _, s := range sections {
		b = append(b, s...)
	}
	return b
}

// recursion: f(n) calls f(n-1) twice and has no loop; _start calls f(20): 2^21 calls.
// The module has no import and no global section.
func recursionModule() []byte {
	return module(
		sec(1, vec([]byte{0x60, 1, 0x7f, 0}, []byte{0x60, 0, 0})),
		sec(3, vec([]byte{0}, []byte{1})),
		sec(7, vec(append(str("_start"), 0, 1))),
		sec(10, vec(
			body([]byte{0},
				0x20, 0, 0x45, 0x04, 0x40, 0x0f, 0x0b, // if n == 0 return
				0x20, 0, 0x41, 1, 0x6b, 0x10, 0, // f(n-1)
				0x20, 0, 0x41, 1, 0x6b, 0x10, 0, // f(n-1)
				0x0b),
			body([]byte{0}, 0x41, 20, 0x10, 0, 0x0b),
		)),
		sec(0, append(str("name"), append([]byte{1}, append(uleb(uint32(len(vec(append(uleb(0), str("f")...), append(uleb(1), str("start")...))))),
			vec(append(uleb(0), str("f")...), append(uleb(1), str("start")...))...)...)...)),
	)
}

// tryTable: "run" () -> i32 loops 1000 times throwing and catching (try_table with
// catch_all), then returns the count. The tick type () -> () exists already (the tag's).
func tryTableModule() []byte {
	return module(
		sec(1, vec([]byte{0x60, 0, 0}, []byte{0x60, 0, 1, 0x7f})),
		sec(3, vec([]byte{1}, []byte{0})),
		sec(13, vec([]byte{0, 0})), // tag 0: () -> ()
		sec(7, vec(append(str("run"), 0, 0), append(str("_start"), 0, 1))),
		sec(10, vec(
			body([]byte{1, 1, 0x7f}, // local $i i32
				0x03, 0x40, // loop
				0x02, 0x40, // block $h
				0x1f, 0x40, 1, 0x02, 0, // try_table (catch_all $h)
				0x08, 0, // throw 0
				0x0b,                            // end try_table
				0x0b,                            // end block
				0x20, 0, 0x41, 1, 0x6a, 0x22, 0, // i = i + 1 (tee)
				0x41, 0xe8, 0x07, 0x49, 0x0d, 0, // br_if 0 (i < 1000)
				0x0b,           // end loop
				0x20, 0, 0x0b), // i
			body([]byte{0}, 0x0b),
		)),
	)
}

func TestRecursionWithoutLoopsTicks(t *testing.T) {
	wasm := recursionModule()
	inst, st := instr(t, wasm, instrument.Options{Interval: 1000})
	assert.Equal(t, 0, st.Loops)
	assert.Equal(t, 1, st.Entries, "f calls itself; _start calls f, which counts")
	validate(t, inst)
	got := run(t, inst, runOpt{})
	assert.Empty(t, got.err)
	assert.InDelta(t, 1<<21/1000, got.ticks, 10)
	compareExports(t, wasm, inst)
}

// A DAG of calls without loops or recursion: f_k calls f_(k-1) twice, so _start's call
// of f_24 makes 2^25 calls. No function is on a cycle, yet the work grows with 2^k: the
// functions whose calls add up past the bound count at entry, and the run ticks.
func TestCallTreeWithoutLoopsTicks(t *testing.T) {
	const depth = 24
	funcs := [][]byte{body([]byte{0}, 0x41, 1, 0x1a, 0x0b)} // f_0: i32.const 1, drop
	for k := 1; k <= depth; k++ {
		funcs = append(funcs, body([]byte{0}, append(append(append([]byte{0x10}, uleb(uint32(k-1))...), append([]byte{0x10}, uleb(uint32(k-1))...)...), 0x0b)...))
	}
	funcs = append(funcs, body([]byte{0}, append(append([]byte{0x10}, uleb(depth)...), 0x0b)...)) // _start
	types := make([][]byte, len(funcs))
	for i := range types {
		types[i] = []byte{0}
	}
	wasm := module(
		sec(1, vec([]byte{0x60, 0, 0})),
		sec(3, vec(types...)),
		sec(7, vec(append(append(str("_start"), 0), uleb(depth+1)...))),
		sec(10, vec(funcs...)),
	)
	inst, st := instr(t, wasm, instrument.Options{Interval: 1000})
	assert.Equal(t, 0, st.Loops)
	assert.Positive(t, st.Entries)
	assert.Less(t, st.Entries, depth, "the small functions near the leaves do not count")
	validate(t, inst)
	got := run(t, inst, runOpt{})
	assert.Empty(t, got.err)
	assert.Greater(t, got.ticks, int64(100), "%+v", st)
	t.Logf("%+v, %d ticks", st, got.ticks)
}

func TestTryTable(t *testing.T) {
	wasm := tryTableModule()
	inst, st := instr(t, wasm, instrument.Options{Interval: 10})
	assert.Equal(t, 1, st.Loops)
	ctx := context.Background()
	r := runtime(t)
	for _, bin := range [][]byte{wasm, inst} {
		cm, err := r.CompileModule(ctx, bin)
		require.NoError(t, err)
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
		require.NoError(t, err)
		res, err := mod.ExportedFunction("run").Call(ctx)
		require.NoError(t, err)
		assert.Equal(t, []uint64{1000}, res)
		mod.Close(ctx)
	}
}

// A try_table in a loop whose catch leaves the loop: the label crosses the blocks the
// instrumenter wraps the loop in, so it is renumbered (else the throw would land in the
// wrapper and the loop would never end). "run" returns 5.
func TestTryTableLeavesLoop(t *testing.T) {
	wasm := module(
		sec(1, vec([]byte{0x60, 0, 0}, []byte{0x60, 0, 1, 0x7f})),
		sec(3, vec([]byte{1})),
		sec(13, vec([]byte{0, 0})),
		sec(7, vec(append(str("run"), 0, 0))),
		sec(10, vec(
			body([]byte{0},
				0x02, 0x40, // block $h
				0x03, 0x40, // loop
				0x1f, 0x40, 1, 0x02, 1, // try_table (catch_all 1 = $h)
				0x08, 0, // throw 0
				0x0b,    // end try_table
				0x0c, 0, // br 0 (the loop)
				0x0b,           // end loop
				0x0b,           // end block
				0x41, 5, 0x0b), // 5
		)),
	)
	inst, st := instr(t, wasm, instrument.Options{Interval: 1})
	assert.Equal(t, 1, st.Loops)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := runtime(t)
	cm, err := r.CompileModule(ctx, inst)
	require.NoError(t, err)
	mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	require.NoError(t, err)
	defer mod.Close(ctx)
	res, err := mod.ExportedFunction("run").Call(ctx)
	require.NoError(t, err)
	assert.Equal(t, []uint64{5}, res)
}

// The smallest module gets a type, an import and a global section.
func TestEmptyModule(t *testing.T) {
	inst, st := instr(t, module(), instrument.Options{})
	assert.Equal(t, instrument.Stats{}, st)
	validate(t, inst)
	assert.Equal(t, module(
		sec(1, vec([]byte{0x60, 0, 0})),
		sec(2, vec(append(append(str("wasmsand"), str("tick")...), 0, 0))),
		sec(6, vec([]byte{0x7f, 1, 0x41, 0x80, 0x80, 0x04, 0x0b})),
	), inst)
}

// Truncated or corrupted modules give errors, never panics.
func TestMalformed(t *testing.T) {
	seeds := [][]byte{recursionModule(), tryTableModule(), cGuest(t, nativeGuests+"hello.c"), wat(t, "validate", "--enable-all")}
	for _, wasm := range seeds {
		step := max(1, len(wasm)/3000)
		for n := 0; n < len(wasm); n += step {
			// A prefix ending on a section boundary is a valid (smaller) module: only
			// the absence of panics is checked.
			instrument.Instrument(wasm[:n])
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(wasm))))
		buf := make([]byte, len(wasm))
		for i := 0; i < 2000; i++ {
			copy(buf, wasm)
			for j := 0; j < 1+rng.IntN(4); j++ {
				buf[rng.IntN(len(buf))] = byte(rng.Uint32())
			}
			instrument.Instrument(buf)
		}
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm"), []byte("\x00asm\x0d\x00\x01\x00"), []byte("not wasm at all")} {
		_, err := instrument.Instrument(bad)
		assert.Error(t, err)
	}
}

// FuzzInstrument: no input panics; an instrumented module instruments again; whatever
// wazero (all features, interpreter: same validator) accepts stays acceptable.
func FuzzInstrument(f *testing.F) {
	for _, s := range [][]byte{recursionModule(), tryTableModule(), module(), wat(f, "features", "--enable-threads", "--enable-tail-call"),
		wat(f, "validate", "--enable-all"), wat(f, "branches")} { // (a C guest is too big a seed: minimizing it takes minutes)
		f.Add(s)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter().WithCoreFeatures(allFeatures))
	f.Fuzz(func(t *testing.T, wasm []byte) {
		out, err := instrument.Instrument(wasm)
		if err != nil {
			return
		}
		if _, err := instrument.Instrument(out); err != nil {
			t.Fatalf("instrumented output does not instrument again: %v", err)
		}
		if compiles(ctx, rt, wasm) != nil {
			return
		}
		if err := compiles(ctx, rt, out); err != nil {
			t.Fatalf("wazero accepts the input but not the output: %v", err)
		}
	})
}

// compiles compiles wasm and closes it; a panic of wazero's validator (v1.12.0 indexes
// the type section with an unchecked tag type index when exception handling is on) is an
// error too.
func compiles(ctx context.Context, rt wazero.Runtime, wasm []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("wazero panicked: %v", r)
		}
	}()
	cm, err := rt.CompileModule(ctx, wasm)
	if err == nil {
		cm.Close(ctx)
	}
	return err
}

// Restartable: a C guest is (memory and globals are its whole state); a module
// that writes a table, drops a segment or imports a global is not.
func TestRestartable(t *testing.T) {
	opt := instrument.Options{ImportMemory: true, ExportGlobals: true}
	_, st, err := opt.Instrument(cGuest(t, nativeGuests+"state.c"))
	require.NoError(t, err)
	assert.True(t, st.Restartable)
	_, st, err = instrument.Options{ImportMemory: true}.Instrument(cGuest(t, nativeGuests+"state.c"))
	require.NoError(t, err)
	assert.False(t, st.Restartable, "not asked for")

	// memory 1, a funcref table of 1, _start: table.set 0 (ref.null func) / data.drop 0 / global.set of an import
	mem := sec(5, vec([]byte{0, 1}))
	tbl := sec(4, vec([]byte{0x70, 0, 1}))
	start := sec(7, vec(append(str("_start"), 0, 0)))
	for name, c := range map[string][]byte{
		"table.set": {0x41, 0, 0xd0, 0x70, 0x26, 0, 0x0b},
		"data.drop": {0xfc, 9, 0, 0x0b},
	} {
		sections := [][]byte{sec(1, vec([]byte{0x60, 0, 0})), sec(3, vec([]byte{0})), tbl, mem, start}
		if name == "data.drop" {
			sections = append(sections, sec(12, uleb(1)))
		}
		sections = append(sections, sec(10, vec(body([]byte{0}, c...))))
		if name == "data.drop" {
			sections = append(sections, sec(11, vec(append([]byte{1}, str("x")...))))
		}
		_, st, err := opt.Instrument(module(sections...))
		require.NoError(t, err, name)
		assert.False(t, st.Restartable, name)
	}
	imported := module(
		sec(1, vec([]byte{0x60, 0, 0})),
		sec(2, vec(append(append(str("env"), str("g")...), 0x03, 0x7f, 1))),
		sec(3, vec([]byte{0})), mem, start,
		sec(10, vec(body([]byte{0}, 0x0b))),
	)
	_, st, err = opt.Instrument(imported)
	require.NoError(t, err)
	assert.False(t, st.Restartable, "imports a global")
}
