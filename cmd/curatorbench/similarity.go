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

// benchSimilarity measures the similarity engine on labelled sentence pairs:
// Pearson and Spearman correlation with the human scores, for the default
// engine (word vectors and sentence check included), the engine without
// its sentence check, without its word vectors, without its negation/number
// cap, a token Jaccard and a plain TF-IDF
// cosine baseline, plus the time per pair; then the AppWorld paraphrase
// that must merge with its bullet. --data reads SICK files (pair_ID,
// sentence_A, sentence_B, relatedness_score, ...) and SemEval STS files as
// brmson/dataset-sts keeps them (score, sentence 1, sentence 2; pairs
// without a score are left out).
//
//	curatorbench similarity --data ../shared/data/sick_train.tsv
func benchSimilarity(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("similarity", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/sick_train.tsv", "TSV of labelled pairs (SICK or STS format)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	pairs, gold, err := readLabelledPairs(*data)
	if err != nil {
		return err
	}
	lex := similar.NewLexical()
	lex.Score("warm up", "the word table") // load the embedded tables outside the timing
	engines := []struct {
		name  string
		score func(a, b string) float64
	}{
		{"lexical (default: vectors, cap)", lex.Score},
		{"lexical without sentence check", lex.WithoutSentence().Score},
		{"lexical without word vectors", lex.WithoutVectors().Score},
		{"lexical without negation/number cap", lex.WithoutCap().Score},
		{"token Jaccard baseline", jaccard},
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
	fmt.Fprintf(stdout, "AppWorld paraphrase: %.3f with vectors, %.3f without (merges at %.1f)\n",
		lex.Score(paraphrase[0], paraphrase[1]), lex.WithoutVectors().Score(paraphrase[0], paraphrase[1]), similar.MergeFloor)
	return nil
}

// paraphrase is a lesson and the AppWorld playbook bullet (shr-00005) it
// says again in other words.
var paraphrase = [2]string{
	"Check the API documentation with show_api_doc before calling an unfamiliar API",
	"Always look at API specifications (using apis.api_docs.show_api_doc) before calling an API.",
}

// jaccard is the share of distinct lower-cased words two texts have in
// common.
func jaccard(a, b string) float64 {
	wa, wb := map[string]bool{}, map[string]bool{}
	for _, w := range words(a) {
		wa[w] = true
	}
	for _, w := range words(b) {
		wb[w] = true
	}
	both := 0
	for w := range wa {
		if wb[w] {
			both++
		}
	}
	if n := len(wa) + len(wb) - both; n > 0 {
		return float64(both) / float64(n)
	}
	return 0
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
	sick := true
	for n := 1; sc.Scan(); n++ {
		cols := strings.Split(sc.Text(), "\t")
		if n == 1 && !strings.HasPrefix(cols[0], "pair_ID") && len(cols) >= 3 {
			sick = false // STS: score, sentence 1, sentence 2
		}
		score, a, b := "", "", ""
		switch {
		case sick && len(cols) >= 4:
			score, a, b = cols[3], cols[1], cols[2]
		case !sick && len(cols) >= 3:
			score, a, b = cols[0], cols[1], cols[2]
			if score == "" {
				continue // not scored
			}
		default:
			continue
		}
		g, err := strconv.ParseFloat(score, 64)
		if err != nil {
			if n == 1 {
				continue // header
			}
			return nil, nil, fmt.Errorf("%s:%d: score %q: %w (want SICK: pair_ID, sentence_A, sentence_B, relatedness_score; or STS: score, sentence 1, sentence 2)", path, n, score, err)
		}
		pairs = append(pairs, [2]string{a, b})
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
