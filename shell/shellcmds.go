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
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// ReadArg reads a file named on a command's command line: /dev/stdin and
// /dev/fd/N are the fds the command was given (a process substitution).
func (s *Session) ReadArg(req *ExecRequest, abs string) ([]byte, error) {
	n, ok := interp.DevFD(abs)
	if !ok {
		return s.cfg.FS.ReadFile(abs)
	}
	var x any = req.Files[n]
	if n == 0 {
		x = req.Stdin
	}
	if x == nil {
		return nil, syscall.ENOENT
	}
	return interp.ReadOpenFile(s.cfg.FS, x)
}

// EachInput calls fn with each named file (stdin when there are none), as
// filters do; an unreadable file is reported as "<prefix>name: error" and
// makes the status 1; an error from fn (a closed output) ends with 1.
func (s *Session) EachInput(req *ExecRequest, files []string, prefix string, fn func(io.Reader) error) int {
	if len(files) == 0 {
		if req.Stdin != nil && fn(req.Stdin) != nil {
			return 1
		}
		return 0
	}
	st := 0
	for _, f := range files {
		p := f
		if !path.IsAbs(p) {
			p = path.Join(req.Dir, p)
		}
		data, err := s.ReadArg(req, p)
		if err != nil {
			fmt.Fprintf(req.Stderr, "%s%s: %s\n", prefix, f, interp.Strerror(errnoOf(err)))
			st = 1
			continue
		}
		if fn(bytes.NewReader(data)) != nil {
			return 1
		}
	}
	return st
}

// runShell is `bash`/`sh` run as a command: a new shell process (its own pid,
// variables and options) over the same VFS. It accepts bash's invocations:
// -c STRING [NAME [ARGS]], FILE [ARGS], -s / stdin, set-style options
// (-e -u -x -o pipefail ...), -O/+O shopt options, -n.
//
// bashUsage is what bash prints for --help and a bad option.
const bashUsage = "Usage:\tbash [GNU long option] [option] ...\n\tbash [GNU long option] [option] script-file ...\n" +
	"GNU long options:\n\t--debug\n\t--debugger\n\t--dump-po-strings\n\t--dump-strings\n\t--help\n" +
	"\t--init-file\n\t--login\n\t--noediting\n\t--noprofile\n\t--norc\n\t--posix\n\t--pretty-print\n" +
	"\t--rcfile\n\t--restricted\n\t--verbose\n\t--version\nShell options:\n" +
	"\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n\t-abefhkmnptuvxBCEHPT or -o option\n"

