package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// apt fetches Debian source packages (and the binary packages of Rust crates)
// through a private list: the machine's /etc/apt is only read (to copy its
// mirror, suites and keyring), never changed.
type apt struct {
	dir     string // work/apt: sources.list, lists/, cache/
	updated bool
	log     io.Writer
	// suite: "" for the machine's own suites; else a Debian release
	// (Source.Suite) whose lists are kept apart in work/apt-<suite>, so a
	// newer release never answers for a package pinned to the machine's.
	suite  string
	suites map[string]*apt
}

// distros names the Debian releases a recipe may take a source from
// (Source.Suite), with their purl distro; the machine's own is bookworm.
var distros = map[string]string{"": "debian-12", "trixie": "debian-13"}

// forSuite is the apt that fetches from suite ("" is the machine's own).
func (a *apt) forSuite(suite string) *apt {
	if suite == a.suite {
		return a
	}
	if a.suites == nil {
		a.suites = map[string]*apt{}
	}
	if s := a.suites[suite]; s != nil {
		return s
	}
	s := &apt{dir: a.dir + "-" + suite, log: a.log, suite: suite}
	a.suites[suite] = s
	return s
}

// retarget points deb-src lines at another release: the suite field's
// codename (bookworm, bookworm-updates, bookworm-security) becomes suite's.
func retarget(lines []string, suite string) []string {
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		at := 1
		if len(f) > 1 && strings.HasPrefix(f[1], "[") {
			for at < len(f) && !strings.HasSuffix(f[at], "]") {
				at++
			}
			at++
		}
		at++ // the URI
		if at >= len(f) {
			continue
		}
		_, rest, _ := strings.Cut(f[at], "-")
		f[at] = suite
		if rest != "" {
			f[at] += "-" + rest
		}
		out = append(out, strings.Join(f, " "))
	}
	return dedupe(out)
}

func (a *apt) opts() []string {
	o := []string{
		"-o", "Dir::Etc::SourceList=" + filepath.Join(a.dir, "sources.list"),
		"-o", "Dir::Etc::SourceParts=/dev/null",
		"-o", "Dir::State::Lists=" + filepath.Join(a.dir, "lists"),
		"-o", "Dir::Cache=" + filepath.Join(a.dir, "cache"),
	}
	if os.Geteuid() == 0 {
		// apt drops to _apt for downloads, which cannot write into our work dir.
		o = append(o, "-o", "APT::Sandbox::User=root")
	}
	return o
}

// debSrcLines turns the machine's deb entries into deb-src lines.
func debSrcLines() []string {
	var lines []string
	// deb822 files (bookworm's default: /etc/apt/sources.list.d/debian.sources)
	parts, _ := filepath.Glob("/etc/apt/sources.list.d/*.sources")
	for _, p := range parts {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines = append(lines, deb822ToSrc(string(data))...)
	}
	// one-line format
	one := []string{"/etc/apt/sources.list"}
	more, _ := filepath.Glob("/etc/apt/sources.list.d/*.list")
	for _, p := range append(one, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines = append(lines, oneLineToSrc(string(data))...)
	}
	if len(lines) == 0 {
		lines = []string{
			"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main",
			"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main",
		}
	}
	return dedupe(lines)
}

func deb822ToSrc(text string) []string {
	var out []string
	for _, stanza := range strings.Split(text, "\n\n") {
		f := map[string]string{}
		for _, l := range strings.Split(stanza, "\n") {
			if strings.HasPrefix(l, "#") || !strings.Contains(l, ":") {
				continue
			}
			k, v, _ := strings.Cut(l, ":")
			f[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
		if !hasField(f["types"], "deb") || strings.EqualFold(f["enabled"], "no") {
			continue
		}
		opt := ""
		if sb := f["signed-by"]; sb != "" && !strings.Contains(sb, "\n") && strings.HasPrefix(sb, "/") {
			opt = "[signed-by=" + sb + "] "
		}
		for _, uri := range strings.Fields(f["uris"]) {
			for _, suite := range strings.Fields(f["suites"]) {
				out = append(out, fmt.Sprintf("deb-src %s%s %s %s", opt, uri, suite, f["components"]))
			}
		}
	}
	return out
}

func oneLineToSrc(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "deb ") {
			out = append(out, "deb-src "+strings.TrimPrefix(l, "deb "))
		}
	}
	return out
}

