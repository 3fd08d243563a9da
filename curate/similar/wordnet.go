package similar

import (
	_ "embed"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// wordnet.txt is generated from WordNet 3.0 (Princeton University,
// WordNet 3.0 licence, a permissive BSD-style licence; see WORDNET-LICENSE)
// by the program in internal/gen, reading Debian's wordnet-base files.
//
// It is a text table, one record a line, fields separated by one space,
// after two "#" header lines:
//
//	S id parent-ids                         a synset and its hypernyms
//	W word semcor-count n:ids v:ids a:ids r:ids   a lemma's first senses
//	X inflected lemma                       an irregular inflection
//
// ids are comma-separated synset ids; a W line names only the parts of
// speech the word has. The S lines come first, the n-th of them being
// synset n; then the W lines sorted by word and the X lines sorted by
// inflected form (byte order), so that a lookup is a binary search over the
// embedded text itself: nothing is decompressed or parsed in advance, and a
// line is read only when a run asks for its word.
//
//go:generate go run ./internal/gen -dir /usr/share/wordnet -out wordnet.txt
//go:embed wordnet.txt
var wordnetText string

// wordNet is the read-only lexical table: lemmas with their first senses
// per part of speech, the hypernym links between senses, SemCor counts and
// irregular inflections. It holds the start of every line of each kind;
// the lines themselves stay in the embedded text. It is safe for
// concurrent use.
type wordNet struct {
	text    string
	synsets []int32     // line starts of the S lines: synsets[n-1] is synset n
	words   sortedLines // the W lines, sorted by word
	exc     sortedLines // the X lines, sorted by inflected form
}

// sortedLines is the starts of lines sorted by their key, with the range
// of the keys that begin with each two letters: a search looks among a
// hundred lines or so instead of all of them.
type sortedLines struct {
	starts []int32
	spans  [26 * 26]struct{ from, to int32 } // indexes into starts
}

// add records the line starting at at, whose key begins with text[at+2:].
func (sl *sortedLines) add(text string, at int) {
	if b := letterPair(text[at+2 : min(at+4, len(text))]); b >= 0 {
		sp := &sl.spans[b]
		if sp.to == 0 {
			sp.from = int32(len(sl.starts))
		}
		sp.to = int32(len(sl.starts)) + 1
	}
	sl.starts = append(sl.starts, int32(at))
}

// letterPair numbers the two lower-case letters s begins with; -1 when s
// begins otherwise.
func letterPair(s string) int {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || s[1] < 'a' || s[1] > 'z' {
		return -1
	}
	return int(s[0]-'a')*26 + int(s[1]-'a')
}

// loadWordNet finds the lines of the embedded table once per process.
var loadWordNet = sync.OnceValue(func() *wordNet { return indexWordNet(wordnetText) })

// indexWordNet records where each S, W and X line of text starts.
func indexWordNet(text string) *wordNet {
	wn := &wordNet{
		text:    text,
		synsets: make([]int32, 0, wordnetSynsets),
	}
	wn.words.starts = make([]int32, 0, wordnetWords)
	wn.exc.starts = make([]int32, 0, wordnetExc)
	for at := 0; at < len(text); {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		if end-at > 2 && text[at+1] == ' ' {
			switch text[at] {
			case 'S':
				wn.synsets = append(wn.synsets, int32(at))
			case 'W':
				wn.words.add(text, at)
			case 'X':
				wn.exc.add(text, at)
			}
		}
		at = end + 1
	}
	return wn
}

// The embedded table's synsets, words and inflections: capacity hints
// only (a table of another size is read all the same).
const (
	wordnetSynsets = 88235
	wordnetWords   = 77477
	wordnetExc     = 4562
)

// key returns the first field after the kind letter of the line starting
// at at: the word of a W or X line, the id of an S line.
func (wn *wordNet) key(at int32) string {
	s := wn.text[at+2:]
	i := 0
	for i < len(s) && !isBlank(s[i]) && s[i] != '\n' {
		i++
	}
	return s[:i]
}

// rest returns the fields after the key of the line starting at at.
func (wn *wordNet) rest(at int32) string {
	s := wn.text[int(at)+2+len(wn.key(at)):]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// find returns the fields after the key of the line of sl whose key is
// key.
func (wn *wordNet) find(sl *sortedLines, key string) (rest string, ok bool) {
	lines, lo, hi := sl.starts, 0, len(sl.starts)
	if b := letterPair(key); b >= 0 {
		lo, hi = int(sl.spans[b].from), int(sl.spans[b].to)
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch k := wn.key(lines[mid]); {
		case k == key:
			return wn.rest(lines[mid]), true
		case k < key:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return "", false
}

// wordCount is the number of words (lemmas) in the table.
func (wn *wordNet) wordCount() int { return len(wn.words.starts) }

// wnWord is a word's W line, the fields after the word; "" for words
// WordNet does not know.
type wnWord string

// word returns the W line of lemma.
func (wn *wordNet) word(lemma string) wnWord {
	rest, _ := wn.find(&wn.words, lemma)
	return wnWord(rest)
}

// count returns the word's SemCor tag count, a word-frequency estimate; 0
// for words WordNet does not know.
func (w wnWord) count() int32 {
	c, _ := nextField(string(w))
	n, _ := strconv.Atoi(c)
	return int32(n)
}

// senses returns the word's first senses by part of speech (noun, verb,
// adjective, adverb).
func (w wnWord) senses() (senses [4][]int32) {
	_, rest := nextField(string(w)) // the count
	for rest != "" {
		var part string
		part, rest = nextField(rest)
		if part == "" {
			continue
		}
		pos := strings.IndexByte("nvar", part[0])
		if pos >= 0 && len(part) > 2 {
			senses[pos] = parseIDs(part[2:], nil)
		}
	}
	return senses
}

// parents appends the hypernyms of synset id to dst.
func (wn *wordNet) parents(id int32, dst []int32) []int32 {
	if id < 1 || int(id) > len(wn.synsets) {
		return dst
	}
	// The ids are the field after the key: read up to its end only, not to
	// the end of the line.
	s := wn.text[int(wn.synsets[id-1])+2:]
	i := 0
	for i < len(s) && !isBlank(s[i]) && s[i] != '\n' {
		i++ // the key
	}
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isBlank(s[j]) && s[j] != '\n' {
		j++
	}
	return parseIDs(s[i:j], dst)
}

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

// parseIDs appends the ids of a comma-separated list to dst (others are
// skipped).
func parseIDs(s string, dst []int32) []int32 {
	for s != "" {
		var p string
		p, s, _ = strings.Cut(s, ",")
		if v, err := strconv.Atoi(p); err == nil {
			dst = append(dst, int32(v))
		}
	}
	return dst
}

// morphy suffix rules (WordNet's morphological processor), tried in order.
var morphyRules = [][2]string{
	{"ies", "y"}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"},
	{"shes", "sh"}, {"men", "man"}, {"s", ""}, {"es", "e"}, {"es", ""},
	{"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}, {"er", ""},
	{"est", ""}, {"er", "e"}, {"est", "e"},
}

// lemma returns the WordNet base form of a lower-case word and its W
// line, or "" when WordNet does not know the word.
func (wn *wordNet) lemma(word string) (string, wnWord) {
	if rest, ok := wn.find(&wn.exc, word); ok {
		l, _ := nextField(rest)
		return l, wn.word(l)
	}
	if w := wn.word(word); w != "" {
		return word, w
	}
	for _, r := range morphyRules {
		if strings.HasSuffix(word, r[0]) && len(word) > len(r[0])+1 {
			base := word[:len(word)-len(r[0])] + r[1]
			if w := wn.word(base); w != "" {
				return base, w
			}
			// doubled final consonant: "stopped" -> "stop"
			if n := len(base); r[1] == "" && n > 2 && base[n-1] == base[n-2] {
				if w := wn.word(base[:n-1]); w != "" {
					return base[:n-1], w
				}
			}
		}
	}
	return "", ""
}

// concept is a synset reached from a word, with the number of hypernym
// steps taken to reach it.
type concept struct {
	id   int32
	dist int8
}

// concepts lists the synsets of the first nSenses senses of w (per part of
// speech) and their hypernyms up to depth levels, sorted by id, each with
// its smallest distance.
func (wn *wordNet) concepts(w wnWord, nSenses, depth int) []concept {
	if w == "" {
		return nil
	}
	best := map[int32]int8{}
	var walk func(id int32, d int)
	walk = func(id int32, d int) {
		if old, seen := best[id]; seen && int(old) <= d {
			return
		}
		best[id] = int8(d)
		if d == depth {
			return
		}
		var buf [8]int32
		for _, p := range wn.parents(id, buf[:0]) {
			walk(p, d+1)
		}
	}
	for _, ids := range w.senses() {
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
