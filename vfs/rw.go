package vfs

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ReadFile returns the whole content of name. Regular tree files are copied
// under one read lock without opening a File.
func (f *FS) ReadFile(name string) ([]byte, error) {
	var w walk
	f.mu.RLock()
	if e := f.resolve(&w, name, true); e != 0 {
		f.mu.RUnlock()
		return nil, perr("open", name, e)
	}
	if w.m == nil && w.ino != 0 {
		if n := f.node(w.ino); n.isRegular() {
			b := make([]byte, n.size)
			n.readAt(b, 0)
			f.mu.RUnlock()
			return b, nil
		} else if n.isDir() {
			f.mu.RUnlock()
			return nil, perr("read", name, syscall.EISDIR)
		}
	}
	f.mu.RUnlock()
	file, err := f.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if file.kind == fkDevice && file.dev != DevNull {
		return nil, perr("read", name, syscall.EINVAL) // endless
	}
	return io.ReadAll(file)
}

// WriteFile writes data to name, creating it with perm or truncating it.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	file, err := f.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = file.Write(data)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return err
}
