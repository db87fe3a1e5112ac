package interp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

func builtinAlias(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("alias", args[1:], "p", false)
	if !ok {
		return 2
	}
	if len(rest) == 0 || o.set['p'] {
		names := make([]string, 0, len(r.aliases.m))
		for k := range r.aliases.m {
			names = append(names, k)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			b.WriteString("alias " + n + "=" + expand.QuoteSingle(r.aliases.m[n]) + "\n")
		}
		if w := r.out("alias", b.String()); w != 0 || len(rest) == 0 {
			return w
		}
	}
	st := 0
	var b strings.Builder
	for _, a := range rest {
		name, val, has := strings.Cut(a, "=")
		if !has || name == "" { // "=x" is a name to look up, as in bash
			v, ok := r.aliases.get(a)
			if !ok {
				r.errmsg("alias: " + a + ": not found")
				st = 1
				continue
			}
			b.WriteString("alias " + a + "=" + expand.QuoteSingle(v) + "\n")
			continue
		}
		if !validAliasName(name) {
			r.errmsg("alias: `" + name + "': invalid alias name")
			st = 1
			continue
		}
		r.mutAliases()[name] = val
	}
	if w := r.out("alias", b.String()); w != 0 {
		return w
	}
	return st
}

// validAliasName: bash refuses names with a slash, quotes, blanks, `$`,
// `=` or the shell's metacharacters.
func validAliasName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/$`=\\ \t\n'\"|&;()<>")
}

func builtinUnalias(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("unalias", args[1:], "a", false)
	if !ok {
		return 2
	}
	if o.set['a'] {
		m := r.mutAliases()
		for k := range m {
			delete(m, k)
		}
		return 0
	}
	if len(rest) == 0 {
		r.stderr("unalias: usage: " + usages["unalias"] + "\n")
		return 2
	}
	st := 0
	for _, a := range rest {
		if _, ok := r.aliases.get(a); !ok {
			r.errmsg("unalias: " + a + ": not found")
			st = 1
			continue
		}
		delete(r.mutAliases(), a)
	}
	return st
}

// kindOf says what running name would run.
func (r *Runner) kindOf(name string, all bool) []string {
	var kinds []string
	if _, ok := r.aliases.get(name); ok && r.shopt.expandAliases {
		kinds = append(kinds, "alias")
	}
	if syntax.IsKeyword(name) {
		kinds = append(kinds, "keyword")
	}
	if r.funcs.get(name) != nil {
		kinds = append(kinds, "function")
	}
	if IsBuiltin(name) && r.builtinEnabled(name) {
		kinds = append(kinds, "builtin")
	}
	if all || len(kinds) == 0 {
		if p := r.findFilesCounting(name, all, false); len(p) > 0 {
			for range p {
				kinds = append(kinds, "file")
			}
		}
	}
	return kinds
}

// findFiles lists the executables name resolves to in PATH.
func (r *Runner) findFiles(name string, all bool) []string {
	return r.findFilesCounting(name, all, true)
}

// findFilesCounting is findFiles; count says whether a hashed name's use
// counts as a hit (once per command, as bash counts).
func (r *Runner) findFilesCounting(name string, all, count bool) []string {
	if strings.Contains(name, "/") {
		if p, err := r.lookPathNoHash(name); err == nil {
			return []string{p}
		}
		return nil
	}
	if !all {
		lookup := r.hashed.peek
		if count {
			lookup = r.hashed.lookup
		}
		if p, ok := lookup(name); ok {
			return []string{p}
		}
		if p, err := r.lookPathNoHash(name); err == nil {
			return []string{p}
		}
		return nil
	}
	path, _ := r.getVar("PATH")
	var out []string
	for _, d := range strings.Split(path, ":") {
		if d == "" {
			d = "."
		}
		p := strings.TrimSuffix(d, "/") + "/" + name
		abs := r.abs(p)
		fi, err := r.cfg.FS.Stat(abs)
		if err != nil || fi.IsDir() || !r.permits(fi, 1) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func (r *Runner) lookPathNoHash(name string) (string, error) {
	if r.cfg.LookPath == nil {
		return "", fmt.Errorf("not found")
	}
	return r.cfg.LookPath(r.environ(), r.dir, name)
}

// describe prints what name is (command -v / -V); false when unknown.
func (r *Runner) describe(name string, verbose bool, cmd string) bool {
	kinds := r.kindOf(name, false)
	if len(kinds) == 0 {
		if verbose {
			r.errmsg(cmd + ": " + name + ": not found")
		}
		return false
	}
	var b strings.Builder
	switch kinds[0] {
	case "alias":
		v, _ := r.aliases.get(name)
		if verbose {
			b.WriteString(name + " is aliased to `" + v + "'\n")
		} else {
			b.WriteString("alias " + name + "=" + expand.QuoteSingle(v) + "\n")
		}
	case "keyword":
		if verbose {
			b.WriteString(name + " is a shell keyword\n")
		} else {
			b.WriteString(name + "\n")
		}
	case "function":
		if verbose {
			b.WriteString(name + " is a function\n" + syntax.FuncString(name, r.funcs.get(name).body) + "\n")
		} else {
			b.WriteString(name + "\n")
		}
	case "builtin":
		if verbose {
			b.WriteString(name + " is a shell builtin\n")
		} else {
			b.WriteString(name + "\n")
		}
	case "file":
		p := r.findFiles(name, false)[0]
		if verbose {
			if _, ok := r.hashed.peek(name); ok {
				b.WriteString(name + " is hashed (" + p + ")\n")
			} else {
				b.WriteString(name + " is " + p + "\n")
			}
		} else {
			b.WriteString(p + "\n")
		}
	}
	r.out(cmd, b.String())
	return true
}

