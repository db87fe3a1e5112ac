package core

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/commands/curl"
	"github.com/wasmsand/wasmsand/policy"
)

// UsePolicy applies a policy document to o: its resources (limits), its
// capabilities (a fixed clock makes the sandbox deterministic), its
// environment (the variables it sets, and those of the host it inherits,
// looked up through hostEnv; nil inherits none; variables already in
// o.Env win) and its network (see UseNetwork), with the values of the
// secrets it declares. Host mounts are the embedder's to make (host paths
// mean something else on every platform); audit records are the events
// of o.OnEvent, which the embedder writes where p.Audit says.
func (o *Options) UsePolicy(p *policy.Policy, hostEnv func(string) (string, bool), secrets map[string]string, t bridge.Transport) error {
	o.UseResources(p.Resources)
	if c := p.Capabilities; c.Clock == "fixed" {
		d := &Deterministic{Seed: c.Seed}
		if c.Epoch != "" {
			d.Epoch, _ = time.Parse(time.RFC3339, c.Epoch) // (checked by Parse)
		}
		o.Deterministic = d
	}
	env := map[string]string{}
	if hostEnv != nil {
		for _, k := range p.Environment.Inherit {
			if v, ok := hostEnv(k); ok {
				env[k] = v
			}
		}
	}
	for k, v := range p.Environment.Set {
		env[k] = v
	}
	for k, v := range o.Env {
		env[k] = v
	}
	o.Env = env
	var list []bridge.Secret
	for _, s := range p.Secrets {
		v, ok := secrets[s.Name]
		if !ok {
			return fmt.Errorf("secret %s has no value", s.Name)
		}
		list = append(list, bridge.Secret{Secret: s, Value: v})
		delete(o.Env, s.Name) // (secrets reach the bridge only, never the environment)
	}
	var undeclared []string
	for name := range secrets {
		if p.Secret(name) == nil {
			undeclared = append(undeclared, name)
		}
	}
	if len(undeclared) > 0 {
		sort.Strings(undeclared)
		return fmt.Errorf("secret %s: the policy does not declare it", strings.Join(undeclared, ", "))
	}
	return o.UseNetwork(p.Network.Rules(), p.Network.Budget, list, t)
}

// PolicyRequest is what a front end asks for (the CLI's --policy, --profile,
// --allow-net and --secret; the JS create options): ApplyPolicy is the one
// way it becomes a sandbox's options, with one precedence: limits given
// explicitly, then the policy's, then the defaults.
type PolicyRequest struct {
	// Policy is the document; nil: none, and then only AllowNet opens the
	// network and secrets are refused.
	Policy *policy.Policy
	// AllowNet adds URL prefixes that GET and HEAD may reach.
	AllowNet []string
	// Secrets are the values of the secrets the policy declares.
	Secrets map[string]string
	// HostEnv looks up the host's variables the policy inherits; nil: none.
	HostEnv func(string) (string, bool)
	// Explicit holds the limits the caller gave beside the policy: each
	// one set (non-zero) wins over the policy's.
	Explicit Options
	// Transport replaces net/http for the network (the JS build's); nil keeps it.
	Transport bridge.Transport
}

// ApplyPolicy applies a front end's request to o (see PolicyRequest).
func (o *Options) ApplyPolicy(r PolicyRequest) error {
	var rules []policy.Rule
	for _, u := range r.AllowNet {
		rules = append(rules, policy.Rule{URL: u})
	}
	if r.Policy == nil {
		if len(r.Secrets) > 0 {
			return errors.New("secrets: a policy must say where each secret may be sent")
		}
		return o.UseNetwork(policy.Network{Allow: rules}, policy.Budget{}, nil, r.Transport)
	}
	p := *r.Policy
	p.Network.Allow = append(slices.Clone(p.Network.Allow), rules...)
	if err := o.UsePolicy(&p, r.HostEnv, r.Secrets, r.Transport); err != nil {
		return err
	}
	e := r.Explicit
	for _, l := range []struct {
		to *int
		v  int
	}{{&o.MemoryLimitMB, e.MemoryLimitMB}, {&o.FSLimitMB, e.FSLimitMB},
		{&o.MaxInodes, e.MaxInodes}, {&o.MaxProcesses, e.MaxProcesses}, {&o.OutputLimit, e.OutputLimit}, {&o.MaxFDs, e.MaxFDs}} {
		if l.v != 0 {
			*l.to = l.v
		}
	}
	if e.Timeout != 0 {
		o.Timeout = e.Timeout
	}
	if e.KillGrace != 0 {
		o.KillGrace = e.KillGrace
	}
	return nil
}

