package interp

import (
	"context"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
)

// aliasTable holds aliases, shared copy-on-write with subshells.
type aliasTable struct {
	refs atomic.Int32
	m    map[string]string
}

func newAliasTable() *aliasTable {
	t := &aliasTable{m: map[string]string{}}
	t.refs.Store(1)
	return t
}

func (t *aliasTable) share() *aliasTable {
	t.refs.Add(1)
	return t
}

func (t *aliasTable) get(name string) (string, bool) {
	v, ok := t.m[name]
	return v, ok
}

func (t *aliasTable) len() int { return len(t.m) }

func (r *Runner) mutAliases() map[string]string {
	if r.aliases.refs.Load() > 1 {
		n := newAliasTable()
		for k, v := range r.aliases.m {
			n.m[k] = v
		}
		r.aliases.refs.Add(-1)
		r.aliases = n
	}
	return r.aliases.m
}

// shopts are `shopt` options.
type shopts struct {
	extglob, nullglob, failglob, dotglob, nocaseglob, globstar, nocasematch,
	expandAliases, lastpipe, inheritErrexit, patsubReplacement, sourcepath,
	localvarInherit, localvarUnset, xpgEcho, globasciiranges, globskipdots,
	checkwinsize, cmdhist, extquote, promptvars, hostcomplete, interactiveComments,
	complete, progcomp, checkhash, execfail, huponexit, shiftVerbose, noemptycmd,
	assocExpandOnce, cdspell, cdableVars, checkjobs, direxpand, dirspell, extdebug,
	forceFignore, gnuErrfmt, histappend, histreedit, histverify, lithist,
	loginShell, mailwarn, progcompAlias, restrictedShell, varredirClose, autocd,
	compat31, compat32, compat40, compat41, compat42, compat43, compat44, noexpandTranslation bool
}

func defaultShopts() shopts {
	return shopts{
		patsubReplacement: true, sourcepath: true, globasciiranges: true, globskipdots: true,
		checkwinsize: true, cmdhist: true, extquote: true, promptvars: true, hostcomplete: true,
		interactiveComments: true, complete: true, progcomp: true, forceFignore: true,
	}
}

// shoptList maps names to fields, in bash's listing order.
func (r *Runner) shoptList() []shoptEntry {
	s := &r.shopt
	return []shoptEntry{
		{"autocd", &s.autocd}, {"assoc_expand_once", &s.assocExpandOnce}, {"cdable_vars", &s.cdableVars},
		{"cdspell", &s.cdspell}, {"checkhash", &s.checkhash}, {"checkjobs", &s.checkjobs},
		{"checkwinsize", &s.checkwinsize}, {"cmdhist", &s.cmdhist}, {"compat31", &s.compat31},
		{"compat32", &s.compat32}, {"compat40", &s.compat40}, {"compat41", &s.compat41},
		{"compat42", &s.compat42}, {"compat43", &s.compat43}, {"compat44", &s.compat44},
		{"complete_fullquote", &s.complete}, {"direxpand", &s.direxpand}, {"dirspell", &s.dirspell},
		{"dotglob", &s.dotglob}, {"execfail", &s.execfail}, {"expand_aliases", &s.expandAliases},
		{"extdebug", &s.extdebug}, {"extglob", &s.extglob}, {"extquote", &s.extquote},
		{"failglob", &s.failglob}, {"force_fignore", &s.forceFignore}, {"globasciiranges", &s.globasciiranges},
		{"globskipdots", &s.globskipdots}, {"globstar", &s.globstar}, {"gnu_errfmt", &s.gnuErrfmt},
		{"histappend", &s.histappend}, {"histreedit", &s.histreedit}, {"histverify", &s.histverify},
		{"hostcomplete", &s.hostcomplete}, {"huponexit", &s.huponexit}, {"inherit_errexit", &s.inheritErrexit},
		{"interactive_comments", &s.interactiveComments}, {"lastpipe", &s.lastpipe}, {"lithist", &s.lithist},
		{"localvar_inherit", &s.localvarInherit}, {"localvar_unset", &s.localvarUnset},
		{"login_shell", &s.loginShell}, {"mailwarn", &s.mailwarn}, {"no_empty_cmd_completion", &s.noemptycmd},
		{"nocaseglob", &s.nocaseglob}, {"nocasematch", &s.nocasematch}, {"noexpand_translation", &s.noexpandTranslation},
		{"nullglob", &s.nullglob}, {"patsub_replacement", &s.patsubReplacement}, {"progcomp", &s.progcomp},
		{"progcomp_alias", &s.progcompAlias}, {"promptvars", &s.promptvars}, {"restricted_shell", &s.restrictedShell},
		{"shift_verbose", &s.shiftVerbose}, {"sourcepath", &s.sourcepath}, {"varredir_close", &s.varredirClose},
		{"xpg_echo", &s.xpgEcho},
	}
}

