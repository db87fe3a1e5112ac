package core

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
)

// errTooManyProcesses is what a spawn past MaxProcesses gets: bash's wording
// for a failed fork.
var errTooManyProcesses = errors.New("retry: Resource temporarily unavailable")

// procTable allocates process ids, bounds the number of live processes
// (guests and child shells) of one sandbox, and keeps what /proc and ps
// show of each (procfs.Table). Pid 1 is the session shell.
type procTable struct {
	mu    sync.Mutex
	next  int
	live  int
	max   int
	full  func() // told when a spawn is refused (a "limit" event)
	table *procfs.Table
}

func newProcTable(max int, now func() time.Time, sys func() procfs.System) *procTable {
	return &procTable{next: 2, max: max, table: procfs.NewTable(now, sys)}
}

// alloc reserves a pid for a process of ppid (0: the session shell's child)
// running argv (nil: a subshell, which shows its parent's command line);
// release frees the slot and forgets the process when it ends.
func (t *procTable) alloc(ppid int, argv []string) (int, func(), error) {
	if ppid <= 0 {
		ppid = 1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.live >= t.max {
		if t.full != nil {
			t.full()
		}
		return 0, nil, errTooManyProcesses
	}
	t.live++
	pid := t.next
	t.next++
	if argv == nil {
		if parent, ok := t.table.Get(ppid); ok {
			argv = parent.Argv
		} else {
			argv = []string{"bash"}
		}
	}
	t.table.Set(procfs.Process{Pid: pid, PPid: ppid, Argv: argv, Uid: shell.UserID, Gid: shell.UserID})
	var once sync.Once
	return pid, func() {
		once.Do(func() {
			t.table.Remove(pid)
			t.mu.Lock()
			t.live--
			t.mu.Unlock()
		})
	}, nil
}

// killable wraps a process's context so that a signal from the table (kill,
// pkill) ends it; status turns the process's own exit status into the
// shell's 128+signal when it was ended that way.
type killable struct {
	sig atomic.Int32
}

func (k *killable) context(ctx context.Context) (context.Context, func(sig int), context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	return ctx, func(sig int) {
		if terminates(sig) && k.sig.CompareAndSwap(0, int32(sig)) {
			cancel()
		}
	}, cancel
}

func (k *killable) status(st int) int {
	if s := k.sig.Load(); s != 0 {
		return 128 + int(s)
	}
	return st
}

// terminates: signals whose default action ends a process (the sandbox
// has no handlers, stops or core dumps).
func terminates(sig int) bool {
	switch sig {
	case 0, 17, 18, 19, 20, 21, 22, 23, 28: // CHLD CONT STOP TSTP TTIN TTOU URG WINCH
		return false
	}
	return true
}
