// Package layers checks the import graph against the layer list of
// ARCHITECTURE.md: a package may import packages of its own layer and of
// the layers below it, never one above. Every package must be listed, so a
// new folder is placed in the list (and the document stays true). Tests
// are not held to it: a test may drive its package through any layer (the
// shell's fuzz target seeds itself from the conformance cases, curl's tests
// run in a core.Sandbox).
package layers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/wasmsand/wasmsand/"

// layerList reads the ```layers block of ARCHITECTURE.md: one line per
// layer, lowest first, "N: folder folder/... ..." (a trailing /... takes
// the folder and everything under it; the longest match places a package).
func layerList(t *testing.T, root string) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	layers := map[string]int{}
	in := false
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan(); {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "```layers":
			in = true
		case in && line == "```":
			if len(layers) == 0 {
				t.Fatal("ARCHITECTURE.md: the ```layers block is empty")
			}
			return layers
		case in && line != "":
			_, list, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("ARCHITECTURE.md layers: %q has no \"N:\"", line)
			}
			for _, p := range strings.Fields(list) {
				if _, dup := layers[p]; dup {
					t.Fatalf("ARCHITECTURE.md layers: %s listed twice", p)
				}
				layers[p] = n
			}
			n++
		}
	}
	t.Fatal("ARCHITECTURE.md has no ```layers block")
	return nil
}

// layerOf places a package (a path relative to the module) by its longest
// match in the list; ok is false for an unlisted package.
func layerOf(layers map[string]int, pkg string) (layer int, ok bool) {
	best := -1
	for p, n := range layers {
		prefix, all := strings.CutSuffix(p, "/...")
		if pkg == prefix || (all && strings.HasPrefix(pkg, prefix+"/")) {
			if len(p) > best {
				best, layer, ok = len(p), n, true
			}
		}
	}
	return layer, ok
}

type pkg struct {
	ImportPath string
	Imports    []string
}

// list is `go list` of the module's packages for one GOOS.
func list(t *testing.T, root, goos string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos)
	if goos == "js" {
		cmd.Env = append(cmd.Env, "GOARCH=wasm")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (GOOS=%s): %v\n%s", goos, err, stderr.Bytes())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestImportsFollowLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	layers := layerList(t, root)
	seen := map[string]bool{}
	for _, goos := range []string{"linux", "js"} {
		for _, p := range list(t, root, goos) {
			name, ok := strings.CutPrefix(p.ImportPath, module)
			if !ok || strings.HasPrefix(name, "build/") || seen[p.ImportPath] {
				continue // (build/ holds the sources of guest programs)
			}
			seen[p.ImportPath] = true
			from, ok := layerOf(layers, name)
			if !ok {
				t.Errorf("%s is in no layer of ARCHITECTURE.md's list", name)
				continue
			}
			for _, imp := range p.Imports {
				to, ok := strings.CutPrefix(imp, module)
				if !ok {
					continue
				}
				if l, ok := layerOf(layers, to); ok && l > from {
					t.Errorf("%s (layer %d) imports %s (layer %d), a layer above it", name, from, to, l)
				}
			}
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d packages listed: %v", len(seen), fmt.Sprint(seen))
	}
}
