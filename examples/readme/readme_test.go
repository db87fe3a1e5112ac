package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// blocks are README.md's fenced blocks of a language, in order.
func blocks(t *testing.T, lang string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?ms)^```"+lang+"\n(.*?)^```$").FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// region is the text of file between "README NAME begin" and "README NAME
// end" comment lines, without the indentation its first line has.
func region(t *testing.T, file, name string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "README "+name+" begin\n")
	body, _, ok2 := strings.Cut(rest, "README "+name+" end")
	if !ok || !ok2 {
		t.Fatalf("%s: no README %s markers", file, name)
	}
	lines := strings.Split(body, "\n")
	lines = lines[:len(lines)-1] // (the end marker's line)
	indent := lines[0][:len(lines[0])-len(strings.TrimLeft(lines[0], " \t"))]
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, indent)
	}
	return strings.Join(lines, "\n") + "\n"
}

// The README's samples are these files' code, byte for byte: what the
// README shows is what the tests compile and run.
func TestReadmeSamples(t *testing.T) {
	gos := blocks(t, "go")
	if len(gos) != 1 {
		t.Fatalf("README.md has %d go blocks; this test knows one", len(gos))
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(src), "\npackage main\n")
	if want := "package main\n" + body; gos[0] != want {
		t.Errorf("README.md's go block differs from examples/readme/main.go:\nREADME:\n%s\nmain.go:\n%s", gos[0], want)
	}
	jss := blocks(t, "js")
	if len(jss) != 2 {
		t.Fatalf("README.md has %d js blocks; node/test/readme.mjs knows two", len(jss))
	}
	for i, js := range jss {
		name := "js " + string(rune('1'+i))
		if want := region(t, "../../node/test/readme.mjs", name); js != want {
			t.Errorf("README.md's js block %d differs from node/test/readme.mjs:\nREADME:\n%s\nreadme.mjs:\n%s", i+1, js, want)
		}
	}
}

// The Go sample runs as the README says: from the repository's root, with
// the guest programs of `make assets`.
func TestReadmeGoSample(t *testing.T) {
	root, _ := filepath.Abs("../..")
	if _, err := os.Stat(filepath.Join(root, "build/assets/manifest.json")); err != nil {
		t.Skip("no build/assets (make assets)")
	}
	cmd := exec.Command("go", "run", "./examples/readme")
	cmd.Dir = root
	cmd.Stderr = io.Discard
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "1\n42\n(exit 0)\n"; got != want {
		t.Errorf("the README's Go sample printed %q, want %q", got, want)
	}
}
