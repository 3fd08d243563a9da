package live

import (
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// benchStore writes a store of n memory files, spread as a curated store
// is (59 % inbox, 17.5 % confirmed/fact, 7.5 % confirmed/concept, 16 %
// trash), one ingested every 36 seconds: 100 an hour.
func benchStore(b *testing.B, n int) (*mdstore.Store, time.Time) {
	b.Helper()
	s, _, err := mdstore.Init(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	errs := make([]error, n)
	parallel.For(n, func(i int) {
		id := fmt.Sprintf("m-%06d", i)
		dir := "memory/inbox"
		typ := []string{"fact", "concept", "lesson"}[i%3]
		switch p := i * 7919 % 1000; {
		case p < 175:
			dir, typ = "memory/confirmed/fact", "fact"
		case p < 250:
			dir, typ = "memory/confirmed/concept", "concept"
		case p < 410:
			dir = "memory/trash"
		}
		text := fmt.Sprintf("---\nid: %s\ntype: %s\nstatus: inbox\nmaturity: case\nbrief: entry %d of the benchmark store, a brief of a usual length\n"+
			"author: agent-%d\ntags: [bench, t%d]\ncontent_confidence: 3\nimportance_factors: {proximity: 0.5, surprisal: 0.4, entity_priority: 0.3, unambiguity: 0.9}\n"+
			"ingestion_time: %s\n---\nThe body of entry %d, which the live listing never holds.\n",
			id, typ, i, i%50, i%20, t0.Add(time.Duration(i)*36*time.Second).Format(time.RFC3339), i)
		errs[i] = os.WriteFile(s.Path(dir+"/"+id+".md"), []byte(text), 0o644)
	})
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return s, t0
}

// BenchmarkLiveList100k lists windows of a 100,000-entry store. Each
// listing sub-benchmark reports its 99th percentile (p99-ns) beside the
// mean.
func BenchmarkLiveList100k(b *testing.B) {
	const n = 100000
	s, t0 := benchStore(b, n)
	hours := n / 100
	hour := func(r *rand.Rand) (time.Time, time.Time) {
		from := t0.Add(time.Duration(r.Intn(hours-1)) * time.Hour)
		return from, from.Add(time.Hour)
	}

	open := func(b *testing.B, index bool) {
		var before, after runtime.MemStats
		for range b.N {
			b.StopTimer()
			if !index {
				if err := os.RemoveAll(s.Path(memoryIndexDir)); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			runtime.GC()
			runtime.ReadMemStats(&before)
			l, err := Open(s)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			if why := l.Fallback(); why != "" {
				b.Skip("not following: " + why)
			}
			l.Close()
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
	}
	// Opening reads every file when the store has no memory index, and
	// only the files the index does not know as they are when it has one
	// (the first opening writes it).
	b.Run("open-reading-the-files", func(b *testing.B) { open(b, false) })
	b.Run("open-from-the-index", func(b *testing.B) { open(b, true) })

	l, err := Open(s)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if why := l.Fallback(); why != "" {
		b.Skip("not following: " + why)
	}
	// A policy the listing has not seen makes it check every file.
	b.Run("list-with-a-new-policy", func(b *testing.B) {
		for range b.N {
			p, err := secrets.New(nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.List(mdstore.MemoryQuery{Limit: 100, Secrets: p}); err != nil {
				b.Fatal(err)
			}
		}
	})
	if _, err := l.List(mdstore.MemoryQuery{Limit: 1, Secrets: s.Secrets()}); err != nil {
		b.Fatal(err)
	}
	timed := func(b *testing.B, before func(r *rand.Rand), query func(r *rand.Rand) mdstore.MemoryQuery) {
		r := rand.New(rand.NewSource(1))
		times := make([]time.Duration, 0, b.N)
		total := 0
		b.ResetTimer()
		for range b.N {
			if before != nil {
				b.StopTimer()
				before(r)
				b.StartTimer()
			}
			q := query(r)
			start := time.Now()
			res, err := l.List(q)
			times = append(times, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			total += len(res.Memories)
		}
		b.StopTimer()
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
		b.ReportMetric(float64(total)/float64(b.N), "entries/op")
	}
	window := func(r *rand.Rand) mdstore.MemoryQuery {
		from, to := hour(r)
		return mdstore.MemoryQuery{From: from, To: to, Limit: 100, Secrets: s.Secrets()}
	}
	b.Run("window", func(b *testing.B) { timed(b, nil, window) })
	b.Run("inbox-window", func(b *testing.B) {
		timed(b, nil, func(r *rand.Rand) mdstore.MemoryQuery {
			from, _ := hour(r)
			return mdstore.MemoryQuery{Status: "inbox", From: from, To: from.Add(3 * time.Hour), Limit: 100}
		})
	})
	b.Run("inbox-page", func(b *testing.B) {
		timed(b, nil, func(r *rand.Rand) mdstore.MemoryQuery {
			return mdstore.MemoryQuery{Status: "inbox", Offset: r.Intn(55000), Limit: 100}
		})
	})
	// Another process edits one file before each listing: List reads it
	// again and moves it in its lists.
	b.Run("window-after-an-edit", func(b *testing.B) {
		timed(b, func(r *rand.Rand) {
			i := r.Intn(n)
			dir := ""
			for _, d := range mdstore.MemoryFolders("", "") {
				if _, err := os.Stat(s.Path(fmt.Sprintf("%s/m-%06d.md", d, i))); err == nil {
					dir = d
				}
			}
			text := fmt.Sprintf("---\nid: m-%06d\ntype: fact\nbrief: edited\ningestion_time: %s\n---\n",
				i, t0.Add(time.Duration(r.Intn(n))*36*time.Second).Format(time.RFC3339))
			if err := os.WriteFile(s.Path(fmt.Sprintf("%s/m-%06d.md", dir, i)), []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}, window)
	})
	// What the same window costs with ListMemories, its index written by
	// a first call.
	if _, err := cache.ListMemories(s, mdstore.MemoryQuery{From: t0, To: t0.Add(time.Hour), Light: true}); err != nil {
		b.Fatal(err)
	}
	b.Run("ListMemories-window", func(b *testing.B) {
		r := rand.New(rand.NewSource(1))
		for range b.N {
			q := window(r)
			q.Light = true
			if _, err := cache.ListMemories(s, q); err != nil {
				b.Fatal(err)
			}
		}
	})
}
