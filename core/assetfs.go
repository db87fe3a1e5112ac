package core

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// AssetDataDir is where an asset's data files (such as Python's standard
// library) appear, read-only: /usr/lib/wasmsand/<asset name>/<path>.
const AssetDataDir = "/usr/lib/wasmsand"

// assetFS serves one asset's data files read-only, fetching each on first
// open. It is shared by every sandbox using the same AssetPrograms, so a 10 MB
// standard library is fetched and held once, and does not count against
// any sandbox's FS quota.
type assetFS struct {
	files map[string]*assetFile // by clean relative path
	dirs  map[string][]string   // directory → sorted child names
}

type assetFile struct {
	AssetFile
	fetch Fetcher
	mu    sync.Mutex
	data  []byte
}

func newAssetFS(files []AssetFile, fetch Fetcher) *assetFS {
	a := &assetFS{files: map[string]*assetFile{}, dirs: map[string][]string{".": nil}}
	for _, f := range files {
		p := path.Clean(strings.TrimPrefix(f.Path, "/"))
		if p == "." || strings.HasPrefix(p, "../") {
			continue
		}
		a.files[p] = &assetFile{AssetFile: f, fetch: fetch}
		for child := p; child != "."; child = path.Dir(child) {
			if child != p && a.dirs[child] == nil {
				a.dirs[child] = []string{}
			}
			a.dirs[path.Dir(child)] = append(a.dirs[path.Dir(child)], path.Base(child))
		}
	}
	for d, names := range a.dirs {
		sort.Strings(names)
		a.dirs[d] = compactStrings(names)
	}
	return a
}

// sorted lists the files by path.
func (a *assetFS) sorted() []AssetFile {
	out := make([]AssetFile, 0, len(a.files))
	for _, f := range a.files {
		out = append(out, f.AssetFile)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func (f *assetFile) load() ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.data == nil {
		e := &assetEntry{Asset: Asset{File: f.File, SHA256: f.SHA256}}
		b, err := e.load(context.Background(), f.fetch)
		if err != nil {
			return nil, err
		}
		f.data = b
	}
	return f.data, nil
}

// Open implements hackpadfs.FS (and io/fs.FS).
func (a *assetFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EINVAL}
	}
	if names, ok := a.dirs[name]; ok {
		return &assetDir{name: name, names: names, fs: a}, nil
	}
	f, ok := a.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	data, err := f.load()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EIO}
	}
	return &assetOpenFile{Reader: bytes.NewReader(data), info: a.info(name)}, nil
}

func (a *assetFS) info(name string) assetInfo {
	if f, ok := a.files[name]; ok {
		return assetInfo{name: path.Base(name), size: f.Size, mode: 0o444}
	}
	return assetInfo{name: path.Base(name), mode: fs.ModeDir | 0o555}
}

// Stat implements hackpadfs.StatFS without fetching.
func (a *assetFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := a.dirs[name]; ok {
		return a.info(name), nil
	}
	if _, ok := a.files[name]; ok {
		return a.info(name), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: syscall.ENOENT}
}

type assetInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i assetInfo) Name() string       { return i.name }
func (i assetInfo) Size() int64        { return i.size }
func (i assetInfo) Mode() fs.FileMode  { return i.mode }
func (i assetInfo) ModTime() time.Time { return time.Time{} }
func (i assetInfo) IsDir() bool        { return i.mode.IsDir() }
func (i assetInfo) Sys() any           { return nil }

type assetOpenFile struct {
	*bytes.Reader
	info assetInfo
}

func (f *assetOpenFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *assetOpenFile) Close() error               { return nil }

type assetDir struct {
	name  string
	names []string
	pos   int
	fs    *assetFS
}

func (d *assetDir) Stat() (fs.FileInfo, error) { return d.fs.info(d.name), nil }
func (d *assetDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: syscall.EISDIR}
}
func (d *assetDir) Close() error { return nil }

func (d *assetDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.names[d.pos:]
	if n > 0 && len(rest) > n {
		rest = rest[:n]
	}
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	d.pos += len(rest)
	out := make([]fs.DirEntry, len(rest))
	for i, name := range rest {
		out[i] = fs.FileInfoToDirEntry(d.fs.info(path.Join(d.name, name)))
	}
	return out, nil
}
