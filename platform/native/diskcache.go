package native

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"

	"github.com/wasmsand/wasmsand/platform/instrument"
)

// What a new process would otherwise redo for every module it runs, kept
// beside wazero's compiled code in Options.CacheDir (measured on coreutils'
// 1.4 MB and python3's 8.3 MB: instrumenting takes 13 and ~70 ms, making
// python3's pre-initialized image ~200 ms):
//
//	wasmsand/instrumented-v<instrument.Version>/<content key>   the rewritten module
//	wasmsand/images-v1/<sha256(module, preinit key)>            pre-initialized images
//
// Every file ends with the CRC-32C of what precedes it and is written
// aside and renamed into place, so a torn or damaged file is ignored (and
// made again), never used. These files are the guest's own bytes and
// memory: they run inside the sandbox like the module itself, and are no
// more trusted than wazero's compiled code in the same directory.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func (e *Engine) diskPath(parts ...string) string {
	if e.opt.CacheDir == "" {
		return ""
	}
	return filepath.Join(append([]string{e.opt.CacheDir, "wasmsand"}, parts...)...)
}

// readChecked returns a file's content without its checksum, or nil.
func readChecked(path string) []byte {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 4 {
		return nil
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil
	}
	return body
}

// writeChecked writes body and its checksum; failures are ignored (the
// cache is an optimization).
func writeChecked(path string, body []byte) {
	if path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(body, castagnoli))
	_, err1 := tmp.Write(body)
	_, err2 := tmp.Write(sum[:])
	err3 := tmp.Close()
	if err1 != nil || err2 != nil || err3 != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// fileKey turns a content key ("sha256:…") into a file name.
func fileKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// instrumentCached is instrumentWasm with the result kept on disk under
// the module's content key (which names its bytes: core's keys are their
// sha256, or the asset manifest's).
func (e *Engine) instrumentCached(key string, wasm []byte) ([]byte, error) {
	path := ""
	if key != "" {
		path = e.diskPath("instrumented-v"+strconv.Itoa(instrument.Version), fileKey(key))
	}
	if b := readChecked(path); b != nil {
		return b, nil
	}
	inst, err := instrumentWasm(wasm)
	if err == nil {
		writeChecked(path, inst)
	}
	return inst, err
}

// imagePath is where a module's image for a preinit key is kept.
func (m *Module) imagePath(preKey string) string {
	if m.key == "" {
		return ""
	}
	return m.e.diskPath("images-v1", fileKey(m.key+"\x00"+strconv.Itoa(instrument.Version)+"\x00"+
		strconv.Itoa(int(m.e.opt.MemoryPages))+"\x00"+preKey))
}

// encode: "wsimg1", pages, then each chunk (offset, length, bytes), then
// each global (name length, name, value).
func (img *image) encode() []byte {
	var b bytes.Buffer
	b.WriteString("wsimg1")
	u32 := func(v uint32) { _ = binary.Write(&b, binary.LittleEndian, v) }
	u32(img.pages)
	u32(uint32(len(img.chunks)))
	for _, c := range img.chunks {
		u32(c.off)
		u32(uint32(len(c.data)))
		b.Write(c.data)
	}
	u32(uint32(len(img.globals)))
	for _, g := range img.globals {
		u32(uint32(len(g.name)))
		b.WriteString(g.name)
		_ = binary.Write(&b, binary.LittleEndian, g.val)
	}
	return b.Bytes()
}

var errBadImage = errors.New("bad image file")

func decodeImage(b []byte, img *image) (err error) {
	defer func() {
		if recover() != nil {
			err = errBadImage
		}
	}()
	if !bytes.HasPrefix(b, []byte("wsimg1")) {
		return errBadImage
	}
	b = b[6:]
	u32 := func() uint32 { v := binary.LittleEndian.Uint32(b); b = b[4:]; return v }
	img.pages = u32()
	n := u32()
	for i := uint32(0); i < n; i++ {
		off, size := u32(), u32()
		if uint64(off)+uint64(size) > uint64(img.pages)*pageSize {
			return errBadImage
		}
		img.chunks = append(img.chunks, chunk{off, b[:size:size]})
		b = b[size:]
	}
	n = u32()
	for i := uint32(0); i < n; i++ {
		size := u32()
		name := string(b[:size])
		b = b[size:]
		img.globals = append(img.globals, global{name, binary.LittleEndian.Uint64(b)})
		b = b[8:]
	}
	if len(b) != 0 {
		return errBadImage
	}
	return nil
}
