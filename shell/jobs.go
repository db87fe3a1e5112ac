package shell

import (
	"context"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"mvdan.cc/sh/v3/interp"
)

// Background jobs (see backgroundJob in confine.go): pids for `$!`, `jobs`,
// `wait PID`, and `kill` — which mvdan.cc/sh does not have.

const (
	newJobCmd  = "__wasmsand_newjob"
	jobDoneCmd = "__wasmsand_jobdone"
	killCmd    = "__wasmsand_kill"
	waitCmd    = "__wasmsand_wait"
	jobsCmd    = "__wasmsand_jobs"

	jobVar    = "__wasmsand_job"    // in a job: its pid
	lastBgVar = "__wasmsand_lastbg" // $!
)

// maxFinishedJobs bounds the job table when finished jobs are never collected.
const maxFinishedJobs = 256

type job struct {
	num, pid int
	text     string
	ctx      context.Context
	cancel   context.CancelFunc
	release  func()
	done     chan struct{}
	finish   sync.Once
	status   int
	killed   int // the signal that killed it (0: not killed); under Session.mu
}

// signals maps names to numbers for kill.
var signals = map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "CONT": 18, "STOP": 19}

func (s *Session) newJob(ctx context.Context, hc interp.HandlerContext, args []string) int {
	text := ""
	if len(args) > 0 {
		if b, err := hex.DecodeString(args[0]); err == nil {
			text = string(b)
		}
	}
	pid, release, err := s.cfg.NewPid()
	forkFailed := err != nil
	jctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if forkFailed {
		// The job must not run (its first command will be exit); it still
		// needs an id of its own for its bookkeeping.
		fmt.Fprintf(hc.Stderr, "bash: fork: %v\n", err)
		s.failedJobs--
		pid, release = s.failedJobs, func() {}
	}
	num := 1 // bash numbers from 1 above the jobs still in the table
	for _, other := range s.jobs {
		num = max(num, other.num+1)
	}
	j := &job{num: num, pid: pid, text: text, ctx: jctx, cancel: cancel, release: release, done: make(chan struct{})}
	if forkFailed {
		j.killed = int(syscall.SIGTERM)
	}
	s.jobs[pid] = j
	s.mu.Unlock()
	s.jobsLive.Add(1)
	_ = hc.Builtin(ctx, []string{"eval", lastBgVar + "=" + strconv.Itoa(pid)})
	return 0
}

// currentJob is the job a handler runs in, if any.
func (s *Session) currentJob(hc interp.HandlerContext) *job {
	if s.jobsLive.Load() == 0 {
		return nil
	}
	v := hc.Env.Get(jobVar)
	if !v.IsSet() {
		return nil
	}
	pid, err := strconv.Atoi(v.String())
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jobs[pid]
}

func (s *Session) jobDone(hc interp.HandlerContext) {
	j := s.currentJob(hc)
	if j == nil {
		return
	}
	s.subshells.Add(-1) // the slot __wasmsand_enter took
	s.mu.Lock()
	j.status = hc.LastExitStatus
	if j.killed != 0 {
		j.status = 128 + j.killed
	}
	s.mu.Unlock()
	j.finish.Do(func() {
		j.release()
		j.cancel()
		close(j.done)
		s.jobsLive.Add(-1)
	})
	// Jobs stay listed until waited for or shown by `jobs`; a script that
	// starts thousands and never looks does not keep them all.
	s.mu.Lock()
	if len(s.jobs) > maxFinishedJobs {
		for pid, other := range s.jobs {
			select {
			case <-other.done:
				delete(s.jobs, pid)
			default:
			}
		}
	}
	s.mu.Unlock()
}

// findJob resolves a kill/wait operand: %N, %%, %+, %-, or a pid.
func (s *Session) findJob(spec string) *job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if strings.HasPrefix(spec, "%") {
		var best *job
		n, err := strconv.Atoi(spec[1:])
		for _, j := range s.jobs {
			switch {
			case err == nil && j.num == n:
				return j
			case err != nil && (best == nil || j.num > best.num):
				best = j // %%, %+: the most recent job
			}
		}
		return best
	}
	pid, err := strconv.Atoi(spec)
	if err != nil {
		return nil
	}
	return s.jobs[pid]
}

