package similar

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// snapshotMagic starts a stored candidate index; the engine's version
// follows it, so another analysis of the words is never taken.
const snapshotMagic = "curator candidate index 4\n"

// BatchKey names what AddAllTerms is given by its content: the ids and each
// item's words as indices into the word table (the stored index checks the
// words behind the indices it uses itself). A caller that can name the
// batch more cheaply (it knows the items did not change) may use its own
// key instead: equal keys must mean equal ids and terms.
func BatchKey(ids []string, terms [][]uint32) [32]byte {
	h := sha256.New()
	buf := make([]byte, 0, 1<<16)
	for i, id := range ids {
		buf = binary.AppendUvarint(buf, uint64(len(id)))
		buf = append(buf, id...)
		buf = binary.AppendUvarint(buf, uint64(len(terms[i])))
		for _, t := range terms[i] {
			buf = binary.LittleEndian.AppendUint32(buf, t)
		}
		if len(buf) > 1<<15 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// Snapshot returns the index in a compact binary form that LoadSnapshot
// takes back for the same key and ids, without analysing a word, building
// a posting list or being given the items' words; nil when the index cannot
// be stored so (another engine, or items changed since AddAllTerms filled
// the empty index). Call it right after AddAllTerms; key names the batch
// (BatchKey).
//
// After the header and the key come arrays of numbers, each a count, a
// width (1, 2 or 4 bytes, the least that holds its largest number) and
// the numbers little-endian, so that a load reads each array with one
// allocation and a tight loop: the keys, the key ids in the keys' order,
// the words (key, weight, stop), the words of the word table the index
// took (with their text), each item's words and total (and its negation
// marks, and its stop words' weight), the posting lists,
// the WordNet concepts and the (key, lemma) pairs behind them.
func (ix *Index) Snapshot(key [32]byte, ids []string, v *Vocabulary, terms [][]uint32) []byte {
	if ix.lex == nil || ix.removed > 0 || len(ix.items) != len(ids) || len(ix.wordOf) > 0 {
		return nil
	}
	ix.materialize()
	w := make([]byte, 0, ix.snapshotSize())
	w = append(w, snapshotMagic...)
	w = append(w, ix.lex.Version()...)
	w = append(w, '\n')
	w = append(w, key[:]...)

	keys := make([]string, len(ix.postings))
	for key, id := range ix.keyIDs {
		keys[id] = key
	}
	w = appendStrings(w, keys)
	// The key ids in the keys' order: a loaded index finds a key by
	// binary search instead of building the map of every key.
	sorted := make([]int32, len(keys))
	for i := range sorted {
		sorted[i] = int32(i)
	}
	slices.SortFunc(sorted, func(a, b int32) int { return strings.Compare(keys[a], keys[b]) })
	w = appendInts(w, sorted)

	wordKeys := make([]int32, len(ix.words))
	weights := make([]float64, len(ix.words))
	stops := make([]int32, len(ix.words))
	for i, ref := range ix.words {
		wordKeys[i], weights[i] = ref.key, ref.weight
		if ref.stop {
			stops[i] = 1
		}
	}
	w = appendInts(w, wordKeys)
	w = appendFloats(w, weights)
	w = appendInts(w, stops)

	// The words of the word table this index took, by their index there
	// and as text: a load checks that the table still has them there.
	w = binary.LittleEndian.AppendUint32(w, uint32(len(ix.vocabOf)))
	var at, as []int32
	var texts []string
	for t, x := range ix.vocabOf {
		if x >= 0 {
			at, as = append(at, int32(t)), append(as, x)
			texts = append(texts, v.words[t])
		}
	}
	w = appendInts(w, at)
	w = appendInts(w, as)
	w = appendStrings(w, texts)

	// The items' words (as indices into the index's words) and totals.
	lens := make([]int32, len(ix.items))
	totals := make([]float64, len(ix.items))
	n := 0
	for i, it := range ix.items {
		lens[i], totals[i] = int32(len(it.terms)), it.total
		n += len(it.terms)
	}
	flat := make([]int32, 0, n)
	for _, it := range ix.items {
		flat = append(flat, it.terms...)
	}
	w = appendInts(w, lens)
	w = appendShared(w, flat)
	w = appendFloats(w, totals)
	// The items' negation marks: the slots of the items with a negation,
	// and their marks as their words held them.
	var marked []int32
	var marks []string
	for i, it := range ix.items {
		if it.marks != "" {
			marked, marks = append(marked, int32(i)), append(marks, it.marks)
		}
	}
	w = appendInts(w, marked)
	w = appendStrings(w, marks)
	// The weight of each item's stop words: with the totals, what bounds
	// an item's side without its words (sideBound).
	stopWeights := totals[:0]
	for _, it := range ix.items {
		stopWeights = append(stopWeights, ix.stopWeight(it))
	}
	w = appendFloats(w, stopWeights)

	lens = lens[:0]
	flat = flat[:0]
	for _, p := range ix.postings {
		lens = append(lens, int32(len(p)))
		flat = append(flat, p...)
	}
	w = appendInts(w, lens)
	w = appendShared(w, flat)

	// The concepts in the order the index found them (their order does
	// not change an answer, but the state is then the built one exactly).
	var cs, cn, ck, cd []int32
	for c, kds := range ix.vocab {
		cs, cn = append(cs, c), append(cn, int32(len(kds)))
		for _, kd := range kds {
			ck, cd = append(ck, kd.key), append(cd, int32(kd.dist))
		}
	}
	w = appendInts(w, cs)
	w = appendInts(w, cn)
	w = appendInts(w, ck)
	w = appendInts(w, cd)

	var sk []int32
	var lemmas []string
	for s := range ix.seen {
		sk = append(sk, ix.keyIDs[s[0]])
		lemmas = append(lemmas, s[1])
	}
	w = appendInts(w, sk)
	w = appendStrings(w, lemmas)
	return binary.BigEndian.AppendUint32(w, crc32.Checksum(w, castagnoli))
}

// snapshotSize is about the size of the index's snapshot, a little more
// as a rule: the buffer is made once, not doubled from a few bytes to
// megabytes (the posting lists and the items' words are most of it).
func (ix *Index) snapshotSize() int {
	words, postings := 0, 0
	for _, it := range ix.items {
		words += len(it.terms)
	}
	for _, p := range ix.postings {
		postings += len(p)
	}
	concepts := 0
	for _, kds := range ix.vocab {
		concepts += 1 + len(kds)
	}
	taken := 0
	for _, x := range ix.vocabOf {
		if x >= 0 {
			taken++
		}
	}
	return 1<<12 + 4*(words+postings) + // the items' words, the posting lists
		24*len(ix.items) + 4*len(ix.postings) + // their lengths, the totals, the stop weights
		20*len(ix.postings) + // the keys (text and order)
		13*len(ix.words) + 20*taken + // the words, those of the word table
		8*concepts + 24*len(ix.seen)
}

// appendInts writes a count, a width and the numbers (taken as unsigned)
// in that width.
func appendInts(w []byte, vs []int32) []byte {
	top := uint32(0)
	for _, v := range vs {
		top = max(top, uint32(v))
	}
	width := 4
	switch {
	case top <= math.MaxUint8:
		width = 1
	case top <= math.MaxUint16:
		width = 2
	}
	return appendWidth(w, vs, width)
}

// sharedFrom is how many numbers an array that a load reads in place (the
// items' words, the posting lists: packedInts.shared) has when it is
// written 4 bytes wide whatever its numbers: a load then shares the bytes
// instead of copying them, for a larger file.
const sharedFrom = 1 << 14

// appendShared is appendInts for an array a load reads in place.
func appendShared(w []byte, vs []int32) []byte {
	if len(vs) < sharedFrom {
		return appendInts(w, vs)
	}
	return appendWidth(w, vs, 4)
}

// appendWidth writes a count, the width and the numbers in that width.
func appendWidth(w []byte, vs []int32, width int) []byte {
	w = binary.LittleEndian.AppendUint32(w, uint32(len(vs)))
	w = append(w, byte(width))
	for _, v := range vs {
		switch width {
		case 1:
			w = append(w, byte(v))
		case 2:
			w = binary.LittleEndian.AppendUint16(w, uint16(v))
		default:
			w = binary.LittleEndian.AppendUint32(w, uint32(v))
		}
	}
	return w
}

func appendFloats(w []byte, vs []float64) []byte {
	w = binary.LittleEndian.AppendUint32(w, uint32(len(vs)))
	for _, v := range vs {
		w = binary.LittleEndian.AppendUint64(w, math.Float64bits(v))
	}
	return w
}

// appendStrings writes the lengths, then the strings one after another.
func appendStrings(w []byte, ss []string) []byte {
	lens := make([]int32, len(ss))
	for i, s := range ss {
		lens[i] = int32(len(s))
	}
	w = appendInts(w, lens)
	for _, s := range ss {
		w = append(w, s...)
	}
	return w
}

// castagnoli checks a stored index for damage (a flipped slot would still
// decode).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// LoadSnapshot fills an empty index as AddAllTerms(ids, v, terms) would,
// from what Snapshot stored under the same key with the same engine: the
// key names the ids and the terms, so the terms are not needed. False when
// data is another engine's, under another key, damaged, or the word table
// no longer has the words the index took at their indices: then the index
// is left empty.
func (ix *Index) LoadSnapshot(key [32]byte, ids []string, v *Vocabulary, data []byte) bool {
	return ix.load(key, ids, v, data, true)
}

// LoadCheckedSnapshot is LoadSnapshot for data its caller read under a
// checksum of its own (a file that holds it whole): the snapshot's
// checksum is not computed again.
func (ix *Index) LoadCheckedSnapshot(key [32]byte, ids []string, v *Vocabulary, data []byte) bool {
	return ix.load(key, ids, v, data, false)
}

func (ix *Index) load(key [32]byte, ids []string, v *Vocabulary, data []byte, check bool) bool {
	if ix.lex == nil || len(ix.items) > 0 || len(ix.keyIDs) > 0 || ix.loaded != nil {
		return false
	}
	head := snapshotMagic + ix.lex.Version() + "\n"
	if !bytes.HasPrefix(data, []byte(head)) || len(data) < len(head)+32+4 {
		return false
	}
	body := data[:len(data)-4]
	if check && crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(data[len(body):]) {
		return false
	}
	data = body
	if !bytes.Equal(key[:], data[len(head):len(head)+32]) {
		return false
	}
	if !ix.loadSnapshot(ids, v, data[len(head)+32:]) {
		ix.reset()
		return false
	}
	return true
}

func (ix *Index) loadSnapshot(ids []string, v *Vocabulary, b []byte) bool {
	r := snapReader{b: b}
	keys := r.strings()
	nkeys := uint64(len(keys))
	sorted := r.ints(nkeys)
	if r.bad || len(sorted) != len(keys) {
		return false
	}
	for i, id := range sorted {
		if i > 0 && keys[sorted[i-1]] >= keys[id] {
			return false // not the keys in their order, each once
		}
	}

	wordKeys := r.ints(nkeys)
	nwords := uint64(len(wordKeys))
	weights := r.floats()
	stops := r.ints(2)
	if r.bad || len(weights) != len(wordKeys) || len(stops) != len(wordKeys) {
		return false
	}
	words := make([]wordRef, len(wordKeys))
	for i := range words {
		words[i] = wordRef{wordKeys[i], weights[i], stops[i] == 1}
	}

	// The word table may have grown since (words of other categories):
	// its new words are not this index's yet, as after AddAllTerms.
	nvocab := int(r.u32())
	if nvocab > len(v.words) {
		return false
	}
	nvocab = len(v.words)
	at := r.ints(uint64(nvocab))
	as := r.ints(nwords)
	texts := r.strings()
	if r.bad || len(as) != len(at) || len(texts) != len(at) {
		return false
	}
	for i, t := range at {
		// The word table is the bullet index's: the same index must
		// still be the same word.
		if texts[i] != v.words[t] {
			return false
		}
	}
	vocabAt := make([]int32, len(words))
	for i := range vocabAt {
		vocabAt[i] = -1
	}
	for i, t := range at {
		if w := as[i]; w >= 0 && int(w) < len(words) {
			vocabAt[w] = t
		}
	}

	// Items: their words, as indices into words, and totals. The largest
	// arrays (the items' words and totals, the posting lists) share data's
	// bytes where the machine can read them in place.
	lens := r.array(math.MaxInt32)
	flat := r.array(nwords).shared()
	totals := r.sharedFloats()
	if r.bad || lens.n != len(ids) || len(totals) != len(ids) {
		return false
	}
	items := make([]item, len(ids))
	for i, id := range ids {
		n := int(lens.at(i))
		if n > len(flat) {
			return false
		}
		items[i] = item{id: id, terms: flat[:n:n], total: totals[i]}
		flat = flat[n:]
	}
	if len(flat) != 0 {
		return false
	}
	marked := r.ints(uint64(len(ids)))
	marks := r.strings()
	if r.bad || len(marks) != len(marked) {
		return false
	}
	for i, slot := range marked {
		items[slot].marks = marks[i]
	}
	stopWeights := r.sharedFloats()
	if r.bad || len(stopWeights) != len(ids) {
		return false
	}

	lens = r.array(math.MaxInt32)
	slots := r.array(uint64(len(ids))).shared()
	if r.bad || lens.n != len(keys) {
		return false
	}
	postings := make([][]int32, len(keys))
	for key := range postings {
		n := int(lens.at(key))
		if n > len(slots) {
			return false
		}
		if n > 0 {
			postings[key] = slots[:n:n]
		}
		slots = slots[n:]
	}
	if len(slots) != 0 {
		return false
	}

	cs := r.ints(math.MaxUint32 + 1) // any int32
	cn := r.ints(math.MaxInt32)
	ck := r.ints(nkeys)
	cd := r.ints(uint64(ix.lex.p.depth) + 1) // hypernym steps: conceptSim holds up to twice depth
	if r.bad || len(cn) != len(cs) || len(cd) != len(ck) {
		return false
	}
	vocab := make(map[int32][]keyDist, len(cs))
	kds := make([]keyDist, len(ck))
	for i := range kds {
		kds[i] = keyDist{ck[i], int8(cd[i])}
	}
	for i, c := range cs {
		n := int(cn[i])
		if n > len(kds) {
			return false
		}
		vocab[c] = kds[:n:n]
		kds = kds[n:]
	}

	// The (key, lemma) pairs are put in a map when the index first
	// changes.
	sk := r.ints(nkeys)
	lemmas := r.strings()
	if r.bad || len(r.b) != 0 || len(kds) != 0 || len(lemmas) != len(sk) {
		return false
	}

	ix.words, ix.vocabOf, ix.postings, ix.vocab = words, nil, postings, vocab
	ix.infos, ix.loadedVocab, ix.vocabAt = make([]*wordInfo, len(words)), v, vocabAt
	ix.keyIDs, ix.byID, ix.seen = nil, nil, nil
	ix.loaded = &loadedTables{keys: keys, sorted: sorted, seenKeys: sk, seenLemmas: lemmas, nvocab: nvocab, at: at, as: as}
	ix.items, ix.sides = make([]*item, len(items)), nil
	ix.storedStops, ix.storedTotals = stopWeights, totals
	ix.stopKey, ix.keyWeight, ix.keyTablesN = nil, nil, 0
	for i := range items {
		ix.items[i] = &items[i]
	}
	return true
}

// loadedTables are what a loaded index builds its maps from.
type loadedTables struct {
	keys       []string // by key id
	sorted     []int32  // key ids in their keys' order
	seenKeys   []int32  // the (key, lemma) pairs: key ids
	seenLemmas []string // and lemmas
	// vocabOf is made of these: the word table's length, and the words
	// of it the index took (at) with their indices in words (as). A
	// query never needs it, and the table holds every category's words.
	nvocab int
	at, as []int32
}

// keyID finds an indexed key's id.
func (ix *Index) keyID(key string) (int32, bool) {
	if l := ix.loaded; l != nil {
		i := sort.Search(len(l.sorted), func(i int) bool { return l.keys[l.sorted[i]] >= key })
		if i < len(l.sorted) && l.keys[l.sorted[i]] == key {
			return l.sorted[i], true
		}
		return 0, false
	}
	id, ok := ix.keyIDs[key]
	return id, ok
}

// materialize builds the maps of a loaded index before it changes.
func (ix *Index) materialize() {
	l := ix.loaded
	if l == nil {
		return
	}
	ix.loaded = nil
	ix.keyIDs = make(map[string]int32, len(l.keys))
	for id, k := range l.keys {
		ix.keyIDs[k] = int32(id)
	}
	ix.byID = make(map[string]int32, len(ix.items))
	for slot, it := range ix.items {
		ix.byID[it.id] = int32(slot)
	}
	ix.seen = make(map[[2]string]bool, len(l.seenKeys))
	for i, k := range l.seenKeys {
		ix.seen[[2]string{l.keys[k], l.seenLemmas[i]}] = true
	}
	ix.vocabOf = make([]int32, l.nvocab)
	if l.nvocab > 0 {
		// -1 everywhere, copied in doubling blocks.
		ix.vocabOf[0] = -1
		for n := 1; n < l.nvocab; n *= 2 {
			copy(ix.vocabOf[n:], ix.vocabOf[:n])
		}
	}
	for i, t := range l.at {
		ix.vocabOf[t] = l.as[i]
	}
}

// snapReader reads what Snapshot wrote; bad once the data ran out or a
// number was out of its range.
type snapReader struct {
	b   []byte
	bad bool
}

func (r *snapReader) fail() {
	r.bad, r.b = true, nil
}

func (r *snapReader) u32() uint32 {
	if len(r.b) < 4 {
		r.fail()
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

// ints reads an array of numbers, each below limit (nil when bad), into
// one new slice.
func (r *snapReader) ints(limit uint64) []int32 {
	a := r.array(limit)
	if r.bad {
		return nil
	}
	out := make([]int32, a.n)
	a.fill(out)
	return out
}

// packedInts is an array of numbers as stored: n of them, width bytes
// each, little-endian.
type packedInts struct {
	b        []byte
	width, n int
}

// array reads an array of numbers, each below limit (empty when bad),
// without copying it.
func (r *snapReader) array(limit uint64) packedInts {
	n := int(r.u32())
	if len(r.b) < 1 {
		r.fail()
		return packedInts{}
	}
	width := int(r.b[0])
	if (width != 1 && width != 2 && width != 4) || n > (len(r.b)-1)/width {
		r.fail()
		return packedInts{}
	}
	a := packedInts{b: r.b[1 : 1+n*width], width: width, n: n}
	r.b = r.b[1+n*width:]
	top := uint32(0)
	switch width {
	case 1:
		for _, x := range a.b {
			top = max(top, uint32(x))
		}
	case 2:
		for i := range n {
			top = max(top, uint32(binary.LittleEndian.Uint16(a.b[2*i:])))
		}
	default:
		for i := range n {
			top = max(top, binary.LittleEndian.Uint32(a.b[4*i:]))
		}
	}
	if n > 0 && uint64(top) >= limit {
		r.fail()
		return packedInts{}
	}
	return a
}

// at is number i.
func (a packedInts) at(i int) int32 {
	switch a.width {
	case 1:
		return int32(a.b[i])
	case 2:
		return int32(binary.LittleEndian.Uint16(a.b[2*i:]))
	}
	return int32(binary.LittleEndian.Uint32(a.b[4*i:]))
}

// fill copies the numbers into out (of length n).
func (a packedInts) fill(out []int32) {
	switch a.width {
	case 1:
		for i, x := range a.b {
			out[i] = int32(x)
		}
	case 2:
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint16(a.b[2*i:]))
		}
	default:
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(a.b[4*i:]))
		}
	}
}

