package interp

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// compgen prints the completions bash's programmable completion would
// generate for a word: the -A actions (and their one-letter forms), -G, -W,
// -F and -C, filtered by -X and wrapped in -P/-S. Status 1 when none.
func builtinCompgen(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("compgen", args[1:], "abcdefgjksuvo:A:G:W:F:C:X:P:S:", false)
	if !ok {
		return 2
	}
	word := ""
	if len(rest) > 0 {
		word = rest[0]
	}
	actions := append([]string(nil), o.multi['A']...)
	for _, c := range o.order {
		if a, ok := compgenLetters[c]; ok {
			actions = append(actions, a)
		}
	}
	copts := map[string]bool{}
	for _, v := range o.multi['o'] {
		switch v {
		case "bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs":
			copts[v] = true
		default:
			r.errmsg("compgen: " + v + ": invalid option name")
			return 2
		}
	}
	var out []string
	for _, a := range actions {
		c, ok := r.compgenAction(a, word)
		if !ok {
			r.errmsg("compgen: " + a + ": invalid action name")
			return 2
		}
		out = append(out, c...)
	}
	if g, ok := o.vals['G']; ok {
		out = append(out, expand.Glob(r.cfg.FS, r.dir, g, r.globOptions())...)
	}
	if w, ok := o.vals['W']; ok {
		words, err := r.compgenWords(ctx, w)
		if err != nil {
			r.expansionError(err)
			return 1
		}
		for _, s := range words {
			if strings.HasPrefix(s, word) {
				out = append(out, s)
			}
		}
	}
	if f, ok := o.vals['F']; ok {
		r.errmsg("compgen: warning: -F option may not work as you expect")
		fn := r.funcs.get(f)
		if fn == nil {
			r.errmsg("compgen: function `" + f + "' not found")
			return 1
		}
		_ = r.unsetVar("COMPREPLY", false)
		r.callFunc(ctx, fn, []string{f, "compgen", word, ""})
		if v := r.lookup("COMPREPLY"); v != nil {
			if v.arr != nil {
				out = append(out, v.arr.vals...)
			} else if v.set {
				out = append(out, v.str)
			}
		}
	}
	if c, ok := o.vals['C']; ok {
		r.errmsg("compgen: warning: -C option may not work as you expect")
		src := c + " compgen " + expand.QuoteSingle(word) + " ''"
		if body, err := syntax.Parse(src); err == nil {
			s, _ := r.cmdSubst(ctx, body)
			for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
				if l != "" {
					out = append(out, l)
				}
			}
		}
	}
	if x, ok := o.vals['X']; ok {
		neg := strings.HasPrefix(x, "!")
		if neg {
			x = x[1:]
		}
		mode := pattern.Flags(0)
		if r.shopt.extglob {
			mode |= pattern.ExtGlob
		}
		m := pattern.Compile(strings.ReplaceAll(x, "&", pattern.QuoteMeta(word)), mode)
		kept := out[:0]
		for _, s := range out {
			if m.Match(s) == neg {
				kept = append(kept, s)
			}
		}
		out = kept
	}
	if len(out) == 0 && (copts["default"] || copts["bashdefault"]) {
		out, _ = r.compgenAction("file", word)
	}
	if copts["dirnames"] && len(out) == 0 || copts["plusdirs"] {
		d, _ := r.compgenAction("directory", word)
		out = append(out, d...)
	}
	if len(out) == 0 {
		return 1
	}
	var b strings.Builder
	for _, s := range out {
		b.WriteString(o.vals['P'] + s + o.vals['S'] + "\n")
	}
	return r.out("compgen", b.String())
}

// compgenLetters are the one-letter forms of -A actions.
var compgenLetters = map[byte]string{
	'a': "alias", 'b': "builtin", 'c': "command", 'd': "directory", 'e': "export", 'f': "file",
	'g': "group", 'j': "job", 'k': "keyword", 's': "service", 'u': "user", 'v': "variable",
}

// compgenKeywords are the reserved words in bash's order.
var compgenKeywords = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select",
	"while", "until", "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}

// compgenHelpTopics are help's topics beside the builtins' names.
var compgenHelpTopics = []string{"%", "(( ... ))", "[[ ... ]]", "case", "coproc", "for", "for ((",
	"function", "if", "select", "time", "until", "variables", "while", "{ ... }"}

