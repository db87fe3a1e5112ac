package toolruntime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// NATSStore keeps artifacts in a JetStream object store, so a deployment across
// machines needs nothing but NATS: each version is an object named
// {namespace}/{user}/{session or "user"}/{filename}/{version}, with its metadata; a
// key-value bucket numbers the versions (compare-and-set, so workers saving the same
// artifact at once get distinct versions).
type NATSStore struct {
	obj jetstream.ObjectStore
	kv  jetstream.KeyValue
}

// NewNATSStore opens (creating them if needed) the bucket and its version counters.
func NewNATSStore(ctx context.Context, nc *nats.Conn, bucket string, replicas int) (*NATSStore, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	var obj jetstream.ObjectStore
	if err := retry(ctx, func(ctx context.Context) (err error) {
		obj, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: bucket, Storage: jetstream.FileStorage, Replicas: replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("toolruntime: artifact bucket %s: %w", bucket, err)
	}
	var kv jetstream.KeyValue
	if err := retry(ctx, func(ctx context.Context) (err error) {
		kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket + "_VERSIONS", Storage: jetstream.FileStorage, Replicas: replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("toolruntime: artifact versions %s: %w", bucket, err)
	}
	return &NATSStore{obj: obj, kv: kv}, nil
}

func (st *NATSStore) names(s Scope, name string) (prefix, key string, err error) {
	if err := s.check(); err != nil {
		return "", "", err
	}
	if err := checkName("artifact name", name); err != nil {
		return "", "", err
	}
	session := s.Session
	if session == "" {
		session = userScope
	}
	prefix = path.Join(s.Namespace, s.User, session, name)
	sum := sha256.Sum256([]byte(prefix))
	return prefix, hex.EncodeToString(sum[:]), nil
}

// next takes the next version number of an artifact.
func (st *NATSStore) next(ctx context.Context, key string) (int, error) {
	for i := 0; i < 100; i++ {
		e, err := st.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			if _, err := st.kv.Create(ctx, key, []byte("1")); err == nil {
				return 0, nil
			} else if !errors.Is(err, jetstream.ErrKeyExists) {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(string(e.Value()))
		if err != nil {
			return 0, fmt.Errorf("bad version counter %q", e.Value())
		}
		if _, err := st.kv.Update(ctx, key, []byte(strconv.Itoa(n+1)), e.Revision()); err == nil {
			return n, nil
		}
	}
	return 0, errors.New("too many concurrent saves")
}

// Save implements Store.
func (st *NATSStore) Save(ctx context.Context, s Scope, name string, data []byte, mimeType string) (ArtifactMeta, error) {
	prefix, key, err := st.names(s, name)
	if err != nil {
		return ArtifactMeta{}, err
	}
	v, err := st.next(ctx, key)
	if err != nil {
		return ArtifactMeta{}, err
	}
	m := meta(name, v, data, mimeType)
	_, err = st.obj.Put(ctx, jetstream.ObjectMeta{Name: prefix + "/" + strconv.Itoa(v), Metadata: map[string]string{
		"filename": name, "version": strconv.Itoa(v), "mime_type": mimeType, "sha256": m.SHA256,
		"created": m.Created.Format(time.RFC3339Nano)}}, bytes.NewReader(data))
	if err != nil {
		return ArtifactMeta{}, err
	}
	return m, nil
}

// Load implements Store; the data's sha256 is checked against its metadata.
func (st *NATSStore) Load(ctx context.Context, s Scope, name string, version int) ([]byte, ArtifactMeta, error) {
	prefix, _, err := st.names(s, name)
	if err != nil {
		return nil, ArtifactMeta{}, err
	}
	if version, err = resolveVersion(ctx, st, s, name, version); err != nil {
		return nil, ArtifactMeta{}, err
	}
	obj := prefix + "/" + strconv.Itoa(version)
	info, err := st.obj.GetInfo(ctx, obj)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, ArtifactMeta{}, fmt.Errorf("%w: %s version %d", ErrNoArtifact, name, version)
	}
	if err != nil {
		return nil, ArtifactMeta{}, err
	}
	data, err := st.obj.GetBytes(ctx, obj)
	if err != nil {
		return nil, ArtifactMeta{}, err
	}
	m := meta(name, version, data, info.Metadata["mime_type"])
	if want := info.Metadata["sha256"]; want != "" && want != m.SHA256 {
		return nil, ArtifactMeta{}, fmt.Errorf("%s version %d: content does not match its sha256", name, version)
	}
	if t, err := time.Parse(time.RFC3339Nano, info.Metadata["created"]); err == nil {
		m.Created = t
	}
	return data, m, nil
}

// Versions implements Store: the numbers below the counter whose object exists (a save
// in progress has taken its number before its object is there).
func (st *NATSStore) Versions(ctx context.Context, s Scope, name string) ([]int, error) {
	prefix, key, err := st.names(s, name)
	if err != nil {
		return nil, err
	}
	e, err := st.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(string(e.Value()))
	if err != nil {
		return nil, fmt.Errorf("bad version counter %q", e.Value())
	}
	var vs []int
	for v := 0; v < n; v++ {
		if _, err := st.obj.GetInfo(ctx, prefix+"/"+strconv.Itoa(v)); err == nil {
			vs = append(vs, v)
		}
	}
	return vs, nil
}
