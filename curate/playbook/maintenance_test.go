package playbook

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// appWorldPlaybook imports the real AppWorld playbook into a playbook in
// memory (the file is a copy of the AppWorld playbook in curate/similar/testdata).
func appWorldPlaybook(t *testing.T) (*Playbook, []ImportedBullet) {
	t.Helper()
	data, err := os.ReadFile("../similar/testdata/appworld_playbook.txt")
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseACE(data)
	if err != nil {
		t.Fatal(err)
	}
	lex := similar.NewLexical()
	pb := New(nil, bulletid.NewAllocator(nil), func() Matcher { return similar.NewIndex(lex) }, now)
	acts, errs := PlanImport(pb, in, "appworld")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, a := range acts {
		if err := pb.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	return pb, in
}

func TestAppWorldMaintenance(t *testing.T) {
	pb, in := appWorldPlaybook(t)
	if len(in) != 359 {
		t.Fatalf("read %d bullets, want 359", len(in))
	}
	before := map[string]string{} // id -> content
	for _, b := range pb.Active() {
		before[b.ID] = b.Content
	}
	rep, err := PlanMaintenance(pb, DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ExactGroups) != 17 || rep.ExactExtra != 22 {
		t.Errorf("exact duplicates: %d groups, %d extra copies; want 17 and 22", len(rep.ExactGroups), rep.ExactExtra)
	}
	if len(rep.NearPairs) == 0 {
		t.Error("no near-duplicate pairs above 0.90")
	}
	for _, p := range rep.NearPairs {
		if p.Score <= DedupThreshold {
			t.Errorf("near pair %v at or under 0.90", p)
		}
	}
	// Every exact group and every near pair was merged into one active bullet.
	merged := map[string]string{} // merged id -> new version
	for _, a := range rep.Actions {
		if a.Type == ActMergeSimilar {
			for _, id := range a.MergedFrom {
				merged[id] = a.BulletID
			}
		}
	}
	for _, g := range rep.ExactGroups {
		for _, id := range g {
			if merged[id] == "" || merged[id] != merged[g[0]] {
				t.Errorf("exact group %v not merged into one bullet", g)
			}
		}
	}
	for _, p := range rep.NearPairs {
		if merged[p.A] == "" || merged[p.A] != merged[p.B] {
			t.Errorf("near pair %v not merged", p)
		}
	}
	// Nothing lost: every sentence of every bullet is in an active bullet.
	var active bytes.Buffer
	for _, b := range pb.Active() {
		active.WriteString(b.Content + "\n")
	}
	for id, content := range before {
		holder := id
		if v := merged[id]; v != "" {
			holder = v
		}
		b := pb.Bullet(holder)
		if b == nil || !b.IsActive {
			t.Errorf("%s: held by %s, which is not active", id, holder)
			continue
		}
		if miss := MissingSentences(b.Content, content); len(miss) > 0 {
			t.Errorf("%s → %s lost %q", id, holder, miss)
		}
	}
	// The merged bullets are archived, and only they.
	var archived []string
	for _, b := range pb.Archived() {
		archived = append(archived, b.ID)
	}
	var want []string
	for id := range merged {
		want = append(want, id)
	}
	sort.Strings(want)
	if strings.Join(archived, ",") != strings.Join(want, ",") {
		t.Errorf("archived %v, want the merged %v", archived, want)
	}
}

func TestACEExportRoundTrip(t *testing.T) {
	pb, in := appWorldPlaybook(t)
	out := ExportACE(pb.Active())
	again, err := ParseACE(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(in) {
		t.Fatalf("round trip: %d bullets, want %d", len(again), len(in))
	}
	key := func(b ImportedBullet) string {
		return b.OriginalID + "|" + b.Category + "|" + strings.Join(strings.Fields(b.Content), " ")
	}
	have := map[string]int{}
	for _, b := range in {
		have[key(b)]++
	}
	for _, b := range again {
		have[key(b)]--
	}
	for k, n := range have {
		if n != 0 {
			t.Errorf("round trip changed %q (%d)", k, n)
		}
	}
}

func TestParseACECounters(t *testing.T) {
	in, err := ParseACE([]byte("## STRATEGIES AND HARD RULES\n[s-1] helpful=3 harmful=1 :: Do it.\n[s-2] Plain line.\n## Custom Things\n[c-1] helpful=0 harmful=0 :: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 3 || in[0].Helpful != 3 || in[0].Harmful != 1 || in[0].Content != "Do it." || in[1].Content != "Plain line." ||
		in[0].Category != "strategy" || in[2].Category != "custom-things" {
		t.Errorf("got %+v", in)
	}
}

func TestParseKayba(t *testing.T) {
	in, err := ParseKayba([]byte(`{"skills": {"api-00001": {"id": "api-00001", "section": "api", "content": "Use the docs.", "helpful": 2, "harmful": 1}}, "sections": {"api": ["api-00001"]}, "next_id": 2}`))
	if err != nil || len(in) != 1 || in[0].Helpful != 2 || in[0].Category != "api" {
		t.Fatalf("%v %+v", err, in)
	}
}

// TestParseKaybaKeyGivenTwice: a skillbook that gives a key twice is
// refused, naming the key and both lines, not read as the last one.
func TestParseKaybaKeyGivenTwice(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{"{\n\"skills\": [{\"id\": \"s-1\", \"content\": \"kept?\"}],\n\"skills\": [{\"id\": \"s-2\", \"content\": \"or this?\"}]\n}",
			"line 3: skills is given twice (first on line 2)"},
		{"{\"skills\": {\"s-1\": {\"content\": \"a\"},\n \"s-1\": {\"content\": \"b\"}}}",
			"line 2: skills.s-1 is given twice (first on line 1)"},
		{"{\"skills\": [{\"id\": \"s-1\", \"content\": \"a\",\n \"content\": \"b\"}]}",
			"line 2: skills[0].content is given twice (first on line 1)"},
	} {
		in, err := ParseKayba([]byte(tc.json))
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseKayba(%q) = %+v, %v; want error %q", tc.json, in, err, tc.want)
		}
	}
}

func TestInjectIdempotent(t *testing.T) {
	file := []byte("# Project\n\nSome notes.\n")
	b := bullet("STRAT-001", "strategy", "Check the docs.", 1, 0, 0.6)
	block := InjectBlock([]*mdstore.Bullet{b}, "")
	once, err := Inject(file, block)
	if err != nil {
		t.Fatal(err)
	}
	twice, _ := Inject(once, block)
	if !bytes.Equal(once, twice) || !bytes.HasPrefix(once, file) {
		t.Errorf("not idempotent:\n%s\n---\n%s", once, twice)
	}
	edited := append([]byte("Top line\n"), append(once, "Tail\n"...)...)
	again, _ := Inject(edited, InjectBlock(nil, ""))
	if !bytes.HasPrefix(again, []byte("Top line\n# Project\n\nSome notes.\n\n")) || !bytes.HasSuffix(again, []byte(InjectEnd+"\nTail\n")) {
		t.Errorf("the rest of the file changed:\n%s", again)
	}
}

func TestMergeContentKeepsEverySentence(t *testing.T) {
	a := "Check the docs first. Then call the API."
	b := "check the docs first. Verify the result! e.g. compare counts.\nAnother line"
	m := MergeContent(a, b)
	for _, src := range []string{a, b} {
		if miss := MissingSentences(m, src); len(miss) > 0 {
			t.Errorf("lost %q from %q", miss, m)
		}
	}
	if strings.Count(strings.ToLower(m), "check the docs first") != 1 {
		t.Errorf("duplicate sentence kept twice: %q", m)
	}
}

// everyPair is a brute-force matcher that answers Pairs with every pair at
// or above the merge floor, whatever the floor asked: what maintenance
// would decide if it looked at every pair it could ever use.
type everyPair struct{ *similar.BruteForce }

func (e everyPair) Pairs(float64) []similar.Pair { return e.BruteForce.Pairs(MergeFloor) }

// recombinedBullets makes bullets of two categories from a few dozen
// AppWorld sentences, two or three each, so that bullets share sentences:
// exact copies, near duplicates and overlapping pairs on both sides of
// every threshold. Some name a number or a negation (whose cap keeps them
// apart).
func recombinedBullets(t *testing.T, n int) []*mdstore.Bullet {
	t.Helper()
	_, in := appWorldPlaybook(t)
	var pool []string
	for _, b := range in {
		for _, s := range Sentences(b.Content) {
			if len(strings.Fields(s)) >= 6 && len(pool) < 40 {
				pool = append(pool, s)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 9))
	var bs []*mdstore.Bullet
	for i := 0; i < n; i++ {
		k := 2 + r.IntN(2)
		parts := make([]string, k)
		for j := range parts {
			parts[j] = pool[r.IntN(len(pool))]
		}
		switch r.IntN(10) {
		case 0:
			parts = append(parts, fmt.Sprintf("Retry %d times.", 1+r.IntN(3)))
		case 1:
			parts[0] = "Never " + strings.ToLower(parts[0][:1]) + parts[0][1:]
		}
		cat := []string{"strategy", "api"}[i%2]
		b := bullet(fmt.Sprintf("%s-%03d", map[string]string{"strategy": "STRAT", "api": "API"}[cat], i+1), cat, strings.Join(parts, " "), r.IntN(4), 0, 0.6)
		bs = append(bs, b)
	}
	return bs
}

func TestMaintenanceAsWithEveryPair(t *testing.T) {
	lex := similar.NewLexical()
	bullets := recombinedBullets(t, 240)
	plan := func(m func() Matcher, set Settings) (string, *MaintenanceReport) {
		var bs []*mdstore.Bullet
		for _, b := range bullets {
			c := *b
			bs = append(bs, &c)
		}
		pb := New(bs, bulletid.NewAllocator(nil), m, now)
		rep, err := PlanMaintenance(pb, set)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for _, a := range rep.Actions {
			fmt.Fprintf(&out, "%s %s %s %v %.12f %d %q\n", a.Type, a.BulletID, a.TargetBulletID, a.MergedFrom, a.Similarity, a.Priority, a.Content)
		}
		fmt.Fprintf(&out, "exact %v near %v overlapping %v\n", rep.ExactGroups, rep.NearPairs, rep.Overlapping)
		return out.String(), rep
	}
	for _, thr := range []float64{0.6, 0.7, 0.85, 0.95} {
		for _, auto := range []bool{false, true} {
			set := DefaultSettings()
			set.Threshold, set.AutoMerge = thr, auto
			got, rep := plan(func() Matcher { return similar.NewIndex(lex) }, set)
			want, _ := plan(func() Matcher { return everyPair{similar.NewBruteForce(lex)} }, set)
			if got != want {
				t.Errorf("threshold %.2f, auto-merge %v: the index decided otherwise than every pair\nindex:\n%s\nevery pair:\n%s", thr, auto, got, want)
			}
			if thr == 0.85 && (len(rep.NearPairs) == 0 || len(rep.Overlapping) == 0) {
				t.Errorf("threshold 0.85: %d near-duplicate and %d overlapping pairs: the test data does not exercise maintenance", len(rep.NearPairs), len(rep.Overlapping))
			}
		}
	}
}
