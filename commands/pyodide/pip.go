//go:build js && wasm

package pyodide

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall/js"

	"github.com/wasmsand/wasmsand/shell"
)

// pipRE finds `pip install ...`, `pip3 install ...` and `python3 -m pip
// install ...` up to the end of the command.
var pipRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:pip3?|python3?\s+-m\s+pip)\s+install\s+([^;&|\n)]*)`)
}) // (on first use: see policy's secretName)

// pipPackages are the packages a text's pip install commands name.
func pipPackages(text string) []string {
	if !strings.Contains(text, "install") {
		return nil // (pipRE cannot match; on a data file it is slow)
	}
	var out []string
	for _, m := range pipRE().FindAllStringSubmatch(text, -1) {
		words := strings.Fields(m[1])
		for i, w := range words {
			words[i] = strings.Trim(w, `'"`)
		}
		out = append(out, pipArgs(words)...)
	}
	return out
}

// pipArgs are the package names among pip install's arguments (options
// and version specifiers left out).
func pipArgs(words []string) []string {
	var out []string
	skip := false
	for _, w := range words {
		switch {
		case skip:
			skip = false
		case w == "-r" || w == "-c" || w == "-i" || w == "--index-url" || w == "-e" || w == "--target" || w == "-t":
			skip = true // (their argument is not a package)
		case strings.HasPrefix(w, "-") || w == "":
		default:
			if n := pipName(w); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// pipName is a requirement's package name: "pandas>=2" → "pandas",
// "foo[extra]" → "foo".
func pipName(req string) string {
	if i := strings.IndexAny(req, "[<>=!~; "); i >= 0 {
		req = req[:i]
	}
	return strings.ToLower(req)
}

// Pip is the pip/pip3 command (and python3 -m pip): what it installs was
// loaded before the run started (the run cannot wait for a download), from
// the sandbox's package index; install reports that, list and show what
// is loaded.
func Pip(_ context.Context, _ *shell.Session, req *shell.ExecRequest) int {
	return pip(path.Base(req.Argv[0]), req.Argv[1:], req)
}

func pip(name string, args []string, req *shell.ExecRequest) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(req.Stdout, "Usage:\n  %s <command> [options]\n\nCommands:\n  install    Install packages (from the sandbox's package index).\n  list       List installed packages.\n  show       Show information about installed packages.\n", name)
		return 0
	}
	if !Loaded() {
		fmt.Fprintf(req.Stderr, "%s: Pyodide is not loaded\n", name)
		return 1
	}
	rt := runtime()
	switch args[0] {
	case "--version", "-V":
		fmt.Fprintf(req.Stdout, "pip (wasmsand, Pyodide %s)\n", rt.Call("version").String())
		return 0
	case "install":
		st := 0
		var done []string
		for _, n := range pipArgs(args[1:]) {
			s := rt.Call("packageStatus", n)
			if v := s.Get("version"); v.Type() == js.TypeString {
				done = append(done, n+"-"+v.String())
				continue
			}
			msg := s.Get("error").String()
			fmt.Fprintf(req.Stderr, "ERROR: Could not install %s: %s\n", n, msg)
			st = 1
		}
		if len(done) > 0 {
			fmt.Fprintf(req.Stdout, "Successfully installed %s\n", strings.Join(done, " "))
		}
		return st
	case "list", "freeze":
		pk := rt.Call("packages")
		var rows []string
		for i := 0; i < pk.Length(); i++ {
			rows = append(rows, pk.Index(i).Index(0).String()+"\x00"+pk.Index(i).Index(1).String())
		}
		sort.Strings(rows)
		if args[0] == "list" {
			fmt.Fprintf(req.Stdout, "%-20s %s\n%-20s %s\n", "Package", "Version", strings.Repeat("-", 20), strings.Repeat("-", 10))
		}
		for _, r := range rows {
			n, v, _ := strings.Cut(r, "\x00")
			if args[0] == "list" {
				fmt.Fprintf(req.Stdout, "%-20s %s\n", n, v)
			} else {
				fmt.Fprintf(req.Stdout, "%s==%s\n", n, v)
			}
		}
		return 0
	case "show":
		st := 0
		for _, n := range args[1:] {
			s := rt.Call("packageStatus", pipName(n))
			if v := s.Get("version"); v.Type() == js.TypeString {
				fmt.Fprintf(req.Stdout, "Name: %s\nVersion: %s\n", n, v.String())
				continue
			}
			fmt.Fprintf(req.Stderr, "WARNING: Package(s) not found: %s\n", n)
			st = 1
		}
		return st
	}
	fmt.Fprintf(req.Stderr, "ERROR: unknown command \"%s\" (this sandbox's pip can install, list, freeze and show)\n", args[0])
	return 1
}