type shoptEntry struct {
	name string
	p    *bool
}

// trapTable holds trap actions by signal name (EXIT, ERR, DEBUG, RETURN,
// INT, TERM...). "" means ignored.
type trapTable struct {
	refs atomic.Int32
	m    map[string]string
	// shown: a subshell's view of its parent's traps, which `trap` lists
	// (they do not run) until the subshell changes a trap
	shown map[string]string
}

func newTrapTable() *trapTable {
	t := &trapTable{m: map[string]string{}}
	t.refs.Store(1)
	return t
}

func (t *trapTable) get(name string) (string, bool) {
	v, ok := t.m[name]
	return v, ok
}

func (t *trapTable) unset(name string) { delete(t.m, name) }

// noneForExec: no trap would need the shell after its last command (bash
// then execs that command without forking).
func (t *trapTable) noneForExec() bool {
	for k := range t.m {
		if k != "DEBUG" && k != "RETURN" {
			return false
		}
	}
	return true
}

func (t *trapTable) writable() *trapTable {
	if t.refs.Load() <= 1 {
		return t
	}
	n := newTrapTable()
	for k, v := range t.m {
		n.m[k] = v
	}
	n.shown = t.shown
	t.refs.Add(-1)
	return n
}

// listed is what `trap` prints for name.
func (t *trapTable) listed(name string) (string, bool) {
	if v, ok := t.m[name]; ok {
		return v, true
	}
	v, ok := t.shown[name]
	return v, ok
}

// forSubshell: a subshell keeps ignored signals; other traps are reset
// (their commands printed by `trap` until it sets its own, as bash).
func (t *trapTable) forSubshell() *trapTable {
	n := newTrapTable()
	show := func(k, v string) {
		if n.shown == nil {
			n.shown = map[string]string{}
		}
		n.shown[k] = v
	}
	for k, v := range t.shown {
		show(k, v)
	}
	for k, v := range t.m {
		if v == "" && k != "EXIT" && k != "ERR" && k != "DEBUG" && k != "RETURN" {
			n.m[k] = ""
		} else {
			show(k, v)
		}
	}
	return n
}

// Linux signal numbers the shell treats specially (GOOS=js has no syscall.SIGxxx).
const (
	sigINT   = 2
	sigKILL  = 9
	sigTERM  = 15
	sigCHLD  = 17
	sigCONT  = 18
	sigURG   = 23
	sigWINCH = 28
)

// signals by number and name, as bash lists them (kill -l).
var signalNames = []string{"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
	"USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
	"XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"}

