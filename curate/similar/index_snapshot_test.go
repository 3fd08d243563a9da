package similar

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// termsOf is a word table and each text's words as indices into it, as the
// bullet index keeps them.
func termsOf(e *Lexical, texts []string) ([]string, [][]uint32) {
	var table []string
	pos := map[string]uint32{}
	var out [][]uint32
	for _, text := range texts {
		var terms []uint32
		for _, w := range e.Words(text) {
			if _, ok := pos[w]; !ok {
				pos[w] = uint32(len(table))
				table = append(table, w)
			}
			terms = append(terms, pos[w])
		}
		out = append(out, terms)
	}
	return table, out
}

// sameState fails unless two indexes hold the same items, words, keys,
// postings and concepts.
func sameState(t *testing.T, a, b *Index) {
	t.Helper()
	ia, ib := a.sortedItems(), b.sortedItems()
	if len(ia) != len(ib) {
		t.Fatalf("%d items vs %d", len(ia), len(ib))
	}
	for i := range ia {
		if ia[i].id != ib[i].id || !reflect.DeepEqual(ia[i].terms, ib[i].terms) || ia[i].total != ib[i].total || a.byID[ia[i].id] != b.byID[ib[i].id] ||
			!reflect.DeepEqual(ia[i].marks, ib[i].marks) {
			t.Fatalf("item %s differs", ia[i].id)
		}
	}
	for name, eq := range map[string]bool{
		"keys":     reflect.DeepEqual(a.keyIDs, b.keyIDs),
		"words":    reflect.DeepEqual(a.words, b.words),
		"vocabOf":  reflect.DeepEqual(taken(a.vocabOf), taken(b.vocabOf)),
		"postings": fmt.Sprint(a.postings) == fmt.Sprint(b.postings),
		"concepts": reflect.DeepEqual(a.vocab, b.vocab),
		"seen":     reflect.DeepEqual(a.seen, b.seen),
	} {
		if !eq {
			t.Fatalf("%s differ", name)
		}
	}
}

// taken is an index's vocabOf with the marks words as words not taken: a
// loaded index learns which words are marks when it is given one.
func taken(vocabOf []int32) []int32 {
	out := slices.Clone(vocabOf)
	for i, w := range out {
		if w == marksWord {
			out[i] = -1
		}
	}
	return out
}

// A stored candidate index, loaded by a later run (another engine
// instance), is the index AddAllTerms builds, and answers as it does, also
// after items are added and removed.
func TestIndexSnapshotEqualsBuiltIndex(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 600, 5), base...)
	queries := append(generatedBullets(base, 30, 6), base[:10]...)
	e := NewLexical()
	ids, texts, table, terms := byWords(e, items)
	text := func(id string) string { return texts[id] }
	built := NewIndex(e)
	built.SetText(text)
	built.AddAllTerms(ids, e.Vocabulary(table), terms)
	data := built.Snapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), terms)
	if data == nil {
		t.Fatal("no snapshot of a freshly built index")
	}

	later := NewLexical()
	loaded := NewIndex(later)
	loaded.SetText(text)
	// The word table grew since (another category's words): still taken.
	grown := append(append([]string(nil), table...), "zyzzyva")
	if !loaded.LoadSnapshot(BatchKey(ids, terms), ids, later.Vocabulary(grown), data) {
		t.Fatal("snapshot not taken")
	}
	built.vocabOf = append(built.vocabOf, -1)
	// Its items' sides come stored: it bounds by side from its first
	// query, as the built index does from its second.
	if !loaded.boundsBySide() || len(loaded.storedStops) != len(ids) {
		t.Fatal("the loaded index does not bound its first query by side")
	}
	for slot, it := range built.items {
		if loaded.storedStops[slot] != built.stopWeight(it) || loaded.storedTotals[slot] != it.total {
			t.Fatalf("item %s: stored side %v of %v, built %v of %v", it.id,
				loaded.storedStops[slot], loaded.storedTotals[slot], built.stopWeight(it), it.total)
		}
	}
	sameAnswers(t, built, loaded, queries)
	if loaded.loaded == nil {
		t.Fatal("answering built the maps of the loaded index")
	}
	loaded.materialize()
	sameState(t, built, loaded)

	for _, m := range []*Index{built, loaded} {
		m.Remove(ids[3])
		m.Add("B-99999", queries[0])
		m.Add(ids[7], queries[1])
	}
	sameAnswers(t, built, loaded, queries)
	if built.Snapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), terms) != nil {
		t.Error("a snapshot of an index changed since it was built")
	}
	// A loaded index that changes builds its maps first.
	again := NewIndex(later)
	again.SetText(text)
	if !again.LoadSnapshot(BatchKey(ids, terms), ids, later.Vocabulary(table), data) {
		t.Fatal("snapshot not taken")
	}
	fresh := NewIndex(e)
	fresh.SetText(text)
	fresh.AddAllTerms(ids, e.Vocabulary(table), terms)
	for _, m := range []*Index{fresh, again} {
		m.Remove(ids[5])
		m.Add(ids[9], queries[2]+" zyzzyva")
	}
	sameState(t, fresh, again)
	sameAnswers(t, fresh, again, queries)
}

