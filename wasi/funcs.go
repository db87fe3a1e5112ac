package wasi

import (
	"context"
	"strings"
	"sync"
)

// ValType is a wasm value type, encoded as in the binary format (and as wazero's
// api.ValueType), so bindings convert by a plain cast.
type ValType byte

const (
	I32 ValType = 0x7f
	I64 ValType = 0x7e
)

// Import module names.
const (
	ModuleWASI     = "wasi_snapshot_preview1"
	ModuleWasmsand = "wasmsand"
)

// TickName is the function of ModuleWasmsand that guests rewritten by
// platform/instrument call every ~2^16 loop iterations or calls: a run
// whose context is done ends there. It is how any engine stops a guest that
// never makes another host call; engines add their own reasons first (a
// closed engine, a deadline read off the clock where no timer fires).
const TickName = "tick"

// Func is one host function. Call follows wazero's GoModuleFunction stack convention: on
// entry stack holds the params (i32 as uint32 in the low bits, i64 as uint64); on return
// stack[0] holds the result (an Errno) if the function has one. Call never panics on bad
// guest input; it panics only with *ExitError (proc_exit, proc_raise), which the binding
// turns into the guest's exit.
type Func struct {
	Module, Name string
	Params       []ValType
	ParamNames   []string
	Results      []ValType
	Call         func(ctx context.Context, p *Proc, m Memory, stack []uint64)
	// Quick, when set, says whether a call with these params (the stack
	// on entry) neither waits nor runs another guest (see quick.go).
	Quick func(p *Proc, stack []uint64) bool
}

// hostFn is the shape every errno-returning function is written in.
type hostFn func(ctx context.Context, p *Proc, m Memory, a []uint64) Errno

var (
	tableOnce sync.Once
	table     []Func
)

// Funcs returns every wasi_snapshot_preview1 function plus our "wasmsand" module. The
// slice is a fresh copy; the Funcs themselves are stateless (all state is in *Proc).
func Funcs() []Func {
	tableOnce.Do(buildTable)
	return append([]Func(nil), table...)
}

// def declares a function returning errno; params are "name:i32" / "name:i64".
func def(module, name string, impl hostFn, params ...string) Func {
	f := Func{Module: module, Name: name, Results: []ValType{I32}}
	for _, p := range params {
		n, t, _ := strings.Cut(p, ":")
		f.ParamNames = append(f.ParamNames, n)
		if t == "i64" {
			f.Params = append(f.Params, I64)
		} else {
			f.Params = append(f.Params, I32)
		}
	}
	f.Call = func(ctx context.Context, p *Proc, m Memory, s []uint64) {
		if p == nil {
			s[0] = uint64(ENOSYS)
			return
		}
		if !p.inited {
			_ = p.Init()
		}
		if ctx != nil && ctx.Err() != nil {
			// stopped (killed, timed out): no more I/O, as after a signal;
			// the binding reports the cancellation
			panic(&ExitError{Code: 137})
		}
		e := impl(ctx, p, m, s)
		if p.Trace != nil {
			p.Trace(name, s[:len(params)], e)
		}
		s[0] = uint64(e)
	}
	return f
}

// hostSpec is a function of the table: impl returns its status; a raw
// function (proc_exit, tick) has none. params are "name:type",
// space-separated.
type hostSpec struct {
	module, name string
	impl         hostFn
	raw          func(context.Context, *Proc, Memory, []uint64)
	params       string
}

