package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// umask is the session's file-creation mask, applied to the files its
// redirections create and handed to the programs it starts (ExecRequest.Umask).
// mvdan.cc/sh has no umask; ours is bash's builtin, kept per session (a umask
// set in a subshell also applies after it).

// DefaultUmask is the mask a session starts with, as under a login shell.
const DefaultUmask = 0o022

const umaskCmd = "__wasmsand_umask"

func (s *Session) umaskBuiltin(hc interp.HandlerContext, args []string) int {
	symbolic, reusable := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'S':
				symbolic = true
			case 'p':
				reusable = true
			default:
				fmt.Fprintf(hc.Stderr, "bash: umask: %s: invalid option\numask: usage: umask [-p] [-S] [mode]\n", args[0])
				return 2
			}
		}
		args = args[1:]
	}
	cur := s.umask.Load()
	if len(args) == 0 {
		out := fmt.Sprintf("%04o", cur)
		if symbolic {
			out = symbolicUmask(cur)
		}
		if reusable {
			if symbolic {
				out = "-S " + out
			}
			out = "umask " + out
		}
		return writeOut(hc, "umask", out+"\n")
	}
	mode := args[0]
	if mode[0] >= '0' && mode[0] <= '9' {
		n, err := strconv.ParseUint(mode, 8, 32)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "bash: umask: %s: octal number out of range\n", mode)
			return 1
		}
		s.umask.Store(uint32(n) & 0o777)
		return 0
	}
	perms, errMsg := applySymbolic(^cur&0o777, mode)
	if errMsg != "" {
		fmt.Fprintf(hc.Stderr, "bash: umask: %s\n", errMsg)
		return 1
	}
	s.umask.Store(^perms & 0o777)
	if symbolic { // umask -S MODE prints the new mask
		return writeOut(hc, "umask", symbolicUmask(s.umask.Load())+"\n")
	}
	return 0
}

// symbolicUmask is `umask -S`: the permissions the mask leaves.
func symbolicUmask(mask uint32) string {
	perms := ^mask & 0o777
	var parts []string
	for i, who := range []string{"u", "g", "o"} {
		bits := perms >> (6 - 3*i) & 7
		p := who + "="
		for j, c := range "rwx" {
			if bits&(4>>j) != 0 {
				p += string(c)
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}

// applySymbolic applies a chmod-like mode ("u=rwx,g+w,o-r", "=r") to perms,
// as bash's umask does: no who letter means all.
func applySymbolic(perms uint32, mode string) (uint32, string) {
	for _, clause := range strings.Split(mode, ",") {
		var who uint32
		i := 0
		for ; i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0; i++ {
			who |= map[byte]uint32{'u': 0o700, 'g': 0o070, 'o': 0o007, 'a': 0o777}[clause[i]]
		}
		if who == 0 {
			who = 0o777
		}
		if i >= len(clause) || !strings.ContainsRune("+-=", rune(clause[i])) {
			c := ""
			if i < len(clause) {
				c = clause[i : i+1]
			}
			return 0, fmt.Sprintf("`%s': invalid symbolic mode operator", c)
		}
		for i < len(clause) {
			op := clause[i]
			i++
			var bits uint32
			for ; i < len(clause) && !strings.ContainsRune("+-=", rune(clause[i])); i++ {
				switch clause[i] {
				case 'r':
					bits |= 0o444
				case 'w':
					bits |= 0o222
				case 'x':
					bits |= 0o111
				default:
					return 0, fmt.Sprintf("`%c': invalid symbolic mode character", clause[i])
				}
			}
			switch op {
			case '+':
				perms |= bits & who
			case '-':
				perms &^= bits & who
			case '=':
				perms = perms&^who | bits&who
			}
		}
	}
	return perms, ""
}