// sameAnswers fails unless two indexes answer every query alike.
func sameAnswers(t *testing.T, built, loaded *Index, queries []string) {
	t.Helper()
	if built.Len() != loaded.Len() {
		t.Fatalf("Len %d vs %d", built.Len(), loaded.Len())
	}
	for _, q := range queries {
		m1, ok1 := built.Best(q, nil)
		m2, ok2 := loaded.Best(q, nil)
		if m1 != m2 || ok1 != ok2 {
			t.Fatalf("Best(%q): %v %v vs %v %v", q, m1, ok1, m2, ok2)
		}
		for _, min := range []float64{0.3, 0.6, 0.9} {
			if a, b := fmt.Sprint(built.Above(q, min, nil)), fmt.Sprint(loaded.Above(q, min, nil)); a != b {
				t.Fatalf("Above(%q, %v): %s vs %s", q, min, a, b)
			}
		}
	}
	for _, min := range []float64{0.6, 0.9} {
		if a, b := fmt.Sprint(built.Pairs(min)), fmt.Sprint(loaded.Pairs(min)); a != b {
			t.Fatalf("Pairs(%v): %s vs %s", min, a, b)
		}
	}
}

// snapshotFixture is an index of 80 AppWorld bullets added by their words
// (the engine, the texts, the word table, their words, their ids, the
// index) and its snapshot.
func snapshotFixture(t *testing.T) (*Lexical, []string, []string, [][]uint32, []string, *Index, []byte) {
	t.Helper()
	base := playbookBullets(t)[:80]
	e := NewLexical()
	table, terms := termsOf(e, base)
	ids := make([]string, len(base))
	for i := range base {
		ids[i] = fmt.Sprintf("B-%05d", i)
	}
	ix := NewIndex(e)
	ix.AddAllTerms(ids, e.Vocabulary(table), terms)
	return e, base, table, terms, ids, ix, ix.Snapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), terms)
}

// A snapshot is refused for other items, other words, another engine's
// analysis or damaged data, and the index is then left empty.
func TestIndexSnapshotRefused(t *testing.T) {
	e, _, table, terms, ids, ix, data := snapshotFixture(t)

	moved := append([]string{table[1], table[0]}, table[2:]...) // same words, other indices
	otherTerms := append([][]uint32{terms[1]}, terms[1:]...)
	otherEngine := NewLexical()
	otherEngine.p.dirMix += 0.01
	cases := map[string]func() bool{
		"other ids": func() bool {
			return NewIndex(e).LoadSnapshot(BatchKey(append([]string{"B-x"}, ids[1:]...), terms), append([]string{"B-x"}, ids[1:]...), e.Vocabulary(table), data)
		},
		"other terms": func() bool {
			return NewIndex(e).LoadSnapshot(BatchKey(ids, otherTerms), ids, e.Vocabulary(table), data)
		},
		"moved words": func() bool {
			return NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(moved), data)
		},
		"other version": func() bool {
			return NewIndex(otherEngine).LoadSnapshot(BatchKey(ids, terms), ids, otherEngine.Vocabulary(table), data)
		},
		"empty": func() bool {
			return NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), nil)
		},
	}
	for cut := len(data) - 1; cut > len(data)-400 && cut > 0; cut -= 37 {
		c := cut
		cases[fmt.Sprint("cut at ", c)] = func() bool {
			return NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), data[:c])
		}
	}
	// A word the index took has another text now (the table was
	// renumbered): its terms would name another word.
	renamed := append([]string(nil), table...)
	renamed[terms[0][0]] += "x"
	cases["renamed word"] = func() bool {
		return NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(renamed), data)
	}
	// An item's word number changed to another word of the index (a
	// valid number: only the checksum sees it).
	last := ix.items[len(ix.items)-1].terms
	changed := append([]int32(nil), last...)
	changed[len(changed)-1] = (changed[len(changed)-1] + 1) % int32(len(ix.words))
	cases["other term number"] = func() bool {
		bad := replaceInts(t, data, last, changed)
		return NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), bad)
	}
	// A concept's hypernym steps beyond the engine's depth (a valid
	// number: only the checksum sees it) would index past the table of
	// concept similarities when a query expands into it.
	far := NewIndex(e)
	far.AddAllTerms(ids, e.Vocabulary(table), terms)
	for c := range far.vocab {
		far.vocab[c][0].dist = 100
		break
	}
	farData := far.Snapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), terms)
	cases["concept steps past the depth"] = func() bool {
		return NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), farData)
	}
	for name, load := range cases {
		if load() {
			t.Errorf("%s: snapshot taken", name)
		}
	}
	// A flipped byte anywhere (a slot, a weight) is refused.
	for i := len(data) - 1; i >= 0; i -= 13 {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x5a
		ix2 := NewIndex(e)
		if ix2.LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), bad) {
			t.Fatalf("damaged byte %d: snapshot taken", i)
		}
		if ix2.Len() != 0 || len(ix2.keyIDs) != 0 {
			t.Fatalf("refused snapshot left %d items", ix2.Len())
		}
	}
}

