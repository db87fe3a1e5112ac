package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

// Policy is what one sandbox, tool or plugin may do: one YAML document
// (see Parse). A field left out takes the profile's value.
type Policy struct {
	Version      int          `yaml:"version"`
	Profile      string       `yaml:"profile"` // restrictive, standard (default), permissive
	Filesystem   Filesystem   `yaml:"filesystem"`
	Network      NetworkDoc   `yaml:"network"`
	Environment  Environment  `yaml:"environment"`
	Secrets      []Secret     `yaml:"secrets"` // the embedder gives the values
	Resources    Resources    `yaml:"resources"`
	Capabilities Capabilities `yaml:"capabilities"`
	Audit        Audit        `yaml:"audit"`
}

// Filesystem lists host directories the sandbox sees.
type Filesystem struct {
	Mounts []Mount `yaml:"mounts"`
}

// Mount is a host directory at a guest path.
type Mount struct {
	Host  string `yaml:"host"`
	Guest string `yaml:"guest"`
	Mode  string `yaml:"mode"` // ro (default) or rw
}

// NetworkDoc is Network with its budget, as a document writes it.
type NetworkDoc struct {
	Allow  []Rule `yaml:"allow"`
	Deny   []Rule `yaml:"deny"`
	Budget Budget `yaml:"budget"`
}

// Budget bounds the network use of a sandbox (0: the default).
type Budget struct {
	MaxRequests       int     `yaml:"max_requests"`
	MaxBytesMB        int     `yaml:"max_bytes_mb"`
	MaxResponseMB     int     `yaml:"max_response_mb"`
	RequestTimeoutSec float64 `yaml:"request_timeout_sec"`
	MaxRedirects      int     `yaml:"max_redirects"`
}

// Environment is the sandbox's environment: these variables, and the
// host's variables named in Inherit; nothing else of the host.
type Environment struct {
	Set     map[string]string `yaml:"set"`
	Inherit []string          `yaml:"inherit"`
}

// Secret declares a value the embedder holds for the sandbox, which never
// sees it: a request header may name it as {{secret:NAME}} (replaced on
// the way out), only toward Hosts; Inject adds it to every request to them.
// A placeholder anywhere else (a basic-auth pair, the URL, the body) is
// refused unless In names that place: a server echoes those back more
// often, in forms redaction may not recognise.
type Secret struct {
	Name   string   `yaml:"name"`
	Hosts  []string `yaml:"hosts"` // names, "*.name" or addresses
	Inject *Inject  `yaml:"inject"`
	In     []string `yaml:"in"` // besides headers: basic_auth, url, body
}

// The places a secret's placeholder may stand in a request (Secret.In).
const (
	InHeader    = "header" // always allowed
	InBasicAuth = "basic_auth"
	InURL       = "url"
	InBody      = "body"
)

var secretPlaces = []string{InHeader, InBasicAuth, InURL, InBody}

// Allows says whether the secret's placeholder may stand in that place.
func (s *Secret) Allows(place string) bool {
	return place == InHeader || slices.Contains(s.In, place)
}

// Secret finds a declared secret by name; nil if the policy has none.
func (p *Policy) Secret(name string) *Secret {
	for i := range p.Secrets {
		if p.Secrets[i].Name == name {
			return &p.Secrets[i]
		}
	}
	return nil
}

// Inject is a header that carries a secret.
type Inject struct {
	Header string `yaml:"header"`
	Value  string `yaml:"value"` // "{secret}" stands for the value; default just the value
}

// Resources are the limits; 0 takes the profile's.
type Resources struct {
	MemoryMB     int     `yaml:"memory_mb"`      // per program
	TimeoutSec   float64 `yaml:"timeout_sec"`    // per run
	KillGraceSec float64 `yaml:"kill_grace_sec"` // cancel → grace → kill
	MaxProcesses int     `yaml:"max_processes"`
	MaxFDs       int     `yaml:"max_fds"`
	OutputMB     int     `yaml:"output_mb"` // per stream per run
	FSMB         int     `yaml:"fs_mb"`     // VFS size
}

// Capabilities are what programs may observe of the world. clock: fixed
// with random: seeded is deterministic mode: the same script gives the
// same bytes run after run.
type Capabilities struct {
	Clock  string `yaml:"clock"`  // real (default), or fixed: a logical clock from Epoch
	Epoch  string `yaml:"epoch"`  // RFC 3339; default 2000-01-01T00:00:00Z
	Random string `yaml:"random"` // real (default), or seeded by Seed
	Seed   uint64 `yaml:"seed"`
}

