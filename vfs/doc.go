// Package vfs is wasmsand's virtual file system: an in-memory inode tree
// (regular files, directories, symlinks, FIFOs, character devices, hard
// links) with POSIX semantics, O(1) snapshots and clones, quotas, and
// mounts of hackpadfs backends. It is pure Go and builds for GOOS=js.
//
// # Generations and copy-on-write
//
// Inodes live in a persistent radix trie keyed by inode number (32-way,
// path-copied). Every trie node, inode, directory map and file chunk is
// tagged with the generation that created it. An FS has a current
// generation and may modify in place only what carries it. Snapshot, Clone
// and Encode copy the tree header (trie root, usage counters) and move the
// FS to a fresh generation, so everything that existed becomes shared and
// immutable: the next write to an inode copies that inode and the few trie
// nodes above it; the next change to a directory copies its name map; the
// next write to a file copies only the 64 KiB chunks it touches.
// Generations come from one global counter, so two clones never both own a
// node.
//
// Directories map names to inode numbers (never pointers), which is what
// lets a child be copied without touching its parent, and what makes hard
// links free. ".." is resolved physically with the stack of directories
// walked, so directories need no parent pointer.
//
// # Checkpoints
//
// Encode writes a whole tree; EncodeDelta writes only what changed since a
// snapshot (an earlier EncodeDelta's), found by walking the two inode tries
// side by side and skipping everything they share, and returns the snapshot
// for the next one. DecodeBytes then ApplyDelta, in order, rebuild the tree
// elsewhere. Formats: encode.go and delta.go.
//
// # Locking
//
// One sync.RWMutex per FS guards the tree; a second small mutex guards the
// runtime state (open-file counts, FIFO rendezvous). Blocking FIFO and pipe
// I/O never holds either.
//
// # What is not in a snapshot
//
// Mounts, open files, FIFO buffers and inode-number allocation belong to the
// FS, not to the tree: Snapshot, Restore, Clone (which keeps the same
// mounts) and Encode never include mounted content, and Restore leaves
// mounts attached.
//
// # Deliberate simplifications
//
// Permission bits are stored and reported but not enforced (the FS does
// not know the caller's identity). Reads do not update atime (like noatime).
// Every error is an *fs.PathError wrapping a syscall.Errno, except that the
// anonymous Pipe ends return bare syscall.EPIPE / EAGAIN and io.EOF.
package vfs
