package core

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"sync"
	"time"
)

// Deterministic makes a sandbox's runs repeatable: the same script gives
// the same bytes run after run (for reproducible agent evaluations).
// Programs see a logical clock that starts at Epoch and moves only as they
// read it (a microsecond a reading) or sleep (at once, by the time asked),
// randomness drawn from Seed (each process its own stream, so the order in
// which pipeline stages run does not matter), and files stamped with Epoch.
type Deterministic struct {
	Epoch time.Time // zero: 2000-01-01T00:00:00Z
	Seed  uint64
}

func (d *Deterministic) epoch() time.Time {
	if d.Epoch.IsZero() {
		return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return d.Epoch
}

// logicalClock is a process's clock in deterministic mode (wasi.Clock).
type logicalClock struct {
	mu    sync.Mutex
	epoch time.Time
	t     time.Duration // since epoch
}

func (c *logicalClock) tick() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t += time.Microsecond
	return c.t
}

func (c *logicalClock) Now() time.Time  { return c.epoch.Add(c.tick()) }
func (c *logicalClock) Nanotime() int64 { return int64(c.tick()) }
func (c *logicalClock) Sleep(ctx context.Context, d time.Duration) {
	if d > 0 {
		c.mu.Lock()
		c.t += d
		c.mu.Unlock()
	}
}

// stream is the random stream of one process (or the shell): the seed and
// a name for it.
func (d *Deterministic) stream(id uint64) *rand.ChaCha8 {
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[0:], d.Seed)
	binary.LittleEndian.PutUint64(seed[8:], id)
	copy(seed[16:], "wasmsand-determ!")
	return rand.NewChaCha8(seed)
}
