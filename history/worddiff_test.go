package history

import "testing"

func TestWordDiff(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"page through every page", "page through every page", "page through every page"},
		{"retry 3 times", "retry 5 times", "retry [-3-] {+5+} times"},
		{"check the docs first", "always check the docs", "{+always+} check the docs [-first-]"},
		{"a b c", "", "[-a b c-]"},
		{"", "new text", "{+new text+}"},
		{"one\ntwo  three", "one two three", "one two three"},
	} {
		if got := WordDiff(c.old, c.new); got != c.want {
			t.Errorf("WordDiff(%q, %q) = %q, want %q", c.old, c.new, got, c.want)
		}
	}
}

// TestBulletBodyWordDiff: an edited bullet's body change is shown word by
// word.
func TestBulletBodyWordDiff(t *testing.T) {
	res := Diff([]File{{Path: "context/bullets/strategy/STRAT-001.md",
		Old: bullet("STRAT-001", "", "Retry flaky calls 3 times."),
		New: bullet("STRAT-001", "", "Retry flaky network calls 5 times.")}}, Options{})
	if len(res.Changes) != 1 || res.Changes[0].Kind != Edited {
		t.Fatalf("changes: %+v", res.Changes)
	}
	if got, want := res.Changes[0].BodyDiff, "Retry flaky {+network+} calls [-3-] {+5+} times."; got != want {
		t.Errorf("body diff %q, want %q", got, want)
	}
}

// TestIDReused: a record whose birth stamp changed is another record
// under an old id, a warning.
func TestIDReused(t *testing.T) {
	res := Diff([]File{{Path: "memory/inbox/f-1.md",
		Old: mem("f-1", "inbox", "ingestion_time: 2026-11-01T10:00:00Z\n", "Old fact."),
		New: mem("f-1", "inbox", "ingestion_time: 2026-11-29T10:00:00Z\n", "Another fact.")}}, Options{})
	if len(res.Warnings) != 1 || res.Warnings[0].Kind != WarnIDReused {
		t.Fatalf("warnings: %+v", res.Warnings)
	}
	res = Diff([]File{{Path: "context/bullets/strategy/STRAT-001.md",
		Old: bullet("STRAT-001", "created_at: 2026-11-01T10:00:00Z\n", "Page through."),
		New: bullet("STRAT-001", "created_at: 2026-11-01T10:00:00Z\n", "Page through every page.")}}, Options{})
	if len(res.Warnings) != 0 {
		t.Fatalf("an edit is no reuse: %+v", res.Warnings)
	}
}
