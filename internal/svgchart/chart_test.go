package svgchart

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestChartIsWellFormedWithItsData(t *testing.T) {
	for _, c := range []Chart{
		{ID: "a", Title: "Trash <per run>", XLabel: "run", YLabel: "entries", Labels: []string{"1", "2", "3"},
			Series: []Series{{Name: "duplicates", Values: []float64{1, 0, 4}}, {Name: "low score", Values: []float64{2, 3, 0}}}, Stacked: true},
		{ID: "b", Title: "Active", XLabel: "day", YLabel: "bullets", Labels: []string{"d1", "d2"},
			Series: []Series{{Name: "pattern", Values: []float64{1, 2.5}}}, Line: true},
		{ID: "c", Title: "Empty", XLabel: "x", YLabel: "y"},
	} {
		html := string(c.HTML())
		var v any
		if err := xml.Unmarshal([]byte(html), &v); err != nil {
			t.Fatalf("%s: not well-formed: %v\n%s", c.ID, err, html)
		}
		for _, want := range []string{"<title id=\"" + c.ID + "-t\">", "<desc", "<table", c.XLabel, c.YLabel} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: no %q in\n%s", c.ID, want, html)
			}
		}
		if strings.Contains(html, "<per run>") || strings.Contains(html, "http") && !strings.Contains(html, "xmlns") {
			t.Errorf("%s: unescaped text or an external reference:\n%s", c.ID, html)
		}
	}
}

func TestChartTableHoldsEveryValue(t *testing.T) {
	c := Chart{ID: "t", Title: "T", XLabel: "run", YLabel: "entries", Labels: []string{"r1", "r2"},
		Series: []Series{{Name: "A", Values: []float64{3, 7}}, {Name: "B", Values: []float64{0, 12}}}}
	got := c.table()
	for _, want := range []string{"<th scope=\"row\">r1</th><td>3</td><td>0</td>", "<th scope=\"row\">r2</th><td>7</td><td>12</td>"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %s", want, got)
		}
	}
}

func TestTicksCoverTheTop(t *testing.T) {
	for _, top := range []float64{1, 3, 7, 10, 99, 1234, 100000} {
		tk := ticks(top)
		if tk[0] != 0 || tk[len(tk)-1] < top || len(tk) > 7 {
			t.Errorf("ticks(%v) = %v", top, tk)
		}
	}
}
