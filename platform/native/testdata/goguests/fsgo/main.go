// fsgo exercises a Go guest's view of WASI: its runtime uses fd_readdir cookies, poll_oneoff
// for sleeping, path_open with O_DIRECTORY, PWD for the cwd.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"time"
)

func check(what string, err error) {
	if err != nil {
		fmt.Printf("%s: %v\n", what, err)
	}
}

func main() {
	wd, err := os.Getwd()
	fmt.Println("cwd", wd, err)
	fmt.Println("args", os.Args[1:], "GREETING", os.Getenv("GREETING"))
	check("write", os.WriteFile("/data/go.txt", []byte("from go\n"), 0o644))
	b, err := os.ReadFile("go.txt") // relative to PWD=/data
	fmt.Printf("read %q %v\n", b, err)
	ents, err := os.ReadDir("/data")
	check("readdir", err)
	var names []string
	for _, e := range ents {
		names = append(names, fmt.Sprintf("%s:%v", e.Name(), e.Type()))
	}
	sort.Strings(names)
	fmt.Println("entries", names)
	fi, err := os.Stat("/data/a.txt")
	check("stat", err)
	fmt.Println("a.txt", fi.Size(), fi.Mode().IsRegular())
	li, err := os.Lstat("/data/link-to-a")
	check("lstat", err)
	fmt.Println("link-to-a symlink", li.Mode()&fs.ModeSymlink != 0)
	tgt, err := os.Readlink("/data/link-to-a")
	fmt.Println("readlink", tgt, err)
	check("mkdirall", os.MkdirAll("/data/x/y/z", 0o755))
	check("rename", os.Rename("/data/go.txt", "/data/x/y/z/go.txt"))
	_, err = os.Stat("/data/go.txt")
	fmt.Println("old gone", errors.Is(err, fs.ErrNotExist))
	check("symlink", os.Symlink("x", "/data/lx"))
	check("removeall", os.RemoveAll("/data/x"))
	_, err = os.Stat("/data/x")
	fmt.Println("x gone", errors.Is(err, fs.ErrNotExist))
	err = os.Remove("/data/dir")
	fmt.Println("remove non-empty dir fails", err != nil)
	start := time.Now()
	time.Sleep(15 * time.Millisecond)
	fmt.Println("slept", time.Since(start) >= 15*time.Millisecond)
	f, err := os.Create("/data/big")
	check("create", err)
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(f, "%04d\n", i)
	}
	check("close", f.Close())
	fi, _ = os.Stat("/data/big")
	fmt.Println("big", fi.Size())
}
