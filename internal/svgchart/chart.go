package svgchart

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// Chart is one chart: values of each series at each label.
type Chart struct {
	// ID names the chart in the page (its figure's id).
	ID string
	// Title is the chart's heading; Desc says in words what it shows.
	Title, Desc string
	// XLabel and YLabel name the axes, the unit in YLabel ("entries").
	XLabel, YLabel string
	// Labels are the points of the x axis, in order.
	Labels []string
	Series []Series
	// Stacked stacks the bars of the series; Line draws each series as a
	// line instead of bars.
	Stacked, Line bool
}

// Series is one named row of values, one per label.
type Series struct {
	Name   string
	Values []float64
}

// Size of the drawing, in SVG units (it scales to the page's width).
const (
	width, height                  = 720, 260
	left, right, topPad, bottomPad = 56, 12, 12, 48
)

// HTML is the chart as a figure: its SVG and, in a details element, its
// data as a table.
func (c Chart) HTML() template.HTML {
	var b strings.Builder
	esc := template.HTMLEscapeString
	fmt.Fprintf(&b, `<figure class="chart" id="%s">`, esc(c.ID))
	fmt.Fprintf(&b, `<figcaption>%s</figcaption>`, esc(c.Title))
	b.WriteString(c.svg())
	b.WriteString(c.legend())
	b.WriteString(`<details><summary>Data</summary>`)
	b.WriteString(c.table())
	b.WriteString(`</details></figure>`)
	return template.HTML(b.String())
}

// max is the top of the value axis: the largest bar (or stack), at least 1.
func (c Chart) max() float64 {
	top := 0.0
	for i := range c.Labels {
		sum := 0.0
		for _, s := range c.Series {
			v := at(s.Values, i)
			if c.Stacked {
				sum += v
			} else {
				sum = math.Max(sum, v)
			}
		}
		top = math.Max(top, sum)
	}
	return math.Max(top, 1)
}

// ticks are round values from 0 to at least top, about four of them.
func ticks(top float64) []float64 {
	step := math.Pow(10, math.Floor(math.Log10(top/4)))
	for _, m := range []float64{1, 2, 5, 10} {
		if top/(step*m) <= 5 {
			step *= m
			break
		}
	}
	step = math.Max(step, 1)
	var out []float64
	for v := 0.0; v < top+step; v += step {
		out = append(out, v)
		if v >= top {
			break
		}
	}
	return out
}

