package instrument_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/internal/testguest"
	"github.com/wasmsand/wasmsand/platform/instrument"
)

// BenchmarkInstrument: the Go test guest, every module in build/assets and the files in
// $WASMSAND_INSTRUMENT_BENCH (colon-separated), MB/s of input.
func BenchmarkInstrument(b *testing.B) {
	files, _ := filepath.Glob("../../build/assets/*.wasm")
	if env := os.Getenv("WASMSAND_INSTRUMENT_BENCH"); env != "" {
		files = append(files, strings.Split(env, ":")...)
	}
	type mod struct {
		name string
		wasm []byte
	}
	mods := []mod{{"go-gocompute", testguest.Go(b, "testdata/gocompute")}}
	for _, f := range files {
		wasm, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, mod{filepath.Base(f), wasm})
	}
	for _, m := range mods {
		b.Run(m.name, func(b *testing.B) {
			b.SetBytes(int64(len(m.wasm)))
			b.ReportAllocs()
			var st instrument.Stats
			for i := 0; i < b.N; i++ {
				var err error
				_, st, err = instrument.Options{}.Instrument(m.wasm)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Loops), "loops")
			b.ReportMetric(float64(st.Entries), "entries")
		})
	}
}
