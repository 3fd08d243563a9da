package similar

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"sort"
	"strings"
)

// snapshotMagic starts a stored candidate index; the engine's version
// follows it, so another analysis of the words is never taken.
const snapshotMagic = "curator candidate index 1\n"

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
// takes back for the same key, ids and terms, without analysing a word or
// building a posting list; nil when the index cannot be stored so (another
// engine, or items changed since AddAllTerms filled the empty index).
// Call it right after AddAllTerms; key names the batch (BatchKey).
func (ix *Index) Snapshot(key [32]byte, ids []string, v *Vocabulary, terms [][]uint32) []byte {
	if ix.lex == nil || ix.removed > 0 || len(ix.items) != len(ids) || len(ix.wordOf) > 0 {
		return nil
	}
	ix.materialize()
	w := []byte(snapshotMagic)
	w = append(w, ix.lex.Version()...)
	w = append(w, '\n')
	w = append(w, key[:]...)
	keys := make([]string, len(ix.postings))
	for key, id := range ix.keyIDs {
		keys[id] = key
	}
	w = binary.AppendUvarint(w, uint64(len(keys)))
	for _, key := range keys {
		w = binary.AppendUvarint(w, uint64(len(key)))
		w = append(w, key...)
	}
	// The key ids in the keys' order: a loaded index finds a key by
	// binary search instead of building the map of every key.
	sorted := make([]int32, len(keys))
	for i := range sorted {
		sorted[i] = int32(i)
	}
	slices.SortFunc(sorted, func(a, b int32) int { return strings.Compare(keys[a], keys[b]) })
	for _, id := range sorted {
		w = binary.AppendUvarint(w, uint64(id))
	}
	w = binary.AppendUvarint(w, uint64(len(ix.words)))
	for _, ref := range ix.words {
		w = binary.AppendUvarint(w, uint64(ref.key))
		w = binary.BigEndian.AppendUint64(w, math.Float64bits(ref.weight))
		if ref.stop {
			w = append(w, 1)
		} else {
			w = append(w, 0)
		}
	}
	n := 0
	for _, x := range ix.vocabOf {
		if x >= 0 {
			n++
		}
	}
	w = binary.AppendUvarint(w, uint64(len(ix.vocabOf)))
	w = binary.AppendUvarint(w, uint64(n))
	for t, x := range ix.vocabOf {
		if x >= 0 {
			w = binary.AppendUvarint(w, uint64(t))
			w = binary.AppendUvarint(w, uint64(x))
			w = binary.AppendUvarint(w, uint64(len(v.words[t])))
			w = append(w, v.words[t]...)
		}
	}
	for _, p := range ix.postings {
		w = binary.AppendUvarint(w, uint64(len(p)))
		prev := int32(0)
		for _, slot := range p {
			w = binary.AppendUvarint(w, uint64(slot-prev))
			prev = slot
		}
	}
	// The concepts in the order the index found them (their order does
	// not change an answer, but the state is then the built one exactly).
	w = binary.AppendUvarint(w, uint64(len(ix.vocab)))
	for c, kds := range ix.vocab {
		w = binary.AppendVarint(w, int64(c))
		w = binary.AppendUvarint(w, uint64(len(kds)))
		for _, kd := range kds {
			w = binary.AppendUvarint(w, uint64(kd.key))
			w = binary.AppendVarint(w, int64(kd.dist))
		}
	}
	w = binary.AppendUvarint(w, uint64(len(ix.seen)))
	for s := range ix.seen {
		w = binary.AppendUvarint(w, uint64(ix.keyIDs[s[0]]))
		w = binary.AppendUvarint(w, uint64(len(s[1])))
		w = append(w, s[1]...)
	}
	return binary.BigEndian.AppendUint32(w, crc32.Checksum(w, castagnoli))
}

