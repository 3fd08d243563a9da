package live

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// BenchmarkLiveBarrier is one barrier of a listing that follows an empty
// store: the Watcher's Sync, a rename and its event.
func BenchmarkLiveBarrier(b *testing.B) {
	f, err := startFollower(b.TempDir())
	if err != nil {
		b.Skip("not following: " + err.Error())
	}
	defer f.close()
	for b.Loop() {
		f.barrier()
	}
}

// BenchmarkLiveBarrierAfterMoves moves 20,000 files between inbox and
// trash while the listing follows, then passes the barrier; barrier-ms is
// how long the barrier waits for the events still to be taken.
func BenchmarkLiveBarrierAfterMoves(b *testing.B) {
	s, _, err := mdstore.Init(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	const n = 20000
	for i := range n {
		if err := os.WriteFile(s.Path(fmt.Sprintf("memory/inbox/m%05d.md", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	l, err := Open(s)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if why := l.Fallback(); why != "" {
		b.Skip("not following: " + why)
	}
	from, to := "inbox", "trash"
	var waited time.Duration
	for b.Loop() {
		for i := range n {
			name := fmt.Sprintf("m%05d.md", i)
			if err := os.Rename(s.Path("memory/"+from+"/"+name), s.Path("memory/"+to+"/"+name)); err != nil {
				b.Fatal(err)
			}
		}
		t := time.Now()
		l.run.Lock()
		l.f.barrier()
		l.run.Unlock()
		waited += time.Since(t)
		from, to = to, from
	}
	b.ReportMetric(float64(waited.Microseconds())/1000/float64(b.N), "barrier-ms/op")
}
