package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"
)

// A one-off `wasmsand run` pays, in a new process, for what a long-lived
// one has already done: starting a 20 MB Go binary, and decoding and
// validating every module it runs even with wazero's compiled code on disk
// (57 ms for coreutils). So run and run-wasm hand their arguments, working
// directory, environment and streams to a resident `wasmsand daemon`
// (started on first use, ending after WASMSAND_DAEMON_IDLE, default 10 min,
// without work), which runs them exactly as the CLI would, with its modules
// warm; a run whose client goes away is cancelled. The socket is in a
// directory only this user can enter.
//
// WASMSAND_DAEMON=0 never uses one, =1 always does; unset, a run whose
// standard streams are all not terminals does (a terminal stays the CLI's
// own: programs see it as one).
//
// A daemon runs one request at a time (each sets the process's directory
// and environment). Requests at once go to a small pool: slot 0, 1, … up to
// WASMSAND_DAEMONS (default: the cores, at most 4), each its own daemon and
// socket. A busy daemon says so at once; the client tries the next slot,
// and where no daemon listens beyond slot 0 it starts one for next time and
// runs this request itself.
//
// Frames both ways: a kind byte, a 4-byte length, the payload. The client
// sends 'h' (the header: encodeHeader); the daemon answers 'b' (busy: the
// connection ends) or 'a' (accepted); the client then sends 'i' stdin chunks
// and 'I' at its end; the daemon sends 'o' stdout, 'e' stderr and 'x' the
// exit status (4 bytes); 'n' (narrower, with the reason) declines a caller
// confined more than the daemon, which then runs its request itself. All integers are little-endian. Two clients speak
// it: this file's, and a C one that runs before Go starts
// (fastclient_linux.go), so that a run through the daemon does not pay for
// starting this 20 MB Go program.

// daemonWanted: whether this invocation hands its work to a daemon.
func daemonWanted(args []string) bool {
	if len(args) == 0 || (args[0] != "run" && args[0] != "run-wasm") {
		return false
	}
	switch os.Getenv("WASMSAND_DAEMON") {
	case "0":
		return false
	case "1":
		return true
	}
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		if term.IsTerminal(int(f.Fd())) {
			return false
		}
	}
	return true
}

// poolSize is how many daemons may serve requests at once.
func poolSize() int {
	if n, err := strconv.Atoi(os.Getenv("WASMSAND_DAEMONS")); err == nil && n >= 1 {
		return min(n, 64)
	}
	return max(1, min(runtime.NumCPU(), 4))
}

type daemonHeader struct {
	Args      []string
	Cwd       string
	Env       []string
	NullStdin bool // the client's stdin is /dev/null (sent as a last byte)
}

// encodeHeader: the argument count and arguments, the directory, the
// variable count and variables; each string a 4-byte length and its bytes
// (any bytes: a variable need not be UTF-8).
func encodeHeader(h daemonHeader) []byte {
	var b []byte
	str := func(s string) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(h.Args)))
	for _, a := range h.Args {
		str(a)
	}
	str(h.Cwd)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(h.Env)))
	for _, kv := range h.Env {
		str(kv)
	}
	if h.NullStdin {
		return append(b, 1)
	}
	return append(b, 0)
}

