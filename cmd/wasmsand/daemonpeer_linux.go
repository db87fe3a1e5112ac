package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A daemon must not act with more rights than its caller has: a caller that
// dropped capabilities, lowered a limit (ulimit -t), entered other
// namespaces, a cgroup, a seccomp filter or another root would otherwise get
// the daemon's rights and limits for every host path it names (--import,
// --mount, --load, --save, --policy, a script) and for the sandbox's
// network. So the daemon serves only a peer (SO_PEERCRED) of its own user
// that Linux shows to be confined no more than itself; any other gets 'n'
// and runs its request itself. What Linux does not show (Landlock) is
// SECURITY.md's to say.

// peerNarrower says why the process at the other end of conn is confined
// more than this one, or "" when it is not.
func peerNarrower(conn net.Conn) string {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return "not a unix socket"
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err.Error()
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) { cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) }); err != nil || cerr != nil {
		return "no peer credentials"
	}
	if int(cred.Uid) != os.Getuid() || int(cred.Gid) != os.Getgid() {
		return fmt.Sprintf("another user (uid %d, gid %d)", cred.Uid, cred.Gid)
	}
	return narrowerThanSelf(strconv.Itoa(int(cred.Pid)))
}

// narrowerThanSelf compares /proc/PID with /proc/self.
func narrowerThanSelf(pid string) string {
	peer, self := "/proc/"+pid, "/proc/self"
	ps, err1 := procStatus(peer)
	ss, err2 := procStatus(self)
	if err1 != nil || err2 != nil {
		return "its /proc/" + pid + "/status cannot be read"
	}
	for _, k := range []string{"Uid", "Gid"} {
		if ps[k] != ss[k] {
			return k + " " + ps[k] + " differs"
		}
	}
	pg, sg := strings.Fields(ps["Groups"]), strings.Fields(ss["Groups"])
	for _, g := range sg {
		if !slices.Contains(pg, g) {
			return "it is not in group " + g
		}
	}
	for _, k := range []string{"CapPrm", "CapEff", "CapBnd", "CapAmb"} {
		p, e1 := strconv.ParseUint(ps[k], 16, 64)
		s, e2 := strconv.ParseUint(ss[k], 16, 64)
		if e1 != nil || e2 != nil || s&^p != 0 {
			return "it lacks capabilities (" + k + " " + ps[k] + ")"
		}
	}
	for _, k := range []string{"NoNewPrivs", "Seccomp", "Seccomp_filters"} {
		p, _ := strconv.Atoi(ps[k])
		s, _ := strconv.Atoi(ss[k])
		if p > s {
			return k + " " + ps[k]
		}
	}
	pl, err1 := procLimits(peer)
	sl, err2 := procLimits(self)
	if err1 != nil || err2 != nil {
		return "its limits cannot be read"
	}
	// (hard limits: a process may raise its soft ones up to them, and Go
	// raises its own open-files one at start)
	for name, s := range sl {
		if p, ok := pl[name]; !ok || p[1] < s[1] {
			return "a lower limit: " + name
		}
	}
	for _, ns := range []string{"mnt", "net", "user", "ipc", "uts", "pid", "cgroup"} {
		p, err1 := os.Readlink(peer + "/ns/" + ns)
		s, err2 := os.Readlink(self + "/ns/" + ns)
		if (err1 == nil) != (err2 == nil) || p != s {
			return "another " + ns + " namespace"
		}
	}
	var pr, sr unix.Stat_t
	if unix.Stat(peer+"/root", &pr) != nil || unix.Stat(self+"/root", &sr) != nil || pr.Dev != sr.Dev || pr.Ino != sr.Ino {
		return "another root directory"
	}
	for _, f := range []string{"cgroup", "attr/current"} {
		p, err1 := os.ReadFile(peer + "/" + f)
		s, err2 := os.ReadFile(self + "/" + f)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(p, s) {
			return "another " + f
		}
	}
	return ""
}

func procStatus(dir string) (map[string]string, error) {
	b, err := os.ReadFile(dir + "/status")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			m[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return m, nil
}

// procLimits reads /proc/PID/limits: soft and hard per limit (unlimited
// as the largest value).
func procLimits(dir string) (map[string][2]uint64, error) {
	b, err := os.ReadFile(dir + "/limits")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 {
		return nil, errors.New("no limits")
	}
	m := map[string][2]uint64{}
	for _, l := range lines[1:] {
		if len(l) < 26 {
			continue
		}
		name := strings.TrimSpace(l[:26])
		f := strings.Fields(l[26:])
		if len(f) < 2 {
			continue
		}
		var v [2]uint64
		for i := range v {
			if f[i] == "unlimited" {
				v[i] = math.MaxUint64
			} else if v[i], err = strconv.ParseUint(f[i], 10, 64); err != nil {
				return nil, fmt.Errorf("limit %q: %v", name, err)
			}
		}
		m[name] = v
	}
	return m, nil
}
