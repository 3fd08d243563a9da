package history

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// gitRepo is a repository built with the git command, its store in the
// folder store of the work tree ("" the root).
type gitRepo struct {
	t     *testing.T
	root  string
	store string
}

func newGitRepo(t *testing.T, store string) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &gitRepo{t: t, root: t.TempDir()}
	r.store = filepath.Join(r.root, store)
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *gitRepo) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (r *gitRepo) write(rel, data string) {
	r.t.Helper()
	p := filepath.Join(r.store, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *gitRepo) move(from, to, data string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.store, from)); err != nil {
		r.t.Fatal(err)
	}
	r.write(to, data)
}

// commit commits everything; run "" makes a hand commit.
func (r *gitRepo) commit(summary, run string, decisions ...string) {
	r.t.Helper()
	msg := summary + "\n"
	if len(decisions) > 0 {
		msg += "\n" + strings.Join(decisions, "\n") + "\n"
	}
	if run != "" {
		msg += "\nCurator-Run: " + run + "\nCurator-Command: curator test\n"
	}
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
}

func memory(id, status, brief, extra string) string {
	return "---\nid: " + id + "\ntype: fact\nstatus: " + status + "\nbrief: " + brief + "\nauthor: a\ningestion_time: 2026-11-29T09:10:00Z\n" + extra + "---\nbody\n"
}

func bulletFile(id, cat string, helpful int, extra, body string) string {
	return "---\nid: " + id + "\ncategory: " + cat + "\nconfidence: 0.9\nhelpful_count: " + strconv.Itoa(helpful) + "\n" + extra + "---\n" + body + "\n"
}

// summaries are "id what: summary" lines of events.
func summaries(es []Event) []string {
	var out []string
	for _, e := range es {
		hand := ""
		if e.ByHand {
			hand = " [hand]"
		}
		out = append(out, e.ID+" "+e.What+": "+e.Summary+hand)
	}
	return out
}

func TestRecordLogMemory(t *testing.T) {
	r := newGitRepo(t, ".curator")
	r.write("config.yaml", "x: 1\n")
	r.commit("curator init", "R0")
	r.write("memory/inbox/f-1.md", memory("f-1", "inbox", "first", ""))
	r.write("memory/inbox/f-other.md", memory("f-other", "inbox", "other", ""))
	r.commit("memory add f-1", "R1")
	r.move("memory/inbox/f-1.md", "memory/confirmed/fact/f-1.md", memory("f-1", "confirmed", "first", ""))
	r.commit("memory curate: 1 promoted", "R2", "promote f-other to confirmed/fact (channel B, score 0.5)", "promote f-1 to confirmed/fact (channel A, score 0.9)")
	// a move and an edit in one hand commit: the move wins, the edit is
	// in the record
	r.move("memory/confirmed/fact/f-1.md", "memory/trash/f-1.md", memory("f-1", "trash", "first", "trashed:\n  reason: duplicate of f-2\n"))
	r.commit("memory curate: 1 trashed", "R3")
	r.move("memory/trash/f-1.md", "memory/confirmed/fact/f-1.md", memory("f-1", "confirmed", "first", ""))
	r.commit("memory restore f-1", "R4")
	r.write("memory/confirmed/fact/f-1.md", memory("f-1", "confirmed", "first, fixed", "tags: [go]\n"))
	r.commit("fix f-1", "")
	r.write("unrelated.txt", "x")
	r.commit("not about records", "")
	if err := os.Remove(filepath.Join(r.store, "memory/confirmed/fact/f-1.md")); err != nil {
		t.Fatal(err)
	}
	r.commit("drop f-1", "")

	es, err := RecordLog(r.store, "f-1", Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"f-1 ingested: ingested into inbox",
		"f-1 promoted: promoted to confirmed/fact (channel A)",
		"f-1 trashed: trashed: duplicate of f-2",
		"f-1 restored: restored to confirmed",
		"f-1 edited: edited (brief, tags) by hand [hand]",
		"f-1 removed: removed (the file was deleted) by hand [hand]",
	}
	if got := summaries(es); !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n got %q\nwant %q", got, want)
	}
	if e := es[1]; e.RunID != "R2" || e.Channel != "A" || e.Path != "memory/confirmed/fact/f-1.md" || e.From != "memory/inbox/f-1.md" || e.Record != "memory" || len(e.Commit) != 40 {
		t.Errorf("promotion %+v", e)
	}
	if e := es[2]; e.Reason != "duplicate of f-2" {
		t.Errorf("trash reason %+v", e)
	}
	if e := es[4]; !reflect.DeepEqual(e.Keys, []string{"brief", "tags"}) || e.RunID != "" {
		t.Errorf("hand edit %+v", e)
	}
	// bounds
	if es, err := RecordLog(r.store, "f-1", Query{Limit: 2}); err != nil || len(es) != 2 || es[1].What != EventRemoved {
		t.Errorf("limit 2: %v %v", summaries(es), err)
	}
	if es, err := RecordLog(r.store, "f-1", Query{Rev: "HEAD~3"}); err != nil || len(es) != 4 {
		t.Errorf("from HEAD~3: %v %v", summaries(es), err)
	}
	// ids that name no record, or only a file outside the record folders
	for _, id := range []string{"f-2", "config", "unrelated"} {
		if _, err := RecordLog(r.store, id, Query{}); !errors.Is(err, ErrNoRecord) {
			t.Errorf("%s: %v, want ErrNoRecord", id, err)
		}
	}
}