// castagnoli checks a stored index for damage (a flipped slot would still
// decode).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// LoadSnapshot fills an empty index as AddAllTerms(ids, v, terms()) would,
// from what Snapshot stored under the same key with the same engine; terms
// is asked only once the key matched (nil terms: the items cannot be
// given). False when data is another engine's, under another key or
// damaged: then the index is left empty.
func (ix *Index) LoadSnapshot(key [32]byte, ids []string, v *Vocabulary, terms func() [][]uint32, data []byte) bool {
	if ix.lex == nil || len(ix.items) > 0 || len(ix.keyIDs) > 0 || ix.loaded != nil {
		return false
	}
	head := snapshotMagic + ix.lex.Version() + "\n"
	if !bytes.HasPrefix(data, []byte(head)) || len(data) < len(head)+32+4 {
		return false
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(data[len(body):]) {
		return false
	}
	data = body
	if !bytes.Equal(key[:], data[len(head):len(head)+32]) {
		return false
	}
	ts := terms()
	if ts == nil || len(ts) != len(ids) || !ix.loadSnapshot(ids, v, ts, data[len(head)+32:]) {
		ix.reset()
		return false
	}
	return true
}

func (ix *Index) loadSnapshot(ids []string, v *Vocabulary, terms [][]uint32, b []byte) bool {
	r := snapReader{b: b}
	nkeys := r.count(1)
	// One string holds every key; keys slice it.
	keys := make([]string, nkeys)
	for i := 0; i < nkeys && !r.bad; i++ {
		keys[i] = string(r.bytes())
	}
	sorted := make([]int32, nkeys)
	for i := range sorted {
		id := r.uvarint()
		if id >= uint64(nkeys) || (i > 0 && keys[sorted[i-1]] >= keys[id]) {
			return false // not the keys in their order, each once
		}
		sorted[i] = int32(id)
	}
	nwords := r.count(10)
	words := make([]wordRef, nwords)
	for i := range words {
		key := r.uvarint()
		weight := math.Float64frombits(r.u64())
		stop := r.byte()
		if key >= uint64(nkeys) || stop > 1 {
			return false
		}
		words[i] = wordRef{int32(key), weight, stop == 1}
	}
	// The word table may have grown since (words of other categories):
	// its new words are not this index's yet, as after AddAllTerms.
	nvocab := r.uvarint()
	if nvocab > uint64(len(v.words)) {
		return false
	}
	nvocab = uint64(len(v.words))
	vocabOf := make([]int32, nvocab)
	for i := range vocabOf {
		vocabOf[i] = -1
	}
	for n := r.count(2); n > 0 && !r.bad; n-- {
		t, x := r.uvarint(), r.uvarint()
		// The word table is the bullet index's: the same index must
		// still be the same word.
		if t >= nvocab || x >= uint64(nwords) || string(r.bytes()) != v.words[t] {
			return false
		}
		vocabOf[t] = int32(x)
	}
	// Items, their words and totals, as add computes them.
	items := make([]item, len(ids))
	n := 0
	for _, ts := range terms {
		n += len(ts)
	}
	flat := make([]int32, n)
	for i, id := range ids {
		ts := flat[:len(terms[i]):len(terms[i])]
		flat = flat[len(terms[i]):]
		total := 0.0
		for j, t := range terms[i] {
			if uint64(t) >= nvocab || vocabOf[t] < 0 {
				return false
			}
			ts[j] = vocabOf[t]
			total += words[ts[j]].weight
		}
		items[i] = item{id: id, lazy: true, terms: ts, total: total}
	}
	postings := make([][]int32, nkeys)
	var backing []int32
	for key := range postings {
		c := r.count(1)
		if r.bad {
			return false
		}
		if c == 0 {
			continue
		}
		if len(backing) < c {
			backing = make([]int32, max(c, 1<<16))
		}
		p := backing[:c:c]
		backing = backing[c:]
		prev := uint64(0)
		for j := range p {
			prev += r.uvarint()
			if prev >= uint64(len(ids)) {
				return false
			}
			p[j] = int32(prev)
		}
		postings[key] = p
	}
	nc := r.count(2)
	vocab := make(map[int32][]keyDist, nc)
	for ; nc > 0 && !r.bad; nc-- {
		c := int32(r.varint())
		m := r.count(2)
		kds := make([]keyDist, m)
		for j := range kds {
			key, dist := r.uvarint(), r.varint()
			if key >= uint64(nkeys) || dist < 0 || dist > math.MaxInt8 {
				return false
			}
			kds[j] = keyDist{int32(key), int8(dist)}
		}
		vocab[c] = kds
	}
	// The (key, lemma) pairs are decoded when the index first changes.
	seen := r.b
	if len(seen) == 0 || !decodeSeen(seen, keys, nil) {
		return false
	}
	r.b = nil
	if r.bad {
		return false
	}
	ix.words, ix.vocabOf, ix.postings, ix.vocab = words, vocabOf, postings, vocab
	ix.keyIDs, ix.byID, ix.seen = nil, nil, nil
	ix.loaded = &loadedTables{keys: keys, sorted: sorted, seen: seen}
	ix.items = make([]*item, len(items))
	for i := range items {
		ix.items[i] = &items[i]
	}
	return true
}

// loadedTables are what a loaded index builds its maps from.
type loadedTables struct {
	keys   []string // by key id
	sorted []int32  // key ids in their keys' order
	seen   []byte   // the (key, lemma) pairs as stored
}

// decodeSeen reads the stored (key, lemma) pairs into seen (nil: only
// checks them); false when they are damaged.
func decodeSeen(b []byte, keys []string, seen map[[2]string]bool) bool {
	r := snapReader{b: b}
	for ns := r.count(2); ns > 0 && !r.bad; ns-- {
		key := r.uvarint()
		lemma := r.bytes()
		if key >= uint64(len(keys)) {
			return false
		}
		if seen != nil {
			seen[[2]string{keys[key], string(lemma)}] = true
		}
	}
	return !r.bad && len(r.b) == 0
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
	ix.seen = map[[2]string]bool{}
	decodeSeen(l.seen, l.keys, ix.seen)
}

// snapReader reads what Snapshot wrote; bad once the data ran out.
type snapReader struct {
	b   []byte
	bad bool
}

func (r *snapReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *snapReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a number of things that take at least size bytes each, so
// that damaged data cannot ask for a huge allocation.
func (r *snapReader) count(size int) int {
	v := r.uvarint()
	if v > uint64(len(r.b)/size) {
		r.bad, r.b = true, nil
		return 0
	}
	return int(v)
}

func (r *snapReader) u64() uint64 {
	if len(r.b) < 8 {
		r.bad, r.b = true, nil
		return 0
	}
	v := binary.BigEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *snapReader) byte() byte {
	if len(r.b) < 1 {
		r.bad, r.b = true, nil
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *snapReader) bytes() []byte {
	n := r.count(1)
	if r.bad {
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}
