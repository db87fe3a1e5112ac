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
	if o.policyText != "" {
		return applyClientPolicy(o, opt)
	}
	p, err := operatorPolicy(o)
	if err != nil {
		return err
	}
	values := map[string]string{}
	for _, v := range o.secrets {
		name, val, ok := strings.Cut(v, "=")
		if !ok {
			if val, ok = os.LookupEnv(name); !ok {
				return fmt.Errorf("wasmsand: --secret %s: no such variable in this environment (or --secret-file %s=PATH)", name, name)
			}
		}
		values[name] = val
	}
	for _, v := range o.secretFiles {
		name, file, ok := strings.Cut(v, "=")
		if !ok || name == "" || file == "" {
			return fmt.Errorf("wasmsand: --secret-file %s: give NAME=PATH", v)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("wasmsand: --secret-file %s: %v", name, err)
		}
		values[name] = strings.TrimRight(string(b), "\r\n")
	}
	if p == nil && len(values) > 0 {
		return fmt.Errorf("wasmsand: --secret: a policy (--policy) must say where each secret may be sent")
	}
	if p != nil {
		if err := useAudit(o, opt, p); err != nil {
			return err
		}
		for _, m := range p.Filesystem.Mounts {
			mode := m.Mode
			if mode == "" {
				mode = "ro"
			}
			o.mounts = append(o.mounts, m.Host+":"+m.Guest+":"+mode)
		}
		for name := range values {
			if p.Secret(name) == nil {
				return fmt.Errorf("wasmsand: --secret %s: the policy does not declare it", name)
			}
		}
	}
	// (limits given as flags win over the policy's)
	var explicit core.Options
	if o.set["memory"] {
		explicit.MemoryLimitMB = opt.MemoryLimitMB
	}
	if o.set["timeout"] {
		explicit.Timeout = opt.Timeout
	}
	err = opt.ApplyPolicy(core.PolicyRequest{Policy: p, AllowNet: o.allowNet, Secrets: values, HostEnv: os.LookupEnv, Explicit: explicit})
	if err == nil {
		return nil
	}
	msg := strings.TrimPrefix(err.Error(), "network.")
	if p == nil {
		return fmt.Errorf("wasmsand: --allow-net: %v", msg)
	}
	if strings.HasPrefix(msg, "secret ") && strings.HasSuffix(msg, " has no value") {
		name := strings.Fields(msg)[1]
		msg += fmt.Sprintf(" (--secret %s from the environment, or --secret-file %s=PATH)", name, name)
	}
	return fmt.Errorf("wasmsand: --policy: %s", msg)
}

// operatorPolicy is the policy of --policy or --profile, nil without.
func operatorPolicy(o *cliOptions) (*policy.Policy, error) {
	switch {
	case o.policyFile != "":
		f, err := os.Open(o.policyFile)
		if err != nil {
			return nil, fmt.Errorf("wasmsand: --policy: %v", err)
		}
		defer f.Close()
		p, err := policy.Parse(f)
		if err != nil {
			return nil, fmt.Errorf("wasmsand: --policy %s: %v", o.policyFile, err)
		}
		if o.profile != "" {
			return nil, fmt.Errorf("wasmsand: --profile: the policy file names its profile")
		}
		return p, nil
	case o.profile != "":
		pr, err := policy.Profile(o.profile)
		if err != nil {
			return nil, fmt.Errorf("wasmsand: --profile: %v", err)
		}
		return &pr, nil
	}
	return nil, nil
}

// applyClientPolicy applies a service client's policy (serve
// --client-policy) under the operator's: what reaches the host or the
// operator's secrets is not the client's to set, every limit and the
// network budget are at most the operator's, and special addresses
// (loopback, private, link-local) only where the operator's rules go.
func applyClientPolicy(o *cliOptions, opt *core.Options) error {
	p, err := policy.Parse(strings.NewReader(o.policyText))
	if err != nil {
		return &core.Error{Code: core.CodeInvalidArgument, Op: "create", Err: fmt.Errorf("policy: %v", err)}
	}
	op, err := operatorPolicy(o)
	if err != nil {
		return err
	}
	ceiling := core.Options{MemoryLimitMB: o.memory, Timeout: o.timeout}
	if op != nil {
		ceiling.UseResources(op.Resources)
		if o.set["memory"] || ceiling.MemoryLimitMB <= 0 {
			ceiling.MemoryLimitMB = o.memory
		}
		if o.set["timeout"] || ceiling.Timeout <= 0 {
			ceiling.Timeout = o.timeout
		}
	}
	if err := core.ClientPolicy(p, op); err != nil {
		return err
	}
	if op != nil { // (the operator's audit file records client sessions too)
		if err := useAudit(o, opt, op); err != nil {
			return err
		}
	}
	if err := opt.ApplyPolicy(core.PolicyRequest{Policy: p}); err != nil {
		return &core.Error{Code: core.CodeInvalidArgument, Op: "create", Err: fmt.Errorf("policy: %s", strings.TrimPrefix(err.Error(), "network."))}
	}
	if opt.MemoryLimitMB <= 0 || opt.MemoryLimitMB > o.memory { // (a create request's memory_mb, else the operator's)
		opt.MemoryLimitMB = o.memory
	}
	if opt.Timeout <= 0 || opt.Timeout > o.timeout {
		opt.Timeout = o.timeout
	}
	opt.Within(ceiling)
	return nil
}

// useAudit sends the sandbox's events to the policy's audit file too
// (appended to, as JSON lines), beside --events.
func useAudit(o *cliOptions, opt *core.Options, p *policy.Policy) error {
	if p.Audit.File == "" {
		return nil
	}
	sink, err := eventSink(o, p.Audit.File, true)
	if err != nil {
		return fmt.Errorf("wasmsand: --policy: audit: %v", err)
	}
	if prev := opt.OnEvent; prev != nil {
		opt.OnEvent = func(e core.Event) { prev(e); sink(e) }
	} else {
		opt.OnEvent = sink
	}
	return nil
}
