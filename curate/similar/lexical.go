package similar

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// lexicalParams are the tuned constants of the lexical engine (tuned on
// sick_train.tsv, see BENCHMARKS.md).
type lexicalParams struct {
	stopWeight float64 // weight of a stop word
	freqDecay  float64 // content weight = 1 / (1 + freqDecay*ln(1+SemCor count))
	senses     int     // WordNet senses per part of speech
	depth      int     // hypernym levels
	synonym    float64 // similarity of two words sharing a synset
	hyperDecay float64 // factor per hypernym step
	dirMix     float64 // score = dirMix*min(dirs) + (1-dirMix)*mean(dirs)
	capBase    float64 // capped score = min(score, capBase + capSlope*score)
	capSlope   float64
	noCap      bool
	vecFloor   float64 // least cosine of two neighbouring word vectors that counts
	vecBase    float64 // similarity of two neighbours at cosine vecFloor,
	vecTop     float64 // rising linearly to vecTop at cosine 1
	noVectors  bool
	sifA       float64 // smooth inverse frequency of the sentence vector: a / (a + p(word))
	sentK      float64 // score lowered by sentK × (sentFloor − sentence cosine) when that is positive
	sentFloor  float64
	orderK     float64 // and by orderK × the share of shared words out of order
	noSentence bool
	meaningK   float64 // score lowered by meaningK × what words matched only by meaning add over exact matches
}

var defaultParams = lexicalParams{
	stopWeight: 0.02,
	freqDecay:  0.15,
	senses:     4,
	depth:      2,
	synonym:    0.9,
	hyperDecay: 0.6,
	dirMix:     0.5,
	capBase:    0.5,
	capSlope:   0.09,
	vecFloor:   0.5,
	vecBase:    0.35,
	vecTop:     0.4,
	sifA:       3e-5,
	sentK:      0.8,
	sentFloor:  0.65,
	orderK:     0.15,
	meaningK:   0.15,
}

// Lexical is the default engine: deterministic, local, no model. It aligns
// each word of one text with its most similar word of the other (same
// Porter stem, WordNet synonym or near hypernym, word-vector neighbour),
// weights words by rarity, lowers the score of texts whose meanings as a
// whole (sentence vectors) are far apart or whose shared words come in
// another order, and caps the score below the merge threshold when the
// texts differ by a negation or by a number.
type Lexical struct {
	p     lexicalParams
	wn    *wordNet
	wv    *wordVectors
	words sync.Map // word -> *wordInfo, memoised analysis of each word

	conceptSim []float64 // by hypernym steps: synonym * hyperDecay^steps
}

// NewLexical returns the default engine.
func NewLexical() *Lexical { return newLexical(defaultParams) }

func newLexical(p lexicalParams) *Lexical {
	l := &Lexical{p: p, wn: loadWordNet(), wv: loadVectors()}
	for steps := 0; steps <= 2*p.depth; steps++ {
		l.conceptSim = append(l.conceptSim, p.synonym*math.Pow(p.hyperDecay, float64(steps)))
	}
	return l
}

// Name implements Engine.
func (*Lexical) Name() string { return "lexical" }

// Score implements Engine.
func (l *Lexical) Score(a, b string) float64 { return l.scoreDocs(l.analyze(a), l.analyze(b)) }

// term is one distinct word of a text after analysis.
type term struct {
	*wordInfo      // key: Porter stem of the lemma, equal keys match exactly
	negated   bool // some occurrence is inside a negation's scope
	hedged    bool // some occurrence is in a stretch of words that holds a negation (negationStretches)
}

// doc is an analysed text.
type doc struct {
	terms     []term // distinct keys, in order of first occurrence
	total     float64
	numbers   []string  // sorted distinct numbers
	negations int       // negation markers
	norm      string    // the lower-cased words joined, for texts without terms
	sent      []float32 // sentence vector: the terms' word vectors weighted by rarity, nil: none
}

