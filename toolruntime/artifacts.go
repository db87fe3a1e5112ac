package toolruntime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Artifacts travel by reference (the design's §8): an invocation names them, the worker loads
// them from the store into the sandbox's input/, and saves what the tool leaves in
// output/ as new versions.

// Scope is where an artifact lives: a namespace, a user, and a session ("" for the
// user-wide scope, shared by the user's sessions).
type Scope struct {
	Namespace, User, Session string
}

// ArtifactMeta is what is kept beside each version.
type ArtifactMeta struct {
	Filename  string    `json:"filename"`
	Version   int       `json:"version"`
	MimeType  string    `json:"mime_type,omitempty"`
	SizeBytes int64     `json:"size_bytes"`
	SHA256    string    `json:"sha256"`
	Created   time.Time `json:"created"`
}

// Store keeps artifacts' versions.
type Store interface {
	// Save stores data as the next version of name (0 for a new one).
	Save(ctx context.Context, s Scope, name string, data []byte, mimeType string) (ArtifactMeta, error)
	// Load returns a version of name; a negative version is the latest.
	Load(ctx context.Context, s Scope, name string, version int) ([]byte, ArtifactMeta, error)
	// Versions lists name's versions, oldest first.
	Versions(ctx context.Context, s Scope, name string) ([]int, error)
}

// ErrNoArtifact: no such artifact (or version).
var ErrNoArtifact = errors.New("no such artifact")

// resolveVersion is version, or for a negative one the latest the store has.
func resolveVersion(ctx context.Context, st Store, s Scope, name string, version int) (int, error) {
	if version >= 0 {
		return version, nil
	}
	vs, err := st.Versions(ctx, s, name)
	if err != nil {
		return 0, err
	}
	if len(vs) == 0 {
		return 0, fmt.Errorf("%w: %s", ErrNoArtifact, name)
	}
	return vs[len(vs)-1], nil
}

// checkName refuses names that would leave their directory: an artifact name is one
// path element.
func checkName(kind, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || len(name) > 255 {
		return fmt.Errorf("bad %s %q: one path element, no '/', '\\' or NUL", kind, name)
	}
	return nil
}

func (s Scope) check() error {
	for _, p := range []struct{ kind, v string }{{"namespace", s.Namespace}, {"user id", s.User}} {
		if err := checkName(p.kind, p.v); err != nil {
			return err
		}
	}
	if s.Session != "" {
		if err := checkName("session id", s.Session); err != nil {
			return err
		}
		if s.Session == userScope {
			return fmt.Errorf("bad session id %q: reserved for the user-wide scope", s.Session)
		}
	}
	return nil
}

// userScope is the session directory of user-wide artifacts (the design's §8 layout).
const userScope = "user"

func meta(name string, version int, data []byte, mimeType string) ArtifactMeta {
	sum := sha256.Sum256(data)
	return ArtifactMeta{Filename: name, Version: version, MimeType: mimeType, SizeBytes: int64(len(data)),
		SHA256: hex.EncodeToString(sum[:]), Created: time.Now().UTC()}
}

// MemoryStore keeps artifacts in memory (tests, a single process).
type MemoryStore struct {
	mu sync.Mutex
	m  map[string][]memVersion
}

type memVersion struct {
	data []byte
	meta ArtifactMeta
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{m: map[string][]memVersion{}} }

func memKey(s Scope, name string) string {
	return s.Namespace + "\x00" + s.User + "\x00" + s.Session + "\x00" + name
}

// Save implements Store.
func (st *MemoryStore) Save(_ context.Context, s Scope, name string, data []byte, mimeType string) (ArtifactMeta, error) {
	if err := s.check(); err != nil {
		return ArtifactMeta{}, err
	}
	if err := checkName("artifact name", name); err != nil {
		return ArtifactMeta{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	k := memKey(s, name)
	m := meta(name, len(st.m[k]), data, mimeType)
	st.m[k] = append(st.m[k], memVersion{append([]byte(nil), data...), m})
	return m, nil
}

// Load implements Store.
func (st *MemoryStore) Load(_ context.Context, s Scope, name string, version int) ([]byte, ArtifactMeta, error) {
	if err := s.check(); err != nil {
		return nil, ArtifactMeta{}, err
	}
	if err := checkName("artifact name", name); err != nil {
		return nil, ArtifactMeta{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	vs := st.m[memKey(s, name)]
	if version < 0 {
		version = len(vs) - 1
	}
	if version < 0 || version >= len(vs) {
		return nil, ArtifactMeta{}, fmt.Errorf("%w: %s version %d", ErrNoArtifact, name, version)
	}
	return append([]byte(nil), vs[version].data...), vs[version].meta, nil
}

// Versions implements Store.
func (st *MemoryStore) Versions(_ context.Context, s Scope, name string) ([]int, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []int
	for i := range st.m[memKey(s, name)] {
		out = append(out, i)
	}
	return out, nil
}

// DirStore keeps artifacts in a directory, laid out as the design's filesystem
// backend: {base}/{namespace}/{user}/{session or "user"}/{filename}/{N} and N.meta.
type DirStore struct {
	Base string
	mu   sync.Mutex // (versions are numbered under it)
}

func (st *DirStore) dir(s Scope, name string) (string, error) {
	if err := s.check(); err != nil {
		return "", err
	}
	if err := checkName("artifact name", name); err != nil {
		return "", err
	}
	session := s.Session
	if session == "" {
		session = userScope
	}
	return filepath.Join(st.Base, s.Namespace, s.User, session, name), nil
}

// Save implements Store: the data, then its metadata, each written to a temporary
// file and renamed into place.
func (st *DirStore) Save(ctx context.Context, s Scope, name string, data []byte, mimeType string) (ArtifactMeta, error) {
	dir, err := st.dir(s, name)
	if err != nil {
		return ArtifactMeta{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ArtifactMeta{}, err
	}
	vs, err := st.Versions(ctx, s, name)
	if err != nil {
		return ArtifactMeta{}, err
	}
	v := 0
	if len(vs) > 0 {
		v = vs[len(vs)-1] + 1
	}
	m := meta(name, v, data, mimeType)
	mb, _ := json.Marshal(m)
	if err := writeAtomic(filepath.Join(dir, strconv.Itoa(v)), data); err != nil {
		return ArtifactMeta{}, err
	}
	if err := writeAtomic(filepath.Join(dir, strconv.Itoa(v)+".meta"), mb); err != nil {
		return ArtifactMeta{}, err
	}
	return m, nil
}

func writeAtomic(p string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// Load implements Store; the data's sha256 is checked against its metadata.
func (st *DirStore) Load(ctx context.Context, s Scope, name string, version int) ([]byte, ArtifactMeta, error) {
	dir, err := st.dir(s, name)
	if err != nil {
		return nil, ArtifactMeta{}, err
	}
	if version, err = resolveVersion(ctx, st, s, name, version); err != nil {
		return nil, ArtifactMeta{}, err
	}
	data, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(version)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ArtifactMeta{}, fmt.Errorf("%w: %s version %d", ErrNoArtifact, name, version)
	}
	if err != nil {
		return nil, ArtifactMeta{}, err
	}
	var m ArtifactMeta
	if mb, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(version)+".meta")); err == nil {
		if err := json.Unmarshal(mb, &m); err != nil {
			return nil, ArtifactMeta{}, fmt.Errorf("%s version %d: bad metadata: %v", name, version, err)
		}
		if sum := sha256.Sum256(data); m.SHA256 != "" && m.SHA256 != hex.EncodeToString(sum[:]) {
			return nil, ArtifactMeta{}, fmt.Errorf("%s version %d: content does not match its sha256", name, version)
		}
	} else {
		m = meta(name, version, data, "")
	}
	return data, m, nil
}

// Versions implements Store.
func (st *DirStore) Versions(_ context.Context, s Scope, name string) ([]int, error) {
	dir, err := st.dir(s, name)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var vs []int
	for _, e := range ents {
		if v, err := strconv.Atoi(e.Name()); err == nil && v >= 0 && strconv.Itoa(v) == e.Name() {
			vs = append(vs, v)
		}
	}
	sort.Ints(vs)
	return vs, nil
}
