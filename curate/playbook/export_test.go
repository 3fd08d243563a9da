package playbook

import (
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/mdstore"
)

func TestExportACEOneHeadingPerSection(t *testing.T) {
	bs := []*mdstore.Bullet{
		{ID: "TRBL-001", Category: "troubleshooting", Content: "Imported.", IsActive: true, OriginalID: "ts-00001", Section: "TROUBLESHOOTING AND PITFALLS:"},
		{ID: "TRBL-002", Category: "troubleshooting", Content: "Written here.", IsActive: true},
		{ID: "STRAT-001", Category: "strategy", Content: "A rule.", IsActive: true},
		{ID: "STRAT-002", Category: "strategy", Content: "Imported rule.", IsActive: true, OriginalID: "shr-00001", Section: "Strategies and hard rules"},
	}
	out := string(ExportACE(bs))
	want := "## Strategies and hard rules\n[STRAT-001] helpful=0 harmful=0 :: A rule.\n[shr-00001] helpful=0 harmful=0 :: Imported rule.\n\n" +
		"## TROUBLESHOOTING AND PITFALLS:\n[TRBL-002] helpful=0 harmful=0 :: Written here.\n[ts-00001] helpful=0 harmful=0 :: Imported.\n"
	if out != want {
		t.Fatalf("export:\n%s\nwant:\n%s", out, want)
	}
}

func TestACEExportImportsBackAsTheSameBullets(t *testing.T) {
	pb := New(nil, bulletid.NewAllocator(nil), nil, now)
	in, err := ParseACE([]byte("## TROUBLESHOOTING AND PITFALLS:\n[ts-00001] helpful=2 harmful=0 :: Check the token first.\n"))
	if err != nil {
		t.Fatal(err)
	}
	acts, _ := PlanImport(pb, in, "first")
	acts = append(acts, Action{Type: ActNewBullet, BulletID: pb.IDs.Next("troubleshooting"), Category: "troubleshooting", Content: "Retry once on 503.", Confidence: 0.5, Priority: 5})
	for _, a := range acts {
		if err := pb.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	out := ExportACE(pb.Active())
	if n := strings.Count(string(out), "## "); n != 1 {
		t.Fatalf("%d headings in\n%s", n, out)
	}
	again, err := ParseACE(out)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, b := range again {
		ids[b.OriginalID] = true
	}
	if !ids["ts-00001"] || len(ids) != 2 {
		t.Fatalf("exported ids %v, want ts-00001 and the new bullet's", ids)
	}
	if acts, errs := PlanImport(pb, again, "export"); len(acts) != 0 || len(errs) != 0 {
		t.Fatalf("importing the export again: %v %v", acts, errs)
	}
}

// TestParseACENamesTheLineTooLong: a line longer than a bullet may be is
// refused with its number, never read as the end of the playbook.
func TestParseACENamesTheLineTooLong(t *testing.T) {
	data := "## STRATEGIES\n[s-1] helpful=1 harmful=0 :: first\n[s-2] " + strings.Repeat("x", 2<<20) + "\n[s-3] third\n"
	if _, err := ParseACE([]byte(data)); err == nil || !strings.Contains(err.Error(), "line 3: 1 MiB or longer") {
		t.Errorf("ParseACE of a 2 MiB line: %v, want line 3 named", err)
	}
}

// TestImportRefusesCountsItCannotKeep: a counter too large for a count,
// not a whole number, or negative refuses the import with its line or
// skill, never stored as another number or left in the bullet's text.
func TestImportRefusesCountsItCannotKeep(t *testing.T) {
	for _, line := range []string{
		"[S-1] helpful=99999999999999999999 harmful=0 :: text",
		"[S-1] helpful=-1 harmful=0 :: text",
		"[S-1] helpful=1.5 harmful=0 :: text",
	} {
		if _, err := ParseACE([]byte("## STRATEGIES\n" + line + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("ParseACE(%q): %v, want line 2 refused", line, err)
		}
	}
	if bs, err := ParseACE([]byte("## STRATEGIES\n[S-1] helpful=3 harmful=1 :: keep helpful=x as text\n")); err != nil || len(bs) != 1 || bs[0].Helpful != 3 {
		t.Errorf("a good line: %+v, %v", bs, err)
	}
	// text before "::" that is not only counters is the bullet's content, as it always was
	for _, line := range []string{"[S-2] helpful=3 harmful=0 usage=2 :: text", "[S-2] helpful=3, harmful=0 :: text", "[S-2] helpful = tests :: run them"} {
		if bs, err := ParseACE([]byte("## STRATEGIES\n" + line + "\n")); err != nil || len(bs) != 1 {
			t.Errorf("ParseACE(%q): %+v, %v; want it read as content", line, bs, err)
		}
	}
	if _, err := ParseKayba([]byte(`{"skills": [{"id": "s-1", "content": "text", "helpful": -5, "harmful": -7}]}`)); err == nil {
		t.Error("ParseKayba took negative counts")
	}
}
