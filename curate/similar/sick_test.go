package similar

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// SICK (SemEval-2014 task 1) relatedness: the engine's scores must follow
// the human scores (Pearson >= 0.76 on the training pairs, which the
// engine was calibrated on; TF-IDF gets about 0.48 on the test pairs).
func TestSICKPearson(t *testing.T) {
	f, err := os.Open("../../../shared/data/sick_train.tsv")
	if err != nil {
		t.Skip("sick_train.tsv not available:", err)
	}
	defer f.Close()
	l := NewLexical()
	var got, gold []float64
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 {
			continue
		}
		g, err := strconv.ParseFloat(cols[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Score(cols[1], cols[2]))
		gold = append(gold, g)
	}
	if len(got) < 4000 {
		t.Fatalf("read %d pairs, want 4500", len(got))
	}
	if r := Pearson(got, gold); r < 0.76 {
		t.Errorf("Pearson = %.4f on %d pairs, want >= 0.76", r, len(got))
	} else {
		t.Logf("Pearson = %.4f on %d pairs", r, len(got))
	}
}
