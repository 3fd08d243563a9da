package similar

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// refWordNet is the embedded table read in full into maps, the plain way:
// the lookups over the text must give exactly its answers.
type refWordNet struct {
	parents [][]int32 // synset id -> hypernym ids; the n-th S line is synset n
	words   map[string]refWord
	exc     map[string]string
}

type refWord struct {
	count  int32
	senses [4][]int32
}

func parseRefWordNet(text string) *refWordNet {
	wn := &refWordNet{parents: [][]int32{nil}, words: map[string]refWord{}, exc: map[string]string{}}
	ids := func(s string) []int32 {
		var out []int32
		for _, p := range strings.Split(s, ",") {
			if v, err := strconv.Atoi(p); err == nil {
				out = append(out, int32(v))
			}
		}
		return out
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] == "#" {
			continue
		}
		switch f[0] {
		case "S":
			var ps []int32
			if len(f) > 2 {
				ps = ids(f[2])
			}
			wn.parents = append(wn.parents, ps)
		case "W":
			n, _ := strconv.Atoi(f[2])
			w := refWord{count: int32(n)}
			for _, part := range f[3:] {
				if pos := strings.IndexByte("nvar", part[0]); pos >= 0 && len(part) > 2 {
					w.senses[pos] = ids(part[2:])
				}
			}
			wn.words[f[1]] = w
		case "X":
			wn.exc[f[1]] = f[2]
		}
	}
	return wn
}

func (wn *refWordNet) lemma(word string) string {
	if l, ok := wn.exc[word]; ok {
		return l
	}
	if _, ok := wn.words[word]; ok {
		return word
	}
	for _, r := range morphyRules {
		if strings.HasSuffix(word, r[0]) && len(word) > len(r[0])+1 {
			base := word[:len(word)-len(r[0])] + r[1]
			if _, ok := wn.words[base]; ok {
				return base
			}
			if n := len(base); r[1] == "" && n > 2 && base[n-1] == base[n-2] {
				if _, ok := wn.words[base[:n-1]]; ok {
					return base[:n-1]
				}
			}
		}
	}
	return ""
}

func (wn *refWordNet) concepts(lemma string, nSenses, depth int) []concept {
	w, ok := wn.words[lemma]
	if !ok {
		return nil
	}
	best := map[int32]int8{}
	var walk func(id int32, d int)
	walk = func(id int32, d int) {
		if old, seen := best[id]; seen && int(old) <= d {
			return
		}
		best[id] = int8(d)
		if d == depth || int(id) >= len(wn.parents) {
			return
		}
		for _, p := range wn.parents[id] {
			walk(p, d+1)
		}
	}
	for _, ids := range w.senses {
		for i, id := range ids {
			if i == nSenses {
				break
			}
			walk(id, 0)
		}
	}
	out := make([]concept, 0, len(best))
	for id, d := range best {
		out = append(out, concept{id, d})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func TestWordNetLookupsEqualFullRead(t *testing.T) {
	wn, ref := loadWordNet(), parseRefWordNet(wordnetText)
	if wn.wordCount() != len(ref.words) || len(wn.words.starts) != wordnetWords {
		t.Fatalf("%d words, full read %d, want %d", wn.wordCount(), len(ref.words), wordnetWords)
	}
	if len(wn.synsets) != len(ref.parents)-1 || len(wn.exc.starts) != len(ref.exc) {
		t.Fatalf("%d synsets and %d inflections, full read %d and %d",
			len(wn.synsets), len(wn.exc.starts), len(ref.parents)-1, len(ref.exc))
	}
	checkWord := func(w string) {
		t.Helper()
		l, entry := wn.lemma(w)
		if want := ref.lemma(w); l != want {
			t.Fatalf("lemma(%q) = %q, full read %q", w, l, want)
		}
		if entry != wn.word(l) {
			t.Fatalf("lemma(%q) gives the line %q, want %q", w, entry, wn.word(l))
		}
		if got, want := entry.count(), ref.words[l].count; got != want {
			t.Fatalf("count(%q) = %d, full read %d", l, got, want)
		}
		for _, sd := range [][2]int{{defaultParams.senses, defaultParams.depth}, {1, 0}, {4, 3}} {
			got, want := wn.concepts(entry, sd[0], sd[1]), ref.concepts(l, sd[0], sd[1])
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("concepts(%q, %d, %d) = %v, full read %v", l, sd[0], sd[1], got, want)
			}
		}
	}
	i := 0
	for w := range ref.words {
		checkWord(w)
		if i++; i%5 == 0 {
			for _, suffix := range []string{"s", "es", "ed", "ing", "er", "est", "ies", "men", "ped"} {
				checkWord(w + suffix)
			}
		}
	}
	for w := range ref.exc {
		checkWord(w)
	}
	for _, w := range []string{"", "a", "zzzzz", "aaaa", "xyzzyed", "documentation", "apis", "paginating", "~"} {
		checkWord(w)
	}
	for id := int32(-1); id <= int32(len(wn.synsets))+1; id++ {
		var want []int32
		if id >= 0 && int(id) < len(ref.parents) {
			want = ref.parents[id]
		}
		if got := wn.parents(id, nil); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("parents(%d) = %v, full read %v", id, got, want)
		}
	}
}

// Lookups are binary searches: the W and X lines must be sorted by their
// word, each word once.
func TestWordNetTableSorted(t *testing.T) {
	wn := loadWordNet()
	for _, lines := range [][]int32{wn.words.starts, wn.exc.starts} {
		for i := 1; i < len(lines); i++ {
			if a, b := wn.key(lines[i-1]), wn.key(lines[i]); a >= b {
				t.Fatalf("%q is before %q", a, b)
			}
		}
	}
}

func TestWordNetKnownWords(t *testing.T) {
	wn := loadWordNet()
	for word, lemma := range map[string]string{
		"stopped": "stop", "children": "child", "ran": "run", "mice": "mouse", "dogs": "dog",
		"running": "run", "documentation": "documentation", "xyzzy": "",
	} {
		if got, _ := wn.lemma(word); got != lemma {
			t.Errorf("lemma(%q) = %q, want %q", word, got, lemma)
		}
	}
	if c := wn.word("child").count(); c != 214 {
		t.Errorf("count(child) = %d, want 214", c)
	}
	if c := wn.word("xyzzy").count(); c != 0 {
		t.Errorf("count(xyzzy) = %d, want 0", c)
	}
	// dog: n:23794,54747,54326,53654 v:85328; first sense only, no hypernyms
	want := []concept{{23794, 0}, {85328, 0}}
	if got := wn.concepts(wn.word("dog"), 1, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("concepts(dog, 1, 0) = %v, want %v", got, want)
	}
	if v := NewLexical().Version(); !strings.HasSuffix(v, " wordnet 77477") {
		t.Errorf("Version() = %q, want it to end in the word count 77477", v)
	}
}

func TestWordNetConcurrentLookups(t *testing.T) {
	wn := loadWordNet()
	want := wn.concepts(wn.word("run"), 4, 2)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				l, entry := wn.lemma("running")
				if l != "run" {
					errs <- "lemma(running) = " + l
					return
				}
				if got := wn.concepts(entry, 4, 2); !reflect.DeepEqual(got, want) {
					errs <- "concepts(run) differ between goroutines"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
