package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecordDrift follows one artifact through the changes watch mode
// sees: touched without change, modified, modified again, restored,
// deleted.
func TestRecordDrift(t *testing.T) {
	f := newFixture(t, 2)
	spec := pad(specWithStories(2), 600) + "\n## Success Criteria\n- fast\n"
	f.write("specs/001-shop/spec.md", spec)
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	validated := f.state().Phases[0].Artifacts[0].SHA256
	record := func() *Report {
		t.Helper()
		r, err := f.env.recordDrift("shop")
		if err != nil {
			t.Fatal(err)
		}
		f.apply(r)
		return r
	}
	abs := filepath.Join(f.project, "specs/001-shop/spec.md")

	// Nothing changed; then a touch that changes only the time.
	if r := record(); len(r.Files) != 0 || len(r.Drift) != 0 {
		t.Fatalf("no change recorded drift: %+v", r)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(abs, later, later)
	if r := record(); len(r.Files) != 0 || len(r.Drift) != 0 {
		t.Fatalf("a touch is no drift: %+v", r)
	}

	// A change is recorded once, with both hashes and the time it was seen.
	f.write("specs/001-shop/spec.md", spec+"\nOne more line.\n")
	r := record()
	if len(r.Files) == 0 || len(r.Drift) != 1 {
		t.Fatalf("modified: %+v", r)
	}
	d := f.state().Drift
	if len(d) != 1 || d[0].Change != "modified" || d[0].ValidatedSHA256 != validated || len(d[0].SHA256) != 64 ||
		d[0].SHA256 == validated || d[0].DetectedAt == "" || d[0].ModifiedAt == "" {
		t.Fatalf("state drift: %+v", d)
	}
	if !strings.Contains(strings.Join(r.Decisions, "\n"), "drift: specs/001-shop/spec.md (phase spec-writer) modified") {
		t.Errorf("decisions: %q", r.Decisions)
	}
	first := d[0]
	if r := record(); len(r.Files) != 0 {
		t.Fatalf("the same drift was recorded twice: %v", r.Decisions)
	}

	// Changed again: the new hash replaces the old one.
	f.write("specs/001-shop/spec.md", spec+"\nAnother line.\n")
	record()
	if d := f.state().Drift; len(d) != 1 || d[0].SHA256 == first.SHA256 || d[0].ValidatedSHA256 != validated {
		t.Fatalf("changed again: %+v", d)
	}

	// Back to the validated content: the drift is cleared.
	f.write("specs/001-shop/spec.md", spec)
	r = record()
	if len(r.Cleared) != 1 || len(r.Drift) != 0 || len(f.state().Drift) != 0 {
		t.Fatalf("restore did not clear the drift: %+v / %+v", r, f.state().Drift)
	}
	if r.Summary() != "pipeline shop: drift cleared" {
		t.Errorf("summary %q", r.Summary())
	}

	// Deleted.
	os.Remove(abs)
	record()
	if d := f.state().Drift; len(d) != 1 || d[0].Change != "deleted" || d[0].SHA256 != "" {
		t.Fatalf("deleted: %+v", d)
	}
}

// TestRecordDriftNeedsState: a project without a state has nothing to watch.
func TestRecordDriftNeedsState(t *testing.T) {
	f := newFixture(t, 0)
	if _, err := f.env.recordDrift("shop"); err == nil {
		t.Fatal("no error without a state")
	}
}
