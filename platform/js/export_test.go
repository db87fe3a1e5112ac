//go:build js && wasm

package js

// CallCounts: the host calls taken so far through quickcall and through
// the FuncOf callback.
func CallCounts() (quick, slow uint64) { return quickCalls, slowCalls }
