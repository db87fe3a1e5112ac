package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/nettools"
	"github.com/wasmsand/wasmsand/policy"
)

// applyPolicy reads --policy/--profile into the sandbox's options: its
// limits (flags given explicitly win), environment (its variables, and the
// host's it names), host mounts and network (with --allow-net's prefixes
// added). Without either flag only --allow-net applies.
func applyPolicy(o *cliOptions, opt *core.Options) error {
	var p *policy.Policy
	switch {
	case o.policyFile != "":
		f, err := os.Open(o.policyFile)
		if err != nil {
			return fmt.Errorf("wasmsand: --policy: %v", err)
		}
		defer f.Close()
		if p, err = policy.Parse(f); err != nil {
			return fmt.Errorf("wasmsand: --policy %s: %v", o.policyFile, err)
		}
		if o.profile != "" {
			return fmt.Errorf("wasmsand: --profile: the policy file names its profile")
		}
	case o.profile != "":
		pr, err := policy.Profile(o.profile)
		if err != nil {
			return fmt.Errorf("wasmsand: --profile: %v", err)
		}
		p = &pr
	}
	var net policy.Network
	var budget policy.Budget
	var secrets []bridge.Secret
	values := map[string]string{}
	for _, v := range o.secrets {
		name, val, ok := strings.Cut(v, "=")
		if !ok {
			if val, ok = os.LookupEnv(name); !ok {
				return fmt.Errorf("wasmsand: --secret %s: no such variable in this environment (or give NAME=VALUE)", name)
			}
		}
		values[name] = val
	}
	if p == nil && len(values) > 0 {
		return fmt.Errorf("wasmsand: --secret: a policy (--policy) must say where each secret may be sent")
	}
	if p != nil {
		for _, s := range p.Secrets {
			v, ok := values[s.Name]
			if !ok {
				return fmt.Errorf("wasmsand: --policy: secret %s has no value (--secret %s=VALUE, or --secret %s from the environment)", s.Name, s.Name, s.Name)
			}
			secrets = append(secrets, bridge.Secret{Secret: s, Value: v})
			delete(values, s.Name)
		}
		for name := range values {
			return fmt.Errorf("wasmsand: --secret %s: the policy does not declare it", name)
		}
		if p.Audit.File != "" {
			// audit records: the events, where the policy says (with --events' too)
			sink, err := eventSink(o, p.Audit.File)
			if err != nil {
				return fmt.Errorf("wasmsand: --policy: audit: %v", err)
			}
			if prev := opt.OnEvent; prev != nil {
				opt.OnEvent = func(e core.Event) { prev(e); sink(e) }
			} else {
				opt.OnEvent = sink
			}
		}
		r := p.Resources
		if !o.set["memory"] {
			opt.MemoryLimitMB = r.MemoryMB
		}
		if !o.set["timeout"] {
			opt.Timeout = time.Duration(r.TimeoutSec * float64(time.Second))
		}
		opt.KillGrace = time.Duration(r.KillGraceSec * float64(time.Second))
		opt.MaxProcesses, opt.MaxFDs = r.MaxProcesses, r.MaxFDs
		opt.OutputLimit, opt.FSLimitMB = r.OutputMB<<20, r.FSMB
		if c := p.Capabilities; c.Clock == "fixed" {
			d := &core.Deterministic{Seed: c.Seed}
			if c.Epoch != "" {
				d.Epoch, _ = time.Parse(time.RFC3339, c.Epoch) // (checked by Parse)
			}
			opt.Deterministic = d
		}
		env := map[string]string{}
		for _, k := range p.Environment.Inherit {
			if v, ok := os.LookupEnv(k); ok {
				env[k] = v
			}
		}
		for k, v := range p.Environment.Set {
			env[k] = v
		}
		for k, v := range opt.Env { // --env wins
			env[k] = v
		}
		opt.Env = env
		for _, m := range p.Filesystem.Mounts {
			mode := m.Mode
			if mode == "" {
				mode = "ro"
			}
			o.mounts = append(o.mounts, m.Host+":"+m.Guest+":"+mode)
		}
		net = p.Network.Rules()
		budget = p.Network.Budget
	}
	for _, u := range o.allowNet {
		net.Allow = append(net.Allow, policy.Rule{URL: u})
	}
	for _, s := range secrets {
		delete(opt.Env, s.Name) // (secrets reach the bridge only, never the environment)
	}
	if len(net.Allow) == 0 {
		return nil // (the network stays off: curl and wget say so)
	}
	client, err := bridge.New(net, bridge.Budget{
		MaxRequests: budget.MaxRequests, MaxBytes: int64(budget.MaxBytesMB) << 20,
		MaxResponseBytes: int64(budget.MaxResponseMB) << 20, MaxRedirects: budget.MaxRedirects,
		RequestTimeout: time.Duration(budget.RequestTimeoutSec * float64(time.Second)),
	}, secrets...)
	if err != nil {
		what := "--allow-net"
		if p != nil {
			what = "--policy"
		}
		return fmt.Errorf("wasmsand: %s: %v", what, strings.TrimPrefix(err.Error(), "network."))
	}
	if on := opt.OnEvent; on != nil {
		client.Observe(func(i bridge.Info) {
			allowed := i.Allowed
			on(core.Event{Kind: "network", Method: i.Method, URL: i.URL, Allowed: &allowed, Rule: i.Rule,
				Reason: i.Reason, HTTPStatus: i.Status, Bytes: i.Bytes, DurationMs: float64(i.Duration) / float64(time.Millisecond)})
		})
	}
	opt.Commands = append(opt.Commands, nettools.Commands(client)...)
	return nil
}