// wordInfo is what analysis learns about one word, independent of context.
type wordInfo struct {
	text     string // the word as analysis found it (after number words became digits)
	key      string
	lemma    string
	stop     bool
	number   bool
	weight   float64
	concepts []concept
	vec      int32   // number in the word-vector table, -1: none (stop words, numbers, rare words)
	vecInv   float64 // 1 / length of the vector
	near     []int32 // the vector's neighbours, ascending

	sentVec    int32   // the vector in the text's sentence vector (stop words too), -1: none
	sentWeight float64 // its weight there: rarity times the vector's scale
}

func (l *Lexical) wordInfo(w word) *wordInfo {
	if wi, ok := l.words.Load(w.text); ok {
		return wi.(*wordInfo)
	}
	wi := l.newWordInfo(w)
	l.words.Store(w.text, wi)
	return wi
}

// newWordInfo analyses a word, without the cache of analysed words.
func (l *Lexical) newWordInfo(w word) *wordInfo {
	wi := &wordInfo{text: w.text, key: w.text, weight: 1, vec: -1, sentVec: -1}
	ident := strings.HasPrefix(w.text, identPart)
	if ident {
		w.text = w.text[len(identPart):]
		wi.key = w.text
	}
	switch {
	case isNumber(w.text):
		wi.number = true
	case stopWords[w.text] || w.negation:
		wi.stop, wi.weight = true, l.p.stopWeight
	default:
		var entry wnWord
		wi.lemma, entry = l.wn.lemma(w.text)
		if wi.lemma == "" {
			wi.key = stem(w.text)
			break
		}
		if v, ve := l.wn.americanSpelling(wi.lemma, entry); v != "" {
			wi.lemma, entry = v, ve
		}
		wi.key = stem(wi.lemma)
		wi.weight = 1 / (1 + l.p.freqDecay*math.Log1p(float64(entry.count())))
		wi.concepts = l.wn.concepts(entry, l.p.senses, l.p.depth)
	}
	if !wi.stop && !wi.number && !ident && !l.p.noVectors {
		l.setVector(wi, w.text)
	}
	if !wi.number && !ident && !l.p.noVectors {
		l.setSentenceVector(wi, w.text)
	}
	return wi
}

// setVector gives a content word the vector of its lemma (of the word
// itself when the table has no lemma for it) and the vector's neighbours.
func (l *Lexical) setVector(wi *wordInfo, text string) {
	v := int32(-1)
	if wi.lemma != "" {
		v = l.wv.find(wi.lemma)
	}
	if v < 0 {
		v = l.wv.find(text)
	}
	if v < 0 {
		return
	}
	wi.vec, wi.vecInv, wi.near = v, l.wv.invNorm(v), l.wv.neighbours(v)
}

// setSentenceVector gives a word (stop words too) its place in its
// text's sentence vector: the word's vector (its lemma's for content
// words), weighted by how rare the word is.
func (l *Lexical) setSentenceVector(wi *wordInfo, text string) {
	v := wi.vec
	if v < 0 {
		v = l.wv.find(text)
	}
	if v < 0 {
		return
	}
	wi.sentVec = v
	wi.sentWeight = l.sifWeight(l.wv.rank(v)) * l.wv.scale(v)
}

// vectorSim is how similar two words are by their vectors: 0 unless they
// are neighbours in the table with a cosine of at least vecFloor, then
// from vecBase up to vecTop at cosine 1. Words that share no vector
// neighbourhood (rare words, identifiers, numbers, antonyms) get nothing.
func (l *Lexical) vectorSim(a *wordInfo, b int32, bInv float64) float64 {
	if _, ok := slices.BinarySearch(a.near, b); !ok {
		return 0
	}
	return l.neighbourSim(a, b, bInv)
}

