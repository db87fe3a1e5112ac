package interp

import (
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/pattern"
)

// glob expands a field with unquoted wildcards against the VFS. It returns
// nil when nothing matches (the caller keeps the word, or drops it with
// nullglob); failglob makes that an error.
func (r *Runner) glob(f expand.Field) ([]string, error) {
	pat := expand.FieldPattern(f)
	matches := expand.Glob(r.cfg.FS, r.dir, pat, r.globOptions())
	if len(matches) == 0 {
		if r.shopt.failglob {
			var s strings.Builder
			for _, p := range f.Parts {
				s.WriteString(p.S)
			}
			return nil, &globError{"no match: " + s.String()}
		}
		return nil, nil
	}
	return matches, nil
}

// globError fails a command (failglob) without ending the shell.
type globError struct{ msg string }

func (e *globError) Error() string { return e.msg }

// globOptions are the shell's options for expand.Glob.
func (r *Runner) globOptions() expand.GlobOptions {
	f := pattern.Pathname
	if gi, ok := r.getVar("GLOBIGNORE"); ok && gi != "" {
		// a set GLOBIGNORE shows dotfiles, as dotglob does
	} else if !r.shopt.dotglob {
		f |= pattern.Period
	}
	if r.shopt.nocaseglob {
		f |= pattern.NoCase
	}
	if r.shopt.extglob {
		f |= pattern.ExtGlob
	}
	opt := expand.GlobOptions{Flags: f, GlobStar: r.shopt.globstar, Dots: !r.shopt.globskipdots}
	if gi, ok := r.getVar("GLOBIGNORE"); ok && gi != "" {
		for _, p := range pattern.SplitList(gi, ':') {
			if p != "" {
				opt.Ignore = append(opt.Ignore, pattern.Compile(p, r.patFlags()))
			}
		}
	}
	return opt
}
