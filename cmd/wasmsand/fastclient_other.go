//go:build !linux || !cgo

package main

// fastClient: this build has no C client (fastclient_linux.go); runs
// through the daemon start Go first.
const fastClient = false