func hasField(list, want string) bool {
	for _, t := range strings.Fields(list) {
		if t == want {
			return true
		}
	}
	return false
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (a *apt) update() error {
	if a.updated {
		return nil
	}
	for _, d := range []string{"lists/partial", "cache/archives/partial"} {
		if err := os.MkdirAll(filepath.Join(a.dir, d), 0o755); err != nil {
			return err
		}
	}
	// deb-src for the sources, deb for the packaged Rust crates (Recipe.Crates).
	src := debSrcLines()
	if a.suite != "" {
		src = retarget(src, a.suite)
	}
	var lines []string
	for _, l := range src {
		lines = append(lines, l, "deb "+strings.TrimPrefix(l, "deb-src "))
	}
	list := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(a.dir, "sources.list"), []byte(list), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(a.log, "assets: apt-get update (private deb-src list: %s)\n", filepath.Join(a.dir, "sources.list"))
	cmd := exec.Command("apt-get", append(a.opts(), "-q", "update")...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("apt-get update: %v\n%s", err, out)
	}
	a.updated = true
	return nil
}

// dscFile is one file listed in a .dsc with its SHA-256.
type dscFile struct {
	Name, SHA256 string
	Size         int64
}

func parseDsc(text string) (format string, files []dscFile) {
	inSums := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "-----BEGIN PGP SIGNATURE") {
			break
		}
		if strings.HasPrefix(l, "Format:") {
			format = strings.TrimSpace(strings.TrimPrefix(l, "Format:"))
		}
		if strings.HasPrefix(l, " ") && inSums {
			f := strings.Fields(l)
			if len(f) == 3 {
				var size int64
				fmt.Sscan(f[1], &size)
				files = append(files, dscFile{Name: f[2], SHA256: f[0], Size: size})
			}
			continue
		}
		inSums = strings.HasPrefix(l, "Checksums-Sha256:")
	}
	return format, files
}

func stripEpoch(v string) string {
	if i := strings.Index(v, ":"); i >= 0 {
		return v[i+1:]
	}
	return v
}

func isOrig(name string) bool { return strings.Contains(name, ".orig.tar.") }

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// neededFiles: everything for dpkg-source -x, or just the upstream tarball (for a
// native package, its only tarball).
func neededFiles(files []dscFile, debianPatches bool) []dscFile {
	if debianPatches {
		return files
	}
	var out []dscFile
	for _, f := range files {
		if isOrig(f.Name) && !strings.Contains(f.Name, ".asc") && !strings.Contains(f.Name, ".orig-") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		for _, f := range files {
			if strings.Contains(f.Name, ".tar.") {
				out = append(out, f)
			}
		}
	}
	return out
}

// fetch makes sure dl holds the source package's .dsc and the files we need, each
// checked against the .dsc's SHA-256 (apt checked the .dsc against the signed index).
func (a *apt) fetch(src Source, dl string) (dsc string, files []dscFile, err error) {
	if err := os.MkdirAll(dl, 0o755); err != nil {
		return "", nil, err
	}
	dsc = filepath.Join(dl, src.Package+"_"+stripEpoch(src.Version)+".dsc")
	check := func() ([]dscFile, error) {
		data, err := os.ReadFile(dsc)
		if err != nil {
			return nil, err
		}
		_, all := parseDsc(string(data))
		need := neededFiles(all, src.DebianPatches)
		if len(need) == 0 {
			return nil, fmt.Errorf("%s lists no source tarball", dsc)
		}
		for _, f := range need {
			sum, err := fileSHA256(filepath.Join(dl, f.Name))
			if err != nil {
				return nil, err
			}
			if sum != f.SHA256 {
				return nil, fmt.Errorf("%s: sha256 %s, the .dsc says %s", f.Name, sum, f.SHA256)
			}
		}
		return need, nil
	}
	if files, err := check(); err == nil {
		return dsc, files, nil
	}
	if err := a.update(); err != nil {
		return "", nil, err
	}
	fmt.Fprintf(a.log, "assets: apt-get source %s=%s\n", src.Package, src.Version)
	cmd := exec.Command("apt-get", append(a.opts(), "-q", "source", "--download-only", src.Package+"="+src.Version)...)
	cmd.Dir = dl
	out, aptErr := cmd.CombinedOutput()
	// apt-get fails as a whole when one file is missing on the mirror (seen: a
	// .debian.tar.xz); carry on when what we need arrived intact.
	files, err = check()
	if err != nil {
		return "", nil, fmt.Errorf("apt-get source %s=%s: %v (apt: %v)\n%s", src.Package, src.Version, err, aptErr, tail(out, 15))
	}
	return dsc, files, nil
}

