package wasi

import (
	"context"
	"io"
	"runtime"
)

func argsSizesGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return sizes(m, uint32(a[0]), uint32(a[1]), len(p.Args), p.argsSize)
}

func argsGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return putStrings(m, p.Args, uint32(a[0]), uint32(a[1]), p.argsSize)
}

func environSizesGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return sizes(m, uint32(a[0]), uint32(a[1]), len(p.env), p.envSize)
}

func environGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return putStrings(m, p.env, uint32(a[0]), uint32(a[1]), p.envSize)
}

func sizes(m Memory, countPtr, sizePtr uint32, count int, size uint32) Errno {
	if !m.WriteUint32Le(countPtr, uint32(count)) || !m.WriteUint32Le(sizePtr, size) {
		return EFAULT
	}
	return 0
}

// putStrings writes the pointer array and the NUL-terminated strings (argv/environ layout).
func putStrings(m Memory, vals []string, ptrs, buf, size uint32) Errno {
	ptrSize, ok := mulSize(uint32(len(vals)), 4)
	if !ok {
		return EFAULT
	}
	if !inRange(m, ptrs, ptrSize) {
		return EFAULT
	}
	if !inRange(m, buf, size) {
		return EFAULT
	}
	pb := make([]byte, ptrSize)
	sb := make([]byte, 0, size)
	for i, v := range vals {
		le.PutUint32(pb[i*4:], buf+uint32(len(sb)))
		sb = append(append(sb, v...), 0)
	}
	m.Write(ptrs, pb)
	m.Write(buf, sb)
	return 0
}

func clockResGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	var res uint64
	switch uint32(a[0]) {
	case clockRealtime:
		res = 1000 // µs, like wazero's default walltime
	case clockMonotonic:
		res = 1
	case clockProcess, clockThread:
		res = 1000
	default:
		return EINVAL
	}
	if !m.WriteUint64Le(uint32(a[1]), res) {
		return EFAULT
	}
	return 0
}

func clockTimeGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	var v int64
	switch uint32(a[0]) {
	case clockRealtime:
		v = p.Clock.Now().UnixNano()
	case clockMonotonic:
		v = p.Clock.Nanotime()
	case clockProcess, clockThread:
		// We do not measure CPU time; wall time since start is an upper bound that keeps
		// clock() and time.process_time() working (wazero returns EINVAL).
		v = p.Clock.Nanotime() - p.start
	default:
		return EINVAL
	}
	if !m.WriteUint64Le(uint32(a[2]), uint64(v)) {
		return EFAULT
	}
	return 0
}

func randomGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	off, n := uint32(a[0]), uint32(a[1])
	buf, ok := outBuffer(p, m, off, n)
	if !ok {
		return EFAULT
	}
	if _, err := io.ReadFull(p.Rand, buf); err != nil {
		return EIO
	}
	m.Write(off, buf)
	return 0
}

// procRaise: there are no signal handlers in WASI, so a raised signal takes the default
// action, which for the signals programs raise is to terminate (status 128+sig, as a shell
// reports it). wazero returns ENOSYS instead.
func procRaise(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	sig := uint32(a[0])
	switch {
	case sig == 0:
		return 0
	case sig > 64:
		return EINVAL
	}
	panic(&ExitError{Code: 128 + sig})
}

func schedYield(_ context.Context, _ *Proc, _ Memory, _ []uint64) Errno {
	runtime.Gosched()
	return 0
}

// We have no sockets (the network goes through our own import later): every fd is "not a
// socket". wazero answers EBADF for a non-socket fd too.
func sockAccept(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	if _, e := p.lookup(int32(a[0])); e != 0 {
		return e
	}
	return ENOTSOCK
}

func sockRecv(ctx context.Context, p *Proc, m Memory, a []uint64) Errno {
	return sockAccept(ctx, p, m, a)
}
func sockSend(ctx context.Context, p *Proc, m Memory, a []uint64) Errno {
	return sockAccept(ctx, p, m, a)
}
func sockShutdown(ctx context.Context, p *Proc, m Memory, a []uint64) Errno {
	return sockAccept(ctx, p, m, a)
}
