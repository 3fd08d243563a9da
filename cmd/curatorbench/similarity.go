package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/curator-dev/curator/curate/similar"
)

// benchSimilarity measures the similarity engine on labelled sentence pairs
// (SICK: pair_ID, sentence_A, sentence_B, relatedness_score, ...): Pearson
// and Spearman correlation with the human scores, for the default engine,
// the same engine without its negation/number cap, and a plain TF-IDF
// cosine baseline, plus the time per pair.
//
//	curatorbench similarity --data ../shared/data/sick_train.tsv
func benchSimilarity(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("similarity", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/sick_train.tsv", "TSV of labelled pairs (SICK format)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	pairs, gold, err := readLabelledPairs(*data)
	if err != nil {
		return err
	}
	lex := similar.NewLexical()
	lex.Score("warm up", "the word table") // load the embedded WordNet table outside the timing
	engines := []struct {
		name  string
		score func(a, b string) float64
	}{
		{"lexical (default, with cap)", lex.Score},
		{"lexical without negation/number cap", lex.WithoutCap().Score},
		{"TF-IDF cosine baseline", newTFIDF(pairs).score},
	}
	fmt.Fprintf(stdout, "%s: %d pairs\n", *data, len(pairs))
	fmt.Fprintf(stdout, "%-38s %8s %8s %12s\n", "engine", "pearson", "spearman", "time/pair")
	for _, e := range engines {
		got := make([]float64, len(pairs))
		start := time.Now()
		for i, p := range pairs {
			got[i] = e.score(p[0], p[1])
		}
		per := time.Since(start) / time.Duration(len(pairs))
		fmt.Fprintf(stdout, "%-38s %8.4f %8.4f %12s\n", e.name, similar.Pearson(got, gold), similar.Pearson(ranks(got), ranks(gold)), per)
	}
	return nil
}

func readLabelledPairs(path string) ([][2]string, []float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var pairs [][2]string
	var gold []float64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 {
			continue
		}
		g, err := strconv.ParseFloat(cols[3], 64)
		if err != nil {
			if n == 1 {
				continue // header
			}
			return nil, nil, fmt.Errorf("%s:%d: relatedness %q: %w", path, n, cols[3], err)
		}
		pairs = append(pairs, [2]string{cols[1], cols[2]})
		gold = append(gold, g)
	}
	if len(pairs) < 2 {
		return nil, nil, fmt.Errorf("%s: fewer than 2 labelled pairs", path)
	}
	return pairs, gold, sc.Err()
}

// ranks gives each value its rank (1-based), ties sharing their mean rank.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			r[idx[k]] = float64(i+j+1) / 2
		}
		i = j
	}
	return r
}

// tfidf is the baseline: cosine of TF-IDF vectors of lower-cased words,
// IDF from all the sentences of the data set.
type tfidf struct {
	idf map[string]float64
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newTFIDF(pairs [][2]string) *tfidf {
	df := map[string]int{}
	n := 0
	for _, p := range pairs {
		for _, s := range p {
			n++
			seen := map[string]bool{}
			for _, w := range words(s) {
				if !seen[w] {
					seen[w] = true
					df[w]++
				}
			}
		}
	}
	t := &tfidf{idf: map[string]float64{}}
	for w, d := range df {
		t.idf[w] = math.Log(float64(n+1) / float64(d+1))
	}
	return t
}

func (t *tfidf) vector(s string) map[string]float64 {
	v := map[string]float64{}
	for _, w := range words(s) {
		v[w] += t.idf[w]
	}
	return v
}

func (t *tfidf) score(a, b string) float64 {
	va, vb := t.vector(a), t.vector(b)
	keys := make([]string, 0, len(va))
	for w := range va {
		keys = append(keys, w)
	}
	sort.Strings(keys) // fixed summation order
	var dot, na, nb float64
	for _, w := range keys {
		dot += va[w] * vb[w]
		na += va[w] * va[w]
	}
	keys = keys[:0]
	for w := range vb {
		keys = append(keys, w)
	}
	sort.Strings(keys)
	for _, w := range keys {
		nb += vb[w] * vb[w]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
