package layout

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		rel          string
		kind         Kind
		status, dir  string
		exact, check bool
	}{
		{"memory/inbox/m1.md", Memory, "inbox", "memory/inbox", true, true},
		{"memory/confirmed/fact/m1.md", Memory, "confirmed", "memory/confirmed/fact", true, true},
		{"memory/confirmed/m1.md", Memory, "confirmed", "memory/confirmed", false, true},
		{"memory/trash/m1.md", Memory, "trash", "memory/trash", true, true},
		{"memory/x.md", Memory, "", "memory", true, true},
		{"memory/state.json", None, "", "memory", true, false},
		{"context/bullets/strategy/STRAT-001.md", Bullet, "active", "context/bullets/strategy", true, true},
		{"context/archive/strategy/STRAT-001.md", Bullet, "archived", "context/archive/strategy", true, true},
		{"context/bullets/strategy/deep/STRAT-001.md", Bullet, "active", "context/bullets/strategy", false, true},
		{"context/reflections/pending/r1.json", Reflection, "pending", "context/reflections/pending", true, false},
		{"context/reflections/merged/r1.md", Reflection, "merged", "context/reflections/merged", true, true},
		{"context/log/2026/01/run.jsonl", MergeLog, "", "context/log", false, false},
		{"context/notes.md", None, "", "context", true, true},
		{"pipelines/pipeline-state-p1.json", Pipeline, "", "pipelines", true, false},
		{"pipelines/other.json", None, "", "pipelines", true, false},
		{"pipelines/x/pipeline-state-p1.json", None, "", "pipelines", false, false},
		{"pipelines/context-briefs/p1/phase.md", Brief, "", "pipelines/context-briefs", false, false},
		{"config.yaml", None, "", "", false, false},
		{"memoryx/inbox/a.md", None, "", "", false, false},
	} {
		p := Of(c.rel)
		if KindOf(c.rel) != c.kind || p.Folder.Status != c.status || p.Dir() != c.dir || p.Exact() != c.exact || Checked(c.rel) != c.check {
			t.Errorf("%s: kind %q status %q dir %q exact %v checked %v; want %q %q %q %v %v", c.rel,
				KindOf(c.rel), p.Folder.Status, p.Dir(), p.Exact(), Checked(c.rel), c.kind, c.status, c.dir, c.exact, c.check)
		}
	}
}
