package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

// applyPolicy reads --policy/--profile into the sandbox's options: its
// limits (flags given explicitly win), environment (its variables, and the
// host's it names), host mounts and network (with --allow-net's prefixes
// added). Without either flag only --allow-net applies.
func applyPolicy(o *cliOptions, opt *core.Options) error {
	var p *policy.Policy
	switch {
	case o.policyText != "":
		// a service client's (serve --client-policy): what reaches the
		// host or the operator's secrets is not the client's to set
		var err error
		if p, err = policy.Parse(strings.NewReader(o.policyText)); err != nil {
			return &core.Error{Code: core.CodeInvalidArgument, Op: "create", Err: fmt.Errorf("policy: %v", err)}
		}
		for what, set := range map[string]bool{"filesystem.mounts": len(p.Filesystem.Mounts) > 0,
			"environment.inherit": len(p.Environment.Inherit) > 0, "secrets": len(p.Secrets) > 0, "audit": p.Audit.File != ""} {
			if set {
				return &core.Error{Code: core.CodePermission, Op: "create", Err: fmt.Errorf("policy: %s is the operator's to set, not a client's", what)}
			}
		}
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
	if p == nil {
		var net policy.Network
		for _, u := range o.allowNet {
			net.Allow = append(net.Allow, policy.Rule{URL: u})
		}
		if err := opt.UseNetwork(net, policy.Budget{}, nil, nil); err != nil {
			return fmt.Errorf("wasmsand: --allow-net: %v", strings.TrimPrefix(err.Error(), "network."))
		}
		return nil
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
	for _, m := range p.Filesystem.Mounts {
		mode := m.Mode
		if mode == "" {
			mode = "ro"
		}
		o.mounts = append(o.mounts, m.Host+":"+m.Guest+":"+mode)
	}
	for _, u := range o.allowNet {
		p.Network.Allow = append(p.Network.Allow, policy.Rule{URL: u})
	}
	for name := range values {
		if p.Secret(name) == nil {
			return fmt.Errorf("wasmsand: --secret %s: the policy does not declare it", name)
		}
	}
	memory, timeout := opt.MemoryLimitMB, opt.Timeout
	if err := opt.UsePolicy(p, os.LookupEnv, values, nil); err != nil {
		msg := strings.TrimPrefix(err.Error(), "network.")
		if strings.HasPrefix(msg, "secret ") && strings.HasSuffix(msg, " has no value") {
			name := strings.Fields(msg)[1]
			msg += fmt.Sprintf(" (--secret %s=VALUE, or --secret %s from the environment)", name, name)
		}
		return fmt.Errorf("wasmsand: --policy: %s", msg)
	}
	// limits given as flags win over the policy's
	if o.set["memory"] {
		opt.MemoryLimitMB = memory
	}
	if o.set["timeout"] {
		opt.Timeout = timeout
	}
	return nil
}
