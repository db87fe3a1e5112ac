package core

import (
	"errors"
	"sync"
)

// errTooManyProcesses is what a spawn past MaxProcesses gets: bash's wording
// for a failed fork.
var errTooManyProcesses = errors.New("retry: Resource temporarily unavailable")

// procTable allocates process ids and bounds the number of live processes
// (guests and child shells) of one sandbox. Pid 1 is the session shell.
type procTable struct {
	mu   sync.Mutex
	next int
	live int
	max  int
	full func() // told when a spawn is refused (a "limit" event)
}

func newProcTable(max int) *procTable {
	return &procTable{next: 2, max: max}
}

// alloc reserves a pid; release frees the slot when the process ends.
func (t *procTable) alloc() (int, func(), error) {
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
	var once sync.Once
	return pid, func() {
		once.Do(func() {
			t.mu.Lock()
			t.live--
			t.mu.Unlock()
		})
	}, nil
}
