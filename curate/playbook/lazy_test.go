package playbook

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// appWorldStore writes the AppWorld playbook (359 bullets) into a new store.
func appWorldStore(t *testing.T) *mdstore.Store {
	t.Helper()
	data, err := os.ReadFile("../similar/testdata/appworld_playbook.txt")
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseACE(data)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pb := New(nil, bulletid.NewAllocator(nil), nil, now)
	acts, errs := PlanImport(pb, in, "appworld")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, a := range acts {
		if err := pb.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	cs := &mdstore.Changeset{}
	if err := pb.Changes(nil, cs); err != nil {
		t.Fatal(err)
	}
	saveFiles(t, s, cs, mdstore.CommitInfo{RunID: "import", At: now})
	return s
}

// lessonsFrom makes a reflection of lessons taken from the active bullets:
// copies (reinforced), copies with a sentence more (merged or proposed) and
// sentences of two bullets put together (mostly new).
func lessonsFrom(pb *Playbook, n, seed int) *mdstore.Reflection {
	act := pb.Active()
	conf := 0.8
	r := &mdstore.Reflection{ID: fmt.Sprintf("r-%d", seed), CuratorStatus: "pending", CreatedAt: now}
	for i := 0; i < n; i++ {
		a := act[(seed*7919+i*104729)%len(act)]
		b := act[(seed*31+i*613)%len(act)]
		var text string
		switch i % 3 {
		case 0:
			text = a.Content
		case 1:
			text = a.Content + " " + Sentences(b.Content)[0]
		default:
			text = Sentences(a.Content)[0] + " " + Sentences(b.Content)[len(Sentences(b.Content))-1]
		}
		r.Lessons = append(r.Lessons, mdstore.Lesson{Content: text, Category: a.Category, Confidence: &conf})
	}
	r.HelpfulBullets = []string{act[seed%len(act)].ID}
	return r
}

// countingIndexes counts the candidate indexes a run loaded from the store
// and the ones it built (and queued to store).
type countingIndexes struct {
	*mdstore.Store
	read, built atomic.Int64 // the indexes of several categories are read at once
}

func (c *countingIndexes) ReadCandidateIndex(category string) []byte {
	c.read.Add(1)
	return cache.CandidateIndexesOf(c.Store).ReadCandidateIndex(category)
}

func (c *countingIndexes) QueueCandidateIndex(category string, data func() []byte) {
	c.built.Add(1)
	cache.CandidateIndexesOf(c.Store).QueueCandidateIndex(category, data)
}

// countIndexes makes pb count its stored candidate indexes.
func countIndexes(t *testing.T, pb *Playbook, s *mdstore.Store) *countingIndexes {
	t.Helper()
	if pb.Matcher == nil || pb.Matcher.stored == nil {
		t.Fatal("the playbook does not keep its candidate indexes")
	}
	c := &countingIndexes{Store: s}
	pb.Matcher.stored = c
	return c
}

func decisions(plan *Plan) string {
	var out []string
	for _, a := range plan.Actions {
		out = append(out, fmt.Sprintf("%s %s %s %v %.12f %q", a.Type, a.BulletID, a.TargetBulletID, a.MergedFrom, a.Similarity, a.Content))
	}
	return strings.Join(out, "\n")
}

// A playbook read through the bullet index decides exactly as one read
// from every file, over several runs that each change the playbook (the
// index is updated by each save), and it reads only some bullet files.
// The candidate indexes of the categories a run left unchanged are stored
// and loaded by the next run; the others are built again (run 4 finds a
// damaged stored index). It runs with the caches read and mapped.
func TestIndexedPlaybookDecidesAsFullRead(t *testing.T) {
	for _, mapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("mapped=%v", mapped), func(t *testing.T) {
			cache.MapFiles(mapped)
			defer cache.MapFiles(false)
			indexedPlaybookDecidesAsFullRead(t)
		})
	}
}

