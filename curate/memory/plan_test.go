package memory

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

var t0 = time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)

// day is a window that holds every entry of the tests (t0 and the minutes
// after it).
var day = Window{From: t0, To: t0.Add(24 * time.Hour)}

type mem struct {
	id, typ, brief, author string
	conf                   int
	p, s, e, u             float64
	tags                   int
	at                     int // minutes after t0
}

func (m mem) record() *mdstore.Memory {
	c := m.conf
	if c == 0 {
		c = 3
	}
	typ := m.typ
	if typ == "" {
		typ = "fact"
	}
	brief := m.brief
	if brief == "" {
		brief = "brief of " + m.id
	}
	tags := make([]string, m.tags)
	for i := range tags {
		tags[i] = fmt.Sprintf("t%d", i)
	}
	return &mdstore.Memory{ID: m.id, Type: typ, Brief: brief, Author: m.author, ContentConfidence: &c, Tags: tags,
		ImportanceFactors: map[string]float64{"proximity": m.p, "surprisal": m.s, "entity_priority": m.e, "unambiguity": m.u},
		IngestionTime:     t0.Add(time.Duration(m.at) * time.Minute), Path: "memory/inbox/" + m.id + ".md"}
}

// decision is "promote/A", "trash/low_score", "trash/duplicate:<id>" or "keep".
func decisions(p *Plan) map[string]string {
	out := map[string]string{}
	for _, a := range p.Promoted {
		out[a.ID] = "promote/" + a.Channel
	}
	for _, a := range p.Discarded {
		out[a.ID] = "trash/" + a.Reason
	}
	for _, a := range p.Duplicates {
		out[a.ID] = "trash/duplicate:" + a.DuplicateOf
	}
	for _, a := range p.Kept {
		out[a.ID] = "keep"
	}
	for _, a := range p.LeftForReflection {
		out[a.ID] = "reflect:" + strings.Join(a.SharesKeyWith, ",")
	}
	return out
}

func TestPlanMemoryRules(t *testing.T) {
	cases := []struct {
		name string
		m    mem
		want string
	}{
		{"score exactly 0.75 with confidence 4 is channel A", mem{p: 0.75, s: 0.75, e: 0.75, u: 0.75, conf: 4}, "promote/A"},
		{"score exactly 0.75 with confidence 3 is not A", mem{p: 0.75, s: 0.75, e: 0.75, u: 0.75, conf: 3}, "keep"},
		{"score just under 0.75 is not A", mem{p: 0.74, s: 0.75, e: 0.75, u: 0.75, conf: 5}, "keep"},
		{"surprisal exactly 0.9 with confidence 3 is channel B", mem{s: 0.9, conf: 3}, "promote/B"},
		{"surprisal 0.9 with confidence 2 is not B", mem{s: 0.9, conf: 2}, "trash/low_score"},
		{"surprisal 0.89 is not B", mem{s: 0.89, p: 0.5, conf: 5}, "keep"},
		{"entity_priority exactly 0.7 with 2 tags is channel C", mem{e: 0.7, tags: 2, conf: 3, p: 0.5}, "promote/C"},
		{"entity_priority 0.7 with 1 tag is not C", mem{e: 0.7, tags: 1, conf: 3, p: 0.5}, "keep"},
		{"entity_priority 0.7 with 2 tags and confidence 2 is not C", mem{e: 0.7, tags: 2, conf: 2, p: 0.5}, "keep"},
		{"score exactly 0.3 stays", mem{p: 0.3, s: 0.3, e: 0.3, u: 0.3}, "keep"},
		{"score 0.29 is trashed", mem{p: 0.29, s: 0.29, e: 0.29, u: 0.29}, "trash/low_score"},
		{"missing factors count as 0", mem{}, "trash/low_score"},
		{"lessons are never promoted one by one", mem{typ: "lesson", p: 1, s: 1, e: 1, u: 1, conf: 5, tags: 3}, "keep"},
		{"weak lessons are trashed", mem{typ: "lesson", p: 0.2}, "trash/low_score"},
		{"concepts are promoted like facts", mem{typ: "concept", s: 0.95}, "promote/B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.m.id = "x"
			p := PlanPass(day, []*mdstore.Memory{c.m.record()}, Options{})
			if got := decisions(p)["x"]; got != c.want {
				t.Errorf("got %s, want %s (score %v)", got, c.want, Score(c.m.record()))
			}
		})
	}
}

