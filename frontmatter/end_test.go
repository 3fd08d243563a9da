package frontmatter

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// A "---" line inside a YAML value does not end the frontmatter: only an
// unindented "---" line does.
func TestIndentedDashesDoNotEndFrontmatter(t *testing.T) {
	src := "---\nid: r1\nlessons:\n  - content: |\n      first line\n      ---\n      after the dashes\n    category: strategy\n  - content: second lesson\n    category: testing\n---\nbody text\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var fm struct {
		Lessons []struct{ Content, Category string }
	}
	if err := d.Decode(&fm); err != nil {
		t.Fatal(err)
	}
	if len(fm.Lessons) != 2 || fm.Lessons[0].Category != "strategy" || !strings.Contains(fm.Lessons[0].Content, "after the dashes") {
		t.Errorf("lessons read as %+v", fm.Lessons)
	}
	if string(d.Body()) != "body text\n" {
		t.Errorf("body %q", d.Body())
	}
	if !bytes.Equal(d.Bytes(), []byte(src)) {
		t.Errorf("round trip changed the bytes")
	}
}

func TestUnclosedAfterIndentedDashes(t *testing.T) {
	_, err := Parse([]byte("---\nid: x\nnote: |\n  a\n  ---\n  b\n"))
	if err == nil {
		t.Fatal("want an error: the frontmatter is never closed")
	}
}

func TestClosingLineMayEndInSpacesOrCR(t *testing.T) {
	for _, src := range []string{"---\nid: x\n---  \nbody\n", "---\r\nid: x\r\n---\r\nbody\r\n"} {
		d, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if !strings.HasPrefix(string(d.Body()), "body") {
			t.Errorf("%q: body %q", src, d.Body())
		}
	}
}

// A value holding "---" lines written with Set reads back equal, and the
// body is untouched.
func TestSetValueWithDashesReadsBack(t *testing.T) {
	for _, v := range []string{"line1\n---\nINJECTED", "---", "---\n", "a\n---", "x\n--- \ny", "\n---\n---\n"} {
		checkRoundTrip(t, v)
	}
}

func checkRoundTrip(t *testing.T, v string) {
	t.Helper()
	const body = "the body\n---\nstays\n"
	d, err := Parse([]byte("---\nid: m1\nbrief: b\n---\n" + body))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Set("brief", v); err != nil {
		t.Skipf("%q refused: %v", v, err)
	}
	back, err := Parse(d.Bytes())
	if err != nil {
		t.Fatalf("%q: written, then unreadable: %v\n%s", v, err, d.Bytes())
	}
	var fm struct {
		ID    string `yaml:"id"`
		Brief string `yaml:"brief"`
	}
	if err := back.Decode(&fm); err != nil {
		t.Fatalf("%q: %v", v, err)
	}
	if fm.Brief != v || fm.ID != "m1" {
		t.Errorf("%q read back as %q (id %q)\n%s", v, fm.Brief, fm.ID, d.Bytes())
	}
	if string(back.Body()) != body {
		t.Errorf("%q: body became %q", v, back.Body())
	}
}

// FuzzSetStringRoundTrip: any string value written through the edit path
// reads back equal, and the body is untouched.
func FuzzSetStringRoundTrip(f *testing.F) {
	for _, s := range []string{"", "plain", "line1\n---\nINJECTED", "---", "a: b", "- x", "|\n  y", "#c", "'q'", "\"d\"", "\t---\t", "...", "\r\n---\r\n", "x\x85y", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		const body = "the body\n---\nstays\n"
		d, err := Parse([]byte("---\nid: m1\nbrief: b\n---\n" + body))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Set("brief", v); err != nil {
			return // refused: nothing written
		}
		back, err := Parse(d.Bytes())
		if err != nil {
			t.Fatalf("%q: written, then unreadable: %v\n%s", v, err, d.Bytes())
		}
		var fm struct {
			Brief string `yaml:"brief"`
		}
		if err := back.Decode(&fm); err != nil {
			t.Fatalf("%q: %v\n%s", v, err, d.Bytes())
		}
		if fm.Brief != v {
			t.Errorf("%q read back as %q\n%s", v, fm.Brief, d.Bytes())
		}
		if string(back.Body()) != body {
			t.Errorf("%q: body became %q", v, back.Body())
		}
	})
}

func TestParseValueRefusesSeveralDocuments(t *testing.T) {
	for raw, want := range map[string]any{"3": 3, "text": "text", "[a, b]": []any{"a", "b"}, "": nil, `"a\n---\nb"`: "a\n---\nb"} {
		v, err := ParseValue(raw)
		if err != nil {
			t.Errorf("%q: %v", raw, err)
			continue
		}
		if got, w := fmt.Sprint(v), fmt.Sprint(want); got != w {
			t.Errorf("%q read as %v, want %v", raw, got, w)
		}
	}
	for _, raw := range []string{"a\n---\nb", "---\nx\n---\ny", "1\n---\n"} {
		if _, err := ParseValue(raw); err == nil {
			t.Errorf("%q: want a refusal", raw)
		}
	}
}