func builtinType(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("type", args[1:], "afptP", false)
	if !ok {
		return 2
	}
	st := 0
	var b strings.Builder
	for _, name := range rest {
		if o.set['P'] {
			ps := r.findFiles(name, o.set['a'])
			if len(ps) == 0 {
				st = 1
			}
			for _, p := range ps {
				b.WriteString(p + "\n")
			}
			continue
		}
		kinds := r.kindOf(name, o.set['a'])
		if o.set['f'] {
			var k []string
			for _, x := range kinds {
				if x != "function" {
					k = append(k, x)
				}
			}
			kinds = k
		}
		if len(kinds) == 0 {
			if !o.set['t'] && !o.set['p'] {
				r.errmsg("type: " + name + ": not found")
			}
			st = 1
			continue
		}
		if !o.set['a'] {
			kinds = kinds[:1]
		}
		files := r.findFiles(name, o.set['a'])
		fi := 0
		for _, k := range kinds {
			switch {
			case o.set['t']:
				b.WriteString(k + "\n")
			case o.set['p']:
				if k == "file" {
					b.WriteString(files[fi] + "\n")
					fi++
				}
			case k == "alias":
				v, _ := r.aliases.get(name)
				b.WriteString(name + " is aliased to `" + v + "'\n")
			case k == "keyword":
				b.WriteString(name + " is a shell keyword\n")
			case k == "function":
				b.WriteString(name + " is a function\n" + syntax.FuncString(name, r.funcs.get(name).body) + "\n")
			case k == "builtin":
				b.WriteString(name + " is a shell builtin\n")
			case k == "file":
				p := files[fi]
				fi++
				if _, ok := r.hashed.peek(name); ok && !o.set['a'] {
					b.WriteString(name + " is hashed (" + p + ")\n")
				} else {
					b.WriteString(name + " is " + p + "\n")
				}
			}
		}
	}
	if w := r.out("type", b.String()); w != 0 {
		return w
	}
	return st
}

func builtinHash(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("hash", args[1:], "lrp:dt", false)
	if !ok {
		return 2
	}
	if o.set['r'] {
		r.hashed = newCmdHash()
	}
	if p, ok := o.vals['p']; ok {
		if !r.opts.hashall {
			r.errmsg("hash: hashing disabled")
			return 1
		}
		for _, n := range rest {
			r.hashed.insert(n, p, 0)
		}
		return 0
	}
	if len(rest) == 0 {
		switch {
		case o.set['t'] || o.set['d']:
			r.errmsg("hash: -" + map[bool]string{true: "t", false: "d"}[o.set['t']] + ": option requires an argument")
			return 1
		case o.set['r']:
			return 0
		case r.hashed.tab.len() == 0:
			if o.set['l'] {
				return 0
			}
			return r.out("hash", "hash: hash table empty\n")
		}
		var b strings.Builder
		if !o.set['l'] {
			b.WriteString("hits\tcommand\n")
		}
		r.hashed.tab.each(func(n, p string) {
			if o.set['l'] {
				b.WriteString("builtin hash -p " + p + " " + n + "\n")
			} else {
				fmt.Fprintf(&b, "%4d\t%s\n", r.hashed.hits[n], p)
			}
		})
		return r.out("hash", b.String())
	}
	st := 0
	var b strings.Builder
	for _, n := range rest {
		switch {
		case o.set['d']:
			r.hashed.remove(n) // a name that was not there: nothing to say
		case o.set['t']:
			p, ok := r.hashed.lookup(n)
			if !ok {
				r.errmsg("hash: " + n + ": not found")
				st = 1
				continue
			}
			if len(rest) > 1 {
				b.WriteString(n + "\t")
			}
			b.WriteString(p + "\n")
		default:
			if IsBuiltin(n) || r.funcs.get(n) != nil || strings.Contains(n, "/") {
				continue
			}
			p, err := r.lookPathNoHash(n)
			if err != nil {
				r.errmsg("hash: " + n + ": not found")
				st = 1
				continue
			}
			r.hashed.insert(n, p, 0)
		}
	}
	if w := r.out("hash", b.String()); w != 0 {
		return w
	}
	return st
}
