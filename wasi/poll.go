package wasi

import (
	"context"
	"github.com/wasmsand/wasmsand/internal/interrupt"
	"math"
	"time"
)

const (
	eventClock   = 0
	eventFdRead  = 1
	eventFdWrite = 2

	subSize   = 48
	eventSize = 32

	clockRealtime  = 0
	clockMonotonic = 1
	clockProcess   = 2
	clockThread    = 3

	subclockAbstime = 1
)

// ReadPoller is implemented by input streams that can tell whether a Read would return
// without blocking (data buffered, or the writer closed). poll_oneoff uses it, or else a
// non-blocking TryRead([]byte) (int, error) returning syscall.EAGAIN when empty (as vfs
// pipes have), to wait for stdin and pipes; other streams count as always ready (wazero).
type ReadPoller interface{ ReadReady() bool }

type subscription struct {
	userdata []byte
	tag      uint8
	deadline int64  // clocks: Clock.Nanotime() value at which it fires
	poller   *ofile // fd_read on a stream that can tell when it is readable
	errno    Errno
	ready    bool
}

func pollOneoff(ctx context.Context, p *Proc, m Memory, a []uint64) Errno {
	in, out, nsubs, result := uint32(a[0]), uint32(a[1]), uint32(a[2]), uint32(a[3])
	if nsubs == 0 {
		return EINVAL
	}
	inSize, ok1 := mulSize(nsubs, subSize)
	outSize, ok2 := mulSize(nsubs, eventSize)
	if !ok1 || !ok2 {
		return EFAULT
	}
	inBuf, ok := readBytes(m, in, inSize)
	if !ok {
		return EFAULT
	}
	if !inRange(m, out, outSize) {
		return EFAULT
	}
	if !inRange(m, result, 4) {
		return EFAULT
	}
	inBuf = append([]byte(nil), inBuf...) // out may overlap in

	now := p.Clock.Nanotime()
	subs := make([]subscription, nsubs)
	var waitClock, waitPoll bool
	for i := range subs {
		s := inBuf[i*subSize : (i+1)*subSize]
		sub := &subs[i]
		sub.userdata = s[0:8]
		sub.tag = s[8]
		switch sub.tag {
		case eventClock:
			id, timeout, flags := le.Uint32(s[16:]), le.Uint64(s[24:]), le.Uint16(s[40:])
			if flags&^subclockAbstime != 0 {
				return EINVAL
			}
			abs := flags&subclockAbstime != 0
			switch id {
			case clockRealtime:
				if abs {
					sub.deadline = satAdd(now, int64(timeout)-p.Clock.Now().UnixNano())
				} else {
					sub.deadline = satAdd(now, sat(timeout))
				}
			case clockMonotonic:
				if abs {
					sub.deadline = sat(timeout)
				} else {
					sub.deadline = satAdd(now, sat(timeout))
				}
			case clockProcess, clockThread:
				if abs {
					sub.deadline = satAdd(p.start, sat(timeout))
				} else {
					sub.deadline = satAdd(now, sat(timeout))
				}
			default:
				sub.errno, sub.ready = EINVAL, true
			}
			waitClock = waitClock || !sub.ready
		case eventFdRead, eventFdWrite:
			of, e := p.lookup(int32(le.Uint32(s[16:])))
			switch {
			case e != 0:
				sub.errno, sub.ready = e, true
			case sub.tag == eventFdRead && of.pollable():
				sub.poller = of
				waitPoll = true
			default:
				sub.ready = true // files, devices and outputs never make us wait
			}
		default:
			return EINVAL
		}
	}

	backoff := 50 * time.Microsecond
	for {
		n := 0
		for i := range subs {
			sub := &subs[i]
			if !sub.ready {
				switch {
				case sub.tag == eventClock:
					sub.ready = sub.deadline <= now
				case sub.poller != nil:
					sub.ready = sub.poller.readReady()
				}
			}
			if sub.ready {
				n++
			}
		}
		if n > 0 {
			var ev [eventSize]byte
			j := uint32(0)
			for i := range subs {
				sub := &subs[i]
				if !sub.ready {
					continue
				}
				clear(ev[:])
				copy(ev[0:8], sub.userdata)
				le.PutUint16(ev[8:], uint16(sub.errno))
				ev[10] = sub.tag
				m.Write(out+j*eventSize, ev[:])
				j++
			}
			m.WriteUint32Le(result, j)
			return 0
		}
		if interrupt.Ended(ctx) {
			return EINTR // the run is being cancelled; the engine stops the guest
		}
		if len(p.pending) > 0 {
			// nothing is ready: what it waits for may come from a child
			// not run yet (see Starter)
			p.startPending()
			continue
		}
		wait := time.Duration(math.MaxInt64)
		if waitClock {
			for i := range subs {
				if subs[i].tag == eventClock && !subs[i].ready {
					wait = min(wait, time.Duration(subs[i].deadline-now))
				}
			}
		}
		if waitPoll {
			wait = min(wait, backoff)
			backoff = min(backoff*2, 10*time.Millisecond)
		}
		p.Clock.Sleep(ctx, wait)
		now = p.Clock.Nanotime()
	}
}

func sat(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

func satAdd(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	if b < 0 && a < math.MinInt64-b {
		return math.MinInt64
	}
	return a + b
}
