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
// (the private deb-src lists: bookworm, bookworm-updates, bookworm-security)
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
	var lagging []string
	checked, accepted := 0, 0
	for _, r := range recipes {
		for _, s := range r.Sources {
			newest, err := a.newestSource(s.Package)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			checked++
			if newest == "" {
				return fmt.Errorf("%s: apt serves no source package %s (is the archive reachable?)", r.Name, s.Package)
			}
			if !versionLess(s.Version, newest) {
				continue
			}
			if s.AcceptLag != nil && s.AcceptLag.Version == newest && s.AcceptLag.Reason != "" {
				fmt.Printf("assets: %s: %s %s kept while Debian serves %s: %s\n", r.Name, s.Package, s.Version, newest, s.AcceptLag.Reason)
				accepted++
				continue
			}
			lagging = append(lagging, fmt.Sprintf("%s: source %s is pinned to %s, Debian serves %s", r.Name, s.Package, s.Version, newest))
		}
		for _, c := range r.Crates {
			newest, err := a.newestBinary(c.Package)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			checked++
			if newest == "" {
				return fmt.Errorf("%s: apt serves no package %s (is the archive reachable?)", r.Name, c.Package)
			}
			if !versionLess(c.Version, newest) {
				continue
			}
			if c.AcceptLag != nil && c.AcceptLag.Version == newest && c.AcceptLag.Reason != "" {
				fmt.Printf("assets: %s: %s %s kept while Debian serves %s: %s\n", r.Name, c.Package, c.Version, newest, c.AcceptLag.Reason)
				accepted++
				continue
			}
			lagging = append(lagging, fmt.Sprintf("%s: crate %s is pinned to %s, Debian serves %s", r.Name, c.Package, c.Version, newest))
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

// newestBinary is the highest version of a binary package in the lists.
func (a *apt) newestBinary(pkg string) (string, error) {
	out, err := exec.Command("apt-cache", append(a.opts(), "madison", pkg)...).Output()
	if err != nil {
		return "", fmt.Errorf("apt-cache madison %s: %w", pkg, err)
	}
	newest := ""
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Split(l, "|")
		if len(f) < 3 || strings.TrimSpace(f[0]) != pkg || !strings.Contains(f[2], "Packages") {
			continue
		}
		if v := strings.TrimSpace(f[1]); newest == "" || versionLess(newest, v) {
			newest = v
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