func TestPlanMemoryDedup(t *testing.T) {
	han40 := strings.Repeat("记", 40) // 40 runes, 120 bytes
	emoji := strings.Repeat("🙂", 39) // 39 runes, 156 bytes
	cases := []struct {
		name string
		ms   []mem
		want map[string]string
	}{
		{"same author keeps the newest", []mem{
			{id: "a", brief: "same", author: "x", at: 1, p: 0.8},
			{id: "b", brief: "same", author: "x", at: 2, p: 0.8},
		}, map[string]string{"a": "trash/duplicate:b", "b": "keep"}},
		{"different authors are left for reflection, not scored", []mem{
			{id: "a", brief: "same", author: "x", at: 1, p: 0.8},
			{id: "b", brief: "same", author: "y", at: 2, p: 0.8},
		}, map[string]string{"a": "reflect:b", "b": "reflect:a"}},
		{"different authors: a strong entry is not promoted, a weak one not trashed", []mem{
			{id: "a", brief: "same", author: "x", at: 1, s: 0.95, conf: 5},
			{id: "b", brief: "same", author: "y", at: 2},
		}, map[string]string{"a": "reflect:b", "b": "reflect:a"}},
		{"different types never collide", []mem{
			{id: "a", brief: "same", author: "x", at: 1, p: 0.8},
			{id: "b", typ: "concept", brief: "same", author: "x", at: 2, p: 0.8},
		}, map[string]string{"a": "keep", "b": "keep"}},
		{"tie in ingestion_time: the larger id is newest", []mem{
			{id: "b", brief: "same", author: "x", at: 5, p: 0.8},
			{id: "a", brief: "same", author: "x", at: 5, p: 0.8},
		}, map[string]string{"a": "trash/duplicate:b", "b": "keep"}},
		{"40 runes of Chinese decide, not 40 bytes", []mem{
			{id: "a", brief: han40 + "甲", author: "x", at: 1, p: 0.8},
			{id: "b", brief: han40 + "乙", author: "x", at: 2, p: 0.8},
		}, map[string]string{"a": "trash/duplicate:b", "b": "keep"}},
		{"a difference in rune 14 of Chinese is not a duplicate (same first 40 bytes)", []mem{
			{id: "a", brief: strings.Repeat("记", 13) + "甲" + strings.Repeat("记", 26), author: "x", at: 1, p: 0.8},
			{id: "b", brief: strings.Repeat("记", 13) + "乙" + strings.Repeat("记", 26), author: "x", at: 2, p: 0.8},
		}, map[string]string{"a": "keep", "b": "keep"}},
		{"emoji briefs differing in rune 40", []mem{
			{id: "a", brief: emoji + "🍎", author: "x", at: 1, p: 0.8},
			{id: "b", brief: emoji + "🍐", author: "x", at: 2, p: 0.8},
		}, map[string]string{"a": "keep", "b": "keep"}},
		{"emoji briefs differing after rune 40", []mem{
			{id: "a", brief: emoji + "🍎" + "1", author: "x", at: 1, p: 0.8},
			{id: "b", brief: emoji + "🍎" + "2", author: "x", at: 2, p: 0.8},
		}, map[string]string{"a": "trash/duplicate:b", "b": "keep"}},
		{"three copies, two authors", []mem{
			{id: "a", brief: "same", author: "x", at: 1, p: 0.9, s: 0.95},
			{id: "b", brief: "same", author: "y", at: 2, p: 0.8},
			{id: "c", brief: "same", author: "x", at: 3, p: 0.8},
		}, map[string]string{"a": "trash/duplicate:c", "b": "reflect:c", "c": "reflect:b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []*mdstore.Memory
			for _, m := range c.ms {
				in = append(in, m.record())
			}
			got := decisions(PlanPass(day, in, Options{}))
			for id, want := range c.want {
				if got[id] != want {
					t.Errorf("%s: got %s, want %s", id, got[id], want)
				}
			}
		})
	}
}

