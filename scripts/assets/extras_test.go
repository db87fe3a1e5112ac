package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddExtras(t *testing.T) {
	outDir, out := t.TempDir(), t.TempDir()
	a := &Asset{Name: "python", File: "python3.wasm"}
	require.NoError(t, addExtras(outDir, out, a), "no asset.json: nothing to add")
	assert.Nil(t, a.Env)
	assert.Nil(t, a.Files)

	require.NoError(t, os.WriteFile(filepath.Join(outDir, "lib.zip"), []byte("zip"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outDir, "asset.json"),
		[]byte(`{"env": {"PYTHONHOME": "/usr/lib/wasmsand/python"}, "files": [{"path": "lib/python311.zip", "file": "lib.zip"}]}`), 0o644))
	require.NoError(t, addExtras(outDir, out, a))
	assert.Equal(t, map[string]string{"PYTHONHOME": "/usr/lib/wasmsand/python"}, a.Env)
	require.Len(t, a.Files, 1)
	f := a.Files[0]
	assert.Equal(t, "lib/python311.zip", f.Path)
	assert.Equal(t, int64(3), f.Size)
	assert.Len(t, f.SHA256, 64)
	data, err := os.ReadFile(filepath.Join(out, "lib.zip"))
	require.NoError(t, err)
	assert.Equal(t, "zip", string(data))
	assert.True(t, extrasUpToDate(out, *a))
	require.NoError(t, os.WriteFile(filepath.Join(out, "lib.zip"), []byte("changed"), 0o644))
	assert.False(t, extrasUpToDate(out, *a))

	for _, bad := range []string{
		`{"files": [{"path": "/abs", "file": "lib.zip"}]}`,
		`{"files": [{"path": "../up", "file": "lib.zip"}]}`,
		`{"files": [{"path": "x", "file": "../lib.zip"}]}`,
		`{"files": [{"path": "x", "file": "missing.zip"}]}`,
		`{"unknown": 1}`,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(outDir, "asset.json"), []byte(bad), 0o644))
		assert.Error(t, addExtras(outDir, out, &Asset{Name: "p", File: "p.wasm"}), bad)
	}
}
