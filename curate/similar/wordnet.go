package similar

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
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
	wn := &wordNet{words: map[string]wnWord{}, exc: map[string]string{}, parents: [][]int32{nil}}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0] == "#" {
			continue
		}
		switch f[0] {
		case "S":
			var ps []int32
			if len(f) > 2 {
				ps = parseIDs(f[2])
			}
			wn.parents = append(wn.parents, ps)
		case "W":
			n, _ := strconv.Atoi(f[2])
			w := wnWord{count: int32(n)}
			for _, part := range f[3:] {
				pos := strings.IndexByte("nvar", part[0])
				if pos >= 0 && len(part) > 2 {
					w.senses[pos] = parseIDs(part[2:])
				}
			}
			wn.words[f[1]] = w
		case "X":
			wn.exc[f[1]] = f[2]
		}
	}
	return wn, sc.Err()
}

func parseIDs(s string) []int32 {
	parts := strings.Split(s, ",")
	ids := make([]int32, 0, len(parts))
	for _, p := range parts {
		if n, err := strconv.Atoi(p); err == nil {
			ids = append(ids, int32(n))
		}
	}
	return ids
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