// Audit says where records of what happened go: the sandbox's events
// (runs, processes, network requests) as JSON lines, never holding a
// secret.
type Audit struct {
	File string `yaml:"file"`
}

// Profiles are the named starting points.
var Profiles = map[string]Policy{
	"restrictive": {Profile: "restrictive", Resources: Resources{MemoryMB: 128, TimeoutSec: 60, KillGraceSec: 1,
		MaxProcesses: 16, MaxFDs: 128, OutputMB: 4, FSMB: 64}},
	"standard": {Profile: "standard", Resources: Resources{MemoryMB: 256, TimeoutSec: 300, KillGraceSec: 2,
		MaxProcesses: 64, MaxFDs: 512, OutputMB: 16, FSMB: 256}},
	"permissive": {Profile: "permissive", Resources: Resources{MemoryMB: 1024, TimeoutSec: 600, KillGraceSec: 5,
		MaxProcesses: 256, MaxFDs: 1024, OutputMB: 64, FSMB: 1024}},
}

// Profile returns a named profile.
func Profile(name string) (Policy, error) {
	p, ok := Profiles[name]
	if !ok {
		return Policy{}, fmt.Errorf("no profile %q (restrictive, standard, permissive)", name)
	}
	p.Capabilities = Capabilities{Clock: "real", Random: "real"}
	return p, nil
}

// Error is a bad policy document: the line of the field at fault.
type Error struct {
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Field, e.Msg)
}

// Parse reads a policy document. Unknown fields and bad values are
// errors naming the field and its line; fields left out take the values of
// the profile the document names (standard by default).
func Parse(r io.Reader) (*Policy, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlErr(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var doc Policy
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlErr(err)
	}
	line := func(path ...string) int { return lineOf(&root, path) }
	if doc.Version != 0 && doc.Version != 1 {
		return nil, &Error{line("version"), "version", "only version 1 exists"}
	}
	name := doc.Profile
	if name == "" {
		name = "standard"
	}
	base, err := Profile(name)
	if err != nil {
		return nil, &Error{line("profile"), "profile", err.Error()}
	}
	p := merge(base, doc)
	if err := p.check(line); err != nil {
		return nil, err
	}
	return &p, nil
}

// merge lays the document's fields over the profile's.
func merge(base, doc Policy) Policy {
	p := base
	p.Version = 1
	p.Filesystem = doc.Filesystem
	p.Network = doc.Network
	p.Environment = doc.Environment
	p.Secrets = doc.Secrets
	p.Audit = doc.Audit
	r, d := &p.Resources, doc.Resources
	for _, f := range []struct {
		dst *int
		src int
	}{{&r.MemoryMB, d.MemoryMB}, {&r.MaxProcesses, d.MaxProcesses}, {&r.MaxFDs, d.MaxFDs}, {&r.OutputMB, d.OutputMB}, {&r.FSMB, d.FSMB}} {
		if f.src != 0 {
			*f.dst = f.src
		}
	}
	if d.TimeoutSec != 0 {
		r.TimeoutSec = d.TimeoutSec
	}
	if d.KillGraceSec != 0 {
		r.KillGraceSec = d.KillGraceSec
	}
	if doc.Capabilities.Clock != "" {
		p.Capabilities.Clock = doc.Capabilities.Clock
	}
	if doc.Capabilities.Random != "" {
		p.Capabilities.Random = doc.Capabilities.Random
	}
	p.Capabilities.Epoch, p.Capabilities.Seed = doc.Capabilities.Epoch, doc.Capabilities.Seed
	return p
}

