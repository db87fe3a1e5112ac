package toolruntime

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Who may use the bus (SECURITY.md, "Tool runtime"). NATS carries no
// sender's identity in a message, so an agent's identity is in the subject
// it may publish on: each agent's account lets it publish invocations only
// on <invoke>.TOOL.AGENT, and read only its own answers (response.AGENT.*,
// status.AGENT.*, its own inbox). The worker takes user_id from that token,
// never from the request.

// Credentials are a user name and password on the bus.
type Credentials struct{ User, Password string }

var busUser = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// NewCredentials makes a user with a random password.
func NewCredentials(user string) Credentials {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return Credentials{User: user, Password: hex.EncodeToString(b)}
}

// ReadCredentials reads "user:password" (a line of its own) from a file.
func ReadCredentials(path string) (Credentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Credentials{}, err
	}
	u, p, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
	if !ok || !busUser.MatchString(u) || p == "" || strings.ContainsAny(p, "\r\n") {
		return Credentials{}, fmt.Errorf("%s: want one line user:password (user: letters, digits, _ and -)", path)
	}
	return Credentials{User: u, Password: p}, nil
}

// ReadUsers reads agents' credentials, a "user:password" line each
// (blank lines and # comments skipped).
func ReadUsers(path string) ([]Credentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Credentials
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		u, p, ok := strings.Cut(l, ":")
		if !ok || !busUser.MatchString(u) || p == "" {
			return nil, fmt.Errorf("%s:%d: want user:password", path, i+1)
		}
		out = append(out, Credentials{User: u, Password: p})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no users", path)
	}
	return out, nil
}

// Write writes the credentials to a new file only its owner may read
// (0600; an existing file is replaced, never written through a link).
func (c Credentials) Write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".creds-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(c.User + ":" + c.Password + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Options connect as these credentials, with an inbox only this user may
// read.
func (c Credentials) Options() []nats.Option {
	return []nats.Option{nats.UserInfo(c.User, c.Password), nats.CustomInboxPrefix(inboxOf(c.User))}
}

func inboxOf(user string) string { return "_INBOX_" + user }

// BusAuth is who may connect to an embedded server: the worker and the
// operator (every subject; the operator invokes as any user, as a bus
// without credentials let anyone), and agents (their own subjects in
// Namespace, as themselves).
type BusAuth struct {
	Namespace string
	Worker    Credentials
	Operator  *Credentials
	Agents    []Credentials
}

// OperatorUser names the operator's credentials: a client that has them
// invokes as the user it says (Client.User stays empty).
const OperatorUser = "operator"

func (a *BusAuth) users() ([]*server.User, error) {
	if a.Worker.User == "" || a.Worker.Password == "" {
		return nil, errors.New("toolruntime: the worker's bus credentials are missing")
	}
	p := Subjects{a.Namespace}.prefix()
	users := []*server.User{{Username: a.Worker.User, Password: a.Worker.Password}}
	if o := a.Operator; o != nil {
		users = append(users, &server.User{Username: o.User, Password: o.Password})
	}
	for _, ag := range a.Agents {
		if !busUser.MatchString(ag.User) || ag.User == a.Worker.User || ag.User == OperatorUser {
			return nil, fmt.Errorf("toolruntime: bad agent name %q", ag.User)
		}
		users = append(users, &server.User{Username: ag.User, Password: ag.Password, Permissions: &server.Permissions{
			Publish: &server.SubjectPermission{Allow: []string{p + "invoke.*." + ag.User, p + "queue.*." + ag.User}},
			Subscribe: &server.SubjectPermission{Allow: []string{p + "response." + ag.User + ".>", p + "status." + ag.User + ".>",
				inboxOf(ag.User) + ".>"}},
		}})
	}
	return users, nil
}

// EmbeddedServer starts a NATS server inside this process, listening on addr
// (host:port; port 0 picks one); storeDir, when set, enables JetStream there.
// With auth it takes only those users; without, anyone who can connect, which
// is refused off loopback.
func EmbeddedServer(addr, storeDir string, auth *BusAuth) (*server.Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("toolruntime: --nats-listen %s: %w", addr, err)
	}
	var p int
	if _, err := fmt.Sscan(port, &p); err != nil || p < 0 || p > 65535 {
		return nil, fmt.Errorf("toolruntime: --nats-listen %s: bad port", addr)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	opts := &server.Options{Host: host, Port: p, NoSigs: true, NoLog: true, MaxPayload: 8 << 20}
	if auth != nil {
		if opts.Users, err = auth.users(); err != nil {
			return nil, err
		}
	} else if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("toolruntime: --nats-listen %s is reachable from other machines: the bus needs credentials there", addr)
	}
	if storeDir != "" {
		opts.JetStream, opts.StoreDir = true, storeDir
	}
	return startServer(opts, addr)
}
