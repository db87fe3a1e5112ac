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

func buildTable() {
	w := func(name string, impl hostFn, params ...string) Func { return def(ModuleWASI, name, impl, params...) }
	x := func(name string, impl hostFn, params ...string) Func {
		return def(ModuleWasmsand, name, impl, params...)
	}
	table = []Func{
		w("args_get", argsGet, "argv:i32", "argv_buf:i32"),
		w("args_sizes_get", argsSizesGet, "result.argc:i32", "result.argv_len:i32"),
		w("environ_get", environGet, "environ:i32", "environ_buf:i32"),
		w("environ_sizes_get", environSizesGet, "result.environc:i32", "result.environv_len:i32"),
		w("clock_res_get", clockResGet, "id:i32", "result.resolution:i32"),
		w("clock_time_get", clockTimeGet, "id:i32", "precision:i64", "result.timestamp:i32"),
		w("fd_advise", fdAdvise, "fd:i32", "offset:i64", "len:i64", "advice:i32"),
		w("fd_allocate", fdAllocate, "fd:i32", "offset:i64", "len:i64"),
		w("fd_close", fdClose, "fd:i32"),
		w("fd_datasync", fdSync, "fd:i32"),
		w("fd_fdstat_get", fdFdstatGet, "fd:i32", "result.stat:i32"),
		w("fd_fdstat_set_flags", fdFdstatSetFlags, "fd:i32", "flags:i32"),
		w("fd_fdstat_set_rights", fdFdstatSetRights, "fd:i32", "fs_rights_base:i64", "fs_rights_inheriting:i64"),
		w("fd_filestat_get", fdFilestatGet, "fd:i32", "result.filestat:i32"),
		w("fd_filestat_set_size", fdFilestatSetSize, "fd:i32", "size:i64"),
		w("fd_filestat_set_times", fdFilestatSetTimes, "fd:i32", "atim:i64", "mtim:i64", "fst_flags:i32"),
		w("fd_pread", fdPread, "fd:i32", "iovs:i32", "iovs_len:i32", "offset:i64", "result.nread:i32"),
		w("fd_prestat_get", fdPrestatGet, "fd:i32", "result.prestat:i32"),
		w("fd_prestat_dir_name", fdPrestatDirName, "fd:i32", "result.path:i32", "result.path_len:i32"),
		w("fd_pwrite", fdPwrite, "fd:i32", "iovs:i32", "iovs_len:i32", "offset:i64", "result.nwritten:i32"),
		w("fd_read", fdRead, "fd:i32", "iovs:i32", "iovs_len:i32", "result.nread:i32"),
		w("fd_readdir", fdReaddir, "fd:i32", "buf:i32", "buf_len:i32", "cookie:i64", "result.bufused:i32"),
		w("fd_renumber", fdRenumber, "fd:i32", "to:i32"),
		w("fd_seek", fdSeek, "fd:i32", "offset:i64", "whence:i32", "result.newoffset:i32"),
		w("fd_sync", fdSync, "fd:i32"),
		w("fd_tell", fdTell, "fd:i32", "result.offset:i32"),
		w("fd_write", fdWrite, "fd:i32", "iovs:i32", "iovs_len:i32", "result.nwritten:i32"),
		w("path_create_directory", pathCreateDirectory, "fd:i32", "path:i32", "path_len:i32"),
		w("path_filestat_get", pathFilestatGet, "fd:i32", "flags:i32", "path:i32", "path_len:i32", "result.filestat:i32"),
		w("path_filestat_set_times", pathFilestatSetTimes, "fd:i32", "flags:i32", "path:i32", "path_len:i32", "atim:i64", "mtim:i64", "fst_flags:i32"),
		w("path_link", pathLink, "old_fd:i32", "old_flags:i32", "old_path:i32", "old_path_len:i32", "new_fd:i32", "new_path:i32", "new_path_len:i32"),
		w("path_open", pathOpen, "fd:i32", "dirflags:i32", "path:i32", "path_len:i32", "oflags:i32", "fs_rights_base:i64", "fs_rights_inheriting:i64", "fdflags:i32", "result.opened_fd:i32"),
		w("path_readlink", pathReadlink, "fd:i32", "path:i32", "path_len:i32", "buf:i32", "buf_len:i32", "result.bufused:i32"),
		w("path_remove_directory", pathRemoveDirectory, "fd:i32", "path:i32", "path_len:i32"),
		w("path_rename", pathRename, "fd:i32", "old_path:i32", "old_path_len:i32", "new_fd:i32", "new_path:i32", "new_path_len:i32"),
		w("path_symlink", pathSymlink, "old_path:i32", "old_path_len:i32", "fd:i32", "new_path:i32", "new_path_len:i32"),
		w("path_unlink_file", pathUnlinkFile, "fd:i32", "path:i32", "path_len:i32"),
		w("poll_oneoff", pollOneoff, "in:i32", "out:i32", "nsubscriptions:i32", "result.nevents:i32"),
		{
			Module: ModuleWASI, Name: "proc_exit", Params: []ValType{I32}, ParamNames: []string{"rval"},
			Call: func(_ context.Context, _ *Proc, _ Memory, s []uint64) { panic(&ExitError{Code: uint32(s[0])}) },
		},
		w("proc_raise", procRaise, "sig:i32"),
		w("sched_yield", schedYield),
		w("random_get", randomGet, "buf:i32", "buf_len:i32"),
		w("sock_accept", sockAccept, "fd:i32", "flags:i32", "result.fd:i32"),
		w("sock_recv", sockRecv, "fd:i32", "ri_data:i32", "ri_data_len:i32", "ri_flags:i32", "result.ro_datalen:i32", "result.ro_flags:i32"),
		w("sock_send", sockSend, "fd:i32", "si_data:i32", "si_data_len:i32", "si_flags:i32", "result.so_datalen:i32"),
		w("sock_shutdown", sockShutdown, "fd:i32", "how:i32"),

		// Our own module; see docs/contracts.md and wasi/include/wasmsand.h.
		{Module: ModuleWasmsand, Name: TickName, Call: tick},
		x("spawn", xSpawn, "argv:i32", "argv_len:i32", "env:i32", "env_len:i32", "cwd:i32", "cwd_len:i32",
			"stdin_fd:i32", "stdout_fd:i32", "stderr_fd:i32", "result.pid:i32"),
		x("wait", xWait, "pid:i32", "result.status:i32"),
		x("trywait", xTryWait, "pid:i32", "result.status:i32"),
		x("kill", xKill, "pid:i32", "sig:i32"),
		x("pipe", xPipe, "result.fds:i32"),
		x("dup", xDup, "fd:i32", "result.fd:i32"),
		x("dup2", xDup2, "fd:i32", "to:i32"),
		x("getpid", xGetpid, "result.pid:i32", "result.ppid:i32"),
		x("stat_ext", xStatExt, "fd:i32", "flags:i32", "path:i32", "path_len:i32", "result.stat_ext:i32"),
		x("chmod", xChmod, "fd:i32", "flags:i32", "path:i32", "path_len:i32", "mode:i32"),
		x("chown", xChown, "fd:i32", "flags:i32", "path:i32", "path_len:i32", "uid:i32", "gid:i32"),
	}
	for i := range table {
		table[i].Quick = quickFor(table[i].Name)
	}
}

// tick: see TickName.
func tick(ctx context.Context, _ *Proc, _ Memory, _ []uint64) {
	if ctx != nil && ctx.Err() != nil {
		panic(&ExitError{Code: 137})
	}
}
