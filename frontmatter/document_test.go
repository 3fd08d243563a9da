package frontmatter

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const sample = `---
# a comment on top
id: m1
type: fact   # trailing comment
tags:
  - go
  - build
unknown_key: {a: 1}
importance_factors:
  proximity: 0.9
---
Body text
with two lines.
`

func TestRoundTripIsByteIdentical(t *testing.T) {
	for _, in := range []string{sample, "no frontmatter\n", "", "---\n---\nbody", "\n---\na: 1\n---\n", "---\r\na: 1\r\n---\r\nbody\r\n"} {
		d, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := string(d.Bytes()); got != in {
			t.Errorf("round trip changed bytes:\n%q\n%q", in, got)
		}
	}
}

func TestSetChangesOnlyThatKey(t *testing.T) {
	d, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Set("tags", []string{"go"}); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(sample, "tags:\n  - go\n  - build\n", "tags:\n  - go\n", 1)
	if got := string(d.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if err := d.Set("status", "confirmed"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(d.Bytes()), "proximity: 0.9\nstatus: confirmed\n---\nBody text") {
		t.Errorf("new key not appended at the end:\n%s", d.Bytes())
	}
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m["status"] != "confirmed" || m["id"] != "m1" {
		t.Errorf("decoded %v", m)
	}
}

func TestSetSameValueKeepsBytes(t *testing.T) {
	in := "---\nid: m1\nscore: 0.5\n---\nx"
	d, _ := Parse([]byte(in))
	if err := d.Set("id", "m1"); err != nil {
		t.Fatal(err)
	}
	if string(d.Bytes()) != in {
		t.Errorf("changed: %q", d.Bytes())
	}
}

func TestSetKeepsCommentAboveNextKey(t *testing.T) {
	in := "---\na: 1\n\n# about b\nb: 2\n---\n"
	d, _ := Parse([]byte(in))
	if err := d.Set("a", 5); err != nil {
		t.Fatal(err)
	}
	if got, want := string(d.Bytes()), "---\na: 5\n\n# about b\nb: 2\n---\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestDelete(t *testing.T) {
	d, _ := Parse([]byte(sample))
	if err := d.Delete("unknown_key"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(d.Bytes()), "unknown_key") || !strings.Contains(string(d.Bytes()), "importance_factors:") {
		t.Errorf("delete: %s", d.Bytes())
	}
}

func TestSetOnDocumentWithoutFrontmatter(t *testing.T) {
	d, _ := Parse([]byte("just a body\n"))
	if err := d.Set("id", "x"); err != nil {
		t.Fatal(err)
	}
	if got := string(d.Bytes()); got != "---\nid: x\n---\njust a body\n" {
		t.Errorf("got %q", got)
	}
}

func TestErrorsNameTheFileLine(t *testing.T) {
	cases := []struct {
		in   string
		line int
	}{
		{"---\nid: a\ntype: [fact\n---\nbody", 3},
		{"---\nid: a\nb: c: d\n---\n", 3},
		{"---\na: 1\nb:\n  - x\n - y\n---\n", 4},
		{"---\nid: a\n", 1},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		var fe *Error
		if !errors.As(err, &fe) {
			t.Fatalf("%q: want *Error, got %v", c.in, err)
		}
		if fe.Line != c.line {
			t.Errorf("%q: line %d, want %d (%v)", c.in, fe.Line, c.line, err)
		}
	}
}

func TestDecodeTypeErrorLine(t *testing.T) {
	d, err := Parse([]byte("---\nid: a\ncontent_confidence: high\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		C int `yaml:"content_confidence"`
	}
	err = d.Decode(&v)
	var fe *Error
	if !errors.As(err, &fe) || fe.Line != 3 {
		t.Fatalf("want line 3, got %v", err)
	}
	if d.Line("content_confidence") != 3 {
		t.Errorf("Line = %d", d.Line("content_confidence"))
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("---\na: |\n  x\n  y\nb: 2\n---\n"))
	f.Add([]byte("body only"))
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := Parse(in)
		if err != nil {
			return
		}
		if string(d.Bytes()) != string(in) {
			t.Fatalf("round trip changed bytes")
		}
		if err := d.Set("fuzz_key", "v"); err != nil {
			return
		}
		d2, err := Parse(d.Bytes())
		if err != nil {
			t.Fatalf("reparse after Set: %v\n%q", err, d.Bytes())
		}
		var m map[string]any
		if err := d2.Decode(&m); err != nil {
			return
		}
		if m["fuzz_key"] != "v" {
			t.Fatalf("fuzz_key = %v in %q", m["fuzz_key"], d2.Bytes())
		}
		if string(d2.Body()) != string(d.Body()) {
			t.Fatalf("body changed")
		}
		// SetAll (line-scan fast path) must agree with what the parser sees.
		d3, _ := Parse(in)
		var before map[string]any
		if d3.Decode(&before) != nil {
			return
		}
		keys := d3.Keys()
		pairs := []KV{{"fuzz_key", "v"}}
		if len(keys) > 0 && keys[0] != "fuzz_key" {
			pairs = append(pairs, KV{keys[0], "edited"})
		}
		if err := d3.SetAll(pairs...); err != nil {
			return
		}
		d4, err := Parse(d3.Bytes())
		if err != nil {
			t.Fatalf("reparse after SetAll: %v\n%q", err, d3.Bytes())
		}
		var after map[string]any
		if err := d4.Decode(&after); err != nil {
			t.Fatalf("decode after SetAll: %v", err)
		}
		for k, v := range before {
			if k == "fuzz_key" || (len(pairs) > 1 && k == pairs[1].Key) {
				continue
			}
			if fmt.Sprint(after[k]) != fmt.Sprint(v) {
				t.Fatalf("SetAll changed %q: %v → %v\n%q", k, v, after[k], d3.Bytes())
			}
		}
		for _, p := range pairs {
			if after[p.Key] != p.Value {
				t.Fatalf("SetAll: %s = %v\n%q", p.Key, after[p.Key], d3.Bytes())
			}
		}
		for k := range after {
			if _, had := before[k]; !had && k != "fuzz_key" {
				t.Fatalf("SetAll made a new key %q\n%q", k, d3.Bytes())
			}
		}
	})
}

