package conformance

import (
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/platform/hostdir"
)

// mountSource shows a host directory of a tool's sources (its test suite)
// read-only at guest in the sandbox, as the suites' runners all do.
func mountSource(sb *core.Sandbox, host, guest string) error {
	backend, err := hostdir.New(host)
	if err != nil {
		return err
	}
	if err := sb.FS().MkdirAll(guest, 0o755); err != nil {
		return err
	}
	return sb.Mount(guest, backend, true)
}
