//go:build !js

package bridge

func defaultTransport(b Budget) Transport { return dialed{b} }
