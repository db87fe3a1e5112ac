package toolruntime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The python runner's arguments and results cross in CPython's marshal format, for the
// JSON values they are: marshal is built into the interpreter, where importing json
// (and with it re) costs ~35 ms of every invocation in WASI CPython. A result that is
// not plain JSON data still goes through json (runner.py).

// toMarshal encodes a JSON document as a marshal value.
func toMarshal(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := marshalValue(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func marshalValue(b *bytes.Buffer, v any) error {
	u32 := func(n uint32) { _ = binary.Write(b, binary.LittleEndian, n) }
	switch x := v.(type) {
	case nil:
		b.WriteByte('N')
	case bool:
		if x {
			b.WriteByte('T')
		} else {
			b.WriteByte('F')
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			n, ok := new(big.Int).SetString(s, 10)
			if !ok {
				return fmt.Errorf("bad number %s", s)
			}
			if n.IsInt64() && n.Int64() >= math.MinInt32 && n.Int64() <= math.MaxInt32 {
				b.WriteByte('i')
				u32(uint32(int32(n.Int64())))
				return nil
			}
			// a long: base 2^15 digits, least significant first; the count's sign is the number's
			var digits []uint16
			m := new(big.Int).Abs(n)
			mask := big.NewInt(1<<15 - 1)
			for m.Sign() > 0 {
				digits = append(digits, uint16(new(big.Int).And(m, mask).Uint64()))
				m.Rsh(m, 15)
			}
			count := int32(len(digits))
			if n.Sign() < 0 {
				count = -count
			}
			b.WriteByte('l')
			u32(uint32(count))
			for _, d := range digits {
				_ = binary.Write(b, binary.LittleEndian, d)
			}
			return nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		b.WriteByte('g')
		_ = binary.Write(b, binary.LittleEndian, math.Float64bits(f))
	case string:
		b.WriteByte('u')
		u32(uint32(len(x)))
		b.WriteString(x)
	case []any:
		b.WriteByte('[')
		u32(uint32(len(x)))
		for _, e := range x {
			if err := marshalValue(b, e); err != nil {
				return err
			}
		}
	case map[string]any:
		b.WriteByte('{')
		for k, e := range x {
			if err := marshalValue(b, k); err != nil {
				return err
			}
			if err := marshalValue(b, e); err != nil {
				return err
			}
		}
		b.WriteByte('0')
	default:
		return fmt.Errorf("%T is not JSON", v)
	}
	return nil
}

// fromMarshal decodes the marshal value of plain JSON data (what runner.py writes when
// its result is such data) into JSON.
func fromMarshal(p []byte) (json.RawMessage, error) {
	d := &unmarshaler{b: p}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.pos != len(p) {
		return nil, errors.New("marshal: trailing bytes")
	}
	return json.Marshal(v)
}

type unmarshaler struct {
	b    []byte
	pos  int
	refs []any
}

var errMarshal = errors.New("marshal: truncated or unsupported data")

func (d *unmarshaler) take(n int) ([]byte, error) {
	if n < 0 || d.pos+n > len(d.b) {
		return nil, errMarshal
	}
	s := d.b[d.pos : d.pos+n]
	d.pos += n
	return s, nil
}

func (d *unmarshaler) u32() (int, error) {
	s, err := d.take(4)
	if err != nil {
		return 0, err
	}
	return int(int32(binary.LittleEndian.Uint32(s))), nil
}

func (d *unmarshaler) value(depth int) (any, error) {
	if depth > 200 {
		return nil, errors.New("marshal: too deep")
	}
	t, err := d.take(1)
	if err != nil {
		return nil, err
	}
	code, ref := t[0]&0x7f, t[0]&0x80 != 0
	slot := -1
	if ref { // (kept for later 'r' references; a container's slot is filled once decoded)
		slot = len(d.refs)
		d.refs = append(d.refs, nil)
	}
	v, err := d.of(code, depth)
	if err != nil {
		return nil, err
	}
	if slot >= 0 {
		d.refs[slot] = v
	}
	return v, nil
}

func (d *unmarshaler) of(code byte, depth int) (any, error) {
	str := func(n int, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		s, err := d.take(n)
		if err != nil {
			return nil, err
		}
		if !utf8.Valid(s) {
			return nil, errMarshal
		}
		return string(s), nil
	}
	seq := func(n int, err error) (any, error) {
		if err != nil || n < 0 || n > len(d.b) {
			return nil, errMarshal
		}
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			e, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	switch code {
	case 'N':
		return nil, nil
	case 'T':
		return true, nil
	case 'F':
		return false, nil
	case 'i':
		n, err := d.u32()
		return n, err
	case 'l':
		count, err := d.u32()
		if err != nil {
			return nil, err
		}
		neg := count < 0
		if neg {
			count = -count
		}
		s, err := d.take(2 * count)
		if err != nil {
			return nil, err
		}
		n := new(big.Int)
		for i := count - 1; i >= 0; i-- {
			n.Lsh(n, 15)
			n.Or(n, big.NewInt(int64(binary.LittleEndian.Uint16(s[2*i:]))))
		}
		if neg {
			n.Neg(n)
		}
		return json.Number(n.String()), nil
	case 'g':
		s, err := d.take(8)
		if err != nil {
			return nil, err
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(s))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errMarshal
		}
		return f, nil
	case 'u', 't', 'a', 'A':
		return str(d.u32())
	case 'z', 'Z':
		n, err := d.take(1)
		if err != nil {
			return nil, err
		}
		return str(int(n[0]), nil)
	case '[', '(':
		return seq(d.u32())
	case ')':
		n, err := d.take(1)
		if err != nil {
			return nil, err
		}
		return seq(int(n[0]), nil)
	case '{':
		m := map[string]any{}
		for {
			if d.pos < len(d.b) && d.b[d.pos] == '0' {
				d.pos++
				return m, nil
			}
			k, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				return nil, errMarshal
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m[ks] = v
		}
	case 'r':
		i, err := d.u32()
		if err != nil || i < 0 || i >= len(d.refs) {
			return nil, errMarshal
		}
		return d.refs[i], nil
	}
	return nil, fmt.Errorf("marshal: type %q is not JSON data", code)
}
