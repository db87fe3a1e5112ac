package interp

import (
	"sort"
	"sync/atomic"
)

// indexedArray is a sparse bash array: indices kept sorted. Arrays are
// shared copy-on-write between a shell and its subshells (refs counts the
// variable tables holding it).
type indexedArray struct {
	refs atomic.Int32
	keys []int64
	vals []string
}

func newIndexed() *indexedArray {
	a := &indexedArray{}
	a.refs.Store(1)
	return a
}

func (a *indexedArray) clone() *indexedArray {
	b := newIndexed()
	b.keys = append([]int64(nil), a.keys...)
	b.vals = append([]string(nil), a.vals...)
	return b
}

func (a *indexedArray) find(i int64) (int, bool) {
	n := len(a.keys)
	// dense arrays: the index is the position
	if i >= 0 && i < int64(n) && a.keys[i] == i {
		return int(i), true
	}
	if n > 0 && i > a.keys[n-1] {
		return n, false
	}
	j := sort.Search(n, func(k int) bool { return a.keys[k] >= i })
	return j, j < n && a.keys[j] == i
}

func (a *indexedArray) get(i int64) (string, bool) {
	j, ok := a.find(i)
	if !ok {
		return "", false
	}
	return a.vals[j], true
}

func (a *indexedArray) set(i int64, v string) {
	j, ok := a.find(i)
	if ok {
		a.vals[j] = v
		return
	}
	if j == len(a.keys) {
		a.keys = append(a.keys, i)
		a.vals = append(a.vals, v)
		return
	}
	a.keys = append(a.keys, 0)
	a.vals = append(a.vals, "")
	copy(a.keys[j+1:], a.keys[j:])
	copy(a.vals[j+1:], a.vals[j:])
	a.keys[j], a.vals[j] = i, v
}

func (a *indexedArray) unset(i int64) {
	j, ok := a.find(i)
	if !ok {
		return
	}
	a.keys = append(a.keys[:j], a.keys[j+1:]...)
	a.vals = append(a.vals[:j], a.vals[j+1:]...)
}

func (a *indexedArray) len() int { return len(a.keys) }

// maxIndex is the highest index, -1 when empty.
func (a *indexedArray) maxIndex() int64 {
	if len(a.keys) == 0 {
		return -1
	}
	return a.keys[len(a.keys)-1]
}

func (a *indexedArray) append(v string) { a.set(a.maxIndex()+1, v) }

// assocArray is an associative array that lists its keys in the order
// bash's hash table does (FNV-1 buckets, newest first within a bucket,
// growing 4x at twice as many entries as buckets), so that ${!a[@]} and
// declare -p print what bash prints.
type assocArray struct {
	refs    atomic.Int32
	buckets [][]*assocEntry // each bucket's head is its last element
	index   map[string]*assocEntry
}

type assocEntry struct {
	key, val string
	hash     uint32
}

const assocBuckets = 1024

func newAssoc() *assocArray { return newHashTable(assocBuckets) }

// newHashTable is a table of n buckets (a power of two).
func newHashTable(n int) *assocArray {
	a := &assocArray{buckets: make([][]*assocEntry, n), index: map[string]*assocEntry{}}
	a.refs.Store(1)
	return a
}

func (a *assocArray) clone() *assocArray {
	b := &assocArray{buckets: make([][]*assocEntry, len(a.buckets)), index: make(map[string]*assocEntry, len(a.index))}
	b.refs.Store(1)
	for i, bk := range a.buckets {
		if len(bk) == 0 {
			continue
		}
		nb := make([]*assocEntry, len(bk))
		for j, e := range bk {
			ne := *e
			nb[j] = &ne
			b.index[e.key] = &ne
		}
		b.buckets[i] = nb
	}
	return b
}

// assocFromListed rebuilds an associative array from its entries in the
// order each lists them (declare -p): inserted last to first into a table
// of the size it needed, each bucket gets its entries back in the order it
// had them, so the copy lists them as the original did (unless that one
// grew and then lost entries).
func assocFromListed(keys, vals []string) *assocArray {
	n := assocBuckets
	for len(keys) > 2*n {
		n *= 4
	}
	a := newHashTable(n)
	for i := len(keys) - 1; i >= 0; i-- {
		a.set(keys[i], vals[i])
	}
	return a
}

// bashHash is bash's hash_string: FNV-1 over signed chars.
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(int32(int8(s[i])))
	}
	return h
}

func (a *assocArray) get(k string) (string, bool) {
	e, ok := a.index[k]
	if !ok {
		return "", false
	}
	return e.val, true
}

func (a *assocArray) set(k, v string) {
	if e, ok := a.index[k]; ok {
		e.val = v
		return
	}
	if len(a.index) >= len(a.buckets)*2 {
		a.grow()
	}
	e := &assocEntry{key: k, val: v, hash: bashHash(k)}
	b := e.hash & uint32(len(a.buckets)-1)
	a.buckets[b] = append(a.buckets[b], e)
	a.index[k] = e
}

func (a *assocArray) grow() {
	old := a.buckets
	a.buckets = make([][]*assocEntry, len(old)*4)
	for _, bk := range old {
		for j := len(bk) - 1; j >= 0; j-- { // from the head
			e := bk[j]
			b := e.hash & uint32(len(a.buckets)-1)
			a.buckets[b] = append(a.buckets[b], e)
		}
	}
}

func (a *assocArray) unset(k string) {
	e, ok := a.index[k]
	if !ok {
		return
	}
	delete(a.index, k)
	b := e.hash & uint32(len(a.buckets)-1)
	bk := a.buckets[b]
	for j, x := range bk {
		if x == e {
			a.buckets[b] = append(bk[:j:j], bk[j+1:]...)
			break
		}
	}
}

func (a *assocArray) len() int { return len(a.index) }

// each visits the entries in bash's order.
func (a *assocArray) each(fn func(k, v string)) {
	for _, bk := range a.buckets {
		for j := len(bk) - 1; j >= 0; j-- {
			fn(bk[j].key, bk[j].val)
		}
	}
}

func (a *assocArray) keys() []string {
	out := make([]string, 0, len(a.index))
	a.each(func(k, _ string) { out = append(out, k) })
	return out
}

func (a *assocArray) values() []string {
	out := make([]string, 0, len(a.index))
	a.each(func(_, v string) { out = append(out, v) })
	return out
}