// signalNum parses a signal by number or name (with or without SIG).
func signalNum(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n < len(signalNames) {
			return n, true
		}
		if n >= 34 && n <= 64 {
			return n, true
		}
		return 0, false
	}
	up := s
	for i := 0; i < len(up); i++ {
		if up[i] >= 'a' && up[i] <= 'z' {
			up = upper(up)
			break
		}
	}
	if len(up) > 3 && up[:3] == "SIG" {
		up = up[3:]
	}
	for i, n := range signalNames {
		if n != "" && n == up {
			return i, true
		}
	}
	switch up {
	case "EXIT":
		return 0, true
	case "IOT":
		return 6, true
	case "POLL":
		return 29, true
	}
	if len(up) > 5 && up[:5] == "RTMIN" {
		if up == "RTMIN" {
			return 34, true
		}
		if n, err := strconv.Atoi(up[5:]); err == nil && n >= -30 && n <= 30 {
			return 34 + n, true
		}
	}
	if len(up) > 5 && up[:5] == "RTMAX" {
		if up == "RTMAX" {
			return 64, true
		}
		if n, err := strconv.Atoi(up[5:]); err == nil && n <= 0 && n >= -30 {
			return 64 + n, true
		}
	}
	return 0, false
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// signalName is the name bash uses for a signal number (without SIG).
func signalName(n int) string {
	if n > 0 && n < len(signalNames) {
		return signalNames[n]
	}
	switch {
	case n == 34:
		return "RTMIN"
	case n > 34 && n <= 49:
		return "RTMIN+" + strconv.Itoa(n-34)
	case n > 49 && n < 64:
		return "RTMAX-" + strconv.Itoa(64-n)
	case n == 64:
		return "RTMAX"
	}
	return strconv.Itoa(n)
}

// sigQueue holds signals sent to a shell until it handles them between
// commands.
type sigQueue struct {
	mu    sync.Mutex
	queue []int
	n     atomic.Int32
	wake  chan struct{}
}

func newSigQueue() *sigQueue { return &sigQueue{wake: make(chan struct{}, 1)} }

func (q *sigQueue) send(sig int) {
	q.mu.Lock()
	q.queue = append(q.queue, sig)
	q.mu.Unlock()
	q.n.Add(1)
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *sigQueue) take() []int {
	q.mu.Lock()
	defer q.mu.Unlock()
	p := q.queue
	q.queue = nil
	q.n.Store(0)
	return p
}

func (q *sigQueue) pending() bool { return q.n.Load() > 0 }

// onlyCHLD: every pending signal is SIGCHLD (whose trap does not end wait).
func (q *sigQueue) onlyCHLD() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, s := range q.queue {
		if s != sigCHLD {
			return false
		}
	}
	return true
}

// handleSignals runs the traps of signals sent to this shell, or applies
// their default action (most end the shell with 128+n).
func (r *Runner) handleSignals(ctx context.Context) {
	for _, sig := range r.sig.take() {
		name := signalName(sig)
		if t, ok := r.traps.get(name); ok {
			if t != "" {
				st := r.status
				r.runTrap(ctx, name, t)
				if r.flow != flowExit {
					r.status = st
				}
			}
			continue
		}
		switch sig {
		case sigCHLD, sigCONT, sigURG, sigWINCH: // ignored by default
			continue
		}
		r.exit(128 + sig)
		return
	}
}

// jobTable tracks background jobs.
type jobTable struct {
	mu   sync.Mutex
	list []*job
	next int
	last *job
	ch   chan struct{} // closed (and replaced) when a job ends
}

type job struct {
	id     int
	pid    int
	cmd    string
	cancel context.CancelCauseFunc
	doneCh chan struct{}
	// start runs a job that has not run yet (a coprocess under
	// Config.Sequential); nil for one that runs on its own
	start func()
	// ignored are the signals the shell ignored when it started the job,
	// which its processes ignore too (SIG_IGN survives fork and exec)
	ignored map[int]bool
	// the shell's own bookkeeping (its goroutine only)
	notified, waited bool

	// set by the job's goroutine, read by the shell's: under mu
	mu      sync.Mutex
	done    bool
	status  int
	killSig int
}

// begin runs the job now if it waits to be started.
func (j *job) begin() {
	if j.start != nil {
		j.start()
	}
}

// state is the job's progress: ended, with what status, killed by what.
func (j *job) state() (done bool, status, killSig int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.done, j.status, j.killSig
}

func (j *job) isDone() bool {
	done, _, _ := j.state()
	return done
}

// exitStatus is the status of an ended job.
func (j *job) exitStatus() int {
	_, st, _ := j.state()
	return st
}

// markKilled records the signal sent to a running job; false if it ended.
func (j *job) markKilled(sig int) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.done {
		return false
	}
	j.killSig = sig
	return true
}

