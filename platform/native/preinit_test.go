package native

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// preinitRun runs the preinit guest with args, from an image made with mode.
func preinitRun(t *testing.T, m platform.Module, key, mode string, made *atomic.Int32, lim platform.Limits, args ...string) (string, int) {
	t.Helper()
	pm, ok := m.(platform.Preinitializer)
	require.True(t, ok)
	require.True(t, pm.Preinitializable())
	var out bytes.Buffer
	p := &wasi.Proc{Args: append([]string{"preinit"}, args...), FS: vfs.New(vfs.Options{}), Stdout: &out}
	defer p.Close()
	code, err := pm.RunPreinit(context.Background(), p, lim, platform.Preinit{Key: key, New: func() *wasi.Proc {
		made.Add(1)
		return &wasi.Proc{Args: []string{"preinit", mode}, FS: vfs.New(vfs.Options{})}
	}})
	require.NoError(t, err)
	return out.String(), code
}

func TestPreinit(t *testing.T) {
	e, err := New(context.Background(), Options{})
	require.NoError(t, err)
	defer e.Close(context.Background())
	m, err := e.Compile(context.Background(), "", cGuest(t, "preinit"))
	require.NoError(t, err)

	t.Run("resumes from the image, made once", func(t *testing.T) {
		var made atomic.Int32
		for i := 0; i < 3; i++ {
			out, code := preinitRun(t, m, "ok", "", &made, platform.Limits{})
			assert.Equal(t, "resumed 42 3145727\n", out) // the image's state, not the last run's
			assert.Equal(t, 7, code)
		}
		assert.EqualValues(t, 1, made.Load())
	})
	t.Run("memory past the image is zero though the last run dirtied it", func(t *testing.T) {
		var made atomic.Int32
		for i := 0; i < 4; i++ {
			out, code := preinitRun(t, m, "ok", "", &made, platform.Limits{}, "dirty")
			assert.Equal(t, "clean\n", out)
			assert.Equal(t, 8, code)
		}
	})
	t.Run("a declined resume starts cold", func(t *testing.T) {
		var made atomic.Int32
		out, code := preinitRun(t, m, "ok2", "", &made, platform.Limits{}, "cold")
		assert.Equal(t, "cold 0\n", out)
		assert.Equal(t, 0, code)
	})
	t.Run("memory limit below the image starts cold", func(t *testing.T) {
		var made atomic.Int32
		out, _ := preinitRun(t, m, "ok3", "", &made, platform.Limits{MemoryPages: 40})
		assert.Equal(t, "cold 0\n", out)
	})
	for _, mode := range []string{"fail", "leak", "chatty"} {
		t.Run("no image when preinit is "+mode, func(t *testing.T) {
			var made atomic.Int32
			for i := 0; i < 2; i++ {
				out, code := preinitRun(t, m, mode, mode, &made, platform.Limits{})
				assert.Equal(t, "cold 0\n", out)
				assert.Equal(t, 0, code)
			}
			assert.EqualValues(t, 1, made.Load(), "a failed image is not tried again")
		})
	}
	t.Run("concurrent first runs share one image", func(t *testing.T) {
		var made atomic.Int32
		var wg sync.WaitGroup
		outs := make([]string, 4)
		for i := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], _ = preinitRun(t, m, "conc", "", &made, platform.Limits{})
			}()
		}
		wg.Wait()
		for _, o := range outs {
			assert.Equal(t, "resumed 42 3145727\n", o)
		}
		assert.EqualValues(t, 1, made.Load())
	})
	t.Run("modules without the exports are not preinitializable", func(t *testing.T) {
		h, err := e.Compile(context.Background(), "", cGuest(t, "hello"))
		require.NoError(t, err)
		assert.False(t, h.(platform.Preinitializer).Preinitializable())
	})
}

// TestDiskCacheImages: a second engine on the same cache directory (a new
// process) takes the instrumented module and the image from disk instead
// of making them again; a damaged image file is ignored and made again.
func TestDiskCacheImages(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	wasm := cGuest(t, "preinit")
	run := func() (string, int32) {
		e, err := New(ctx, Options{CacheDir: dir})
		require.NoError(t, err)
		defer e.Close(ctx)
		m, err := e.Compile(ctx, "sha256:preinit-test", wasm)
		require.NoError(t, err)
		var made atomic.Int32
		out, code := preinitRun(t, m, "disk", "", &made, platform.Limits{})
		assert.Equal(t, 7, code)
		return out, made.Load()
	}
	out, made := run()
	assert.Equal(t, "resumed 42 3145727\n", out)
	assert.EqualValues(t, 1, made, "the first process makes the image")
	out, made = run()
	assert.Equal(t, "resumed 42 3145727\n", out)
	assert.EqualValues(t, 0, made, "a later one reads it")

	images, err := filepath.Glob(filepath.Join(dir, "wasmsand", "images-v1", "*"))
	require.NoError(t, err)
	require.Len(t, images, 1)
	inst, _ := filepath.Glob(filepath.Join(dir, "wasmsand", "instrumented-v*", "*"))
	require.Len(t, inst, 1)
	b, err := os.ReadFile(images[0])
	require.NoError(t, err)
	b[len(b)/2] ^= 0xff
	require.NoError(t, os.WriteFile(images[0], b, 0o644))
	out, made = run()
	assert.Equal(t, "resumed 42 3145727\n", out)
	assert.EqualValues(t, 1, made, "a damaged image is made again")
}
