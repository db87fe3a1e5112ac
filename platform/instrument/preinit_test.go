package instrument_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/platform/instrument"
)

// A module exporting PreinitExport gets its mutable globals exported (and only those);
// other modules keep their exports.
func TestPreinitGlobals(t *testing.T) {
	out, err := instrument.Instrument(wat(t, "preinit"))
	require.NoError(t, err)
	names := instrument.PreinitGlobals(out)
	assert.Equal(t, []string{instrument.GlobalExportPrefix + "0", instrument.GlobalExportPrefix + "2"}, names)

	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	_, err = rt.NewHostModuleBuilder(instrument.ImportModule).NewFunctionBuilder().
		WithFunc(func() {}).Export(instrument.ImportName).Instantiate(ctx)
	require.NoError(t, err)
	mod, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithStartFunctions())
	require.NoError(t, err)
	_, err = mod.ExportedFunction(instrument.PreinitExport).Call(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 2048, mod.ExportedGlobal(names[0]).Get())
	assert.EqualValues(t, 42, mod.ExportedGlobal(names[1]).Get())
	mod.ExportedGlobal(names[1]).(api.MutableGlobal).Set(5)
	assert.EqualValues(t, 5, mod.ExportedGlobal(names[1]).Get())

	plain, err := instrument.Instrument(wat(t, "features", "--enable-threads", "--enable-tail-call"))
	require.NoError(t, err)
	assert.Empty(t, instrument.PreinitGlobals(plain))
	assert.Empty(t, instrument.PreinitGlobals([]byte("garbage")))
}

// With DetachData, a pre-initializable module's active data segments move to a custom
// section: instances start with zeroed memory, and DetachedData gives the segments back.
func TestDetachData(t *testing.T) {
	out, st, err := instrument.Options{DetachData: true}.Instrument(wat(t, "preinit"))
	require.NoError(t, err)
	assert.True(t, st.DetachedData)
	segs, ok, err := instrument.DetachedData(out)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []instrument.Segment{{Offset: 16, Data: []byte("hello")}, {Offset: 4096, Data: []byte{1, 2, 3}}}, segs)

	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	_, err = rt.NewHostModuleBuilder(instrument.ImportModule).NewFunctionBuilder().
		WithFunc(func() {}).Export(instrument.ImportName).Instantiate(ctx)
	require.NoError(t, err)
	mod, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithStartFunctions())
	require.NoError(t, err)
	b, ok := mod.Memory().Read(16, 5)
	require.True(t, ok)
	assert.Equal(t, make([]byte, 5), b, "the data is no longer written at instantiation")

	// without the option, or for a module that is not pre-initializable, nothing moves
	_, st, err = instrument.Options{}.Instrument(wat(t, "preinit"))
	require.NoError(t, err)
	assert.False(t, st.DetachedData)
	plain, st, err := instrument.Options{DetachData: true}.Instrument(wat(t, "features", "--enable-threads", "--enable-tail-call"))
	require.NoError(t, err)
	assert.False(t, st.DetachedData)
	_, ok, err = instrument.DetachedData(plain)
	assert.NoError(t, err)
	assert.False(t, ok)
}
