package memlimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

var (
	floor   atomic.Int64
	started sync.Once
)

// Follow sets the soft memory limit to at least min and, after each
// garbage collection, to half again the live heap when that is more. It returns
// at once; the limit is kept by a finalizer that each collection runs. A
// process calls it once, for the workload of its run (a second call
// changes the floor).
func Follow(min int64) {
	floor.Store(min)
	debug.SetMemoryLimit(min)
	started.Do(arm)
}

// arm sets a finalizer on a new object that nothing keeps: the next
// collection runs it, and it sets the limit and arms again.
func arm() {
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		Set(floor.Load(), LiveHeap())
		arm()
	})
}

// Set sets the soft memory limit for a live heap of live bytes (Limit).
func Set(min, live int64) {
	debug.SetMemoryLimit(Limit(min, live))
}

// Limit is the soft memory limit for a live heap: half again the live
// heap (a collection when the heap has grown by half of what it holds),
// at least min.
func Limit(min, live int64) int64 {
	return max(min, live+live/2)
}

// LiveHeap is the live heap after the last collection, in bytes.
func LiveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
