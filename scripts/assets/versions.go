package main

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// Every source is pinned to a version, which keeps builds reproducible but
// would also keep a security bug in once Debian fixes it. checkVersions
// (`go run ./scripts/assets -check-versions`, part of `make test`) asks apt
// (the private deb-src lists: bookworm, bookworm-updates, bookworm-security,
// or another release's for a source with a suite)
// for the newest version of every source package (and packaged crate) and fails, naming the
// package and both versions, when a pin is older. A lag is accepted
// deliberately in the recipe, for one newer version at a time, with its
// reason:
//
//	"accept_lag": {"version": "3.11.2-6+deb12u9", "reason": "..."}
//
// (a later update fails the check again).
func checkVersions(o options) error {
	recipes, err := loadRecipes(o.root + "/assets")
	if err != nil {
		return err
	}
	a := &apt{dir: o.work + "/apt", log: nopWriter{}}
	if err := a.update(); err != nil {
		return err
	}
	// pin is one pinned package: a source, or a crate's binary package.
	type pin struct {
		kind, pkg, version string
		lag                *AcceptLag
		newest             func(string) (string, error)
	}
	var lagging []string
	checked, accepted := 0, 0
	for _, r := range recipes {
		var pins []pin
		for _, s := range r.Sources {
			sa := a.forSuite(s.Suite)
			if err := sa.update(); err != nil {
				return err
			}
			pins = append(pins, pin{"source", s.Package, s.Version, s.AcceptLag, sa.newestSource})
		}
		var crates []string
		for _, c := range r.Crates {
			crates = append(crates, c.Package)
		}
		binaries, err := a.newestBinaries(crates) // (one apt-cache call for them all)
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		fromBinaries := func(pkg string) (string, error) { return binaries[pkg], nil }
		for _, c := range r.Crates {
			pins = append(pins, pin{"crate", c.Package, c.Version, c.AcceptLag, fromBinaries})
		}
		for _, p := range pins {
			newest, err := p.newest(p.pkg)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			checked++
			if newest == "" {
				return fmt.Errorf("%s: apt serves no %s package %s (is the archive reachable?)", r.Name, p.kind, p.pkg)
			}
			if !versionLess(p.version, newest) {
				continue
			}
			if p.lag != nil && p.lag.Version == newest && p.lag.Reason != "" {
				fmt.Printf("assets: %s: %s %s kept while Debian serves %s: %s\n", r.Name, p.pkg, p.version, newest, p.lag.Reason)
				accepted++
				continue
			}
			lagging = append(lagging, fmt.Sprintf("%s: %s %s is pinned to %s, Debian serves %s", r.Name, p.kind, p.pkg, p.version, newest))
		}
	}
	if len(lagging) > 0 {
		return fmt.Errorf("pinned sources older than what Debian serves (update the recipe's version, or accept the lag with \"accept_lag\": {\"version\", \"reason\"}):\n  %s",
			strings.Join(lagging, "\n  "))
	}
	fmt.Printf("assets: %d pinned sources: %d the newest Debian serves, %d behind it by an accepted lag\n", checked, checked-accepted, accepted)
	return nil
}

// newestSource is the highest version of a source package in the lists.
func (a *apt) newestSource(pkg string) (string, error) {
	out, err := exec.Command("apt-cache", append(a.opts(), "showsrc", "--only-source", pkg)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && strings.Contains(string(ee.Stderr), "Unable to find") {
			return "", nil
		}
		return "", fmt.Errorf("apt-cache showsrc %s: %w", pkg, err)
	}
	var versions []string
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "Version: "); ok {
			versions = append(versions, strings.TrimSpace(v))
		}
	}
	sort.Slice(versions, func(i, j int) bool { return versionLess(versions[i], versions[j]) })
	if len(versions) == 0 {
		return "", nil
	}
	return versions[len(versions)-1], nil
}

// newestBinaries is the highest version of each binary package in the lists.
func (a *apt) newestBinaries(pkgs []string) (map[string]string, error) {
	newest := map[string]string{}
	if len(pkgs) == 0 {
		return newest, nil
	}
	out, err := exec.Command("apt-cache", append(append(a.opts(), "madison"), pkgs...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("apt-cache madison: %w", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Split(l, "|")
		if len(f) < 3 || !strings.Contains(f[2], "Packages") {
			continue
		}
		pkg, v := strings.TrimSpace(f[0]), strings.TrimSpace(f[1])
		if cur, ok := newest[pkg]; !ok || (cur != v && versionLess(cur, v)) {
			newest[pkg] = v
		}
	}
	return newest, nil
}

// versionLess compares Debian versions as dpkg does.
func versionLess(a, b string) bool {
	return exec.Command("dpkg", "--compare-versions", a, "lt", b).Run() == nil
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