func decodeHeader(b []byte) (h daemonHeader, ok bool) {
	u32 := func() (int, bool) {
		if len(b) < 4 {
			return 0, false
		}
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		return int(n), uint64(n) <= uint64(len(b))
	}
	str := func() (string, bool) {
		n, ok := u32()
		if !ok {
			return "", false
		}
		s := string(b[:n])
		b = b[n:]
		return s, true
	}
	strs := func() ([]string, bool) {
		n, ok := u32() // (each string takes at least 4 bytes: n is bounded by len(b))
		if !ok {
			return nil, false
		}
		out := make([]string, 0, n/4)
		for ; n > 0; n-- {
			s, ok := str()
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	var ok1, ok2, ok3 bool
	h.Args, ok1 = strs()
	h.Cwd, ok2 = str()
	h.Env, ok3 = strs()
	if len(b) != 1 || b[0] > 1 {
		return h, false
	}
	h.NullStdin = b[0] == 1
	return h, ok1 && ok2 && ok3
}

// daemonSocket is the socket of a slot: in <tmp>/wasmsand-<uid>/, or in
// the directory $WASMSAND_DAEMON_SOCKET names (its last element then
// starting the name), a directory made (or checked to be) this user's
// alone, named after this executable's file (inode, size, modification
// time): a rebuilt wasmsand never talks to the daemon of an older one.
// Slot N > 0 adds "-N".
func daemonSocket(slot int) (string, error) {
	dir, base := filepath.Join(os.TempDir(), fmt.Sprintf("wasmsand-%d", os.Getuid())), "d"
	if p := os.Getenv("WASMSAND_DAEMON_SOCKET"); p != "" {
		dir, base = filepath.Dir(p), filepath.Base(p)
	} else if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || !ok || int(st.Uid) != os.Getuid() {
		return "", fmt.Errorf("%s is not a directory of this user's alone", dir)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return socketName(dir, base, exe, slot)
}

// socketName is a slot's socket in dir for the executable exe.
func socketName(dir, base, exe string, slot int) (string, error) {
	suffix := ""
	if slot > 0 {
		suffix = "-" + strconv.Itoa(slot)
	}
	xi, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	xs, ok := xi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", errors.New("no inode for " + exe)
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%x-%x-%x%s.sock", base, xs.Ino, xs.Size, xi.ModTime().Unix(), suffix)), nil
}

func writeFrame(w io.Writer, kind byte, p []byte) error {
	var h [5]byte
	h[0] = kind
	binary.LittleEndian.PutUint32(h[1:], uint32(len(p)))
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	_, err := w.Write(p)
	return err
}

func readFrame(r io.Reader) (byte, []byte, error) {
	var h [5]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(h[1:])
	if n > 64<<20 {
		return 0, nil, errors.New("frame too large")
	}
	p := make([]byte, n)
	_, err := io.ReadFull(r, p)
	return h[0], p, err
}

// frameWriter sends what is written as frames of one kind.
type frameWriter struct {
	mu   *sync.Mutex
	w    io.Writer
	kind byte
}

func (f frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := writeFrame(f.w, f.kind, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// inDaemon: this process is a daemon, which outlives its requests' sandboxes.
var inDaemon bool

// serveDaemon is `wasmsand daemon`: it serves its slot's socket
// ($WASMSAND_DAEMON_SLOT, default 0) until it has been idle for
// WASMSAND_DAEMON_IDLE.
func serveDaemon(stderr io.Writer) int {
	inDaemon = true
	defer func() { inDaemon = false }()
	slot, _ := strconv.Atoi(os.Getenv("WASMSAND_DAEMON_SLOT"))
	path, err := daemonSocket(max(slot, 0))
	if err != nil {
		fmt.Fprintln(stderr, "wasmsand daemon:", err)
		return exitSetup
	}
	idle := 10 * time.Minute
	if d, err := time.ParseDuration(os.Getenv("WASMSAND_DAEMON_IDLE")); err == nil && d > 0 {
		idle = d
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		fmt.Fprintln(stderr, "wasmsand daemon: already running on", path)
		return 0
	}
	os.Remove(path) // (a stale socket of a daemon that ended)
	l, err := net.Listen("unix", path)
	if err != nil {
		fmt.Fprintln(stderr, "wasmsand daemon:", err)
		return exitSetup
	}
	defer os.Remove(path)
	defer l.Close()
	var mu sync.Mutex // one request at a time: each sets the process's cwd and environment
	var running sync.WaitGroup
	defer running.Wait() // (a request still being answered changes the environment)
	timer := time.AfterFunc(idle, func() { l.Close() })
	for {
		conn, err := l.Accept()
		if err != nil {
			return 0
		}
		running.Add(1)
		go func() {
			defer running.Done()
			defer conn.Close()
			defer func() { _ = recover() }()
			if why := peerNarrower(conn); why != "" {
				// (a caller confined more than this daemon runs its
				// request itself: daemonpeer_linux.go)
				_ = conn.SetReadDeadline(time.Now().Add(time.Second))
				_, _, _ = readFrame(bufio.NewReader(conn))
				_ = writeFrame(conn, 'n', []byte(why))
				return
			}
			if !mu.TryLock() {
				// (the client tries another; its header is read first, so
				// that its writing it never meets a closed socket)
				_ = conn.SetReadDeadline(time.Now().Add(time.Second))
				_, _, _ = readFrame(bufio.NewReader(conn))
				_ = writeFrame(conn, 'b', nil)
				return
			}
			defer mu.Unlock()
			timer.Stop()
			defer timer.Reset(idle)
			if writeFrame(conn, 'a', nil) == nil {
				handleDaemonConn(conn)
			}
		}()
	}
}

func handleDaemonConn(conn net.Conn) {
	r := bufio.NewReader(conn)
	kind, p, err := readFrame(r)
	if err != nil || kind != 'h' {
		return
	}
	h, ok := decodeHeader(p)
	if !ok || len(h.Args) == 0 || (h.Args[0] != "run" && h.Args[0] != "run-wasm") {
		return
	}
	// the request's directory and environment, as a CLI process of its own
	// would have them
	if err := os.Chdir(h.Cwd); err != nil {
		return
	}
	os.Clearenv()
	for _, kv := range h.Env {
		if k, v, ok := cutEnv(kv); ok {
			os.Setenv(k, v)
		}
	}
	stdinR, stdinW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer func() { _ = recover() }()
		closed := false
		for {
			kind, p, err := readFrame(r)
			if err != nil {
				// the client went away (Ctrl-C, killed): so does its run
				stdinW.Close()
				cancel()
				return
			}
			switch {
			case kind == 'I' && !closed:
				stdinW.Close()
				closed = true
			case kind == 'i' && !closed:
				if _, err := stdinW.Write(p); err != nil {
					closed = true
				}
			}
		}
	}()
	var mu sync.Mutex
	code := func() (code int) {
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(frameWriter{&mu, conn, 'e'}, "wasmsand: internal error: %v\n", p)
				code = 70
			}
		}()
		var in io.Reader = stdinR
		if h.NullStdin {
			in = nullStdin{}
		}
		return runContext(ctx, h.Args, in, frameWriter{&mu, conn, 'o'}, frameWriter{&mu, conn, 'e'})
	}()
	stdinR.Close()
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(int32(code)))
	mu.Lock()
	_ = writeFrame(conn, 'x', b[:])
	mu.Unlock()
}

func cutEnv(kv string) (string, string, bool) {
	for i := 1; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}

// runViaDaemon runs the CLI's arguments in a daemon of the pool, starting
// slot 0's when none answers; ok is false when that cannot be done, or
// every daemon is busy (the caller then runs them itself).
func runViaDaemon(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, ok bool) {
	for slot := 0; slot < poolSize(); slot++ {
		path, err := daemonSocket(slot)
		if err != nil {
			return 0, false
		}
		conn, err := net.Dial("unix", path)
		if err != nil {
			if !startDaemon(slot) || slot > 0 {
				return 0, false // (slot N starts for next time; this run goes on here)
			}
			for i := 0; i < 100 && err != nil; i++ {
				time.Sleep(20 * time.Millisecond)
				conn, err = net.Dial("unix", path)
			}
			if err != nil {
				return 0, false
			}
		}
		code, ok, busy := requestDaemon(conn, args, stdin, stdout, stderr)
		if !busy {
			return code, ok
		}
	}
	return 0, false
}

// requestDaemon makes one request on conn (closed after it); busy when the
// daemon declined it.
func requestDaemon(conn net.Conn, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, ok, busy bool) {
	defer conn.Close()
	cwd, _ := os.Getwd()
	var mu sync.Mutex
	// (a failed write may still have an answer waiting: a daemon that
	// declined before reading it)
	null := isNullStdin(stdin)
	_ = writeFrame(conn, 'h', encodeHeader(daemonHeader{Args: args, Cwd: cwd, Env: os.Environ(), NullStdin: null}))
	r := bufio.NewReader(conn)
	switch kind, _, err := readFrame(r); {
	case err == nil && kind == 'b':
		return 0, false, true
	case err != nil || kind != 'a':
		return 0, false, false
	}
	if null {
		stdin = nullStdin{} // (an end of input is sent at once)
	}
	go func() {
		defer func() { _ = recover() }()
		buf := make([]byte, 64<<10)
		for {
			n, err := stdin.Read(buf)
			if n > 0 {
				mu.Lock()
				werr := writeFrame(conn, 'i', buf[:n])
				mu.Unlock()
				if werr != nil {
					return
				}
			}
			if err != nil {
				mu.Lock()
				_ = writeFrame(conn, 'I', nil)
				mu.Unlock()
				return
			}
		}
	}()
	for {
		kind, p, err := readFrame(r)
		if err != nil {
			fmt.Fprintln(stderr, "wasmsand: the daemon went away:", err)
			return 1, true, false
		}
		switch kind {
		case 'o':
			stdout.Write(p)
		case 'e':
			stderr.Write(p)
		case 'x':
			if len(p) == 4 {
				return int(int32(binary.LittleEndian.Uint32(p))), true, false
			}
		}
	}
}

// startDaemon starts `wasmsand daemon` for a slot in the background, detached.
func startDaemon(slot int) bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return false
	}
	defer null.Close()
	cmd := exec.Command(exe, "daemon")
	cmd.Env = append(os.Environ(), "WASMSAND_DAEMON_SLOT="+strconv.Itoa(slot))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() != nil {
		return false
	}
	go cmd.Wait() // (reaped if this process lives that long)
	return true
}
