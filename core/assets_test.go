package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/internal/testguest"
)

// testTools serves the cat test guest as an asset providing "cat" and
// "tac2", plus an asset whose file is missing and one whose bytes are wrong.
func testTools(t *testing.T) (*AssetPrograms, *atomic.Int32) {
	cat := testguest.C(t, "testdata/guests/cat.c")
	sum := sha256.Sum256(cat)
	m := Manifest{Assets: []Asset{
		{Name: "cat", File: "cat.wasm", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(cat)), License: "test", Commands: []string{"cat", "tac2"}},
		{Name: "gone", File: "gone.wasm", SHA256: hex.EncodeToString(make([]byte, 32)), Commands: []string{"gone"}},
		{Name: "bad", File: "bad.wasm", SHA256: hex.EncodeToString(make([]byte, 32)), Commands: []string{"bad"}},
	}}
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	var fetches atomic.Int32
	tools, err := NewAssetPrograms(raw, func(ctx context.Context, file string) ([]byte, error) {
		fetches.Add(1)
		switch file {
		case "cat.wasm":
			return cat, nil
		case "bad.wasm":
			return []byte("\x00asm tampered"), nil
		}
		return nil, fs.ErrNotExist
	})
	require.NoError(t, err)
	return tools, &fetches
}

func TestAssetPrograms(t *testing.T) {
	tools, fetches := testTools(t)
	sb := testSandbox(t, Options{Programs: tools})

	// Entries exist before anything is loaded.
	res := mustRun(t, sb, "which cat tac2 gone; command -v bad; [ -x /bin/cat ] && echo bin-ok")
	assert.Equal(t, "/usr/bin/cat\n/usr/bin/tac2\n/usr/bin/gone\n/usr/bin/bad\nbin-ok\n", string(res.Stdout))
	assert.Equal(t, int32(0), fetches.Load(), "nothing fetched before a tool runs")

	res = mustRun(t, sb, "echo hi | cat; echo again | tac2")
	assert.Equal(t, "hi\nagain\n", string(res.Stdout), string(res.Stderr))
	assert.Equal(t, int32(1), fetches.Load(), "fetched once, then compiled and cached")

	res = mustRun(t, sb, "gone; echo st=$?")
	assert.Equal(t, "st=127\n", string(res.Stdout))
	assert.Contains(t, string(res.Stderr), "gone.wasm")

	res = mustRun(t, sb, "bad; echo st=$?")
	assert.Equal(t, "st=126\n", string(res.Stdout))
	assert.Contains(t, string(res.Stderr), "bad.wasm is corrupt")
}

func TestAssetManifestErrors(t *testing.T) {
	_, err := NewAssetPrograms([]byte("{not json"), nil)
	assert.Error(t, err)
	_, err = NewAssetPrograms([]byte(`{"assets":[{"name":"x","file":"x.wasm","sha256":"short"}]}`), nil)
	assert.Error(t, err)
	tools, err := NewAssetPrograms([]byte(`{"assets":[]}`), nil)
	require.NoError(t, err)
	_, _, err = tools.Module(context.Background(), "nope")
	assert.True(t, errors.Is(err, ErrAsset))
}

func TestAssetDataFilesAndEnv(t *testing.T) {
	penv := testguest.C(t, "testdata/guests/printenv.c")
	sum := sha256.Sum256(penv)
	lib := []byte("stdlib contents\n")
	libSum := sha256.Sum256(lib)
	m := Manifest{Assets: []Asset{{
		Name: "py", File: "printenv.wasm", SHA256: hex.EncodeToString(sum[:]), Commands: []string{"pyenv"},
		Env:   map[string]string{"PYTHONHOME": "/usr/lib/wasmsand/py"},
		Files: []AssetFile{{Path: "lib/stdlib.zip", File: "stdlib.zip", SHA256: hex.EncodeToString(libSum[:]), Size: int64(len(lib))}},
	}}}
	raw, _ := json.Marshal(m)
	var libFetches atomic.Int32
	tools, err := NewAssetPrograms(raw, func(ctx context.Context, file string) ([]byte, error) {
		if file == "stdlib.zip" {
			libFetches.Add(1)
			return lib, nil
		}
		return penv, nil
	})
	require.NoError(t, err)
	sb := testSandbox(t, Options{Programs: tools})
	installGuests(t, sb, "cat")
	res := mustRun(t, sb, `[ -f /usr/lib/wasmsand/py/lib/stdlib.zip ] && echo present; echo x > /usr/lib/wasmsand/py/lib/new || echo readonly`)
	assert.Equal(t, "present\nreadonly\n", string(res.Stdout))
	assert.Equal(t, int32(0), libFetches.Load(), "stat does not fetch")
	res = mustRun(t, sb, `cat /usr/lib/wasmsand/py/lib/stdlib.zip; pyenv PYTHONHOME; echo "[$PYTHONHOME]"; PYTHONHOME=/mine pyenv PYTHONHOME`)
	assert.Equal(t, "stdlib contents\n/usr/lib/wasmsand/py\n[]\n/mine\n", string(res.Stdout), string(res.Stderr))
	assert.Equal(t, int32(1), libFetches.Load())

	fork, err := sb.Fork(context.Background())
	require.NoError(t, err)
	defer fork.Close()
	res = mustRun(t, fork, `cat /usr/lib/wasmsand/py/lib/stdlib.zip`)
	assert.Equal(t, "stdlib contents\n", string(res.Stdout), "a fork keeps the data mounts")
}