func TestRecordLogBulletChain(t *testing.T) {
	r := newGitRepo(t, "") // the store is the work tree's root
	refl := "---\nid: refl-1\nagent: implementer\nlessons:\n  - content: Page through.\n    category: strategy\n---\n"
	r.write("context/reflections/merged/refl-1.md", refl)
	r.write("context/bullets/strategy/STRAT-001.md", bulletFile("STRAT-001", "strategy", 0, "source_reflections: [refl-1]\n", "Page through."))
	r.write("context/bullets/strategy/STRAT-002.md", bulletFile("STRAT-002", "strategy", 0, "", "Other."))
	r.commit("context curate: 2 new", "R1")
	r.write("context/bullets/strategy/STRAT-001.md", bulletFile("STRAT-001", "strategy", 2, "source_reflections: [refl-1]\n", "Page through."))
	r.commit("context curate: 1 reinforced", "R2")
	// a merge of two bullets into STRAT-001-v2
	v2 := bulletFile("STRAT-001-v2", "strategy", 2, "version: 2\nparent_bullet_id: STRAT-001\nmerged_from: [STRAT-001, STRAT-002]\nsource_reflections: [refl-1]\n", "Page through. Other.")
	r.move("context/bullets/strategy/STRAT-001.md", "context/archive/strategy/STRAT-001.md", bulletFile("STRAT-001", "strategy", 2, "source_reflections: [refl-1]\n", "Page through."))
	r.move("context/bullets/strategy/STRAT-002.md", "context/archive/strategy/STRAT-002.md", bulletFile("STRAT-002", "strategy", 0, "", "Other."))
	r.write("context/bullets/strategy/STRAT-001-v2.md", v2)
	r.commit("context curate: 1 merged", "R3")
	// v3 from v2, then v3 archived and restored, then a hand edit
	r.move("context/bullets/strategy/STRAT-001-v2.md", "context/archive/strategy/STRAT-001-v2.md", v2)
	r.write("context/bullets/strategy/STRAT-001-v3.md", bulletFile("STRAT-001-v3", "strategy", 2, "version: 3\nparent_bullet_id: STRAT-001-v2\nmerged_from: [STRAT-001-v2]\n", "Page through, then retry."))
	r.commit("context curate: 1 merged", "R4")
	r.move("context/bullets/strategy/STRAT-001-v3.md", "context/archive/strategy/STRAT-001-v3.md", bulletFile("STRAT-001-v3", "strategy", 2, "version: 3\nparent_bullet_id: STRAT-001-v2\nmerged_from: [STRAT-001-v2]\n", "Page through, then retry."))
	r.commit("context maintain: 1 archived", "R5")
	r.move("context/archive/strategy/STRAT-001-v3.md", "context/bullets/strategy/STRAT-001-v3.md", bulletFile("STRAT-001-v3", "strategy", 2, "version: 3\nparent_bullet_id: STRAT-001-v2\nmerged_from: [STRAT-001-v2]\n", "Page through, then retry."))
	r.commit("context restore", "R6")
	r.write("context/bullets/strategy/STRAT-001-v3.md", bulletFile("STRAT-001-v3", "strategy", 2, "version: 3\nparent_bullet_id: STRAT-001-v2\nmerged_from: [STRAT-001-v2]\nvalidation: approved\n", "Page through, then retry."))
	r.commit("context review: 1 approved", "R6b")
	r.write("context/bullets/strategy/STRAT-001-v3.md", bulletFile("STRAT-001-v3", "strategy", 3, "version: 3\nparent_bullet_id: STRAT-001-v2\nmerged_from: [STRAT-001-v2]\n", "Page through, then retry twice."))
	r.commit("tweak", "")
	// an unrelated bullet with a look-alike id stays out
	r.write("context/bullets/strategy/STRAT-010.md", bulletFile("STRAT-010", "strategy", 0, "", "Unrelated."))
	r.commit("context curate: 1 new", "R7")

	want := []string{
		"STRAT-001 created: created from refl-1 (agent implementer)",
		"STRAT-002 created: created",
		"STRAT-001 reinforced: reinforced (helpful +2)",
		"STRAT-001 merged: merged into STRAT-001-v2 (merged_from STRAT-001, STRAT-002)",
		"STRAT-001-v2 created: created by merging STRAT-001 + STRAT-002 with refl-1 (agent implementer)",
		"STRAT-002 merged: merged into STRAT-001-v2 (merged_from STRAT-001, STRAT-002)",
		"STRAT-001-v2 merged: merged into STRAT-001-v3 (merged_from STRAT-001-v2)",
		"STRAT-001-v3 created: created by merging STRAT-001-v2",
		"STRAT-001-v3 archived: archived",
		"STRAT-001-v3 restored: restored",
		"STRAT-001-v3 edited: edited (validation)",
		"STRAT-001-v3 edited: edited (helpful_count, validation, body) by hand [hand]",
	}
	for _, id := range []string{"STRAT-001", "STRAT-002", "STRAT-001-v2", "STRAT-001-v3"} {
		es, err := RecordLog(r.store, id, Query{})
		if err != nil {
			t.Fatal(err)
		}
		got := summaries(es)
		// within a commit the diff orders files by path
		if !sameSet(got, want) {
			t.Errorf("log %s\n got %q\nwant %q", id, got, want)
		}
	}
	es, _ := RecordLog(r.store, "STRAT-001", Query{})
	for _, e := range es {
		if e.What == EventMerged && e.ID == "STRAT-001" && (e.MergedInto != "STRAT-001-v2" || !reflect.DeepEqual(e.MergedFrom, []string{"STRAT-001", "STRAT-002"})) {
			t.Errorf("merge event %+v", e)
		}
		if e.What == EventReinforced && e.HelpfulDelta != 2 {
			t.Errorf("reinforcement %+v", e)
		}
		if e.What == EventCreated && e.ID == "STRAT-001" && (e.Agent != "implementer" || !reflect.DeepEqual(e.SourceReflections, []string{"refl-1"})) {
			t.Errorf("creation %+v", e)
		}
	}
	for i := 1; i < len(es); i++ {
		if es[i].Time.Before(es[i-1].Time) {
			t.Errorf("not oldest first: %v", summaries(es))
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestChannelOf(t *testing.T) {
	msg := "memory curate\n\npromote f-10 to confirmed/fact (channel C, score 1)\npromote f-1 to confirmed/fact (channel A, score 0.9)\n"
	for id, want := range map[string]string{"f-1": "A", "f-10": "C", "f-2": ""} {
		if got := channelOf(msg, id); got != want {
			t.Errorf("channelOf %s = %q, want %q", id, got, want)
		}
	}
}
