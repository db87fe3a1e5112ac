package shell

import (
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// UserID is the uid and gid of the sandbox user.
const UserID = 1000

// Internal variable names. `$$` and `$PPID` are rewritten to these (see
// confine.go) because mvdan.cc/sh reads them from the host's os.Getpid.
const (
	pidVar  = "__wasmsand_pid"
	ppidVar = "__wasmsand_ppid"
)

// noTempDir is what the interpreter sees as TMPDIR while it starts. It keeps
// its tempDir (which it opens with os.OpenFile, bypassing every handler) on a
// path no script can spell: shell strings cannot hold a NUL byte.
const noTempDir = "/\x00wasmsand-no-host-tmp"

// DefaultEnv is the environment of a new sandbox. Nothing comes from the host.
func DefaultEnv() []string {
	return []string{
		"HOME=/home/user",
		"USER=user",
		"LOGNAME=user",
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LANG=C.UTF-8",
		"TZ=UTC",
		"SHELL=/bin/bash",
		"TERM=xterm-256color",
		"HOSTNAME=wasmsand",
		"PWD=/home/user",
	}
}

// environ is the interpreter's base environment: the exported variables of
// the process plus shell variables bash sets without exporting them, which
// mvdan.cc/sh would otherwise take from the host (UID, EUID, GID, $$, PPID).
type environ struct {
	exported map[string]string
	hidden   map[string]string
}

func newEnviron(pairs []string, vars map[string]string, pid, ppid int) *environ {
	e := &environ{exported: make(map[string]string, len(pairs)), hidden: map[string]string{
		"UID":    strconv.Itoa(UserID),
		"EUID":   strconv.Itoa(UserID),
		"GID":    strconv.Itoa(UserID),
		pidVar:   strconv.Itoa(pid),
		ppidVar:  strconv.Itoa(ppid),
		"TMPDIR": noTempDir,
		// Scripts check these to know they run in bash.
		"BASH_VERSION": bashVersionNumber,
		"BASH":         "/bin/bash",
	}}
	for k, v := range vars {
		e.hidden[k] = v
	}
	for _, kv := range pairs {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e.exported[k] = v
		}
	}
	return e
}

func (e *environ) Get(name string) expand.Variable {
	if name == "BASH_VERSINFO" {
		return expand.Variable{Set: true, ReadOnly: true, Kind: expand.Indexed, List: bashVersInfo}
	}
	if v, ok := e.exported[name]; ok {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	if v, ok := e.hidden[name]; ok {
		readOnly := name == pidVar || name == ppidVar || name == "UID" || name == "EUID"
		return expand.Variable{Set: true, ReadOnly: readOnly, Kind: expand.String, Str: v}
	}
	return expand.Variable{}
}

func (e *environ) Each(fn func(string, expand.Variable) bool) {
	for k := range e.hidden {
		if _, shadowed := e.exported[k]; !shadowed && !fn(k, e.Get(k)) {
			return
		}
	}
	for k := range e.exported {
		if !fn(k, e.Get(k)) {
			return
		}
	}
}

// exportedEnv lists the exported variables of an interpreter environment as
// sorted K=V pairs: the environment a child process receives.
func exportedEnv(env expand.Environ) []string {
	vars := map[string]string{}
	env.Each(func(name string, vr expand.Variable) bool {
		// Each may report a name twice; the later one wins.
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
			vars[name] = vr.Str
		} else {
			delete(vars, name)
		}
		return true
	})
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