func runShell(ctx context.Context, s *Session, req *ExecRequest) int {
	args := req.Argv[1:]
	type opt struct {
		name  string
		on    bool
		shopt bool
	}
	var opts []opt
	var command *string
	readStdin, noExec := false, false
	argv0 := req.Argv[0] // $0 and the name in messages, as the program was invoked
	if base := strings.TrimPrefix(path.Base(argv0), "-"); base == "sh" {
		// bash run as sh starts in POSIX mode
		opts = append(opts, opt{name: "posix", on: true})
	}
	if strings.HasPrefix(argv0, "-") {
		// a login shell, as login(1) and exec -l start one
		opts = append(opts, opt{name: "login_shell", on: true, shopt: true})
	}
loop:
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--" || a == "-":
			args = args[1:]
			break loop
		case a == "--version":
			fmt.Fprintln(req.Stdout, bashVersion)
			return 0
		case a == "--help":
			fmt.Fprint(req.Stdout, "GNU bash, version "+bashVersionNumber+"-(wasm32-wasmsand)\n"+bashUsage+
				"Type `bash -c \"help set\"' for more information about shell options.\n"+
				"Type `bash -c help' for more information about shell builtin commands.\n")
			return 0
		case a == "--login":
			opts = append(opts, opt{name: "login_shell", on: true, shopt: true})
		case a == "--norc" || a == "--noprofile" || a == "--noediting" || a == "--restricted":
		case a == "--verbose":
			opts = append(opts, opt{name: "v", on: true})
		case a == "--debug" || a == "--debugger":
		case a == "--posix":
			opts = append(opts, opt{name: "posix", on: true})
		case a == "--rcfile" || a == "--init-file":
			if len(args) > 1 {
				args = args[1:]
			}
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			if len(args) < 2 {
				fmt.Fprintf(req.Stderr, "bash: %s: option requires an argument\n", a)
				return 2
			}
			opts = append(opts, opt{name: args[1], on: a[0] == '-', shopt: a[1] == 'O'})
			args = args[1:]
		case strings.HasPrefix(a, "--") && a != "--":
			fmt.Fprintf(req.Stderr, "%s: %s: invalid option\n", argv0, a)
			fmt.Fprint(req.Stderr, bashUsage)
			return 2
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && !strings.HasPrefix(a, "--"):
			for _, c := range a[1:] {
				switch c {
				case 'c':
					if a[0] == '-' {
						command = new(string)
					}
				case 's':
					readStdin = true
				case 'n':
					noExec = a[0] == '-'
				case 'l':
					opts = append(opts, opt{name: "login_shell", on: a[0] == '-', shopt: true})
				case 'i', 'r', 'D':
					// interactive, restricted: no effect here
				case 'e', 'u', 'x', 'f', 'a', 'C', 'v', 'h', 'b', 'k', 'm', 'p', 't', 'B', 'E', 'H', 'P', 'T':
					opts = append(opts, opt{name: string(c), on: a[0] == '-'})
				default:
					fmt.Fprintf(req.Stderr, "%s: %c%c: invalid option\n", argv0, a[0], c)
					fmt.Fprint(req.Stderr, bashUsage)
					return 2
				}
			}
		default:
			break loop
		}
		args = args[1:]
	}

	name := argv0
	var script, source string
	cmdMode := false
	switch {
	case command != nil:
		if len(args) == 0 {
			fmt.Fprintf(req.Stderr, "%s: -c: option requires an argument\n", argv0)
			return 2
		}
		script, args = args[0], args[1:]
		if len(args) > 0 {
			name, args = args[0], args[1:]
		}
		cmdMode = true
	case len(args) > 0 && !readStdin:
		name = args[0]
		p := name
		if !path.IsAbs(p) {
			p = path.Join(req.Dir, p)
		}
		fi, err := s.cfg.FS.Stat(p)
		if err == nil && fi.IsDir() {
			fmt.Fprintf(req.Stderr, "%s: %s: Is a directory\n", name, name) // bash has taken the script's name
			return 126
		}
		data, err := s.ReadArg(req, p)
		if err != nil {
			fmt.Fprintf(req.Stderr, "%s: %s: %s\n", argv0, name, interp.Strerror(errnoOf(err)))
			return 127
		}
		script, args, source = string(data), args[1:], name
	default:
		if req.Stdin == nil {
			return 0
		}
		readStdin = true
		if noExec {
			data, err := io.ReadAll(req.Stdin)
			if err != nil {
				return 1
			}
			script = string(data)
		}
	}
	if noExec {
		if _, err := syntax.Parse(script); err != nil {
			var se *syntax.Error
			if errors.As(err, &se) {
				where := name
				if cmdMode {
					where += ": -c"
				}
				fmt.Fprintf(req.Stderr, "%s: line %d: %s\n", where, se.Line, se.Msg)
				if se.Text != "" {
					fmt.Fprintf(req.Stderr, "%s: line %d: %s\n", where, se.Line, se.QuotedText())
				}
			}
			return 2
		}
		return 0
	}

	ppid := req.PPid
	if ppid == 0 {
		ppid = s.cfg.Pid
	}
	// (a child a guest spawned already has its pid)
	pid, release, err := req.Pid, func() {}, error(nil)
	if pid == 0 {
		pid, release, err = s.cfg.NewPid(ppid, req.Argv)
	}
	if err != nil {
		fmt.Fprintf(req.Stderr, "bash: fork: %v\n", err)
		return 254
	}
	defer release()
	child := interp.New(s.icfg, req.Env, req.Dir, pid, ppid)
	child.SetUmask(req.Umask)
	child.SetIgnoredAtEntry(req.Ignored)
	child.SetStdio(req.Stdin, req.Stdout, req.Stderr)
	child.SetFiles(req.Files)
	child.SetParams(name, args)
	child.SetCommandMode(cmdMode)
	if cmdMode {
		child.SetExecutionString(script)
	}
	child.SetReadsStdin(readStdin)
	if source != "" {
		child.SetScript(source)
	}
	if req.reinit && req.NoSkipDots {
		opts = append([]opt{{name: "globskipdots", shopt: true}}, opts...)
	}
	for _, o := range opts {
		var err error
		if o.shopt {
			err = child.SetShopt(o.name, o.on)
		} else {
			err = child.SetOption(o.name, o.on)
		}
		if err != nil {
			fmt.Fprintf(req.Stderr, "bash: %v\n", err)
			return 2
		}
	}
	return child.Run(ctx, script, interp.RunOpts{Script: true, FromStdin: readStdin && script == ""})
}

// runWhich is `which [-a] NAME...` over the VFS PATH (debianutils' output:
// paths on stdout, nothing for a miss, status 1 if any name was missing).
func runWhich(ctx context.Context, s *Session, req *ExecRequest) int {
	all := false
	st := 0
	for _, name := range req.Argv[1:] {
		if name == "-a" {
			all = true
			continue
		}
		found := false
		if strings.Contains(name, "/") {
			if p, errno := s.lookPath(req.Env, req.Dir, name); errno == 0 {
				fmt.Fprintln(req.Stdout, p)
				found = true
			}
		} else {
			for _, d := range strings.Split(Getenv(req.Env, "PATH"), ":") {
				if d == "" {
					continue
				}
				p := path.Join(d, name)
				fi, err := s.cfg.FS.Stat(p)
				if err != nil || fi.IsDir() || !permits(fi, 1) {
					continue
				}
				fmt.Fprintln(req.Stdout, p)
				found = true
				if !all {
					break
				}
			}
		}
		if !found {
			st = 1
		}
	}
	return st
}
