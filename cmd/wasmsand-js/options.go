//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"syscall/js"
)

// Sandbox.create's and run's options come as the JS side's JSON, which the
// worker hands over as JSON.parse made it: read here field by field, since
// encoding/json's reflection was the costliest part of a first create and
// run under GOOS=js (V8 optimised it at every start). A string is still
// taken as the JSON itself.

// jsObject reads the fields of a parsed JSON object; the first field of
// the wrong type is the error.
type jsObject struct {
	v   js.Value
	err error
}

// keep records err unless an error is recorded already.
func (o *jsObject) keep(err error) {
	if o.err == nil {
		o.err = err
	}
}

func (o *jsObject) get(k string, t js.Type, what string) (js.Value, bool) {
	x := o.v.Get(k)
	switch x.Type() {
	case js.TypeUndefined, js.TypeNull:
		return x, false
	case t:
		return x, true
	}
	o.keep(fmt.Errorf("%s: %s expected", k, what))
	return x, false
}

// list is the array at k, or its length 0 (after an error, unless absent).
func (o *jsObject) list(k, what string) (js.Value, int) {
	x, ok := o.get(k, js.TypeObject, what)
	if !ok {
		return x, 0
	}
	if !js.Global().Get("Array").Call("isArray", x).Bool() {
		o.keep(fmt.Errorf("%s: %s expected", k, what))
		return x, 0
	}
	return x, x.Length()
}

// objects are the objects of the array at k, each read as o is; an error
// in one is its own (the caller keeps it).
func (o *jsObject) objects(k string) []*jsObject {
	x, n := o.list(k, "a list of objects")
	out := make([]*jsObject, 0, n)
	for i := range n {
		e := x.Index(i)
		if e.Type() != js.TypeObject {
			o.keep(fmt.Errorf("%s: %d: an object expected", k, i))
			return nil
		}
		out = append(out, &jsObject{v: e})
	}
	return out
}

func (o *jsObject) int(k string) int {
	x, ok := o.get(k, js.TypeNumber, "an integer")
	if !ok {
		return 0
	}
	f := x.Float()
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		o.keep(fmt.Errorf("%s: an integer expected, not %v", k, f))
		return 0
	}
	return int(f)
}

func (o *jsObject) str(k string) string {
	if x, ok := o.get(k, js.TypeString, "a string"); ok {
		return x.String()
	}
	return ""
}

func (o *jsObject) bool(k string) bool {
	x, ok := o.get(k, js.TypeBoolean, "true or false")
	return ok && x.Bool()
}

func (o *jsObject) strs(k string) []string {
	x, n := o.list(k, "a list of strings")
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		e := x.Index(i)
		if e.Type() != js.TypeString {
			o.keep(fmt.Errorf("%s: a list of strings expected", k))
			return nil
		}
		out[i] = e.String()
	}
	return out
}

func (o *jsObject) strMap(k string) map[string]string {
	x, ok := o.get(k, js.TypeObject, "an object of strings")
	if !ok {
		return nil
	}
	keys := js.Global().Get("Object").Call("keys", x)
	out := make(map[string]string, keys.Length())
	for i := range keys.Length() {
		name := keys.Index(i).String()
		e := x.Get(name)
		if e.Type() != js.TypeString {
			o.keep(fmt.Errorf("%s: %s: a string expected", k, name))
			return nil
		}
		out[name] = e.String()
	}
	return out
}

// readOptions fills dst from v: from the object with fill, or from a JSON
// string; undefined, null and "" leave it as it is.
func readOptions(v js.Value, dst any, fill func(*jsObject)) error {
	switch v.Type() {
	case js.TypeUndefined, js.TypeNull:
		return nil
	case js.TypeString:
		if s := v.String(); s != "" {
			if err := json.Unmarshal([]byte(s), dst); err != nil {
				return &argError{"options: " + err.Error()}
			}
		}
		return nil
	case js.TypeObject:
		o := &jsObject{v: v}
		fill(o)
		if o.err != nil {
			return &argError{"options: " + o.err.Error()}
		}
		return nil
	}
	return &argError{"options: an object expected"}
}

func createOptionsOf(v js.Value) (createOptions, error) {
	var c createOptions
	err := readOptions(v, &c, func(o *jsObject) {
		c = createOptions{
			MemoryLimitMb: o.int("memoryLimitMb"), TimeoutMs: o.int("timeoutMs"), FsLimitMb: o.int("fsLimitMb"),
			MaxProcesses: o.int("maxProcesses"), OutputLimit: o.int("outputLimit"), PipeBufferMb: o.int("pipeBufferMb"),
			Env: o.strMap("env"), Python: o.str("python"), PythonIndex: o.str("pythonIndex"), Events: o.bool("events"),
			Policy: o.str("policy"), Profile: o.str("profile"), AllowNet: o.strs("allowNet"), Secrets: o.strMap("secrets"),
		}
	})
	return c, err
}

func runOptionsOf(v js.Value) (runOptions, error) {
	var r runOptions
	err := readOptions(v, &r, func(o *jsObject) {
		r = runOptions{
			Env: o.strMap("env"), Cwd: o.str("cwd"), TimeoutMs: o.int("timeoutMs"), Stateless: o.bool("stateless"),
			Script: o.bool("script"), Name: o.str("name"), AbortKey: o.int("abortKey"), Terminal: o.bool("terminal"),
		}
	})
	return r, err
}
