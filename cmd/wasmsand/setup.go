package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hack-pad/hackpadfs"
	"golang.org/x/term"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/platform/hostdir"
	"github.com/wasmsand/wasmsand/vfs"
)

// eventSink writes events to a file as JSON lines (closed when the CLI is
// done): --events starts the file anew, an audit file is only appended to
// (O_APPEND: each line lands whole at its end, whoever else writes it).
func eventSink(o *cliOptions, file string, audit bool) (func(core.Event), error) {
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if audit {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(file, flag, 0o600)
	if err != nil {
		return nil, err
	}
	o.closers = append(o.closers, f)
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	return func(e core.Event) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(e)
	}, nil
}

// assetPrograms opens the guest programs (--assets, else $WASMSAND_ASSETS or
// the directory beside the executable), once for a server's many sandboxes
// (its clones share them); nil when there are none.
func (o *cliOptions) assetPrograms(ctx context.Context) (*core.AssetPrograms, error) {
	if o.programs != nil {
		return o.programs, nil
	}
	src := o.assets
	if src == "" {
		src = assetsrc.Default()
	}
	if src == "" {
		return nil, nil
	}
	tools, err := assetsrc.Open(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("wasmsand: %v", err)
	}
	o.programs = tools
	return tools, nil
}

func setup(ctx context.Context, o *cliOptions) (*core.Sandbox, error) {
	env, err := parseEnv(o.envs)
	if err != nil {
		return nil, err
	}
	opt := core.Options{MemoryLimitMB: o.memory, Timeout: o.timeout, Env: env}
	if o.events != "" {
		sink, err := eventSink(o, o.events, false)
		if err != nil {
			return nil, fmt.Errorf("wasmsand: --events: %v", err)
		}
		opt.OnEvent = sink
	}
	if f := o.onEvent; f != nil { // (a server's listener)
		if prev := opt.OnEvent; prev != nil {
			opt.OnEvent = func(e core.Event) { prev(e); f(e) }
		} else {
			opt.OnEvent = f
		}
	}
	if err := applyPolicy(o, &opt); err != nil {
		return nil, err
	}
	tools, err := o.assetPrograms(ctx)
	if err != nil {
		return nil, err
	}
	if tools != nil {
		opt.Programs = tools
	}
	if o.load != "" {
		// A process that ends with its sandbox maps the state; the daemon,
		// which outlives its requests' sandboxes, reads it.
		load := hostdir.LoadDirMapped
		if inDaemon {
			load = func(dir string, opt vfs.Options) (*vfs.FS, error) {
				if t := cachedState(dir, opt); t != nil {
					return t, nil
				}
				t, err := hostdir.LoadDir(dir, opt)
				if err == nil {
					keepState(dir, t)
				}
				return t, err
			}
		}
		fsys, err := load(o.load, vfs.Options{MaxBytes: 256 << 20})
		switch {
		case err == nil:
			opt.FS = fsys
		case errors.Is(err, fs.ErrNotExist):
			// Nothing saved yet: start fresh (a first --load/--save pair).
		default:
			return nil, fmt.Errorf("wasmsand: --load %s: %v", o.load, err)
		}
	}
	sb, err := core.New(ctx, opt)
	if err != nil {
		return nil, err
	}
	if opt.FS != nil && o.save != "" && sameDir(o.load, o.save) {
		// a run that changes nothing needs no save (a 10 MB state: ~20 ms)
		o.asLoaded = sb.FS().Snapshot()
	}
	for _, v := range o.imports {
		host, guest, _, err := splitHostGuest("import", v, false)
		if err == nil {
			err = importTree(sb.FS(), host, guest)
		}
		if err != nil {
			sb.Close()
			return nil, err
		}
	}
	for _, v := range o.mounts {
		host, guest, mode, err := splitHostGuest("mount", v, true)
		if err == nil {
			var backend hackpadfs.FS
			if backend, err = hostdir.New(host); err == nil {
				err = sb.Mount(guest, backend, mode == "ro")
			}
		}
		if err != nil {
			sb.Close()
			return nil, fmt.Errorf("wasmsand: --mount %s: %v", v, err)
		}
	}
	if o.cwd != "" {
		if err := sb.Chdir(o.cwd); err != nil {
			sb.Close()
			return nil, fmt.Errorf("wasmsand: --cwd %s: %v", o.cwd, err)
		}
	}
	return sb, nil
}

