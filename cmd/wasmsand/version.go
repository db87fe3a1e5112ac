package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/wasmsand/wasmsand/assets"
	"github.com/wasmsand/wasmsand/assets/sbom"
	"github.com/wasmsand/wasmsand/core/assetsrc"
)

// versionCmd is `wasmsand version [--sbom] [--assets DIR|URL]`: the version,
// or the software bill of materials (CycloneDX JSON) of this program's Go
// modules and of the guest programs it would run (their manifest's
// provenance; see assets/sbom).
func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	withSBOM := fs.Bool("sbom", false, "print the SBOM (CycloneDX 1.5 JSON) of this program and its guest programs")
	src := fs.String("assets", "", "the guest programs' directory or URL (default: as run finds them)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return exitUsage
	}
	if !*withSBOM {
		fmt.Fprintln(stdout, "wasmsand", version)
		return 0
	}
	var m assets.Manifest
	dir := *src
	if dir == "" {
		dir = assetsrc.Default()
	}
	if dir != "" {
		fetch, err := assetsrc.Fetcher(dir)
		if err == nil {
			var raw []byte
			if raw, err = fetch(context.Background(), assetsrc.ManifestName); err == nil {
				err = json.Unmarshal(raw, &m)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand version: the guest programs' manifest: %v\n", err)
			return exitSetup
		}
	}
	top := sbom.Top{Name: "wasmsand", Version: version}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			top.Modules = append(top.Modules, sbom.Module{Path: d.Path, Version: d.Version, Sum: d.Sum})
		}
	}
	out, err := sbom.CycloneDX(m, top)
	if err != nil {
		fmt.Fprintln(stderr, "wasmsand version:", err)
		return 1
	}
	stdout.Write(out)
	return 0
}
