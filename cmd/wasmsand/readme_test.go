package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every `bin/wasmsand SUB --flag` the README's shell samples show is a
// subcommand and flag the CLI documents in its usage (and every make target
// they name is in the Makefile): the samples cannot drift from the CLI.
// (They are not run: several reach hosts other than 127.0.0.1.)
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	docs := usage + workerUsage
	quoted := regexp.MustCompile(`'[^']*'|"[^"]*"`)
	lines := 0
	for _, m := range regexp.MustCompile("(?ms)^```sh\n(.*?)^```$").FindAllStringSubmatch(string(readme), -1) {
		for _, line := range strings.Split(m[1], "\n") {
			line, _, _ = strings.Cut(line, " # ")
			f := strings.Fields(quoted.ReplaceAllString(line, "ARG")) // (a script's own options are not the CLI's)
			switch {
			case len(f) >= 2 && f[0] == "make":
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(f[1]) + `:`).Match(makefile) {
					t.Errorf("README: make %s: no such target", f[1])
				}
				lines++
			case len(f) >= 2 && f[0] == "bin/wasmsand":
				if !strings.Contains(docs, "wasmsand "+f[1]+" ") && !strings.Contains(docs, "wasmsand "+f[1]+"\n") {
					t.Errorf("README: %q: no subcommand %s in the usage", line, f[1])
				}
				for _, a := range f[2:] {
					name, _, _ := strings.Cut(a, "=")
					if strings.HasPrefix(name, "--") && !strings.Contains(docs, name+" ") && !strings.Contains(docs, name+"]") &&
						!strings.Contains(docs, name+",") && !strings.Contains(docs, name+":") {
						t.Errorf("README: %q: %s is not in the usage of wasmsand %s", line, name, f[1])
					}
				}
				lines++
			}
		}
	}
	if lines < 20 {
		t.Fatalf("only %d command lines found in README.md's sh blocks", lines)
	}
}