// intsBytes is how Snapshot wrote vs in width bytes each.
func intsBytes(vs []int32, width int) []byte {
	var b []byte
	for _, v := range vs {
		switch width {
		case 1:
			b = append(b, byte(v))
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		default:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
	}
	return b
}

// replaceInts returns data with the numbers old, found exactly once in
// one of the widths Snapshot writes, replaced by new in that width.
func replaceInts(t *testing.T, data []byte, old, new []int32) []byte {
	t.Helper()
	for _, width := range []int{1, 2, 4} {
		if b := intsBytes(old, width); bytes.Count(data, b) == 1 {
			return bytes.Replace(data, b, intsBytes(new, width), 1)
		}
	}
	t.Fatalf("%v not found once in the snapshot", old)
	return nil
}

// Pairs of a loaded index whose items were not added in the order of their
// ids are the pairs of the built index (every item has a copy).
func TestIndexSnapshotPairs(t *testing.T) {
	base := playbookBullets(t)[:100]
	items := append(append([]string(nil), base...), base...)
	e := NewLexical()
	table, terms := termsOf(e, items)
	ids := make([]string, len(items))
	texts := map[string]string{}
	for i, text := range items {
		ids[i] = fmt.Sprintf("B-%05d", len(items)-i) // the last added has the smallest id
		texts[ids[i]] = text
	}
	text := func(id string) string { return texts[id] }
	built := NewIndex(e)
	built.SetText(text)
	built.AddAllTerms(ids, e.Vocabulary(table), terms)
	loaded := NewIndex(e)
	loaded.SetText(text)
	if !loaded.LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), built.Snapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), terms)) {
		t.Fatal("snapshot not taken")
	}
	want := built.Pairs(0.6)
	if len(want) < 10 {
		t.Fatalf("%d pairs: the test data does not exercise Pairs", len(want))
	}
	if got := loaded.Pairs(0.6); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("loaded index: %d pairs, built index %d", len(got), len(want))
	}
}

// LoadCheckedSnapshot takes a snapshot whose own checksum it is told is
// not to be computed (its caller read it under another): one whose
// checksum bytes are wrong is taken, and answers as the built index;
// LoadSnapshot refuses it.
func TestIndexCheckedSnapshot(t *testing.T) {
	e, base, table, terms, ids, built, data := snapshotFixture(t)
	data[len(data)-1] ^= 0xff
	if NewIndex(e).LoadSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), data) {
		t.Fatal("LoadSnapshot took a snapshot with a wrong checksum")
	}
	loaded := NewIndex(e)
	if !loaded.LoadCheckedSnapshot(BatchKey(ids, terms), ids, e.Vocabulary(table), data) {
		t.Fatal("LoadCheckedSnapshot refused a sound snapshot")
	}
	texts := map[string]string{}
	for i, id := range ids {
		texts[id] = base[i]
	}
	built.SetText(func(id string) string { return texts[id] })
	loaded.SetText(func(id string) string { return texts[id] })
	sameAnswers(t, built, loaded, base[:10])
}
