package main

import (
	"bytes"
	"errors"
	"fmt"
)

type wasmImport struct{ module, name string }

// wasmImports reads the import section of a WebAssembly binary.
func wasmImports(b []byte) ([]wasmImport, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly binary")
	}
	r := &reader{b: b, i: 8}
	for r.i < len(r.b) {
		id := r.byte()
		size := r.uleb()
		if r.err != nil || r.i+int(size) > len(r.b) {
			return nil, errors.New("truncated section")
		}
		end := r.i + int(size)
		if id != 2 {
			r.i = end
			continue
		}
		n := r.uleb()
		var out []wasmImport
		for k := uint64(0); k < n && r.err == nil; k++ {
			im := wasmImport{module: r.name(), name: r.name()}
			switch kind := r.byte(); kind {
			case 0: // func: type index
				r.uleb()
			case 1: // table: reftype + limits
				r.byte()
				r.limits()
			case 2: // memory: limits
				r.limits()
			case 3: // global: valtype + mut
				r.byte()
				r.byte()
			default:
				return nil, fmt.Errorf("import kind %d", kind)
			}
			out = append(out, im)
		}
		if r.err != nil {
			return nil, r.err
		}
		return out, nil
	}
	return nil, nil
}

type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = errors.New("unexpected end")
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.err = errors.New("bad LEB128")
	return 0
}

func (r *reader) name() string {
	n := int(r.uleb())
	if r.err != nil || r.i+n > len(r.b) {
		r.err = errors.New("bad name")
		return ""
	}
	s := string(r.b[r.i : r.i+n])
	r.i += n
	return s
}

func (r *reader) limits() {
	flags := r.byte()
	r.uleb()
	if flags&1 != 0 {
		r.uleb()
	}
}
