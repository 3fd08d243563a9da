package memory

import (
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/store"
)

// BenchmarkSearchWarm100k is a search of 100,000 confirmed memories with
// the index warm and the listing unchanged (the MCP server's case): go
// test ./curate/memory -run XXX -bench SearchWarm -benchtime 200x.
func BenchmarkSearchWarm100k(b *testing.B) {
	words := []string{"postgres", "pool", "cache", "redis", "deploy", "build", "runner", "queue", "timeout", "retry", "index", "schema", "backup", "token", "latency", "replica"}
	var ms []*mdstore.Memory
	for i := range 100000 {
		brief := fmt.Sprintf("The %s %s uses %s after %d %s", words[i%16], words[(i/16)%16], words[(i/256)%16], i%97, words[(i/7)%16])
		ms = append(ms, &mdstore.Memory{ID: fmt.Sprintf("m-%06d", i), Type: "fact", Status: "confirmed", Brief: brief,
			Path: fmt.Sprintf("memory/confirmed/fact/m-%06d.md", i), IngestionTime: time.Unix(int64(i), 0)})
	}
	list := func(mdstore.MemoryQuery, uint64) (*mdstore.MemoryList, uint64, error) {
		return &mdstore.MemoryList{Memories: ms}, 1, nil
	}
	s := &mdstore.Store{Store: &store.Store{Dir: b.TempDir()}}
	x := NewSearchIndex(similar.NewLexical(), list)
	warm := func(q mdstore.MemoryQuery, since uint64) (*mdstore.MemoryList, uint64, error) {
		if since == 1 {
			return nil, 1, nil
		}
		return list(q, since)
	}
	x.list = warm
	start := time.Now()
	if _, err := Search(b.Context(), s, x, SearchRequest{Query: "postgres pool timeout"}); err != nil {
		b.Fatal(err)
	}
	b.Logf("index built in %v", time.Since(start))
	// The CPU time of the search's thread is measured too: on a shared
	// machine the wall time also holds the waits for a core.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var took, cpu []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t0, c0 := time.Now(), threadCPU()
		if _, err := Search(b.Context(), s, x, SearchRequest{Query: words[i%16] + " " + words[(i+5)%16] + " retry"}); err != nil {
			b.Fatal(err)
		}
		took, cpu = append(took, time.Since(t0)), append(cpu, threadCPU()-c0)
	}
	for _, d := range [][]time.Duration{took, cpu} {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	}
	b.Logf("n=%d wall p50 %v p99 %v; thread CPU p50 %v p99 %v", len(took), took[len(took)/2], took[len(took)*99/100], cpu[len(cpu)/2], cpu[len(cpu)*99/100])
}
