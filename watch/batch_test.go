package watch

import (
	"slices"
	"testing"
	"time"
)

func TestSettles(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, c := range []struct {
		name        string
		first, last time.Duration // after t0
		now         bool
		want        time.Duration
	}{
		{"quiet after the last change", 0, 50 * ms, false, 150 * ms},
		{"a batch that keeps growing", 0, 950 * ms, false, time.Second},
		{"at once", 30 * ms, 40 * ms, true, 30 * ms},
	} {
		var p pending
		p.add("/a", t0.Add(c.first))
		p.add("/b", t0.Add(c.last))
		p.now = c.now
		if got := p.settles(100*ms, time.Second); !got.Equal(t0.Add(c.want)) {
			t.Errorf("%s: settles at %s, want %s", c.name, got.Sub(t0), c.want)
		}
	}
}

func TestTakeAndMerge(t *testing.T) {
	now := time.Now()
	var p pending
	if !p.empty() {
		t.Fatal("zero pending is not empty")
	}
	p.add("/b", now)
	p.add("/a", now)
	p.add("/b", now)
	b := p.take(now)
	if !slices.Equal(b.Paths, []string{"/a", "/b"}) || b.Rescan || !b.At.Equal(now) {
		t.Errorf("take = %+v", b)
	}
	if !p.empty() {
		t.Error("pending not empty after take")
	}
	p.touch(now)
	p.rescan = true
	p.add("/c", now)
	later := now.Add(time.Second)
	got := merge(merge(nil, b), p.take(later))
	if !slices.Equal(got.Paths, []string{"/a", "/b", "/c"}) || !got.Rescan || !got.At.Equal(later) {
		t.Errorf("merge = %+v", got)
	}
}
