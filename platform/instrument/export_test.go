package instrument

import (
	"testing"

	"github.com/tetratelabs/wazero"
)

func TestExportGlobals(t *testing.T) {
	// (module (global (mut i32) (i32.const 7)) (global i32 (i32.const 1)) (global (mut i64) (i64.const 9))
	//   (func (export "f") (result i32) global.get 0))
	wasm := []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 5, 1, 0x60, 0, 1, 0x7f, // type () -> i32
		3, 2, 1, 0, // one function
		6, 16, 3, 0x7f, 1, 0x41, 7, 0x0b, 0x7f, 0, 0x41, 1, 0x0b, 0x7e, 1, 0x42, 9, 0x0b,
		7, 5, 1, 1, 'f', 0, 0, // export "f"
		10, 6, 1, 4, 0, 0x23, 0, 0x0b,
	}
	out, err := ExportGlobals(wasm)
	if err != nil {
		t.Fatal(err)
	}
	r := wazero.NewRuntime(t.Context())
	defer r.Close(t.Context())
	cm, err := r.CompileModule(t.Context(), out)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cm.ExportedFunctions()["f"]; !ok {
		t.Fatal("export f lost")
	}
	mod, err := r.InstantiateModule(t.Context(), cm, wazero.NewModuleConfig())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]uint64{GlobalExportPrefix + "0": 7, GlobalExportPrefix + "2": 9} {
		if g := mod.ExportedGlobal(name); g == nil || g.Get() != want {
			t.Fatalf("global %s: %v, want %d", name, g, want)
		}
	}
	if mod.ExportedGlobal(GlobalExportPrefix+"1") != nil {
		t.Fatal("an immutable global exported")
	}
	if _, err := ExportGlobals(wasm[:20]); err == nil {
		t.Fatal("truncated module: no error")
	}
}
