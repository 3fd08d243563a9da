package playbook

import (
	"slices"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// The playbook's top bullets, chosen from what the bullet index holds,
// are TopBullets over every bullet read from its file, and only they are
// read.
func TestTopAsTopBullets(t *testing.T) {
	s := appWorldStore(t)
	list, err := s.ListBullets(true)
	if err != nil {
		t.Fatal(err)
	}
	// Ranks that differ by priority, counters and confidence, and bullets
	// that inject leaves out.
	full := New(list.All(), nil, nil, now)
	for i, b := range full.Active() {
		switch i % 5 {
		case 0:
			b.Priority = 1 + i%10
		case 1:
			b.HelpfulCount += i % 7
		case 2:
			b.Validation = "required"
		case 3:
			b.Confidence = float64(i%10) / 10
		}
		full.touched[b.ID] = true
	}
	cs := &mdstore.Changeset{}
	if err := full.Changes(s, cs); err != nil {
		t.Fatal(err)
	}
	saveFiles(t, s, cs, mdstore.CommitInfo{RunID: "ranks", At: now})
	list, err = s.ListBullets(true)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(bs []*mdstore.Bullet) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.ID)
		}
		return out
	}
	for _, tc := range []struct {
		category string
		n        int
	}{{"", 5}, {"", 20}, {"strategy", 7}, {"", 0}} {
		pb, _, _, err := Read(s, false, now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		got := pb.Top(tc.category, tc.n)
		want := TopBullets(list.Active, tc.category, tc.n)
		if tc.n > 0 && len(want) != tc.n || len(want) == 0 {
			t.Fatalf("%q top %d: %d bullets to compare", tc.category, tc.n, len(want))
		}
		if !slices.Equal(ids(got), ids(want)) {
			t.Fatalf("%q top %d: %v, want %v", tc.category, tc.n, ids(got), ids(want))
		}
		for i := range got {
			if got[i].Content != want[i].Content || got[i].Content == "" {
				t.Fatalf("%s: content %q, want %q", got[i].ID, got[i].Content, want[i].Content)
			}
		}
		if tc.n == 5 {
			unread := 0
			for _, b := range pb.bullets.base {
				if b == nil || pb.unread(b) {
					unread++
				}
			}
			if len(pb.bullets.base)-unread != 5 {
				t.Errorf("top 5 read %d bullet files", len(pb.bullets.base)-unread)
			}
		}
	}
}
