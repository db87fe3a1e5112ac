package policy

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	p, err := Parse(strings.NewReader(`
version: 1
profile: restrictive
filesystem:
  mounts:
    - {host: ./data, guest: /data}
    - {host: ./out, guest: /out, mode: rw}
network:
  allow:
    - url: https://api.example.com/v1
      methods: [GET, POST]
    - cidr: 10.1.0.0/16
  deny:
    - url: https://api.example.com/v1/admin
  budget: {max_requests: 5}
environment:
  set: {LANG: C.UTF-8}
  inherit: [TZ]
secrets:
  - name: GITHUB_TOKEN
    hosts: [api.github.com]
    inject: {header: Authorization, value: "Bearer {secret}"}
resources:
  memory_mb: 64
  timeout_sec: 2.5
`))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Resources
	// the document's values over restrictive's
	if r.MemoryMB != 64 || r.TimeoutSec != 2.5 || r.MaxProcesses != 16 || r.FSMB != 64 || p.Profile != "restrictive" {
		t.Errorf("resources %+v profile %q", r, p.Profile)
	}
	if len(p.Filesystem.Mounts) != 2 || p.Filesystem.Mounts[1].Mode != "rw" || p.Network.Budget.MaxRequests != 5 ||
		p.Environment.Set["LANG"] != "C.UTF-8" || p.Secrets[0].Name != "GITHUB_TOKEN" || p.Secrets[0].Inject.Header != "Authorization" || p.Capabilities.Clock != "real" {
		t.Errorf("%+v", p)
	}
	if _, err := p.Network.Rules().Compile(); err != nil {
		t.Error(err)
	}
	// an empty document is the standard profile
	p, err = Parse(strings.NewReader(""))
	if err != nil || p.Resources.MemoryMB != 256 || p.Resources.TimeoutSec != 300 || len(p.Network.Allow) != 0 {
		t.Errorf("empty: %+v %v", p, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"resources:\n  memory: 5\n", "line 2: field memory not found"},
		{"profile: paranoid\n", "line 1: profile: no profile \"paranoid\""},
		{"version: 2\n", "line 1: version: only version 1 exists"},
		{"network:\n  allow:\n    - url: ftp://x/\n", "line 3: network.allow.0: url \"ftp://x/\": scheme must be http or https"},
		{"network:\n  deny:\n    - {}\n", "line 3: network.deny.0: a rule needs url or cidr"},
		{"network:\n  budget:\n    max_requests: -1\n", "line 3: network.budget.max_requests: must not be negative"},
		{"resources:\n  timeout_sec: -3\n", "line 2: resources.timeout_sec: must be positive"},
		{"resources:\n  memory_mb: 9000\n", "line 2: resources.memory_mb: at most 4096"},
		{"filesystem:\n  mounts:\n    - host: x\n      guest: rel\n", "line 4: filesystem.mounts.0.guest: guest must be an absolute path"},
		{"filesystem:\n  mounts:\n    - {host: x, guest: /x, mode: wx}\n", "filesystem.mounts.0.mode: mode \"wx\": ro or rw"},
		{"capabilities:\n  clock: fixed\n", "line 1: capabilities: clock: fixed and random: seeded go together"},
		{"capabilities:\n  clock: frozen\n", "line 2: capabilities.clock: \"frozen\": real or fixed"},
		{"capabilities: {clock: fixed, random: seeded, epoch: yesterday}\n", "capabilities.epoch: not an RFC 3339 time"},
		{"secrets:\n  - name: A B\n    hosts: [x]\n", "line 2: secrets.0.name: bad secret name"},
		{"secrets:\n  - name: T\n", "line 2: secrets.0: a secret needs the hosts"},
		{"secrets:\n  - {name: T, hosts: [x]}\n  - {name: T, hosts: [y]}\n", "line 3: secrets.1.name: secret T named twice"},
		{"secrets: [T]\n", "cannot unmarshal"},
		{"resources: [1]\n", "line 1: cannot unmarshal"},
		{"a: [\n", "policy: line"},
	} {
		_, err := Parse(strings.NewReader(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.doc, err, c.want)
		}
	}
}
