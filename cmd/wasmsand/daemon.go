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
	"sync"
	"syscall"
	"time"
)

// A one-off `wasmsand run` pays, in a new process, for what a long-lived
// one has already done: starting a 20 MB Go binary, and decoding and
// validating every module it runs even with wazero's compiled code on disk
// (57 ms for coreutils). With WASMSAND_DAEMON=1, run and run-wasm hand
// their arguments, working directory, environment and streams to a
// resident `wasmsand daemon` (started on first use, ending after
// WASMSAND_DAEMON_IDLE, default 10 min, without work), which runs them
// exactly as the CLI would, one at a time, with its modules warm; a run
// whose client goes away is cancelled. The socket is in a directory only
// this user can enter.
//
// Frames both ways: a kind byte, a 4-byte length, the payload. The client
// sends 'h' (the header: encodeHeader) then 'i' stdin chunks and 'I' at its
// end; the daemon sends 'o' stdout, 'e' stderr and 'x' the exit status (4
// bytes). All integers are little-endian. Two clients speak it: this file's,
// and a C one that runs before Go starts (fastclient_linux.c), so that a
// run through the daemon does not pay for starting this 20 MB Go program.

type daemonHeader struct {
	Args []string
	Cwd  string
	Env  []string
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
	return b
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
	return h, ok1 && ok2 && ok3 && len(b) == 0
}

// daemonSocket is the socket's path: $WASMSAND_DAEMON_SOCKET, else in
// <tmp>/wasmsand-<uid>/, a directory made (or checked to be) this user's
// alone, named after this executable's file (inode, size, modification
// time): a rebuilt wasmsand never talks to the daemon of an older one.
func daemonSocket() (string, error) {
	if p := os.Getenv("WASMSAND_DAEMON_SOCKET"); p != "" {
		return p, nil
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("wasmsand-%d", os.Getuid()))
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
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
	xi, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	xs, ok := xi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", errors.New("no inode for " + exe)
	}
	return filepath.Join(dir, fmt.Sprintf("d-%x-%x-%x.sock", xs.Ino, xs.Size, xi.ModTime().Unix())), nil
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

// serveDaemon is `wasmsand daemon`: it serves the socket until it has been
// idle for WASMSAND_DAEMON_IDLE.
func serveDaemon(stderr io.Writer) int {
	inDaemon = true
	defer func() { inDaemon = false }()
	path, err := daemonSocket()
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
			mu.Lock()
			defer mu.Unlock()
			timer.Stop()
			defer timer.Reset(idle)
			handleDaemonConn(conn)
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
		return runContext(ctx, h.Args, stdinR, frameWriter{&mu, conn, 'o'}, frameWriter{&mu, conn, 'e'})
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

// runViaDaemon runs the CLI's arguments in the daemon, starting it when
// none answers; ok is false when that cannot be done (the caller then runs
// them itself).
func runViaDaemon(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, ok bool) {
	path, err := daemonSocket()
	if err != nil {
		return 0, false
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		if !startDaemon() {
			return 0, false
		}
		for i := 0; i < 100 && err != nil; i++ {
			time.Sleep(20 * time.Millisecond)
			conn, err = net.Dial("unix", path)
		}
		if err != nil {
			return 0, false
		}
	}
	defer conn.Close()
	cwd, _ := os.Getwd()
	var mu sync.Mutex
	if writeFrame(conn, 'h', encodeHeader(daemonHeader{Args: args, Cwd: cwd, Env: os.Environ()})) != nil {
		return 0, false
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
	r := bufio.NewReader(conn)
	for {
		kind, p, err := readFrame(r)
		if err != nil {
			fmt.Fprintln(stderr, "wasmsand: the daemon went away:", err)
			return 1, true
		}
		switch kind {
		case 'o':
			stdout.Write(p)
		case 'e':
			stderr.Write(p)
		case 'x':
			if len(p) == 4 {
				return int(int32(binary.LittleEndian.Uint32(p))), true
			}
		}
	}
}

// startDaemon starts `wasmsand daemon` in the background, detached.
func startDaemon() bool {
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
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() != nil {
		return false
	}
	go cmd.Wait() // (reaped if this process lives that long)
	return true
}
