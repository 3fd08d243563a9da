package merge

import (
	"fmt"
	"strings"
	"testing"
)

func bullet(id, extra, body string) string {
	return "---\nid: " + id + "\ncategory: strategy\nhelpful_count: 1\nis_active: true\n" + extra + "---\n\n" + body + "\n"
}

func memory(id, status, extra string) string {
	return "---\nid: " + id + "\ntype: fact\nstatus: " + status + "\nusage_count: 1\n" + extra + "---\n\nbody\n"
}

type files = map[string]string

func bytesOf(f files) map[string][]byte {
	if f == nil {
		return map[string][]byte{}
	}
	out := map[string][]byte{}
	for p, d := range f {
		out[p] = []byte(d)
	}
	return out
}

// checkTree asserts that no record id is stored twice and that every base
// record survives unless one side deleted it and the other left it alone.
func checkTree(t *testing.T, base, ours, theirs files, res TreeResult) {
	t.Helper()
	seen := map[string]string{}
	for p, d := range res.Files {
		if strings.Contains(string(d), conflictsKey+":") {
			t.Errorf("%s: a folder key was set aside as a conflict:\n%s", p, d)
		}
		if r, ok := recordOf(p); ok {
			if q, dup := seen[r.key()]; dup {
				t.Errorf("id %s stored twice: %s and %s", r.id, q, p)
			}
			seen[r.key()] = p
		}
	}
	bi, oi, ti := indexRecords(bytesOf(base)), indexRecords(bytesOf(ours)), indexRecords(bytesOf(theirs))
	for k, bp := range bi.paths {
		op, tp := oi.paths[k], ti.paths[k]
		quietDelete := (op == "" && (tp == bp && theirs[tp] == base[bp] || tp == "")) ||
			(tp == "" && op == bp && ours[op] == base[bp])
		if _, ok := seen[k]; !ok && !quietDelete {
			t.Errorf("base record %s (%s) lost", bi.ids[k].id, bp)
		}
	}
}

