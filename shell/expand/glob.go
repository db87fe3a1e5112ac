package expand

import (
	"io/fs"
	"sort"
	"strings"

	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/vfs"
)

// maxGlobResults bounds a pathname expansion (a ** over a huge tree).
const maxGlobResults = 1 << 20

// GlobOptions are the shell options pathname expansion follows.
type GlobOptions struct {
	// Flags match a component: pattern.Pathname, with Period unless
	// dotglob (or a set GLOBIGNORE), NoCase for nocaseglob, ExtGlob.
	Flags    pattern.Flags
	GlobStar bool               // ** matches any depth of directories
	Ignore   []*pattern.Pattern // GLOBIGNORE's patterns
	// Dots (globskipdots off): . and .. match a pattern whose leading dot
	// is explicit (.*, .?(a)), as other dotfiles do without dotglob.
	Dots bool
}

// Glob returns the sorted paths matching pat, relative to dir unless pat is
// absolute, as bash shows them; none: nil.
func Glob(fsys *vfs.FS, dir, pat string, opt GlobOptions) []string {
	comps := strings.Split(pat, "/")
	type cand struct {
		show string // the path as the result shows it
		abs  string // where it is
		lit  bool   // built from literal components (existence unchecked)
		// found: some component before was a pattern
		found bool
	}
	var cands []cand
	if strings.HasPrefix(pat, "/") {
		cands = []cand{{show: "/", abs: "/"}}
		comps = comps[1:]
	} else {
		cands = []cand{{show: "", abs: dir}}
	}
	join := func(a, b string) string {
		switch {
		case a == "":
			return b
		case strings.HasSuffix(a, "/"):
			return a + b
		}
		return a + "/" + b
	}
	flags := opt.Flags
	extglob := flags&pattern.ExtGlob != 0
	for i, comp := range comps {
		last := i == len(comps)-1
		var next []cand
		switch {
		case comp == "":
			if last {
				// a trailing slash: directories only
				for _, c := range cands {
					if c.show == "" {
						continue
					}
					if fi, err := fsys.Stat(c.abs); err == nil && fi.IsDir() {
						next = append(next, cand{show: c.show + "/", abs: c.abs, found: c.found})
					}
				}
			} else {
				for _, c := range cands {
					next = append(next, cand{show: c.show + "/", abs: c.abs, lit: c.lit, found: c.found})
				}
				if len(cands) == 1 && cands[0].show == "/" {
					next = cands
				}
			}
		case comp == "**" && opt.GlobStar:
			for _, c := range cands {
				next = append(next, cand{show: c.show, abs: c.abs, lit: c.lit, found: c.found})
				walkDirs(fsys, c.abs, c.show, last, flags, func(show, abs string) {
					if len(next) < maxGlobResults {
						next = append(next, cand{show: show, abs: abs, found: true})
					}
				}, join)
			}
			if last {
				// ** at the end lists files too. The directory it starts
				// from shows as "dir/" when written literally, as the
				// "dir" its match was when found by a pattern, not at all
				// for the current directory (bash's ways).
				var out []cand
				for _, c := range next {
					if c.show == "" {
						continue
					}
					if !c.found && c.show != "/" && !strings.HasSuffix(c.show, "/") {
						c.show += "/"
					}
					out = append(out, c)
				}
				next = out
			}
		case !pattern.HasMeta(comp, extglob):
			name := pattern.Unescape(comp)
			for _, c := range cands {
				next = append(next, cand{show: join(c.show, name), abs: join(c.abs, name), lit: true, found: c.found})
			}
		default:
			p := pattern.Compile(comp, flags)
			for _, c := range cands {
				if c.lit {
					if fi, err := fsys.Stat(c.abs); err != nil || !fi.IsDir() {
						continue
					}
				}
				ents, err := fsys.ReadDir(c.abs)
				if err != nil {
					continue
				}
				names := make([]string, 0, len(ents)+2)
				if opt.Dots {
					dp := pattern.Compile(comp, flags|pattern.Period)
					for _, d := range []string{".", ".."} {
						if dp.Match(d) {
							names = append(names, d)
						}
					}
				}
				for _, e := range ents {
					if n := e.Name(); n != "." && n != ".." && p.Match(n) {
						names = append(names, n)
					}
				}
				for _, name := range names {
					if !last {
						if fi, err := fsys.Stat(join(c.abs, name)); err != nil || !fi.IsDir() {
							continue
						}
					}
					next = append(next, cand{show: join(c.show, name), abs: join(c.abs, name), found: true})
					if len(next) >= maxGlobResults {
						break
					}
				}
			}
		}
		cands = next
		if len(cands) == 0 {
			return nil
		}
	}
	var out []string
	for _, c := range cands {
		if c.lit {
			if _, err := fsys.Lstat(c.abs); err != nil {
				continue
			}
		}
		if c.show == "" {
			continue
		}
		if ignored(opt.Ignore, c.show) {
			continue
		}
		out = append(out, c.show)
	}
	sort.Strings(out)
	return out
}

// ignored: GLOBIGNORE removes a match (and . and .., always, once it is set).
func ignored(ignore []*pattern.Pattern, p string) bool {
	if len(ignore) == 0 {
		return false
	}
	base := p[strings.LastIndexByte(strings.TrimSuffix(p, "/"), '/')+1:]
	if base == "." || base == ".." {
		return true
	}
	for _, pat := range ignore {
		if pat.Match(p) {
			return true
		}
	}
	return false
}

// walkDirs visits every directory below dir (and every file too when
// files), for **.
func walkDirs(fsys *vfs.FS, dir, show string, files bool, flags pattern.Flags, fn func(show, abs string), join func(a, b string) string) {
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if name == "." || name == ".." {
			continue
		}
		if strings.HasPrefix(name, ".") && flags&pattern.Period != 0 {
			continue
		}
		abs, s := join(dir, name), join(show, name)
		li, err := fsys.Lstat(abs)
		if err != nil {
			continue
		}
		fi, err := fsys.Stat(abs)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			fn(s, abs)
			if li.Mode()&fs.ModeSymlink == 0 { // symlinks to directories are not followed
				walkDirs(fsys, abs, s, files, flags, fn, join)
			}
		} else if files {
			fn(s, abs)
		}
	}
}
