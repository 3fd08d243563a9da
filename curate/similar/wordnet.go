package similar

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// wordnet.txt.gz is generated from WordNet 3.0 (Princeton University,
// WordNet 3.0 licence, a permissive BSD-style licence; see WORDNET-LICENSE)
// by the program in internal/gen, reading Debian's wordnet-base files.
//
//go:generate go run ./internal/gen -dir /usr/share/wordnet -out wordnet.txt.gz
//go:embed wordnet.txt.gz
var wordnetGz []byte

// wordNet is the read-only lexical table: lemmas with their first senses
// per part of speech, the hypernym links between senses, SemCor counts and
// irregular inflections.
type wordNet struct {
	parents [][]int32 // synset id -> hypernym synset ids
	words   map[string]wnWord
	exc     map[string]string // inflected form -> lemma
}

type wnWord struct {
	count  int32      // SemCor tag count, a word-frequency estimate
	senses [4][]int32 // by part of speech: noun, verb, adjective, adverb
}

// loadWordNet parses the embedded table once per process; the result is
// never modified afterwards.
var loadWordNet = sync.OnceValue(func() *wordNet {
	wn, err := parseWordNet(wordnetGz)
	if err != nil {
		panic("similar: embedded WordNet table is corrupt: " + err.Error())
	}
	return wn
})

func parseWordNet(gz []byte) (*wordNet, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	// The table is read into one string that every word slices, and the
	// ids into a few large arrays: a handful of allocations instead of
	// several per line (the table is parsed by every run).
	var sb strings.Builder
	sb.Grow(wordnetSize)
	if _, err := io.Copy(&sb, zr); err != nil {
		return nil, err
	}
	text := sb.String()
	wn := &wordNet{
		words:   make(map[string]wnWord, wordnetWords),
		exc:     make(map[string]string, wordnetExc),
		parents: make([][]int32, 1, wordnetSynsets+1),
	}
	var ids idArena
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		kind, line := nextField(line)
		first, line := nextField(line)
		if first == "" || kind == "#" {
			continue
		}
		switch kind {
		case "S":
			ps, _ := nextField(line)
			var parents []int32
			if ps != "" {
				parents = ids.parse(ps)
			}
			wn.parents = append(wn.parents, parents)
		case "W":
			count, line := nextField(line)
			n, _ := strconv.Atoi(count)
			w := wnWord{count: int32(n)}
			for line != "" {
				var part string
				part, line = nextField(line)
				if part == "" {
					continue
				}
				pos := strings.IndexByte("nvar", part[0])
				if pos >= 0 && len(part) > 2 {
					w.senses[pos] = ids.parse(part[2:])
				}
			}
			wn.words[first] = w
		case "X":
			lemma, _ := nextField(line)
			wn.exc[first] = lemma
		}
	}
	return wn, nil
}

// The embedded table's size, synsets, words and inflections: capacity
// hints only (a table of another size is parsed all the same).
const (
	wordnetSize    = 3300000
	wordnetSynsets = 88235
	wordnetWords   = 77477
	wordnetExc     = 4562
)

// nextField splits the first space-separated field off s.
func nextField(s string) (field, rest string) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isBlank(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// idArena hands out id lists from large arrays.
type idArena struct{ free []int32 }

// parse reads a comma-separated list of ids (others are skipped).
func (a *idArena) parse(s string) []int32 {
	n := strings.Count(s, ",") + 1
	if len(a.free) < n {
		a.free = make([]int32, max(n, 1<<16))
	}
	ids := a.free[:0:n]
	for s != "" {
		var p string
		p, s, _ = strings.Cut(s, ",")
		if v, err := strconv.Atoi(p); err == nil {
			ids = append(ids, int32(v))
		}
	}
	a.free = a.free[len(ids):]
	return ids[:len(ids):len(ids)]
}

// morphy suffix rules (WordNet's morphological processor), tried in order.
var morphyRules = [][2]string{
	{"ies", "y"}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"},
	{"shes", "sh"}, {"men", "man"}, {"s", ""}, {"es", "e"}, {"es", ""},
	{"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}, {"er", ""},
	{"est", ""}, {"er", "e"}, {"est", "e"},
}

// lemma returns the WordNet base form of a lower-case word, or "" when
// WordNet does not know it.
func (wn *wordNet) lemma(word string) string {
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
			// doubled final consonant: "stopped" -> "stop"
			if n := len(base); r[1] == "" && n > 2 && base[n-1] == base[n-2] {
				if _, ok := wn.words[base[:n-1]]; ok {
					return base[:n-1]
				}
			}
		}
	}
	return ""
}

// concept is a synset reached from a word, with the number of hypernym
// steps taken to reach it.
type concept struct {
	id   int32
	dist int8
}

// concepts lists the synsets of the first nSenses senses of lemma (per part
// of speech) and their hypernyms up to depth levels, sorted by id, each
// with its smallest distance.
func (wn *wordNet) concepts(lemma string, nSenses, depth int) []concept {
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
