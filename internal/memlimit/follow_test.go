package memlimit

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The limit is the floor while the live heap is small, half again the
// live heap when that is more; after a collection that holds a large heap the limit
// has followed it, and a raised floor is kept.
func TestLimitFollowsLiveHeap(t *testing.T) {
	if got := Limit(100, 20); got != 100 {
		t.Errorf("small heap: limit %d, want the floor 100", got)
	}
	if got := Limit(100, 80); got != 120 {
		t.Errorf("large heap: limit %d, want 120", got)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	Follow(8 << 20)
	hold := make([][]byte, 0, 64)
	for range 64 {
		hold = append(hold, make([]byte, 1<<20)) // 64 MiB live
	}
	for i := 0; i < 3; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) >= 3*32<<20 })
	runtime.KeepAlive(hold)
	Follow(1 << 40)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("after a larger floor: limit %d", got)
	}
	// Collections after it (their finalizers set the limit again from the
	// small live heap) keep the raised floor.
	hold = nil
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("after collections: limit %d, want the raised floor", got)
	}
}

// waitFor gives the finalizer goroutine a bounded time to run.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if ok() {
			return
		}
		runtime.GC()
		runtime.Gosched()
	}
	t.Fatalf("limit %d", debug.SetMemoryLimit(-1))
}
