package wasi

import (
	"bytes"
	"strings"
)

// Quick calls. The JS engine reaches a host function one of two ways: a
// //go:wasmexport call (~1 µs) inside which Go must never wait nor run
// another guest, or a js.FuncOf callback (~20-40 µs) that may do both
// (platform/js). Func.Quick says, for one call's arguments, whether the
// first is safe: the process has no child waiting to be started (reading,
// polling or exiting could start one), and the descriptor read or written
// is a file or a stream that never blocks. Everything else — spawn, wait,
// poll, exit, sockets — takes the callback.
var quickFuncs = map[string]func(p *Proc, a []uint64) bool{
	"args_get": always, "args_sizes_get": always, "environ_get": always, "environ_sizes_get": always,
	"clock_res_get": always, "clock_time_get": always, "random_get": always,
	"fd_advise": always, "fd_close": always, "fd_fdstat_get": always, "fd_fdstat_set_flags": always,
	"fd_filestat_get": always, "fd_filestat_set_size": always, "fd_filestat_set_times": always,
	"fd_prestat_get": always, "fd_prestat_dir_name": always, "fd_readdir": always,
	"fd_seek": always, "fd_tell": always,
	"fd_read": quickRead, "fd_pread": quickRead, "fd_write": quickWrite, "fd_pwrite": quickWrite,
	"path_create_directory": always, "path_filestat_get": always, "path_filestat_set_times": always,
	"path_link": always, "path_open": always, "path_readlink": always, "path_remove_directory": always,
	"path_rename": always, "path_symlink": always, "path_unlink_file": always,
	TickName: always, "stat_ext": always, "chmod": always, "chown": always, "getpid": always,
	"dup": always, "dup2": always,
}

func always(*Proc, []uint64) bool { return true }

// quickFor is Func.Quick for name: nil when the function always takes the
// callback.
func quickFor(name string) func(p *Proc, a []uint64) bool {
	q := quickFuncs[name]
	if q == nil {
		return nil
	}
	return func(p *Proc, a []uint64) bool {
		return p != nil && p.inited && len(p.pending) == 0 && q(p, a)
	}
}

// NeverBlocks reports whether stream x says its reads or writes return at
// once (a method NeverBlocks() bool): the core's output buffers do.
func NeverBlocks(x any) bool {
	nb, ok := x.(interface{ NeverBlocks() bool })
	return ok && nb.NeverBlocks()
}

// quickRead: a read of fd a[0] cannot block.
func quickRead(p *Proc, a []uint64) bool {
	return quickFD(p, a, func(of *ofile) bool {
		switch r := of.r.(type) {
		case *bytes.Reader, *strings.Reader:
			return true // (what the batched scheduler gives a stage as stdin)
		case interface{ NeverBlocks() bool }:
			return r.NeverBlocks()
		}
		return of.pollable() && of.readReady()
	})
}

// quickWrite: a write to fd a[0] cannot block.
func quickWrite(p *Proc, a []uint64) bool {
	return quickFD(p, a, func(of *ofile) bool { return NeverBlocks(of.w) })
}

// quickFD: I/O on fd a[0] cannot block: a bad fd fails at once, a file
// other than a FIFO never waits, and a stream is asked stream.
func quickFD(p *Proc, a []uint64, stream func(*ofile) bool) bool {
	of, e := p.lookup(int32(a[0]))
	switch {
	case e != 0:
		return true
	case of.kind == kindFile:
		return of.ftype != FiletypeUnknown // (a FIFO waits for its other end)
	}
	return stream(of)
}
