package vfs

import (
	"fmt"
	"os"
	"testing"
)

func buildFiles(b *testing.B, n, perDir int) *FS {
	f := New(Options{})
	for i := 0; i < n; i++ {
		d := fmt.Sprintf("/d%04d", i/perDir)
		if i%perDir == 0 {
			if err := f.Mkdir(d, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := f.WriteFile(fmt.Sprintf("%s/f%06d", d, i), []byte("content"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

func BenchmarkSnapshot100k(b *testing.B) {
	f := buildFiles(b, 100_000, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Snapshot()
	}
}

// Snapshot plus the first write after it (the copy-on-write path copy).
func BenchmarkSnapshotThenWrite100k(b *testing.B) {
	f := buildFiles(b, 100_000, 1000)
	data := []byte("changed")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Snapshot()
		if err := f.WriteFile("/d0050/f050000", data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRestore100k(b *testing.B) {
	f := buildFiles(b, 100_000, 1000)
	s := f.Snapshot()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Restore(s)
	}
}

func BenchmarkClone10k(b *testing.B) {
	f := buildFiles(b, 10_000, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Clone()
	}
}

func BenchmarkNewDefault150(b *testing.B) {
	cmds := manyCommands(150)
	NewDefault(Options{}, cmds)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NewDefault(Options{}, cmds)
	}
}

func BenchmarkBuildDefault150(b *testing.B) {
	cmds := manyCommands(150)
	for i := 0; i < b.N; i++ {
		buildDefault(Options{}, cmds)
	}
}

func BenchmarkStat(b *testing.B) {
	f := NewDefault(Options{}, manyCommands(150))
	if err := f.MkdirAll("/home/user/project/src/pkg", 0o755); err != nil {
		b.Fatal(err)
	}
	if err := f.WriteFile("/home/user/project/src/pkg/main.go", []byte("x"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Stat("/home/user/project/src/pkg/main.go"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStatMissing(b *testing.B) {
	f := NewDefault(Options{}, manyCommands(150))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f.Stat("/usr/local/bin/nope")
	}
}

func BenchmarkWriteSmallFile(b *testing.B) {
	f := New(Options{})
	data := []byte("hello, small file\n")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := f.WriteFile("/small", data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCreateSmallFiles(b *testing.B) {
	f := New(Options{})
	data := []byte("hello, small file\n")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%10000 == 0 {
			b.StopTimer()
			f = New(Options{})
			b.StartTimer()
		}
		if err := f.WriteFile(fmt.Sprintf("/f%d", i%10000), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// One entry in a directory, with 10k files elsewhere in the FS (hackpadfs's
// mem FS is O(whole FS) here).
func BenchmarkReadDir1of10k(b *testing.B) {
	f := buildFiles(b, 10_000, 1000)
	if err := f.Mkdir("/one", 0o755); err != nil {
		b.Fatal(err)
	}
	if err := f.WriteFile("/one/only", nil, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ents, err := f.ReadDir("/one")
		if err != nil || len(ents) != 1 {
			b.Fatal(err)
		}
	}
}

// File.ReadDir(1) on a directory that itself holds 10k entries.
func BenchmarkReadDirFirstEntryOf10kDir(b *testing.B) {
	f := buildFiles(b, 10_000, 10_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := f.Open("/d0000")
		if err != nil {
			b.Fatal(err)
		}
		ents, err := d.ReadDir(1)
		if err != nil || len(ents) != 1 {
			b.Fatal(err)
		}
		d.Close()
	}
}

func BenchmarkReadSmallFile(b *testing.B) {
	f := New(Options{})
	if err := f.WriteFile("/small", []byte("hello, small file\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 64)
	fl, _ := f.Open("/small")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fl.ReadAt(buf, 0)
	}
}

func BenchmarkAppendBigFileAfterSnapshot(b *testing.B) {
	f := New(Options{})
	if err := f.WriteFile("/big", make([]byte, 64<<20), 0o644); err != nil {
		b.Fatal(err)
	}
	fl, err := f.OpenFile("/big", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	line := []byte("one more log line\n")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Snapshot()
		fl.Write(line)
	}
}

func BenchmarkPipe(b *testing.B) {
	r, w := Pipe(0)
	buf := make([]byte, 4096)
	go func() {
		for {
			if _, err := r.Read(buf); err != nil {
				return
			}
		}
	}()
	data := make([]byte, 4096)
	b.SetBytes(4096)
	for i := 0; i < b.N; i++ {
		w.Write(data)
	}
	w.Close()
}