// UseResources sets o's limits from a policy's resources (0: the default).
func (o *Options) UseResources(r policy.Resources) {
	o.MemoryLimitMB = r.MemoryMB
	o.Timeout = time.Duration(r.TimeoutSec * float64(time.Second))
	o.KillGrace = time.Duration(r.KillGraceSec * float64(time.Second))
	o.MaxProcesses, o.MaxFDs = r.MaxProcesses, r.MaxFDs
	o.OutputLimit, o.FSLimitMB = r.OutputMB<<20, r.FSMB
}

// Within lowers each of o's limits (defaults included) to ceiling's: what
// a server's client asks for can never exceed what its operator set.
func (o *Options) Within(ceiling Options) {
	ceiling.withDefaults()
	o.withDefaults()
	o.MemoryLimitMB = min(o.MemoryLimitMB, ceiling.MemoryLimitMB)
	o.Timeout = min(o.Timeout, ceiling.Timeout)
	o.FSLimitMB = min(o.FSLimitMB, ceiling.FSLimitMB)
	o.MaxInodes = min(o.MaxInodes, ceiling.MaxInodes)
	o.MaxProcesses = min(o.MaxProcesses, ceiling.MaxProcesses)
	o.OutputLimit = min(o.OutputLimit, ceiling.OutputLimit)
	o.MaxFDs = min(o.MaxFDs, ceiling.MaxFDs)
	o.BatchLimit = min(o.BatchLimit, ceiling.BatchLimit)
	o.KillGrace = min(o.KillGrace, ceiling.KillGrace)
}

// ClientPolicy makes a policy a server's client sent fit under its
// operator's: no host mounts, host variables, secrets or audit file (the
// operator's to set); a network budget no larger than the operator's; and
// no rule that reaches a loopback, private, link-local or other special
// address unless a rule of the operator's reaches it too. Apply it with
// UsePolicy, then Within the operator's limits.
func ClientPolicy(p *policy.Policy, operator *policy.Policy) error {
	for what, set := range map[string]bool{"filesystem.mounts": len(p.Filesystem.Mounts) > 0,
		"environment.inherit": len(p.Environment.Inherit) > 0, "secrets": len(p.Secrets) > 0, "audit": p.Audit.File != ""} {
		if set {
			return &Error{Code: CodePermission, Op: "create", Err: fmt.Errorf("policy: %s is the operator's to set, not a client's", what)}
		}
	}
	var ceiling policy.NetworkDoc
	if operator != nil {
		ceiling = operator.Network
	}
	if err := p.Network.Rules().SpecialWithin(ceiling.Rules()); err != nil {
		return &Error{Code: CodePermission, Op: "create", Err: fmt.Errorf("policy: %v", err)}
	}
	b, c := budgetOf(p.Network.Budget), budgetOf(ceiling.Budget)
	b, c = b.WithDefaults(), c.WithDefaults()
	p.Network.Budget = policy.Budget{MaxRequests: min(b.MaxRequests, c.MaxRequests),
		MaxBytesMB: int(min(b.MaxBytes, c.MaxBytes) >> 20), MaxResponseMB: int(min(b.MaxResponseBytes, c.MaxResponseBytes) >> 20),
		RequestTimeoutSec: min(b.RequestTimeout, c.RequestTimeout).Seconds(), MaxRedirects: min(b.MaxRedirects, c.MaxRedirects)}
	return nil
}

func budgetOf(b policy.Budget) bridge.Budget {
	return bridge.Budget{
		MaxRequests: b.MaxRequests, MaxBytes: int64(b.MaxBytesMB) << 20,
		MaxResponseBytes: int64(b.MaxResponseMB) << 20, MaxRedirects: b.MaxRedirects,
		RequestTimeout: time.Duration(b.RequestTimeoutSec * float64(time.Second)),
	}
}

// UseNetwork gives the sandbox curl, wget and wasmsand-http (python's way
// out) over a bridge with these rules, budget and secrets, reporting each
// request to o.OnEvent; t replaces net/http (the JS build's transport), nil
// keeps it. Rules that allow nothing leave the network off (the shell's
// curl and wget say so).
func (o *Options) UseNetwork(n policy.Network, b policy.Budget, secrets []bridge.Secret, t bridge.Transport) error {
	if len(n.Allow) == 0 {
		return nil
	}
	client, err := bridge.New(n, budgetOf(b), secrets...)
	if err != nil {
		return err
	}
	if t != nil {
		client.SetTransport(t)
	}
	if on := o.OnEvent; on != nil {
		client.Observe(func(i bridge.Info) {
			allowed := i.Allowed
			on(Event{Kind: "network", Method: i.Method, URL: i.URL, Allowed: &allowed, Rule: i.Rule,
				Reason: i.Reason, HTTPStatus: i.Status, Bytes: i.Bytes, DurationMs: float64(i.Duration) / float64(time.Millisecond)})
		})
	}
	o.Commands = append(o.Commands, curl.Commands(client)...)
	return nil
}