// neighbourSim is vectorSim of a word and one of its neighbours b.
func (l *Lexical) neighbourSim(a *wordInfo, b int32, bInv float64) float64 {
	c := l.wv.cosine(a.vec, b, a.vecInv, bInv)
	if c < l.p.vecFloor {
		return 0
	}
	return l.p.vecBase + (l.p.vecTop-l.p.vecBase)*(c-l.p.vecFloor)/(1-l.p.vecFloor)
}

func (l *Lexical) analyze(text string) *doc {
	words := tokenize(text)
	d := &doc{}
	index := map[string]int{}
	scope, scopeClause := 0, -1
	norm := make([]string, 0, len(words))
	stretch, negStretch := negationStretches(words)
	for k, w := range words {
		norm = append(norm, w.text)
		hedged := negStretch != nil && negStretch[stretch[k]]
		wi := l.wordInfo(w)
		if w.clause != scopeClause {
			scope = 0
		}
		negated := false
		switch {
		case w.negation:
			scope, scopeClause = 3, w.clause
			d.negations++
		case scopeBreaks[w.text]:
			scope = 0
		case scope > 0 && !wi.stop:
			negated = true
			scope--
		}
		if wi.number {
			d.numbers = append(d.numbers, w.text)
		}
		if i, ok := index[wi.key]; ok {
			d.terms[i].negated = d.terms[i].negated || negated
			d.terms[i].hedged = d.terms[i].hedged || hedged
			continue
		}
		index[wi.key] = len(d.terms)
		d.terms = append(d.terms, term{wordInfo: wi, negated: negated, hedged: hedged})
		d.total += wi.weight
		l.addSentence(d, wi)
	}
	sort.Strings(d.numbers)
	d.numbers = dedupe(d.numbers)
	d.norm = strings.Join(norm, " ")
	return d
}