func TestSetAllNeverMakesStrayKeys(t *testing.T) {
	for _, in := range []string{
		"---\nid: m1\nobservation: {window_days: 3,\noutcome: unknown}\n---\n",
		"---\na: \"x\nb: y\"\n---\n",
		"---\na: [1,\nb: 2]\n---\n",
	} {
		d, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.SetAll(KV{"observation", "new"}, KV{"a", "new"}); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var m map[string]any
		d2, _ := Parse(d.Bytes())
		if err := d2.Decode(&m); err != nil {
			t.Fatal(err)
		}
		for k := range m {
			if k != "id" && k != "observation" && k != "a" {
				t.Errorf("%q: stray key %q in\n%s", in, k, d.Bytes())
			}
		}
	}
}

func TestSetAllMatchesSetOneByOne(t *testing.T) {
	pairs := []KV{{"tags", []string{"x"}}, {"status", "confirmed"}, {"id", "m2"}, {"observation", map[string]int{"window_days": 7}}}
	a, _ := Parse([]byte(sample))
	b, _ := Parse([]byte(sample))
	for _, p := range pairs {
		if err := a.Set(p.Key, p.Value); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.SetAll(pairs...); err != nil {
		t.Fatal(err)
	}
	if string(a.Bytes()) != string(b.Bytes()) {
		t.Errorf("Set:\n%s\nSetAll:\n%s", a.Bytes(), b.Bytes())
	}
}

// A document with CRLF line ends keeps them: edited and added keys get
// CRLF lines, and the other lines stay byte-identical.
func TestEditsKeepCRLF(t *testing.T) {
	in := "---\r\nid: a\r\nstatus: inbox\r\ntags:\r\n  - go\r\n---\r\nbody\r\n"
	d, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetAll(KV{"status", "confirmed"}, KV{"maturity", "case"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Set("tags", []string{"go", "yaml"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Set("note", "added by Set"); err != nil {
		t.Fatal(err)
	}
	want := "---\r\nid: a\r\nstatus: confirmed\r\ntags:\r\n  - go\r\n  - yaml\r\nmaturity: case\r\nnote: added by Set\r\n---\r\nbody\r\n"
	if got := string(d.Bytes()); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if _, err := Parse(d.Bytes()); err != nil {
		t.Fatal(err)
	}
	// LF documents are unchanged by the rule
	d, _ = Parse([]byte("---\nid: a\n---\n"))
	d.Set("status", "inbox")
	if got := string(d.Bytes()); got != "---\nid: a\nstatus: inbox\n---\n" {
		t.Fatalf("LF document: %q", got)
	}
}
