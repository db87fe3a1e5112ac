//go:build !js

package hostdir

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/vfs"
)

// StateFile is the name of the saved tree inside the directory given to
// SaveDir / LoadDir.
const StateFile = "vfs.state"

const tmpPrefix = ".vfs.state.tmp-"

// SaveDir saves fsys to dir/vfs.state atomically: the state is written to a
// temporary file in dir, fsynced, renamed over vfs.state, and dir is
// fsynced. A crash or error at any point leaves the previous save intact
// (a stray temporary file at worst, removed by the next successful save).
func SaveDir(dir string, fsys *vfs.FS) error {
	return saveDir(dir, fsys, nil)
}

// saveDir lets tests wrap the temp file writer to inject failures.
func saveDir(dir string, fsys *vfs.FS, wrap func(io.Writer) io.Writer) (err error) {
	tmp, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return fmt.Errorf("hostdir: save: %w", err)
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	var w io.Writer = tmp
	if wrap != nil {
		w = wrap(tmp)
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if err = fsys.Encode(bw); err != nil {
		return fmt.Errorf("hostdir: save: %w", err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("hostdir: save: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("hostdir: save: fsync: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("hostdir: save: %w", err)
	}
	if err = os.Rename(tmpName, filepath.Join(dir, StateFile)); err != nil {
		return fmt.Errorf("hostdir: save: %w", err)
	}
	if err = syncDir(dir); err != nil {
		return fmt.Errorf("hostdir: save: fsync dir: %w", err)
	}
	removeStale(dir)
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !isUnsupported(err) {
		return err
	}
	return nil
}

// isUnsupported: some platforms/file systems refuse fsync on directories.
func isUnsupported(err error) bool {
	return strings.Contains(err.Error(), "invalid argument") || strings.Contains(err.Error(), "not supported")
}

// removeStale deletes temp files left behind by interrupted saves.
func removeStale(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// LoadDir loads the tree saved by SaveDir in dir. A missing state is an
// error wrapping fs.ErrNotExist; a damaged one wraps vfs.ErrCorrupt.
func LoadDir(dir string, opt vfs.Options) (*vfs.FS, error) {
	// (read whole, at its size, and decoded in place: see vfs.DecodeBytes)
	raw, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		return nil, fmt.Errorf("hostdir: load: %w", err)
	}
	fsys, err := vfs.DecodeBytes(raw, opt)
	if err != nil {
		return nil, fmt.Errorf("hostdir: load %s: %w", filepath.Join(dir, StateFile), err)
	}
	return fsys, nil
}