// kill is bash's kill builtin for the session's jobs.
func (s *Session) kill(hc interp.HandlerContext, args []string) int {
	sig := int(syscall.SIGTERM)
	if len(args) > 1 && args[0] == "-l" {
		st := 0
		for _, a := range args[1:] {
			n, err := strconv.Atoi(a)
			name := ""
			for k, v := range signals {
				if v == n || v == n-128 {
					name = k
				}
			}
			if err != nil || name == "" {
				fmt.Fprintf(hc.Stderr, "bash: kill: %s: invalid signal specification\n", a)
				st = 1
				continue
			}
			fmt.Fprintln(hc.Stdout, name)
		}
		return st
	}
	if len(args) > 0 && args[0] == "-l" {
		names := make([]string, 0, len(signals))
		for n := range signals {
			names = append(names, n)
		}
		sort.Slice(names, func(a, b int) bool { return signals[names[a]] < signals[names[b]] })
		fmt.Fprintln(hc.Stdout, strings.Join(names, " "))
		return 0
	}
	if len(args) > 1 && args[0] == "-s" {
		args = append([]string{"-" + args[1]}, args[2:]...)
	}
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		name := strings.TrimPrefix(strings.ToUpper(args[0][1:]), "SIG")
		if n, err := strconv.Atoi(name); err == nil {
			sig = n
		} else if n, ok := signals[name]; ok {
			sig = n
		} else {
			fmt.Fprintf(hc.Stderr, "bash: kill: %s: invalid signal specification\n", args[0][1:])
			return 1
		}
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(hc.Stderr, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]")
		return 2
	}
	st := 0
	for _, a := range args {
		if a == strconv.Itoa(s.cfg.Pid) && sig == 0 {
			continue // the shell itself is alive
		}
		j := s.findJob(a)
		if j == nil {
			if strings.HasPrefix(a, "%") {
				fmt.Fprintf(hc.Stderr, "bash: kill: %s: no such job\n", a)
			} else if _, err := strconv.Atoi(a); err != nil {
				fmt.Fprintf(hc.Stderr, "bash: kill: %s: arguments must be process or job IDs\n", a)
			} else {
				fmt.Fprintf(hc.Stderr, "bash: kill: (%s) - No such process\n", a)
			}
			st = 1
			continue
		}
		if sig == 0 {
			select {
			case <-j.done:
				fmt.Fprintf(hc.Stderr, "bash: kill: (%s) - No such process\n", a)
				st = 1
			default:
			}
			continue
		}
		// Every signal ends a job: guests have no handlers.
		s.mu.Lock()
		j.killed = sig
		s.mu.Unlock()
		j.cancel()
	}
	return st
}

// waitFor is `wait PID|%N...`: the status of the last one.
func (s *Session) waitFor(ctx context.Context, hc interp.HandlerContext, args []string) int {
	st := 0
	for _, a := range args {
		j := s.findJob(a)
		if j == nil {
			fmt.Fprintf(hc.Stderr, "bash: wait: pid %s is not a child of this shell\n", a)
			st = 127
			continue
		}
		select {
		case <-j.done:
		case <-ctx.Done():
			return 128 + int(syscall.SIGTERM)
		}
		s.mu.Lock()
		st = j.status
		delete(s.jobs, j.pid) // a waited-for job leaves the table
		s.mu.Unlock()
	}
	return st
}

// listJobs is `jobs` (and `jobs -p`).
func (s *Session) listJobs(hc interp.HandlerContext, args []string) int {
	s.mu.Lock()
	list := make([]*job, 0, len(s.jobs))
	for _, j := range s.jobs {
		list = append(list, j)
	}
	s.mu.Unlock()
	sort.Slice(list, func(a, b int) bool { return list[a].num < list[b].num })
	pidsOnly := len(args) > 0 && args[0] == "-p"
	for i, j := range list {
		state := "Running"
		select {
		case <-j.done:
			state = "Done"
			if j.status != 0 {
				state = fmt.Sprintf("Exit %d", j.status)
			}
			if j.killed != 0 {
				state = "Terminated"
			}
		default:
		}
		if pidsOnly {
			fmt.Fprintln(hc.Stdout, j.pid)
			continue
		}
		mark := ' '
		switch i {
		case len(list) - 1:
			mark = '+'
		case len(list) - 2:
			mark = '-'
		}
		fmt.Fprintf(hc.Stdout, "[%d]%c  %-24s%s &\n", j.num, mark, state, j.text)
	}
	// Finished jobs are reported once, as bash does.
	s.mu.Lock()
	for _, j := range list {
		select {
		case <-j.done:
			if !pidsOnly {
				delete(s.jobs, j.pid)
			}
		default:
		}
	}
	s.mu.Unlock()
	return 0
}