// check validates values; line finds a field's line.
func (p *Policy) check(line func(...string) int) error {
	bad := func(msg string, path ...string) error {
		return &Error{line(path...), strings.Join(path, "."), msg}
	}
	for i, m := range p.Filesystem.Mounts {
		at := []string{"filesystem", "mounts", strconv.Itoa(i)}
		if m.Host == "" {
			return bad("a mount needs host", at...)
		}
		if !strings.HasPrefix(m.Guest, "/") {
			return bad("guest must be an absolute path", append(at, "guest")...)
		}
		if m.Mode != "" && m.Mode != "ro" && m.Mode != "rw" {
			return bad(fmt.Sprintf("mode %q: ro or rw", m.Mode), append(at, "mode")...)
		}
	}
	for _, kind := range []string{"allow", "deny"} {
		rules := p.Network.Allow
		if kind == "deny" {
			rules = p.Network.Deny
		}
		for i, r := range rules {
			n := Network{}
			if kind == "allow" {
				n.Allow = []Rule{r}
			} else {
				n.Deny = []Rule{r}
			}
			if _, err := n.Compile(); err != nil {
				msg := err.Error()
				if _, after, ok := strings.Cut(msg, ": "); ok {
					msg = after
				}
				return bad(msg, "network", kind, strconv.Itoa(i))
			}
		}
	}
	b := p.Network.Budget
	for _, f := range []struct {
		name string
		v    float64
	}{{"max_requests", float64(b.MaxRequests)}, {"max_bytes_mb", float64(b.MaxBytesMB)}, {"max_response_mb", float64(b.MaxResponseMB)},
		{"request_timeout_sec", b.RequestTimeoutSec}, {"max_redirects", float64(b.MaxRedirects)}} {
		if f.v < 0 {
			return bad("must not be negative", "network", "budget", f.name)
		}
	}
	for k := range p.Environment.Set {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return bad(fmt.Sprintf("bad variable name %q", k), "environment", "set")
		}
	}
	seen := map[string]bool{}
	for i, s := range p.Secrets {
		at := []string{"secrets", strconv.Itoa(i)}
		if !secretName().MatchString(s.Name) {
			return bad(fmt.Sprintf("bad secret name %q (letters, digits, _)", s.Name), append(at, "name")...)
		}
		if seen[s.Name] {
			return bad(fmt.Sprintf("secret %s named twice", s.Name), append(at, "name")...)
		}
		seen[s.Name] = true
		if len(s.Hosts) == 0 {
			return bad("a secret needs the hosts it may be sent to", at...)
		}
		for j, h := range s.Hosts {
			if h == "" || strings.ContainsAny(h, "/:@ ") {
				return bad(fmt.Sprintf("bad host %q", h), append(at, "hosts", strconv.Itoa(j))...)
			}
		}
		if s.Inject != nil && (s.Inject.Header == "" || strings.ContainsAny(s.Inject.Header, ": \r\n")) {
			return bad("inject needs a header name", append(at, "inject", "header")...)
		}
		for j, place := range s.In {
			if !slices.Contains(secretPlaces, place) {
				return bad(fmt.Sprintf("bad place %q (header, basic_auth, url or body)", place), append(at, "in", strconv.Itoa(j))...)
			}
		}
	}
	r := p.Resources
	for _, f := range []struct {
		name string
		v    float64
	}{{"memory_mb", float64(r.MemoryMB)}, {"timeout_sec", r.TimeoutSec}, {"kill_grace_sec", r.KillGraceSec},
		{"max_processes", float64(r.MaxProcesses)}, {"max_fds", float64(r.MaxFDs)}, {"output_mb", float64(r.OutputMB)}, {"fs_mb", float64(r.FSMB)}} {
		if f.v <= 0 {
			return bad("must be positive", "resources", f.name)
		}
	}
	if r.MemoryMB > 4096 {
		return bad("at most 4096 (a wasm32 program cannot address more)", "resources", "memory_mb")
	}
	c := p.Capabilities
	if c.Clock != "real" && c.Clock != "fixed" {
		return bad(fmt.Sprintf("%q: real or fixed", c.Clock), "capabilities", "clock")
	}
	if c.Random != "real" && c.Random != "seeded" {
		return bad(fmt.Sprintf("%q: real or seeded", c.Random), "capabilities", "random")
	}
	if (c.Clock == "fixed") != (c.Random == "seeded") {
		return bad("clock: fixed and random: seeded go together (deterministic mode)", "capabilities")
	}
	if c.Epoch != "" {
		if _, err := time.Parse(time.RFC3339, c.Epoch); err != nil {
			return bad("not an RFC 3339 time", "capabilities", "epoch")
		}
	}
	return nil
}

// (compiled on first use: a package-level regexp costs every start of the
// JS core, whose first run is unoptimised code)
var secretName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Rules are the document's network rules, for Compile and bridge.New.
func (n NetworkDoc) Rules() Network { return Network{Allow: n.Allow, Deny: n.Deny} }

// yamlErr keeps a YAML library error readable: "line N: ...".
func yamlErr(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	msg = strings.ReplaceAll(msg, " in type policy.", " in ")
	return errors.New("policy: " + msg)
}

// lineOf finds the line of a field by its path (keys, or list indexes).
func lineOf(n *yaml.Node, path []string) int {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, key := range path {
		switch n.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == key {
					line, n, found = n.Content[i].Line, n.Content[i+1], true
					break
				}
			}
			if !found {
				return line
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(key)
			if err != nil || i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
		default:
			return line
		}
	}
	return line
}