func TestTree(t *testing.T) {
	const (
		inbox     = "memory/inbox/m1.md"
		confirmed = "memory/confirmed/fact/m1.md"
		trash     = "memory/trash/m1.md"
		active    = "context/bullets/strategy/STRAT-001.md"
		archived  = "context/archive/strategy/STRAT-001.md"
	)
	m := memory("m1", "inbox", "")
	b1 := bullet("STRAT-001", "", "one")
	b1more := strings.Replace(b1, "helpful_count: 1", "helpful_count: 2", 1)
	b1arch := strings.Replace(b1, "is_active: true", "is_active: false", 1)
	tests := []struct {
		name               string
		base, ours, theirs files
		want               files // paths whose content must contain the string
		absent             []string
		renumbered         []Renumber
		conflicts          int
		published          Side
	}{
		{
			name: "both added same id, different content",
			base: files{active: b1},
			ours: files{active: b1, "context/bullets/strategy/STRAT-002.md": bullet("STRAT-002", "", "ours")},
			theirs: files{active: b1,
				"context/bullets/strategy/STRAT-002.md": bullet("STRAT-002", "", "theirs"),
				"context/bullets/strategy/STRAT-003.md": bullet("STRAT-003", "merged_from: [STRAT-002]\nparent_bullet_id: STRAT-002\n", "built on theirs"),
				"context/log/2026/01/run.jsonl":         `{"run_id":"run","bullet_id":"STRAT-002","merged_from_bullet_ids":["STRAT-001","STRAT-002"]}` + "\n",
				"context/reflections/merged/r1.md":      "---\nid: r1\ncurator_status: merged\nhelpful_bullets: [STRAT-002]\n---\n",
			},
			want: files{
				"context/bullets/strategy/STRAT-002.md": "ours",
				"context/bullets/strategy/STRAT-004.md": "id: STRAT-004",
				"context/bullets/strategy/STRAT-003.md": "STRAT-004",
				"context/log/2026/01/run.jsonl":         `"bullet_id":"STRAT-004","merged_from_bullet_ids":["STRAT-001","STRAT-004"]`,
				"context/reflections/merged/r1.md":      "STRAT-004",
			},
			renumbered: []Renumber{{"STRAT-002", "STRAT-004", "context/bullets/strategy/STRAT-004.md", Theirs}},
		},
		{
			name: "both added same id, theirs published: ours renumbered with its references",
			base: files{active: b1, "context/log/2026/01/run.jsonl": `{"run_id":"old","bullet_id":"STRAT-001"}` + "\n"},
			ours: files{active: b1, "context/log/2026/01/run.jsonl": `{"run_id":"old","bullet_id":"STRAT-001"}` + "\n",
				"context/bullets/strategy/STRAT-002.md": bullet("STRAT-002", "", "ours"),
				"context/bullets/strategy/STRAT-003.md": bullet("STRAT-003", "merged_from: [STRAT-002]\nparent_bullet_id: STRAT-002\n", "built on ours"),
				"context/log/2026/01/ours.jsonl":        `{"run_id":"ours","bullet_id":"STRAT-002"}` + "\n",
				"context/reflections/merged/r1.md":      "---\nid: r1\ncurator_status: merged\nhelpful_bullets: [STRAT-002]\n---\n",
			},
			theirs: files{active: strings.Replace(b1, "helpful_count: 1", "helpful_count: 2", 1), "context/log/2026/01/run.jsonl": `{"run_id":"old","bullet_id":"STRAT-001"}` + "\n",
				"context/bullets/strategy/STRAT-002.md": bullet("STRAT-002", "", "theirs"),
				"context/log/2026/01/theirs.jsonl":      `{"run_id":"theirs","bullet_id":"STRAT-002"}` + "\n",
				"context/reflections/merged/r2.md":      "---\nid: r2\ncurator_status: merged\nhelpful_bullets: [STRAT-002]\n---\n",
			},
			want: files{
				active:                                  "helpful_count: 2",
				"context/bullets/strategy/STRAT-002.md": "theirs",
				"context/bullets/strategy/STRAT-004.md": "ours",
				"context/bullets/strategy/STRAT-003.md": "parent_bullet_id: STRAT-004",
				"context/log/2026/01/run.jsonl":         `"bullet_id":"STRAT-001"`,
				"context/log/2026/01/ours.jsonl":        `{"run_id":"ours","bullet_id":"STRAT-004"}`,
				"context/log/2026/01/theirs.jsonl":      `{"run_id":"theirs","bullet_id":"STRAT-002"}`,
				"context/reflections/merged/r1.md":      "- STRAT-004",
				"context/reflections/merged/r2.md":      "helpful_bullets: [STRAT-002]",
			},
			renumbered: []Renumber{{"STRAT-002", "STRAT-004", "context/bullets/strategy/STRAT-004.md", Ours}},
			published:  Theirs,
		},
		{
			name:   "both added identical",
			base:   files{},
			ours:   files{inbox: m},
			theirs: files{inbox: m},
			want:   files{inbox: "id: m1"},
		},
		{
			name:       "memory added on both sides with different content",
			ours:       files{inbox: m},
			theirs:     files{inbox: memory("m1", "inbox", "brief: other\n")},
			want:       files{inbox: "id: m1", "memory/inbox/m1-2.md": "id: m1-2"},
			renumbered: []Renumber{{"m1", "m1-2", "memory/inbox/m1-2.md", Theirs}},
		},
		{
			name:   "promoted ours, trashed theirs: trash wins",
			base:   files{inbox: m},
			ours:   files{confirmed: strings.Replace(memory("m1", "confirmed", ""), "usage_count: 1", "usage_count: 2", 1)},
			theirs: files{trash: memory("m1", "trash", "trashed:\n  at: 2026-01-02T00:00:00Z\n")},
			want:   files{trash: "usage_count: 2"},
			absent: []string{confirmed, inbox},
		},
		{
			name:   "trashed ours, promoted theirs: trash wins",
			base:   files{inbox: m},
			ours:   files{trash: memory("m1", "trash", "")},
			theirs: files{confirmed: memory("m1", "confirmed", "")},
			want:   files{trash: "status: trash"},
			absent: []string{confirmed, inbox},
		},
		{
			name:      "confirmed under two types: ours, reported",
			base:      files{inbox: m},
			ours:      files{confirmed: memory("m1", "confirmed", "")},
			theirs:    files{"memory/confirmed/lesson/m1.md": strings.Replace(memory("m1", "confirmed", ""), "type: fact", "type: lesson", 1)},
			want:      files{confirmed: "type: fact"},
			absent:    []string{"memory/confirmed/lesson/m1.md"},
			conflicts: 1,
		},
		{
			name:   "archived ours, reinforced and moved theirs: archive wins",
			base:   files{active: b1},
			ours:   files{archived: b1arch},
			theirs: files{"context/bullets/other/STRAT-001.md": strings.Replace(b1more, "category: strategy", "category: other", 1)},
			want:   files{archived: "helpful_count: 2"},
			absent: []string{active, "context/bullets/other/STRAT-001.md"},
		},
		{
			name:   "archived one side, reinforced the other",
			base:   files{active: b1},
			ours:   files{active: b1more},
			theirs: files{archived: b1arch},
			want:   files{archived: "helpful_count: 2"},
			absent: []string{active},
		},
		{
			name:      "deleted ours, edited theirs: kept, reported",
			base:      files{active: b1},
			ours:      files{},
			theirs:    files{active: b1more},
			want:      files{active: "helpful_count: 2"},
			conflicts: 1,
		},
		{
			name:   "deleted ours, unchanged theirs: deleted",
			base:   files{active: b1},
			ours:   files{},
			theirs: files{active: b1},
			absent: []string{active},
		},
		{
			name:   "unrelated files",
			base:   files{"README.md": "a\n", "notes.txt": "x\n"},
			ours:   files{"README.md": "a\nours\n", "notes.txt": "x\n"},
			theirs: files{"README.md": "a\n", "notes.txt": "x\n", "new.txt": "t\n"},
			want:   files{"README.md": "ours", "new.txt": "t"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := TreeOf(bytesOf(tc.base), bytesOf(tc.ours), bytesOf(tc.theirs), TreeOptions{Published: tc.published})
			if err != nil {
				t.Fatal(err)
			}
			for p, s := range tc.want {
				if d, ok := res.Files[p]; !ok || !strings.Contains(string(d), s) {
					t.Errorf("%s: want it to contain %q, got %q (present %v)", p, s, d, ok)
				}
			}
			for _, p := range tc.absent {
				if _, ok := res.Files[p]; ok {
					t.Errorf("%s: want absent", p)
				}
			}
			if fmt.Sprint(res.Renumbered) != fmt.Sprint(tc.renumbered) {
				t.Errorf("renumbered %v, want %v", res.Renumbered, tc.renumbered)
			}
			if len(res.Conflicts) != tc.conflicts {
				t.Errorf("conflicts %+v, want %d", res.Conflicts, tc.conflicts)
			}
			checkTree(t, tc.base, tc.ours, tc.theirs, res)
		})
	}
}