func TestPlanMemoryManyCandidates(t *testing.T) {
	var in []*mdstore.Memory
	for i := 0; i < 250; i++ {
		in = append(in, mem{id: fmt.Sprintf("m%03d", i), s: 0.95, at: i % 7}.record())
	}
	p := PlanPass(day, in, Options{})
	if len(p.Candidates) != 250 || len(p.Promoted) != 250 {
		t.Fatalf("candidates %d promoted %d, want 250 each", len(p.Candidates), len(p.Promoted))
	}
	// ordered by (ingestion_time, id)
	for i := 1; i < len(p.Candidates); i++ {
		a, b := in[0], in[0]
		for _, m := range in {
			if m.ID == p.Candidates[i-1] {
				a = m
			}
			if m.ID == p.Candidates[i] {
				b = m
			}
		}
		if b.IngestionTime.Before(a.IngestionTime) || (b.IngestionTime.Equal(a.IngestionTime) && b.ID < a.ID) {
			t.Fatalf("candidates out of order at %d: %s then %s", i, a.ID, b.ID)
		}
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	var in []*mdstore.Memory
	for i := 0; i < 50; i++ {
		in = append(in, mem{id: fmt.Sprintf("m%02d", i), brief: fmt.Sprintf("b%d", i%5), author: fmt.Sprintf("a%d", i%2), p: float64(i%10) / 10, at: i % 3}.record())
	}
	first := fmt.Sprint(decisions(PlanPass(day, in, Options{})))
	for i := range in {
		j := (i * 7) % len(in)
		in[i], in[j] = in[j], in[i]
	}
	if again := fmt.Sprint(decisions(PlanPass(day, in, Options{}))); again != first {
		t.Errorf("plan depends on input order")
	}
}

// An explicit window curates its entries only; the pass from the watermark
// curates the older entries it is given as late; the first pass starts at
// the oldest entry.
func TestPlanWindow(t *testing.T) {
	hour := Window{From: t0.Add(time.Hour), To: t0.Add(2 * time.Hour)}
	scheduled := hour
	scheduled.FromWatermark = true
	first := Window{To: t0.Add(2 * time.Hour), FromWatermark: true}
	entries := []mem{
		{id: "before", s: 0.95, at: 30},
		{id: "in", s: 0.95, at: 90},
		{id: "after", s: 0.95, at: 150},
	}
	cases := []struct {
		name             string
		w                Window
		only             []string // the entries given (default: all)
		candidates, late string
		from             time.Time
	}{
		{"an explicit window curates its entries only", hour, nil, "in", "", hour.From},
		{"from the watermark, older entries are late", scheduled, nil, "before,in", "before", hour.From},
		{"the first pass starts at the oldest entry", first, []string{"before", "in"}, "before,in", "", t0.Add(30 * time.Minute)},
		{"the first pass over an empty inbox is empty at its end", first, []string{}, "", "", first.To},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []*mdstore.Memory
			for _, m := range entries {
				if c.only == nil || strings.Contains(","+strings.Join(c.only, ",")+",", ","+m.id+",") {
					in = append(in, m.record())
				}
			}
			p := PlanPass(c.w, in, Options{})
			if got := strings.Join(p.Candidates, ","); got != c.candidates {
				t.Errorf("candidates %s, want %s", got, c.candidates)
			}
			if got := strings.Join(p.Late, ","); got != c.late {
				t.Errorf("late %s, want %s", got, c.late)
			}
			if !p.Window.From.Equal(c.from) || !p.Window.To.Equal(c.w.To) {
				t.Errorf("window %s, want from %s", p.Window, c.from.Format(time.RFC3339))
			}
			for id := range decisions(p) {
				if !strings.Contains(","+c.candidates+",", ","+id+",") {
					t.Errorf("%s decided, but it is no candidate", id)
				}
			}
		})
	}
}

func TestWindowFromTask(t *testing.T) {
	want := Window{From: t0, To: t0.Add(time.Hour)}
	for _, task := range []string{
		"记忆整理 整理范围：2026-11-29T09:00:00Z 到 2026-11-29T10:00:00Z",
		"整理范围:2026-11-29T09:00:00Z到2026-11-29T10:00:00Z",
		"please run. 整理范围 : 2026-11-29T09:00:00Z  到  2026-11-29T10:00:00Z。",
		"整理范围：2026-11-29T17:00:00+08:00 到 2026-11-29T18:00:00+08:00",
	} {
		w, err := WindowFromTask(task)
		if err != nil || !w.From.Equal(want.From) || !w.To.Equal(want.To) {
			t.Errorf("%q: %v %v", task, w, err)
		}
	}
	for _, bad := range []string{"no window here", "整理范围：yesterday 到 today", "整理范围：2026-11-29T10:00:00Z 到 2026-11-29T09:00:00Z"} {
		if _, err := WindowFromTask(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestWindowIsHalfOpen(t *testing.T) {
	w := Window{From: t0, To: t0.Add(time.Hour)}
	if !w.Contains(t0) || w.Contains(t0.Add(time.Hour)) || w.Contains(t0.Add(-time.Nanosecond)) {
		t.Error("window must be [from, to)")
	}
}
