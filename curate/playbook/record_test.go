package playbook

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// fakeKey is a fake AWS access key id, of the real shape.
const fakeKey = "AKIA" + "QWJ4ZT7NRX5LBV2M"

func TestMergeLogOneLinePerAction(t *testing.T) {
	acts := []Action{
		{Type: ActNewBullet, BulletID: "STRAT-001", Content: "a", Reasoning: "new"},
		{Type: ActReview, TargetBulletID: "STRAT-001", Validation: "approved", Reasoning: "ok"},
	}
	got := MergeLog(acts, "run-1", now)
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"run_id":"run-1"`) || !strings.Contains(lines[1], `"merge_type":"review"`) {
		t.Fatalf("merge log:\n%s", got)
	}
	if !bytes.Equal(got, mdstore.EncodeMergeLog([]mdstore.MergeLogLine{acts[0].LogLine("run-1", now), acts[1].LogLine("run-1", now)})) {
		t.Fatal("MergeLog differs from the log lines of the actions")
	}
}

func TestRecord(t *testing.T) {
	pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "paginate", 0, 0, 0.5)}, bulletid.NewAllocator(nil), nil, now)
	run, err := Record(nil, pb, nil, "nothing")
	if err != nil || !run.Changes.Empty() {
		t.Fatalf("a run that changes nothing is empty: %+v %v", run, err)
	}
	a := Action{Type: ActReview, TargetBulletID: "STRAT-001", Validation: "approved", Reasoning: "approved by review"}
	if err := pb.Do(a); err != nil {
		t.Fatal(err)
	}
	move := ReflectionMove{From: "context/reflections/pending/r.md", To: "context/reflections/merged/r.md", Data: []byte("x")}
	run, err = Record(nil, pb, []Action{a}, "context review approve STRAT-001", move)
	if err != nil {
		t.Fatal(err)
	}
	paths := run.Changes.Paths()
	logPath := mdstore.MergeLogPath(now, run.Commit.RunID)
	want := []string{"context/bullets/strategy/STRAT-001.md", logPath, move.From, move.To}
	for _, w := range want {
		found := false
		for _, p := range paths {
			found = found || p == w
		}
		if !found {
			t.Errorf("run lacks %s: %v", w, paths)
		}
	}
	if run.Commit.Summary != "context review approve STRAT-001" || len(run.Commit.Decisions) != 1 || !run.Commit.At.Equal(now) {
		t.Errorf("commit %+v", run.Commit)
	}
}

// failing is an engine whose server did not answer.
type failing struct{ fellBack bool }

func (f failing) Name() string {
	if f.fellBack {
		return "lexical (fallback: http://127.0.0.1:1/v1/embeddings unreachable)"
	}
	return "embeddings:m"
}
func (failing) Score(a, b string) float64 { return 0 }
func (f failing) Err() error {
	if f.fellBack {
		return nil
	}
	return errors.New("embeddings endpoint http://127.0.0.1:1/v1/embeddings is unreachable")
}

func TestCheckEngine(t *testing.T) {
	var ee *EngineError
	if err := CheckEngine(failing{}); !errors.As(err, &ee) || !strings.Contains(err.Error(), "http://127.0.0.1:1") {
		t.Errorf("failed engine: %v", err)
	}
	if err := CheckEngine(failing{fellBack: true}); err != nil {
		t.Errorf("fallen back: %v", err)
	}
	if err := CheckEngine(similar.NewLexical()); err != nil {
		t.Errorf("lexical: %v", err)
	}
	if note := EngineNote(failing{fellBack: true}); !strings.Contains(note, "lexical (fallback") {
		t.Errorf("note %q", note)
	}
	if note := EngineNote(similar.NewLexical()); note != "" {
		t.Errorf("lexical note %q", note)
	}
}

func newStore(t *testing.T) *mdstore.Store {
	t.Helper()
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheckReflectionEveryField(t *testing.T) {
	s := newStore(t)
	for _, tc := range []struct{ name, data, field string }{
		{"r.json", `{"id":"r","source":"AKIA\u0051WJ4ZT7NRX5LBV2M","lessons":[{"content":"c"}]}`, "source"},
		{"r.json", `{"id":"r","lessons":[{"content":"c","tags":["a","AKIA\u0051WJ4ZT7NRX5LBV2M"]}]}`, "lessons[0].tags[1]"},
		{"r.md", "---\nid: r\nlessons:\n  - content: c\n    reasoning: \"AKIA\\x51WJ4ZT7NRX5LBV2M\"\n---\n", "lessons[0].reasoning"},
		{"r.md", "---\nid: r\nagent: " + fakeKey + "\nlessons:\n  - content: c\n---\n", "agent"},
	} {
		_, err := CheckReflection(s, tc.name, []byte(tc.data))
		var se *secrets.Error
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("%s: got %v, want a secret in %s", tc.data, err, tc.field)
			continue
		}
		if strings.Contains(err.Error(), "QWJ4") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
	if _, err := CheckReflection(s, "ok.md", []byte("---\nid: ok\nlessons:\n  - content: \"tab\\there\"\n---\n")); err != nil {
		t.Errorf("a clean reflection with escapes: %v", err)
	}
}

func TestReflectRefusesKnownID(t *testing.T) {
	s := newStore(t)
	data := []byte("---\nid: r1\nlessons:\n  - content: c\n---\n")
	r, err := CheckReflection(s, "r1.md", data)
	if err != nil {
		t.Fatal(err)
	}
	run, rel, err := reflectionRun(s, r, data, now)
	if err != nil || rel != "context/reflections/pending/r1.md" || !strings.Contains(string(run.Changes.Changes[0].Data), "created_at:") {
		t.Fatalf("reflect: %v %q %+v", err, rel, run)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "context/reflections/merged/r1.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ex *ExistsError
	if _, _, err := reflectionRun(s, r, data, now); !errors.As(err, &ex) || ex.Path != "context/reflections/merged/r1.json" {
		t.Fatalf("known id: %v", err)
	}
}

func TestAnsweredReflections(t *testing.T) {
	s := newStore(t)
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(s.Dir, "context/reflections/pending", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "---\nid: a\nlessons:\n  - content: c\n---\n")
	write("b.json", `{"id":"b","source":"AKIA\u0051WJ4ZT7NRX5LBV2M","lessons":[{"content":"c"}]}`)
	write("c.md", "---\nid: c\nlessons:\n  - content: c\n---\n")
	moves, err := AnsweredReflections(s, []Action{{ReflectionID: "a"}, {ReflectionID: "b"}, {ReflectionID: "missing"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].From != "context/reflections/pending/a.md" || moves[0].To != "context/reflections/merged/a.md" ||
		!strings.Contains(string(moves[0].Data), "curator_status: merged") {
		t.Fatalf("moves %+v", moves)
	}
}