// hostSpecs is the table as data that one loop turns into Funcs (written
// as a literal of def calls, buildTable was one huge function, which V8
// optimised at each start of the JS build: ~150 ms of CPU beside the
// core's start, on two cores).
var hostSpecs = [...]hostSpec{
	{ModuleWASI, "args_get", argsGet, nil, "argv:i32 argv_buf:i32"},
	{ModuleWASI, "args_sizes_get", argsSizesGet, nil, "result.argc:i32 result.argv_len:i32"},
	{ModuleWASI, "environ_get", environGet, nil, "environ:i32 environ_buf:i32"},
	{ModuleWASI, "environ_sizes_get", environSizesGet, nil, "result.environc:i32 result.environv_len:i32"},
	{ModuleWASI, "clock_res_get", clockResGet, nil, "id:i32 result.resolution:i32"},
	{ModuleWASI, "clock_time_get", clockTimeGet, nil, "id:i32 precision:i64 result.timestamp:i32"},
	{ModuleWASI, "fd_advise", fdAdvise, nil, "fd:i32 offset:i64 len:i64 advice:i32"},
	{ModuleWASI, "fd_allocate", fdAllocate, nil, "fd:i32 offset:i64 len:i64"},
	{ModuleWASI, "fd_close", fdClose, nil, "fd:i32"},
	{ModuleWASI, "fd_datasync", fdSync, nil, "fd:i32"},
	{ModuleWASI, "fd_fdstat_get", fdFdstatGet, nil, "fd:i32 result.stat:i32"},
	{ModuleWASI, "fd_fdstat_set_flags", fdFdstatSetFlags, nil, "fd:i32 flags:i32"},
	{ModuleWASI, "fd_fdstat_set_rights", fdFdstatSetRights, nil, "fd:i32 fs_rights_base:i64 fs_rights_inheriting:i64"},
	{ModuleWASI, "fd_filestat_get", fdFilestatGet, nil, "fd:i32 result.filestat:i32"},
	{ModuleWASI, "fd_filestat_set_size", fdFilestatSetSize, nil, "fd:i32 size:i64"},
	{ModuleWASI, "fd_filestat_set_times", fdFilestatSetTimes, nil, "fd:i32 atim:i64 mtim:i64 fst_flags:i32"},
	{ModuleWASI, "fd_pread", fdPread, nil, "fd:i32 iovs:i32 iovs_len:i32 offset:i64 result.nread:i32"},
	{ModuleWASI, "fd_prestat_get", fdPrestatGet, nil, "fd:i32 result.prestat:i32"},
	{ModuleWASI, "fd_prestat_dir_name", fdPrestatDirName, nil, "fd:i32 result.path:i32 result.path_len:i32"},
	{ModuleWASI, "fd_pwrite", fdPwrite, nil, "fd:i32 iovs:i32 iovs_len:i32 offset:i64 result.nwritten:i32"},
	{ModuleWASI, "fd_read", fdRead, nil, "fd:i32 iovs:i32 iovs_len:i32 result.nread:i32"},
	{ModuleWASI, "fd_readdir", fdReaddir, nil, "fd:i32 buf:i32 buf_len:i32 cookie:i64 result.bufused:i32"},
	{ModuleWASI, "fd_renumber", fdRenumber, nil, "fd:i32 to:i32"},
	{ModuleWASI, "fd_seek", fdSeek, nil, "fd:i32 offset:i64 whence:i32 result.newoffset:i32"},
	{ModuleWASI, "fd_sync", fdSync, nil, "fd:i32"},
	{ModuleWASI, "fd_tell", fdTell, nil, "fd:i32 result.offset:i32"},
	{ModuleWASI, "fd_write", fdWrite, nil, "fd:i32 iovs:i32 iovs_len:i32 result.nwritten:i32"},
	{ModuleWASI, "path_create_directory", pathCreateDirectory, nil, "fd:i32 path:i32 path_len:i32"},
	{ModuleWASI, "path_filestat_get", pathFilestatGet, nil, "fd:i32 flags:i32 path:i32 path_len:i32 result.filestat:i32"},
	{ModuleWASI, "path_filestat_set_times", pathFilestatSetTimes, nil, "fd:i32 flags:i32 path:i32 path_len:i32 atim:i64 mtim:i64 fst_flags:i32"},
	{ModuleWASI, "path_link", pathLink, nil, "old_fd:i32 old_flags:i32 old_path:i32 old_path_len:i32 new_fd:i32 new_path:i32 new_path_len:i32"},
	{ModuleWASI, "path_open", pathOpen, nil, "fd:i32 dirflags:i32 path:i32 path_len:i32 oflags:i32 fs_rights_base:i64 fs_rights_inheriting:i64 fdflags:i32 result.opened_fd:i32"},
	{ModuleWASI, "path_readlink", pathReadlink, nil, "fd:i32 path:i32 path_len:i32 buf:i32 buf_len:i32 result.bufused:i32"},
	{ModuleWASI, "path_remove_directory", pathRemoveDirectory, nil, "fd:i32 path:i32 path_len:i32"},
	{ModuleWASI, "path_rename", pathRename, nil, "fd:i32 old_path:i32 old_path_len:i32 new_fd:i32 new_path:i32 new_path_len:i32"},
	{ModuleWASI, "path_symlink", pathSymlink, nil, "old_path:i32 old_path_len:i32 fd:i32 new_path:i32 new_path_len:i32"},
	{ModuleWASI, "path_unlink_file", pathUnlinkFile, nil, "fd:i32 path:i32 path_len:i32"},
	{ModuleWASI, "poll_oneoff", pollOneoff, nil, "in:i32 out:i32 nsubscriptions:i32 result.nevents:i32"},
	{ModuleWASI, "proc_exit", nil, procExit, "rval:i32"},
	{ModuleWASI, "proc_raise", procRaise, nil, "sig:i32"},
	{ModuleWASI, "sched_yield", schedYield, nil, ""},
	{ModuleWASI, "random_get", randomGet, nil, "buf:i32 buf_len:i32"},
	{ModuleWASI, "sock_accept", sockAccept, nil, "fd:i32 flags:i32 result.fd:i32"},
	{ModuleWASI, "sock_recv", sockRecv, nil, "fd:i32 ri_data:i32 ri_data_len:i32 ri_flags:i32 result.ro_datalen:i32 result.ro_flags:i32"},
	{ModuleWASI, "sock_send", sockSend, nil, "fd:i32 si_data:i32 si_data_len:i32 si_flags:i32 result.so_datalen:i32"},
	{ModuleWASI, "sock_shutdown", sockShutdown, nil, "fd:i32 how:i32"},

	// Our own module; see docs/contracts.md and wasi/include/wasmsand.h.
	{ModuleWasmsand, TickName, nil, tick, ""},
	{ModuleWasmsand, "spawn", xSpawn, nil, "argv:i32 argv_len:i32 env:i32 env_len:i32 cwd:i32 cwd_len:i32 stdin_fd:i32 stdout_fd:i32 stderr_fd:i32 result.pid:i32"},
	{ModuleWasmsand, "wait", xWait, nil, "pid:i32 result.status:i32"},
	{ModuleWasmsand, "trywait", xTryWait, nil, "pid:i32 result.status:i32"},
	{ModuleWasmsand, "kill", xKill, nil, "pid:i32 sig:i32"},
	{ModuleWasmsand, "pipe", xPipe, nil, "result.fds:i32"},
	{ModuleWasmsand, "dup", xDup, nil, "fd:i32 result.fd:i32"},
	{ModuleWasmsand, "dup2", xDup2, nil, "fd:i32 to:i32"},
	{ModuleWasmsand, "getpid", xGetpid, nil, "result.pid:i32 result.ppid:i32"},
	{ModuleWasmsand, "stat_ext", xStatExt, nil, "fd:i32 flags:i32 path:i32 path_len:i32 result.stat_ext:i32"},
	{ModuleWasmsand, "chmod", xChmod, nil, "fd:i32 flags:i32 path:i32 path_len:i32 mode:i32"},
	{ModuleWasmsand, "chown", xChown, nil, "fd:i32 flags:i32 path:i32 path_len:i32 uid:i32 gid:i32"},
	{ModuleWasmsand, "mknod", xMknod, nil, "fd:i32 path:i32 path_len:i32 mode:i32 dev:i64"},
}

func buildTable() {
	table = make([]Func, 0, len(hostSpecs))
	for _, h := range hostSpecs {
		params := strings.Fields(h.params)
		if h.raw != nil {
			f := def(h.module, h.name, nil, params...)
			f.Results, f.Call = nil, h.raw
			table = append(table, f)
			continue
		}
		table = append(table, def(h.module, h.name, h.impl, params...))
	}
	for i := range table {
		table[i].Quick = quickFor(table[i].Name)
	}
}

// procExit ends the guest with its status.
func procExit(_ context.Context, _ *Proc, _ Memory, s []uint64) {
	panic(&ExitError{Code: uint32(s[0])})
}

// tick: see TickName.
func tick(ctx context.Context, _ *Proc, _ Memory, _ []uint64) {
	if ctx != nil && ctx.Err() != nil {
		panic(&ExitError{Code: 137})
	}
}
