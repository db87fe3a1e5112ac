package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/shell/interp"
	"github.com/wasmsand/wasmsand/vfs"
)

// maxShebangDepth bounds interpreter chains (#!/a whose /a is #!/b ...).
const maxShebangDepth = 8

// Exec runs a command by argv the way execve(2) from bash would: argv[0] is
// looked up in PATH (or taken as a path when it has a slash), then run as a
// WebAssembly program, a command entry, a `#!` script, or a shell script. It is also
// what the `spawn` import of guests reaches. req.Path and req.Program are
// ignored.
func (s *Session) Exec(ctx context.Context, req *ExecRequest) int {
	return s.run(ctx, req, 0)
}

func (s *Session) run(ctx context.Context, req *ExecRequest, depth int) int {
	name := req.Argv[0]
	prefix := req.ErrPrefix
	if prefix == "" {
		prefix = "bash: "
	}
	p, errno := req.Path, syscall.Errno(0)
	if p == "" || depth > 0 {
		p, errno = s.lookPath(req.Env, req.Dir, name)
	}
	if errno != 0 {
		if errno == syscall.ENOENT && !strings.Contains(name, "/") {
			fmt.Fprintf(req.Stderr, prefix+"%s: command not found\n", name)
			return 127
		}
		fmt.Fprintf(req.Stderr, prefix+"%s: %s\n", name, interp.Strerror(errno))
		if errno == syscall.ENOENT {
			return 127
		}
		return 126
	}
	head, err := s.readHead(p)
	if err != nil {
		fmt.Fprintf(req.Stderr, prefix+"%s: %s\n", name, interp.Strerror(errnoOf(err)))
		return 126
	}
	switch {
	case bytes.HasPrefix(head, []byte("\x00asm")):
		r := *req
		r.Path = p
		return s.cfg.Exec(ctx, &r)
	case bytes.HasPrefix(head, []byte(entryMagic)):
		name := strings.TrimSpace(strings.SplitN(string(head[len(entryMagic):]), "\n", 2)[0])
		if cmd, ok := s.cfg.Commands.Lookup(name); ok && cmd.Run != nil {
			return cmd.Run(ctx, s, req)
		}
		r := *req
		r.Path, r.Program = p, name
		return s.cfg.Exec(ctx, &r)
	case bytes.HasPrefix(head, []byte("#!")):
		line := strings.SplitN(string(head[2:]), "\n", 2)[0]
		interpArgv := strings.Fields(line)
		if len(interpArgv) == 0 || depth >= maxShebangDepth {
			fmt.Fprintf(req.Stderr, prefix+"%s: bad interpreter\n", name)
			return 126
		}
		// Linux passes everything after the interpreter as one argument.
		argv := []string{interpArgv[0]}
		if rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), interpArgv[0])); rest != "" {
			argv = append(argv, rest)
		}
		if ip, errno := s.lookPath(req.Env, req.Dir, interpArgv[0]); errno != 0 || !strings.HasPrefix(interpArgv[0], "/") {
			if errno == 0 {
				errno = syscall.ENOENT
			}
			_ = ip
			if errno == syscall.ENOENT {
				// bash 5.2's words when execve(2) fails with ENOENT
				fmt.Fprintf(req.Stderr, prefix+"%s: cannot execute: required file not found\n", name)
				return 127
			}
			fmt.Fprintf(req.Stderr, prefix+"%s: %s: bad interpreter: %s\n", name, interpArgv[0], interp.Strerror(errno))
			return 126
		}
		r := *req
		r.Argv = append(append(argv, execPath(name, p)), req.Argv[1:]...)
		return s.run(ctx, &r, depth+1)
	default:
		// bash runs a text file without #! as a shell script.
		r := *req
		r.Argv = append([]string{"bash", execPath(name, p)}, req.Argv[1:]...)
		r.reinit = true
		return runShell(ctx, s, &r)
	}
}

// LookPath resolves a command name like execvp(3) would, for programs that
// spawn children: the path, or ENOENT/EACCES/EISDIR.
func (s *Session) LookPath(env []string, dir, name string) (string, error) {
	p, errno := s.lookPath(env, dir, name)
	if errno != 0 {
		return "", errno
	}
	return p, nil
}

// entryMagic starts the /bin and /usr/bin command entries of programs and Go commands (see vfs.NewDefault).
const entryMagic = "#!wasmsand "

// lookPath finds an executable in the VFS like bash: a name with a slash is
// a path; otherwise each PATH entry is tried (an empty one is the cwd).
func (s *Session) lookPath(env []string, dir, name string) (string, syscall.Errno) {
	if name == "" {
		return "", syscall.ENOENT
	}
	if strings.Contains(name, "/") {
		p := name
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		fi, err := s.cfg.FS.Stat(p)
		switch {
		case err != nil:
			return "", errnoOf(err)
		case fi.IsDir():
			return "", syscall.EISDIR
		case !permits(fi, 1):
			return "", syscall.EACCES
		}
		return p, 0
	}
	found := syscall.ENOENT
	for _, d := range strings.Split(Getenv(env, "PATH"), ":") {
		if d == "" {
			d = dir
		} else if !path.IsAbs(d) {
			d = path.Join(dir, d)
		}
		p := path.Join(d, name)
		fi, err := s.cfg.FS.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if !permits(fi, 1) {
			found = syscall.EACCES
			continue
		}
		return p, 0
	}
	return "", found
}

// readHead reads the start of an executable: enough for magic and #! lines.
func (s *Session) readHead(p string) ([]byte, error) {
	f, err := s.cfg.FS.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return buf[:n], nil
}

// permits reports whether the sandbox user may access a file with mode bits
// want (4 = read, 2 = write, 1 = execute).
func permits(fi *vfs.FileInfo, want uint32) bool {
	return vfs.Permits(fi.Sys().(*vfs.Stat), want, UserID, UserID)
}

// errnoOf extracts the errno from a VFS error (ENOENT by default).
func errnoOf(err error) syscall.Errno {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return syscall.ENOENT
}

// execPath is the path execve gets for a command: as typed when it has a
// slash, else where PATH found it.
func execPath(name, found string) string {
	if strings.Contains(name, "/") {
		return name
	}
	return found
}
