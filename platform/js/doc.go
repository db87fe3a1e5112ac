// Package js runs guests on the JS engine's own WebAssembly (GOOS=js: Node
// and the browser), the counterpart of platform/native. What shapes it,
// measured when the design was made: a js.FuncOf callback costs ~22 µs, a
// //go:wasmexport call ~30 ns, and an export must never block.
//
// The binding has two halves. host.js (the JS half, loaded beside Go's
// wasm_exec.js) compiles and instantiates guests; every guest import is a
// small JS function that writes its arguments into a Go buffer and calls
// Go's hostcall, which runs the function of package wasi: through the
// //go:wasmexport quickcall when that call can neither wait nor run
// another guest and the stack it would run on has room (host.go), else
// through a js.FuncOf callback, which may do both.
// The guest's memory is reached from Go through //go:wasmimport copies
// (wasi.Memory allows Read to return a copy). Nothing on that path blocks:
// guests run one at a time (the core's batched scheduler), sleeps wait
// with Atomics.wait, and timeouts are checked against the clock at every
// tick, since no JS timer can fire while a guest runs.
package js