func indexedPlaybookDecidesAsFullRead(t *testing.T) {
	s := appWorldStore(t)
	lex := similar.NewLexical()
	at := now
	loaded := 0
	for run := 1; run <= 5; run++ {
		at = at.Add(time.Hour)
		if run == 4 {
			damageStoredIndexes(t, s)
		}
		indexed, _, _, err := Open(s, true, at)
		if err != nil {
			t.Fatal(err)
		}
		if indexed.lazy == nil {
			t.Fatal("the playbook was not read through the bullet index")
		}
		counts := countIndexes(t, indexed, s)
		list, err := s.ListBullets(true)
		if err != nil {
			t.Fatal(err)
		}
		known, _, err := bulletid.Known(s, list)
		if err != nil {
			t.Fatal(err)
		}
		full := New(list.All(), bulletid.NewAllocator(nil, known...), func() Matcher { return similar.NewIndex(lex) }, at)
		refl := lessonsFrom(full, 12, run)
		set := DefaultSettings()
		set.AutoMerge = run%2 == 0
		set.Maintenance = run == 5
		want, err := PlanCuration(full, []*mdstore.Reflection{refl}, set)
		if err != nil {
			t.Fatal(err)
		}
		got, err := PlanCuration(indexed, []*mdstore.Reflection{refl}, set)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := decisions(got), decisions(want); g != w {
			t.Fatalf("run %d: decisions differ\nindexed:\n%s\nfull read:\n%s", run, g, w)
		}
		if StatsOf(indexed).Tokens != StatsOf(full).Tokens {
			t.Errorf("run %d: stats differ: %+v vs %+v", run, StatsOf(indexed), StatsOf(full))
		}
		if run == 1 && counts.read.Load() != counts.built.Load() {
			t.Errorf("run 1 loaded %d candidate indexes from an empty cache", counts.read.Load()-counts.built.Load())
		}
		loaded += int(counts.read.Load() - counts.built.Load())
		unread := 0
		for _, b := range indexed.bullets.base {
			if b == nil || indexed.unread(b) {
				unread++
			}
		}
		if !set.Maintenance && unread < len(list.All())/2 {
			t.Errorf("run %d: read %d of %d bullet files; want only candidates", run, len(list.All())-unread, len(list.All()))
		}
		cs := &mdstore.Changeset{}
		if err := indexed.Changes(s, cs); err != nil {
			t.Fatal(err)
		}
		if cs.Empty() {
			t.Fatalf("run %d changed nothing", run)
		}
		saveFiles(t, s, cs, mdstore.CommitInfo{RunID: fmt.Sprintf("run-%d", run), At: at})
	}
	if loaded == 0 {
		t.Error("no run loaded a stored candidate index")
	}
}