// compgenAction lists what action a (an -A name) completes word to; false
// for an unknown action.
func (r *Runner) compgenAction(a, word string) ([]string, bool) {
	var all []string
	switch a {
	case "alias":
		for k := range r.aliases.m {
			all = append(all, k)
		}
		sort.Strings(all)
	case "arrayvar":
		for _, n := range r.varNames("") {
			if v := r.lookup(n); v != nil && v.set && (v.isArray() || v.isAssoc()) {
				all = append(all, n)
			}
		}
	case "binding", "hostname", "service":
		switch a {
		case "hostname":
			all = r.compgenTable("/etc/hosts", 1)
		case "service":
			all = r.compgenTable("/etc/services", 0)
		}
	case "builtin":
		all = BuiltinNames()
	case "enabled", "disabled":
		for _, n := range BuiltinNames() {
			if r.builtinEnabled(n) == (a == "enabled") {
				all = append(all, n)
			}
		}
	case "command":
		for k := range r.aliases.m {
			all = append(all, k)
		}
		sort.Strings(all)
		all = append(all, compgenKeywords...)
		all = append(all, r.funcs.names()...)
		for _, n := range BuiltinNames() {
			if r.builtinEnabled(n) {
				all = append(all, n)
			}
		}
		if strings.Contains(word, "/") {
			for _, f := range r.compgenFiles(word, false) {
				if fi, err := r.stat(f); err == nil && !fi.IsDir() && r.permits(fi, 1) {
					all = append(all, f)
				}
			}
			break
		}
		p, _ := r.getVar("PATH")
		for _, d := range strings.Split(p, ":") {
			if d == "" {
				d = "."
			}
			ents, err := r.cfg.FS.ReadDir(r.abs(d))
			if err != nil {
				continue
			}
			for _, e := range ents {
				if !strings.HasPrefix(e.Name(), word) {
					continue
				}
				if fi, err := r.stat(path.Join(r.abs(d), e.Name())); err == nil && !fi.IsDir() && r.permits(fi, 1) {
					all = append(all, e.Name())
				}
			}
		}
	case "directory":
		return r.compgenFiles(word, true), true
	case "file":
		return r.compgenFiles(word, false), true
	case "export", "variable":
		for _, n := range r.varNames("") {
			if v := r.lookup(n); v != nil && v.set && (a == "variable" || v.attrs&attrExport != 0) {
				all = append(all, n)
			}
		}
	case "function":
		all = r.funcs.names()
	case "group":
		all = r.compgenTable("/etc/group", -1)
	case "user":
		all = r.compgenTable("/etc/passwd", -1)
	case "helptopic":
		all = append(BuiltinNames(), compgenHelpTopics...)
		sort.Strings(all)
	case "job", "running", "stopped":
		if a != "stopped" {
			for _, j := range r.jobs.all() {
				if a == "job" || !j.isDone() {
					if f := strings.Fields(j.cmd); len(f) > 0 {
						all = append(all, f[0])
					}
				}
			}
		}
	case "keyword":
		all = compgenKeywords
	case "setopt":
		for _, e := range r.optTable() {
			all = append(all, e.name)
		}
	case "shopt":
		for _, e := range r.shoptList() {
			all = append(all, e.name)
		}
	case "signal":
		all = append(all, "EXIT")
		for n := 1; n < len(signalNames); n++ {
			all = append(all, "SIG"+signalNames[n])
		}
		all = append(all, "SIGJUNK(32)", "SIGJUNK(33)")
		for n := 34; n <= 64; n++ {
			all = append(all, "SIG"+signalName(n))
		}
		all = append(all, "DEBUG", "ERR", "RETURN")
	default:
		return nil, false
	}
	var out []string
	for _, s := range all {
		if strings.HasPrefix(s, word) {
			out = append(out, s)
		}
	}
	return out, true
}

// compgenFiles lists the paths that begin with word (directories only
// when dirs), as filename completion finds them: hidden ones too.
func (r *Runner) compgenFiles(word string, dirs bool) []string {
	dir, base := "", word
	if i := strings.LastIndexByte(word, '/'); i >= 0 {
		dir, base = word[:i+1], word[i+1:]
	}
	ents, err := r.cfg.FS.ReadDir(r.abs(dir + "."))
	if err != nil {
		return nil
	}
	var out []string
	if strings.HasPrefix(base, ".") {
		// readline lists . and .. only for a word that names them
		for _, n := range []string{".", ".."} {
			if strings.HasPrefix(n, base) {
				out = append(out, dir+n)
			}
		}
	}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, base) {
			continue
		}
		if dirs {
			if fi, err := r.stat(r.abs(dir + n)); err != nil || !fi.IsDir() {
				continue
			}
		}
		out = append(out, dir+n)
	}
	return out
}

// compgenTable reads the names in column col of a system table: colon
// separated for col -1 (passwd, group), else whitespace separated with #
// comments (hosts: every name after the address; services: the first).
func (r *Runner) compgenTable(file string, col int) []string {
	data, err := r.cfg.FS.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if col < 0 {
			if n, _, ok := strings.Cut(l, ":"); ok && n != "" {
				out = append(out, n)
			}
			continue
		}
		l, _, _ = strings.Cut(l, "#")
		f := strings.Fields(l)
		switch {
		case col == 0 && len(f) > 0:
			out = append(out, f[0])
		case col == 1 && len(f) > 1:
			out = append(out, f[1:]...)
		}
	}
	return out
}

// compgenWords splits -W's list as bash does: expanded like a word list
// (quotes, parameters, command substitution), split on IFS.
func (r *Runner) compgenWords(ctx context.Context, list string) ([]string, error) {
	body, err := syntax.Parse(": " + list)
	if err != nil || len(body) != 1 || len(body[0].Pipes) != 1 || len(body[0].Pipes[0].Cmds) != 1 {
		return strings.Fields(list), nil
	}
	call, ok := body[0].Pipes[0].Cmds[0].(*syntax.SimpleCmd)
	if !ok {
		return strings.Fields(list), nil
	}
	var out []string
	for _, w := range call.Words[1:] {
		ws, err := r.expandWordFields(ctx, w)
		if err != nil {
			return nil, err
		}
		out = append(out, ws...)
	}
	return out, nil
}
