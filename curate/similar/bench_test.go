package similar

import (
	"fmt"
	"testing"
)

func BenchmarkScore(b *testing.B) {
	l := NewLexical()
	bs := playbookBullets(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l.Score(bs[i%len(bs)], bs[(i*7+3)%len(bs)])
	}
}

func BenchmarkScoreDocs(b *testing.B) {
	l := NewLexical()
	var docs []*doc
	for _, t := range playbookBullets(b) {
		docs = append(docs, l.analyze(t))
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l.scoreDocs(docs[i%len(docs)], docs[(i*7+3)%len(docs)])
	}
}

// benchItems builds the 100,000-bullet store the index benchmarks use.
func benchItems(b *testing.B, n int) (*Index, *BruteForce, []string) {
	base := playbookBullets(b)
	e := NewLexical()
	ix, bf := NewIndex(e), NewBruteForce(e)
	for i, text := range generatedBullets(base, n, 11) {
		id := fmt.Sprintf("B-%06d", i)
		ix.Add(id, text)
		bf.Add(id, text)
	}
	return ix, bf, generatedBullets(base, 200, 12)
}

func BenchmarkIndexAdd100k(b *testing.B) {
	base := playbookBullets(b)
	texts := generatedBullets(base, 100000, 11)
	e := NewLexical()
	for b.Loop() {
		ix := NewIndex(e)
		for i, text := range texts {
			ix.Add(fmt.Sprintf("B-%06d", i), text)
		}
	}
}

func BenchmarkIndexBest100k(b *testing.B) {
	ix, _, queries := benchItems(b, 100000)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Best(queries[i%len(queries)], nil)
	}
}

func BenchmarkBruteForceBest100k(b *testing.B) {
	_, bf, queries := benchItems(b, 100000)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		bf.Best(queries[i%len(queries)], nil)
	}
}

// BenchmarkWordNetLoad is the table's cost to every run: finding its lines.
func BenchmarkWordNetLoad(b *testing.B) {
	for b.Loop() {
		indexWordNet(wordnetText)
	}
}

// BenchmarkAnalyzeNewWords analyses the playbook with no word analysed
// before: the WordNet lookups of some 1,500 distinct words.
func BenchmarkAnalyzeNewWords(b *testing.B) {
	bs := playbookBullets(b)
	loadWordNet()
	for b.Loop() {
		l := NewLexical()
		for _, t := range bs {
			l.analyze(t)
		}
	}
}

// snapshotItems is a category of n generated bullets, indexed by their
// words, and its stored index.
func snapshotItems(b *testing.B, n int) (ids []string, table []string, terms [][]uint32, data []byte) {
	e := NewLexical()
	table, terms = termsOf(e, generatedBullets(playbookBullets(b), n, 13))
	ids = make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("B-%06d", i)
	}
	ix := NewIndex(e)
	ix.AddAllTerms(ids, e.Vocabulary(table), terms)
	return ids, table, terms, ix.Snapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), terms)
}

// BenchmarkIndexSnapshotLoad loads the stored index of a category of
// 15,000 bullets, as a run that does not change the category does.
func BenchmarkIndexSnapshotLoad(b *testing.B) {
	ids, table, terms, data := snapshotItems(b, 15000)
	e := NewLexical()
	v := e.Vocabulary(table)
	key := BatchKey(ids, terms)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if !NewIndex(e).LoadSnapshot(key, ids, v, data) {
			b.Fatal("snapshot not taken")
		}
	}
}

// BenchmarkIndexTop100k is a text query for the ten most similar of
// 100,000 bullets at a floor of 0.3, as `context query --text` asks (go
// test ./curate/similar -run XXX -bench IndexTop100k).
func BenchmarkIndexTop100k(b *testing.B) {
	ix, _, _ := benchItems(b, 100000)
	queries := []string{"retry the flaky network call with backoff", "ask the user for the weather in the city",
		"paginate through every page of the API results", "check the playlist before adding a song"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Top(queries[i%len(queries)], 0.3, 10, nil)
	}
}