// damageStoredIndexes flips a byte in the middle of every stored
// candidate index.
func damageStoredIndexes(t *testing.T, s *mdstore.Store) {
	t.Helper()
	dir := s.Dir + "/.cache/candidate-index"
	files, err := os.ReadDir(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("no stored candidate index (%v)", err)
	}
	for _, f := range files {
		p := dir + "/" + f.Name()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0x5a
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// appWorldFullRead is the AppWorld store, its bullets, and the playbook
// read from every file, whose queries score every bullet.
func appWorldFullRead(t *testing.T) (*mdstore.Store, *mdstore.BulletList, *Playbook) {
	t.Helper()
	s := appWorldStore(t)
	list, err := s.ListBullets(false)
	if err != nil {
		t.Fatal(err)
	}
	return s, list, New(list.All(), bulletid.NewAllocator(nil), nil, now)
}

// A text query answered from the matcher returns what scoring every
// bullet returns.
func TestSearchWithMatcherEqualsFullScan(t *testing.T) {
	s, list, full := appWorldFullRead(t)
	lex := similar.NewLexical()
	for i, b := range list.Active[:16] {
		text := Sentences(b.Content)[0]
		for _, limit := range []int{1, 5, 10} {
			q := QueryRequest{Text: text, Limit: limit}
			if i%4 == 0 {
				q.Category = b.Category
			}
			indexed, _, _, err := Open(s, true, now)
			if err != nil {
				t.Fatal(err)
			}
			counts := countIndexes(t, indexed, s)
			got, want := Search(indexed, lex.Score, q), Search(full, lex.Score, q)
			s.WriteCaches() // the first query stores the candidate indexes, the next ones load them
			if i > 0 && counts.built.Load() > 0 {
				t.Fatalf("query %d built %d candidate indexes; want them loaded", i, counts.built.Load())
			}
			if fmt.Sprint(results(got)) != fmt.Sprint(results(want)) {
				t.Fatalf("query %q limit %d:\nindexed %v\nfull    %v", text, limit, results(got), results(want))
			}
			for _, r := range got {
				if r.Content == "" {
					t.Fatalf("result %s has no content", r.ID)
				}
			}
		}
	}
}

// A text query that fewer than limit bullets reach at the lowest floor
// is still answered from the matcher, which bounds every bullet by its
// words, and returns what scoring every bullet returns.
func TestSearchOfLowScoresEqualsFullScan(t *testing.T) {
	s, _, full := appWorldFullRead(t)
	lex := similar.NewLexical()
	indexed, _, _, err := Open(s, true, now)
	if err != nil {
		t.Fatal(err)
	}
	answered := 0
	for _, text := range []string{"the weather in the city is warm today", "a song about the sea", "retry it later",
		"ask the user for the time", "what is on the list"} {
		for _, limit := range []int{3, 10} {
			q := QueryRequest{Text: text, Limit: limit}
			want := Search(full, lex.Score, q)
			if len(want) > 0 && want[min(limit, len(want))-1].Score >= searchFloors[len(searchFloors)-1] {
				t.Fatalf("%q: %d bullets reach %.2f; the test wants fewer", text, limit, searchFloors[len(searchFloors)-1])
			}
			got, ok := searchMatcher(indexed, q)
			if !ok {
				positive := 0
				for _, r := range want {
					if r.Score > 0 {
						positive++
					}
				}
				if positive >= limit {
					t.Fatalf("query %q limit %d: not answered from the matcher, though %d bullets score above 0", text, limit, positive)
				}
				continue
			}
			answered++
			if fmt.Sprint(results(got)) != fmt.Sprint(results(want)) {
				t.Fatalf("query %q limit %d:\nmatcher %v\nfull    %v", text, limit, results(got), results(want))
			}
		}
	}
	if answered < 6 {
		t.Fatalf("the matcher answered %d of 10 queries", answered)
	}
}

func results(rs []QueryResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s %.12f", r.ID, r.Score))
	}
	return out
}

// A text query through the matcher scores candidates from the highest
// bound down and stops early; with bullets that tie (the same text in
// several bullets of other priorities, categories and tags) it returns what
// scoring every bullet returns.
func TestSearchStopsEarlyAsFullScan(t *testing.T) {
	s := appWorldStore(t)
	lex := similar.NewLexical()
	list, err := s.ListBullets(false)
	if err != nil {
		t.Fatal(err)
	}
	bullets := list.Active
	for i, b := range list.Active[:6] {
		for k := range 3 {
			c := *b
			c.ID = fmt.Sprintf("%s-copy%d", b.ID, k)
			c.Priority = (i + k) % 3
			c.Tags = []string{fmt.Sprintf("t%d", k)}
			if k == 2 {
				c.Category = "other"
			}
			bullets = append(bullets, &c)
		}
	}
	withMatcher := New(bullets, bulletid.NewAllocator(nil), func() Matcher { return similar.NewIndex(lex) }, now)
	scan := New(bullets, bulletid.NewAllocator(nil), nil, now)
	for i, b := range list.Active[:6] {
		for _, text := range []string{b.Content, Sentences(b.Content)[0]} {
			for _, limit := range []int{1, 2, 3, 4, 7} {
				for _, q := range []QueryRequest{{Text: text, Limit: limit}, {Text: text, Limit: limit, Category: b.Category}, {Text: text, Limit: limit, Tags: []string{"t1"}}} {
					got, want := Search(withMatcher, lex.Score, q), Search(scan, lex.Score, q)
					if fmt.Sprint(results(got)) != fmt.Sprint(results(want)) {
						t.Fatalf("bullet %d, query %+v:\nmatcher %v\nscan    %v", i, q, results(got), results(want))
					}
				}
			}
		}
	}
}

// saveFiles writes a changeset's files through a store transaction,
// making no commit.
func saveFiles(t *testing.T, s *mdstore.Store, cs *mdstore.Changeset, info mdstore.CommitInfo) {
	t.Helper()
	tx, err := s.Begin(mdstore.TxOptions{NoCommit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	if _, err := tx.Save(&mdstore.Run{Changes: cs, Commit: info}); err != nil {
		t.Fatal(err)
	}
}
