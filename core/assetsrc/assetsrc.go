//go:build !js

// Package assetsrc opens the guest programs built by `make assets` from a
// host directory or a base URL, natively. (In a browser the same manifest is
// served over fetch by the web entry point.)
package assetsrc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/core"
)

// ManifestName is the manifest's file name in an asset directory or URL.
const ManifestName = "manifest.json"

// maxAsset bounds one download (python3.wasm and its stdlib are the largest).
const maxAsset = 512 << 20

// Open reads the manifest at src, a directory or an http(s) base URL, and
// returns the tools it provides; modules are fetched on first use. While
// src's manifest stays the same, Open returns the same tools, with what they
// have loaded (a daemon opens them once per request).
func Open(ctx context.Context, src string) (*core.AssetPrograms, error) {
	fetch, err := Fetcher(src)
	if err != nil {
		return nil, err
	}
	m, err := fetch(ctx, ManifestName)
	if err != nil {
		return nil, fmt.Errorf("assets %s: %w", src, err)
	}
	last.mu.Lock()
	defer last.mu.Unlock()
	if last.tools != nil && last.src == src && bytes.Equal(last.manifest, m) {
		return last.tools, nil
	}
	tools, err := core.NewAssetPrograms(m, fetch)
	if err == nil {
		last.src, last.manifest, last.tools = src, m, tools
	}
	return tools, err
}

// last is what Open opened last.
var last struct {
	mu       sync.Mutex
	src      string
	manifest []byte
	tools    *core.AssetPrograms
}

// Fetcher returns a core.Fetcher reading files below src.
func Fetcher(src string) (core.Fetcher, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		base, err := url.Parse(src)
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		return func(ctx context.Context, file string) ([]byte, error) {
			u := *base
			u.Path = path.Join(u.Path, path.Clean("/"+file))
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
			if err != nil {
				return nil, err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return nil, err
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return nil, fmt.Errorf("GET %s: %s", u.String(), resp.Status)
			}
			return io.ReadAll(io.LimitReader(resp.Body, maxAsset))
		}, nil
	}
	dir, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, file string) ([]byte, error) {
		// Manifest names are plain file names: never leave the directory.
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(path.Clean("/"+file))))
	}, nil
}

// Default finds the assets of this installation: $WASMSAND_ASSETS, else an
// "assets" directory beside the executable (where `make build` puts them),
// else build/assets of the source tree the executable was built in. "" when
// there are none.
func Default() string {
	if s := os.Getenv("WASMSAND_ASSETS"); s != "" {
		return s
	}
	if exe, err := os.Executable(); err == nil {
		for _, d := range []string{
			filepath.Join(filepath.Dir(exe), "assets"),
			filepath.Join(filepath.Dir(exe), "..", "build", "assets"),
		} {
			if _, err := os.Stat(filepath.Join(d, ManifestName)); err == nil {
				return d
			}
		}
	}
	return ""
}
