package toolruntime

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

// Packages (the design's §6, "package auto-installation"): the python packages the manifest's
// tools name are installed at start-up, and when the manifest changes, from the
// worker's index (WorkerOptions.Index), by the sandbox's own pip in a sandbox whose
// network reaches only that index. What it installed is kept in memory and copied into
// every invocation's sandbox at /pkgs, on the tools' sys.path.

const pkgsDir = "/pkgs"

// packages is what the worker installed for a manifest.
type packages struct {
	reqs  string            // the requirements it was made for
	files map[string][]byte // below pkgsDir
	errs  map[string]string // requirement → why it could not be installed
}

// requirement is a tool's package with its version constraint.
func (t *Tool) requirement() string {
	if t.Package == "" {
		return ""
	}
	return t.Package + t.Version
}

// installPackages installs the manifest's packages when they differ from the last set.
func (w *Worker) installPackages(m *Manifest) {
	var reqs []string
	seen := map[string]bool{}
	for _, t := range m.Tools {
		if r := t.requirement(); r != "" && !seen[r] {
			seen[r] = true
			reqs = append(reqs, r)
		}
	}
	sort.Strings(reqs)
	key := strings.Join(reqs, "\n")
	if cur := w.pkgs.Load(); cur != nil && cur.reqs == key {
		return
	}
	p := &packages{reqs: key, files: map[string][]byte{}, errs: map[string]string{}}
	defer w.pkgs.Store(p)
	if len(reqs) == 0 {
		return
	}
	if w.opt.Index == "" {
		for _, r := range reqs {
			p.errs[r] = "the worker has no package index (--index)"
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	opt := core.Options{Programs: w.opt.Assets, Timeout: 10 * time.Minute, FSLimitMB: 1024}
	if err := opt.UseNetwork(policy.Network{Allow: indexRules(w.opt.Index)}, policy.Budget{}, nil, nil); err != nil {
		for _, r := range reqs {
			p.errs[r] = err.Error()
		}
		return
	}
	sb, err := core.New(ctx, opt)
	if err != nil {
		for _, r := range reqs {
			p.errs[r] = err.Error()
		}
		return
	}
	defer sb.Close()
	if err := sb.FS().MkdirAll(pkgsDir, 0o777); err != nil {
		for _, r := range reqs {
			p.errs[r] = err.Error()
		}
		return
	}
	for _, r := range reqs {
		res, err := sb.Run(ctx, "python3 -m pip install -q -t "+pkgsDir+" -i "+shellQuote(w.opt.Index)+" "+shellQuote(r), core.RunOptions{})
		switch {
		case err != nil:
			p.errs[r] = err.Error()
		case res.ExitCode != 0:
			p.errs[r] = strings.TrimSpace(string(res.Stderr))
		}
		if msg := p.errs[r]; msg != "" {
			w.opt.Log.Error("package not installed", "package", r, "err", msg)
		} else {
			w.opt.Log.Info("package installed", "package", r)
		}
	}
	fsys := sb.FS()
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := fsys.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			full := path.Join(dir, e.Name())
			switch {
			case e.IsDir():
				if e.Name() != "__pycache__" {
					walk(full)
				}
			case e.Type().IsRegular():
				if b, err := fsys.ReadFile(full); err == nil {
					p.files[strings.TrimPrefix(full, pkgsDir+"/")] = b
				}
			}
		}
	}
	walk(pkgsDir)
}

// indexRules lets pip reach the index (and, for PyPI, the host of its files).
func indexRules(index string) []policy.Rule {
	u, err := url.Parse(index)
	if err != nil || u.Host == "" {
		return nil
	}
	rules := []policy.Rule{{URL: u.Scheme + "://" + u.Host + "/"}}
	if u.Host == "pypi.org" {
		rules = append(rules, policy.Rule{URL: "https://files.pythonhosted.org/"})
	}
	return rules
}

// copyPackages puts the installed packages into an invocation's sandbox; the error is
// why the tool's own package is missing, if it is.
func (w *Worker) copyPackages(fsys fsWriter, t Tool) error {
	p := w.pkgs.Load()
	if p == nil {
		return nil
	}
	if r := t.requirement(); r != "" {
		if msg, bad := p.errs[r]; bad {
			return fmt.Errorf("package %s could not be installed: %s", r, msg)
		}
	}
	for rel, b := range p.files {
		full := path.Join(pkgsDir, rel)
		if err := fsys.MkdirAll(path.Dir(full), 0o755); err != nil {
			return err
		}
		if err := fsys.WriteFile(full, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