// negationStretches numbers the stretch of each word — the words of a
// clause between scope breaks ("but", "and", ...), which is as far as a
// negation reaches — and reports, by number, which stretches hold a
// negation (nil when none does).
func negationStretches(words []word) (stretch []int, negated []bool) {
	stretch = make([]int, len(words))
	n := 0
	for k, w := range words {
		if k > 0 && (w.clause != words[k-1].clause || scopeBreaks[w.text]) {
			n++
		}
		stretch[k] = n
		if w.negation {
			if negated == nil {
				negated = make([]bool, len(words))
			}
			negated[n] = true
		}
	}
	return stretch, negated
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// scoreDocs is the engine's score of two analysed texts.
func (l *Lexical) scoreDocs(a, b *doc) float64 { return l.scoreWith(nil, a, b) }

// scoreWith is scoreDocs with a's side of the meaning matches made
// already (nil: made for this pair).
func (l *Lexical) scoreWith(qm *queryMatches, a, b *doc) float64 {
	if len(a.terms) == 0 || len(b.terms) == 0 {
		if a.norm != "" && a.norm == b.norm {
			return 1
		}
		return 0
	}
	ab, ba, abExact, baExact := l.directions(qm, a, b)
	s := l.exactDiscount(l.mix(ab, ba), l.mix(abExact, baExact))
	s = l.sentenceCheck(a, b, s)
	if !l.p.noCap && conflict(a, b) {
		s = math.Min(s, l.p.capBase+l.p.capSlope*s)
	}
	return s
}

// mix is the word-level score of two directions: dirMix of the lower one
// and the rest of their mean.
func (l *Lexical) mix(ab, ba float64) float64 {
	return l.p.dirMix*math.Min(ab, ba) + (1-l.p.dirMix)*(ab+ba)/2
}

// exactDiscount lowers the word-level score s by meaningK × what the
// matches by meaning alone (WordNet, vectors) add over the exact matches'
// score exact: a synonym is good evidence, but weaker than the same word.
// Both scores are at most 1, and the result is never above s.
func (l *Lexical) exactDiscount(s, exact float64) float64 {
	return math.Min(1, s-l.p.meaningK*(s-exact))
}

// directions returns the weighted share of a's meaning found in b, and of
// b's found in a: each word counts with its weight times its best match in
// the other text; abExact and baExact count exact matches (the same key)
// only.
func (l *Lexical) directions(qm *queryMatches, a, b *doc) (ab, ba, abExact, baExact float64) {
	var m *matches
	if qm != nil {
		m = l.meaningMatchesOf(qm, a, b)
	} else {
		m = l.meaningMatches(a, b)
	}
	defer m.release()
	colBest := make([]float64, len(b.terms)) // 1 only for an exact match: other matches are below 1
	for i := range a.terms {
		t := &a.terms[i]
		row := m.sim[i*m.nb : (i+1)*m.nb]
		best := 0.0
		for j := range b.terms {
			if t.key == b.terms[j].key {
				best, colBest[j] = 1, 1
				abExact += t.weight
				continue
			}
			s := row[j]
			if s > best {
				best = s
			}
			if s > colBest[j] {
				colBest[j] = s
			}
		}
		ab += t.weight * best
	}
	for j := range b.terms {
		ba += b.terms[j].weight * colBest[j]
		if colBest[j] == 1 {
			baExact += b.terms[j].weight
		}
	}
	return ab / a.total, ba / b.total, abExact / a.total, baExact / b.total
}

// conflict reports whether two texts differ by a negation (a word negated
// in one and plainly stated in the other) or by a number (both name
// numbers, and not the same ones). A word negated in one text only is no
// conflict when both texts hold as many negations and the other text
// negates the word's stretch too: the two negations say the same and only
// reach other words ("Bernanke is not." / "not Bernanke").
func conflict(a, b *doc) bool {
	if len(a.numbers) > 0 && len(b.numbers) > 0 && strings.Join(a.numbers, " ") != strings.Join(b.numbers, " ") {
		return true
	}
	in := make(map[string]term, len(a.terms))
	for _, t := range a.terms {
		in[t.key] = t
	}
	for _, u := range b.terms {
		t, ok := in[u.key]
		if !ok || t.negated == u.negated {
			continue
		}
		if a.negations != b.negations || t.negated && !u.hedged || u.negated && !t.hedged {
			return true
		}
	}
	return false
}

// WithoutVectors returns the engine without word vectors: words align
// only by stem and WordNet. It
// exists to measure what the vectors add on benchmarks.
func (l *Lexical) WithoutVectors() *Lexical {
	p := l.p
	p.noVectors = true
	return newLexical(p)
}

// WithoutSentence returns the engine without its sentence-level check:
// the score is the word alignment's alone. It exists to measure what the
// check adds on benchmarks.
func (l *Lexical) WithoutSentence() *Lexical {
	p := l.p
	p.noSentence = true
	return newLexical(p)
}

// WithoutCap returns the engine without the negation and number cap. It
// exists to measure what the cap costs on benchmarks; curate never uses it.
func (l *Lexical) WithoutCap() *Lexical {
	p := l.p
	p.noCap = true
	return newLexical(p)
}

// Words returns, for a text, the first word of each of its distinct terms,
// in order, and its negation marks after them when it has a negation
// (marks.go): what AddTerms needs to index the text, and to score it,
// without analysing it again. A candidate index kept on disk stores these
// words.
func (l *Lexical) Words(text string) []string {
	d := l.analyze(text)
	out := make([]string, len(d.terms), len(d.terms)+1)
	for i, t := range d.terms {
		out[i] = t.text
	}
	if m := marksOf(d); m != "" {
		out = append(out, m)
	}
	return out
}

// Version names the engine's analysis: words stored from an engine with
// another version must be analysed again.
func (l *Lexical) Version() string {
	return fmt.Sprintf("lexical 5 %+v vectors %d wordnet %d", l.p, len(l.wv.words), l.wn.wordCount())
}