// fetchDeb makes sure dl holds the crate's binary package, checked against
// the SHA-256 of the archive's signed index when it was downloaded (a .deb
// is only renamed into dl after that check).
func (a *apt) fetchDeb(c Crate, dl string) (string, error) {
	if m, _ := filepath.Glob(filepath.Join(dl, c.Package+"_"+stripEpoch(c.Version)+"_*.deb")); len(m) == 1 {
		return m[0], nil
	}
	if err := a.update(); err != nil {
		return "", err
	}
	spec := c.Package + "=" + c.Version
	out, err := exec.Command("apt-cache", append(a.opts(), "show", spec)...).Output()
	if err != nil {
		return "", fmt.Errorf("apt-cache show %s: %w", spec, err)
	}
	var pool, sum string
	for _, l := range strings.Split(strings.SplitN(string(out), "\n\n", 2)[0], "\n") {
		if v, ok := strings.CutPrefix(l, "Filename: "); ok {
			pool = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(l, "SHA256: "); ok {
			sum = strings.TrimSpace(v)
		}
	}
	if pool == "" || sum == "" {
		return "", fmt.Errorf("apt-cache show %s: no Filename or SHA256", spec)
	}
	tmp := filepath.Join(dl, "partial-deb")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(a.log, "assets: apt-get download %s\n", spec)
	cmd := exec.Command("apt-get", append(a.opts(), "-q", "download", spec)...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("apt-get download %s: %v\n%s", spec, err, tail(out, 15))
	}
	name := filepath.Base(pool)
	got := filepath.Join(tmp, name)
	if s, err := fileSHA256(got); err != nil || s != sum {
		os.Remove(got)
		return "", fmt.Errorf("%s: sha256 %s, the index says %s (%v)", name, s, sum, err)
	}
	dest := filepath.Join(dl, name)
	return dest, os.Rename(got, dest)
}

// unpackCrate puts the crate of a librust-*-dev package at dir/<crate>-<version>
// and returns that directory.
func unpackCrate(deb, dir string) (string, error) {
	tmp := filepath.Join(dir, ".unpack")
	os.RemoveAll(tmp)
	defer os.RemoveAll(tmp)
	if out, err := exec.Command("dpkg-deb", "-x", deb, tmp).CombinedOutput(); err != nil {
		return "", fmt.Errorf("dpkg-deb -x %s: %v\n%s", filepath.Base(deb), err, out)
	}
	found, _ := filepath.Glob(filepath.Join(tmp, "usr", "share", "cargo", "registry", "*"))
	if len(found) != 1 {
		return "", fmt.Errorf("%s: want one crate under /usr/share/cargo/registry, found %d", filepath.Base(deb), len(found))
	}
	dest := filepath.Join(dir, filepath.Base(found[0]))
	if _, err := os.Stat(dest); err == nil {
		return "", fmt.Errorf("%s: crate %s twice", filepath.Base(deb), filepath.Base(dest))
	}
	return dest, os.Rename(found[0], dest)
}

// extract unpacks a fetched source package into dest (which must not exist).
func extract(src Source, dsc string, files []dscFile, dest string) error {
	if src.DebianPatches {
		cmd := exec.Command("dpkg-source", "--no-check", "-x", dsc, dest)
		cmd.Dir = filepath.Dir(dsc)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("dpkg-source -x %s: %v\n%s", filepath.Base(dsc), err, tail(out, 15))
		}
		return nil
	}
	tmp := dest + ".tmp"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	tarball := filepath.Join(filepath.Dir(dsc), files[0].Name)
	if out, err := exec.Command("tar", "-xf", tarball, "-C", tmp).CombinedOutput(); err != nil {
		return fmt.Errorf("tar -xf %s: %v\n%s", files[0].Name, err, out)
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	root := tmp
	if len(ents) == 1 && ents[0].IsDir() {
		root = filepath.Join(tmp, ents[0].Name())
	}
	if err := os.Rename(root, dest); err != nil {
		return err
	}
	return os.RemoveAll(tmp)
}

func applyPatch(dir, patch string) error {
	cmd := exec.Command("patch", "-p1", "-N", "-s", "--no-backup-if-mismatch", "-d", dir, "-i", patch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("patch %s: %v\n%s", filepath.Base(patch), err, out)
	}
	return nil
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}