func (c Chart) svg() string {
	var b strings.Builder
	esc := template.HTMLEscapeString
	id := esc(c.ID)
	fmt.Fprintf(&b, `<svg viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t %s-d" preserveAspectRatio="xMidYMid meet">`, width, height, id, id)
	fmt.Fprintf(&b, `<title id="%s-t">%s</title><desc id="%s-d">%s</desc>`, id, esc(c.Title), id, esc(c.Desc+" "+c.summary()))
	tk := ticks(c.max())
	top := tk[len(tk)-1]
	plotW, plotH := float64(width-left-right), float64(height-top0()-bottomPad)
	y := func(v float64) float64 { return float64(top0()) + plotH*(1-v/top) }
	for _, t := range tk {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, left, width-right, y(t), y(t))
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%.1f" text-anchor="end">%s</text>`, left-6, y(t)+4, num(t))
	}
	n := len(c.Labels)
	slot := plotW / float64(max(n, 1))
	x := func(i int) float64 { return float64(left) + slot*float64(i) }
	if c.Line {
		for si, s := range c.Series {
			var pts []string
			for i := range c.Labels {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i)+slot/2, y(at(s.Values, i))))
			}
			fmt.Fprintf(&b, `<polyline class="line s%d" points="%s"><title>%s</title></polyline>`, si%8, strings.Join(pts, " "), esc(s.Name))
			if n <= 60 {
				for i := range c.Labels {
					fmt.Fprintf(&b, `<circle class="dot s%d" cx="%.1f" cy="%.1f" r="2.5"><title>%s, %s: %s</title></circle>`, si%8, x(i)+slot/2, y(at(s.Values, i)), esc(c.Labels[i]), esc(s.Name), num(at(s.Values, i)))
				}
			}
		}
	} else {
		groups := len(c.Series)
		if c.Stacked {
			groups = 1
		}
		barW := math.Max(slot*0.8/float64(max(groups, 1)), 0.5)
		for i := range c.Labels {
			base := 0.0
			for si, s := range c.Series {
				v := at(s.Values, i)
				if v == 0 {
					continue
				}
				bx := x(i) + slot*0.1
				lo := 0.0
				if c.Stacked {
					lo = base
					base += v
				} else {
					bx += barW * float64(si)
				}
				fmt.Fprintf(&b, `<rect class="bar s%d" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s, %s: %s</title></rect>`,
					si%8, bx, y(lo+v), barW, y(lo)-y(lo+v), esc(c.Labels[i]), esc(s.Name), num(v))
			}
		}
	}
	// axes, the x labels (about ten of them) and the axis names
	fmt.Fprintf(&b, `<line class="axis" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, left, width-right, y(0), y(0))
	fmt.Fprintf(&b, `<line class="axis" x1="%d" x2="%d" y1="%d" y2="%.1f"/>`, left, left, top0(), y(0))
	every := max(1, (n+9)/10)
	for i := 0; i < n; i += every {
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x(i)+slot/2, y(0)+15, esc(c.Labels[i]))
	}
	fmt.Fprintf(&b, `<text class="label" x="%.1f" y="%d" text-anchor="middle">%s</text>`, float64(left)+plotW/2, height-6, esc(c.XLabel))
	fmt.Fprintf(&b, `<text class="label" transform="translate(14 %.1f) rotate(-90)" text-anchor="middle">%s</text>`, float64(top0())+plotH/2, esc(c.YLabel))
	b.WriteString(`</svg>`)
	return b.String()
}

func top0() int { return topPad }

// summary is the chart's totals in words, for its desc.
func (c Chart) summary() string {
	if len(c.Labels) == 0 {
		return "No data."
	}
	var parts []string
	for _, s := range c.Series {
		sum := 0.0
		for _, v := range s.Values {
			sum += v
		}
		if c.Line {
			parts = append(parts, fmt.Sprintf("%s ends at %s", s.Name, num(at(s.Values, len(c.Labels)-1))))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s in all", s.Name, num(sum)))
		}
	}
	return fmt.Sprintf("%d points from %s to %s: %s.", len(c.Labels), c.Labels[0], c.Labels[len(c.Labels)-1], strings.Join(parts, ", "))
}

func (c Chart) legend() string {
	var b strings.Builder
	b.WriteString(`<ul class="legend">`)
	for si, s := range c.Series {
		fmt.Fprintf(&b, `<li><span class="key s%d"></span>%s</li>`, si%8, template.HTMLEscapeString(s.Name))
	}
	b.WriteString(`</ul>`)
	return b.String()
}

// table is the chart's data: one row per label, one column per series.
func (c Chart) table() string {
	var b strings.Builder
	esc := template.HTMLEscapeString
	fmt.Fprintf(&b, `<table class="data"><caption>%s (%s)</caption><thead><tr><th scope="col">%s</th>`, esc(c.Title), esc(c.YLabel), esc(c.XLabel))
	for _, s := range c.Series {
		fmt.Fprintf(&b, `<th scope="col">%s</th>`, esc(s.Name))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for i, l := range c.Labels {
		fmt.Fprintf(&b, `<tr><th scope="row">%s</th>`, esc(l))
		for _, s := range c.Series {
			fmt.Fprintf(&b, `<td>%s</td>`, num(at(s.Values, i)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return b.String()
}

func at(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// num prints a value: whole numbers without a point, others with two
// decimals at most.
func num(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
