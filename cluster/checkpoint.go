package cluster

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wasmsand/wasmsand/vfs"
)

// A checkpoint object is
//
//	magic "WSCKP1\n", uvarint length of the files part, the files part
//	(vfs: a whole state, FS.Encode, or a delta, FS.EncodeDelta), then the
//	shell's state (core.Sandbox.ShellState, whole each time: it is small)
//
// Each part carries its own checks (vfs's CRC; the shell's parser), so
// this envelope only frames them.
const ckpMagic = "WSCKP1\n"

type bytesBuffer = bytes.Buffer

// objectName names a checkpoint by its session, number and writer (the
// node's incarnation): a node that lost the session while it wrote cannot
// overwrite the new owner's checkpoint of the same number.
func objectName(id string, seq int, inc string) string {
	return id + "/" + strconv.Itoa(seq) + "-" + inc
}

func pack(files, shell []byte) []byte {
	out := make([]byte, 0, len(ckpMagic)+binary.MaxVarintLen64+len(files)+len(shell))
	out = append(out, ckpMagic...)
	out = binary.AppendUvarint(out, uint64(len(files)))
	out = append(out, files...)
	return append(out, shell...)
}

func unpack(b []byte) (files, shell []byte, err error) {
	if !bytes.HasPrefix(b, []byte(ckpMagic)) {
		return nil, nil, errors.New("not a checkpoint")
	}
	b = b[len(ckpMagic):]
	l, k := binary.Uvarint(b)
	if k <= 0 || l > uint64(len(b)-k) {
		return nil, nil, errors.New("a damaged checkpoint")
	}
	b = b[k:]
	return b[:l:l], b[l:], nil
}

// load reads a chain of checkpoints back into files and a shell state.
func (n *Node) load(ctx context.Context, id string, chain []Part) (*State, error) {
	if len(chain) == 0 {
		return nil, errf(CodeUnavailable, "session %s has no checkpoint", id)
	}
	var st State
	for i, p := range chain {
		raw, err := n.obj.GetBytes(ctx, p.Obj)
		if err != nil {
			if errors.Is(err, jetstream.ErrObjectNotFound) {
				return nil, errf(CodeUnavailable, "session %s: checkpoint %d is missing", id, p.Seq)
			}
			return nil, unavailable(err)
		}
		files, shell, err := unpack(raw)
		if err != nil {
			return nil, errf(CodeUnavailable, "session %s: checkpoint %d: %v", id, p.Seq, err)
		}
		if i == 0 {
			st.Files, err = vfs.DecodeBytes(files, vfs.Options{})
		} else {
			err = st.Files.ApplyDelta(files)
		}
		if err != nil {
			return nil, errf(CodeUnavailable, "session %s: checkpoint %d: %v", id, p.Seq, err)
		}
		st.Shell = shell
	}
	if len(st.Shell) == 0 {
		st.Shell = nil
	}
	return &st, nil
}