// shared is the numbers as a slice of the stored bytes when they are 4
// bytes wide and the machine reads them so in place; else a new slice.
// The stored bytes must not change after.
func (a packedInts) shared() []int32 {
	if a.width == 4 && a.n > 0 && readsInPlace {
		return unsafe.Slice((*int32)(unsafe.Pointer(&a.b[0])), a.n)
	}
	out := make([]int32, a.n)
	a.fill(out)
	return out
}

// readsInPlace: the machine is little-endian and reads a number at any
// address, so a stored array of 4- or 8-byte numbers is read where it is,
// aligned or not (Go's pointer checks allow an unaligned pointer to a type
// that holds no pointers, as these numbers).
var readsInPlace = (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") && binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func (r *snapReader) floats() []float64 {
	n := int(r.u32())
	if n > len(r.b)/8 {
		r.fail()
		return nil
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(r.b[8*i:]))
	}
	r.b = r.b[8*n:]
	return out
}

// sharedFloats is floats as a slice of the stored bytes where the machine
// reads them in place (readsInPlace); the bytes must not change after.
func (r *snapReader) sharedFloats() []float64 {
	if !readsInPlace {
		return r.floats()
	}
	n := int(r.u32())
	if n > len(r.b)/8 {
		r.fail()
		return nil
	}
	var out []float64
	if n > 0 {
		out = unsafe.Slice((*float64)(unsafe.Pointer(&r.b[0])), n)
	}
	r.b = r.b[8*n:]
	return out
}

// strings reads what appendStrings wrote; the strings share one
// allocation.
func (r *snapReader) strings() []string {
	lens := r.ints(math.MaxInt32)
	total := 0
	for _, n := range lens {
		total += int(n)
	}
	if r.bad || total > len(r.b) {
		r.fail()
		return nil
	}
	all := string(r.b[:total])
	r.b = r.b[total:]
	out := make([]string, len(lens))
	for i, n := range lens {
		out[i], all = all[:n], all[n:]
	}
	return out
}