// importTree copies a host file or directory tree into the VFS at guest,
// with the modification times the host has (as `cp -a` and docker cp keep
// them: make, find -newer and fd --changed-within see the tree as it is).
// The host is only read. Symlinks are copied as symlinks (they resolve inside
// the sandbox); other special files are skipped.
func importTree(fsys *vfs.FS, host, guest string) error {
	info, err := os.Lstat(host)
	if err != nil {
		return fmt.Errorf("wasmsand: --import %s: %v", host, err)
	}
	if !info.IsDir() {
		if err := fsys.MkdirAll(path.Dir(guest), 0o755); err != nil {
			return fmt.Errorf("wasmsand: --import %s: %v", guest, err)
		}
		if err := copyOne(fsys, host, guest, info); err != nil {
			return err
		}
		return keepTime(fsys, guest, info)
	}
	var dirs []string
	var dirInfo []fs.FileInfo
	err = filepath.WalkDir(host, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("wasmsand: --import %s: %v", p, err)
		}
		rel, _ := filepath.Rel(host, p)
		target := path.Join(guest, filepath.ToSlash(rel))
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("wasmsand: --import %s: %v", p, err)
		}
		if err := copyOne(fsys, p, target, info); err != nil {
			return err
		}
		if info.IsDir() {
			dirs, dirInfo = append(dirs, target), append(dirInfo, info)
			return nil
		}
		return keepTime(fsys, target, info)
	})
	if err != nil {
		return err
	}
	// directories last, deepest first: what goes into one changes its time
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := keepTime(fsys, dirs[i], dirInfo[i]); err != nil {
			return err
		}
	}
	return nil
}

// keepTime gives an imported file (a symlink itself, not its target) the
// host's modification time.
func keepTime(fsys *vfs.FS, guest string, info fs.FileInfo) error {
	if !info.IsDir() && !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0 {
		return nil // (skipped)
	}
	if err := fsys.Chtimes(guest, info.ModTime(), info.ModTime(), false); err != nil {
		return fmt.Errorf("wasmsand: --import %s: %v", guest, err)
	}
	return nil
}

func copyOne(fsys *vfs.FS, host, guest string, info fs.FileInfo) error {
	fail := func(err error) error { return fmt.Errorf("wasmsand: --import %s → %s: %v", host, guest, err) }
	switch {
	case info.IsDir():
		if err := fsys.MkdirAll(guest, info.Mode().Perm()|0o700); err != nil {
			return fail(err)
		}
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(host)
		if err != nil {
			return fail(err)
		}
		_ = fsys.Remove(guest)
		if err := fsys.Symlink(target, guest); err != nil {
			return fail(err)
		}
	case info.Mode().IsRegular():
		data, err := os.ReadFile(host)
		if err != nil {
			return fail(err)
		}
		if err := fsys.WriteFile(guest, data, info.Mode().Perm()); err != nil {
			return fail(err)
		}
		if err := fsys.Chmod(guest, info.Mode().Perm()); err != nil {
			return fail(err)
		}
	}
	return nil
}

// sameDir: a and b name the same directory.
func sameDir(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func saveState(sb *core.Sandbox, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("wasmsand: --save %s: %v", dir, err)
	}
	if err := hostdir.SaveDir(dir, sb.FS()); err != nil {
		return fmt.Errorf("wasmsand: --save %s: %v", dir, err)
	}
	if inDaemon {
		keepState(dir, sb.FS())
	}
	return nil
}

// interactive is `wasmsand shell`: a prompt when stdin is a terminal, lines
// accumulated until they parse as complete commands, state kept between them.
func interactive(ctx context.Context, sb *core.Sandbox, o *cliOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	tty := false
	if f, ok := stdin.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	in := bufio.NewReader(stdin)
	status := 0
	var pending strings.Builder
	for {
		if tty {
			if pending.Len() == 0 {
				fmt.Fprintf(stderr, "user@sandbox:%s$ ", prettyDir(sb.Cwd()))
			} else {
				fmt.Fprint(stderr, "> ")
			}
		}
		line, err := in.ReadString('\n')
		pending.WriteString(line)
		if err != nil && pending.Len() == 0 {
			return status
		}
		if err == nil && core.Incomplete(pending.String()) {
			continue
		}
		script := pending.String()
		pending.Reset()
		if strings.TrimSpace(script) != "" {
			// Commands read the terminal's input directly, as in a real shell;
			// a piped-in script keeps its lines for the shell itself.
			var cmdIn io.Reader = strings.NewReader("")
			if tty {
				cmdIn = stdin
			}
			res, rerr := sb.Run(ctx, script, core.RunOptions{Stdin: cmdIn, Stdout: stdout, Stderr: stderr, Timeout: o.timeout, Terminal: tty})
			if rerr != nil {
				fmt.Fprintln(stderr, rerr)
				return 1
			}
			status = res.ExitCode
			if res.Exited {
				return status
			}
		}
		if err != nil {
			return status
		}
	}
}

func prettyDir(d string) string {
	if d == "/home/user" {
		return "~"
	}
	if strings.HasPrefix(d, "/home/user/") {
		return "~" + d[len("/home/user"):]
	}
	return d
}