func newJobTable() *jobTable {
	return &jobTable{next: 1, ch: make(chan struct{})}
}

func (t *jobTable) add(pid int, cmd string, cancel context.CancelCauseFunc) *job {
	t.mu.Lock()
	defer t.mu.Unlock()
	j := &job{id: t.next, pid: pid, cmd: cmd, cancel: cancel, doneCh: make(chan struct{})}
	// reuse the lowest free job number, as bash does
	used := map[int]bool{}
	for _, o := range t.list {
		used[o.id] = true
	}
	j.id = 1
	for used[j.id] {
		j.id++
	}
	t.list = append(t.list, j)
	// finished jobs nobody looked at are dropped past a bound
	if len(t.list) > 256 {
		var keep []*job
		for _, o := range t.list {
			if !o.isDone() || len(keep) < 128 {
				keep = append(keep, o)
			}
		}
		t.list = keep
	}
	t.last = j
	return j
}

func (t *jobTable) done(j *job, st int) {
	j.mu.Lock()
	j.done, j.status = true, st
	j.mu.Unlock()
	t.mu.Lock()
	close(t.ch)
	t.ch = make(chan struct{})
	t.mu.Unlock()
	close(j.doneCh)
}

func (j *job) killStatus() int {
	if _, _, sig := j.state(); sig > 0 {
		return 128 + sig
	}
	return 143
}

func (t *jobTable) current() *job { return nil }

// changed is closed when a job ends.
func (t *jobTable) changed() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ch
}

// byPid finds a job by its pid.
func (t *jobTable) byPid(pid int) *job {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.list {
		if j.pid == pid {
			return j
		}
	}
	return nil
}

func (t *jobTable) byID(id int) *job {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.list {
		if j.id == id {
			return j
		}
	}
	return nil
}

func (t *jobTable) all() []*job {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]*job(nil), t.list...)
	sort.Slice(out, func(a, b int) bool { return out[a].id < out[b].id })
	return out
}

// snapshot copies the table, for a subshell's `jobs`, which lists its
// parent's jobs as bash's subshells do.
func (t *jobTable) snapshot() *jobTable {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := newJobTable()
	n.next = t.next
	for _, j := range t.list {
		done, st, sig := j.state()
		c := &job{id: j.id, pid: j.pid, cmd: j.cmd, done: done, status: st, killSig: sig}
		n.list = append(n.list, c)
		if j == t.last {
			n.last = c
		}
	}
	return n
}

func (t *jobTable) remove(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, o := range t.list {
		if o == j {
			t.list = append(t.list[:i], t.list[i+1:]...)
			return
		}
	}
}

// cmdHash is bash's table of remembered command paths (`hash`), listed in
// its order, with the number of times each was looked up.
type cmdHash struct {
	tab  *assocArray
	hits map[string]int
}

func newCmdHash() *cmdHash {
	return &cmdHash{tab: newHashTable(256), hits: map[string]int{}} // FILENAME_HASH_BUCKETS
}

func (h *cmdHash) clone() *cmdHash {
	c := &cmdHash{tab: h.tab.clone(), hits: make(map[string]int, len(h.hits))}
	for k, v := range h.hits {
		c.hits[k] = v
	}
	return c
}

// lookup finds name's path, counting a hit.
func (h *cmdHash) lookup(name string) (string, bool) {
	p, ok := h.tab.get(name)
	if ok {
		h.hits[name]++
	}
	return p, ok
}

func (h *cmdHash) peek(name string) (string, bool) { return h.tab.get(name) }

// insert remembers path for name with hits lookups so far.
func (h *cmdHash) insert(name, path string, hits int) {
	h.tab.unset(name)
	h.tab.set(name, path)
	h.hits[name] = hits
}

func (h *cmdHash) remove(name string) bool {
	_, ok := h.tab.get(name)
	h.tab.unset(name)
	delete(h.hits, name)
	return ok
}

// SignalNumber parses a signal as kill(1) takes it: a number, or a name
// with or without SIG, in any case.
func SignalNumber(s string) (int, bool) { return signalNum(s) }
