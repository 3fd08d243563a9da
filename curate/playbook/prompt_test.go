package playbook

import (
	"fmt"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/similar"
)

// The prompt's neighbours of a lesson are the five highest of every active
// bullet scored, though only the candidates that can reach them are read:
// on the AppWorld playbook, read through the bullet index, for lessons
// that copy, extend and mix bullets.
func TestPromptNeighboursAsEveryBulletScored(t *testing.T) {
	s := appWorldStore(t)
	pb, _, _, err := Read(s, true, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.ListBullets(true)
	if err != nil {
		t.Fatal(err)
	}
	full := New(list.All(), nil, func() Matcher { return similar.NewIndex(similar.NewLexical()) }, now)
	refl := lessonsFrom(full, 30, 3)
	d := BuildPrompt(pb, refl, DefaultSettings())
	compared := 0
	for i, l := range refl.Lessons {
		want := full.Matcher.Above(l.Content, NeighbourFloor)
		if len(want) > promptNeighbours {
			want = want[:promptNeighbours]
		}
		got := d.Lessons[i].Neighbours
		if len(got) != len(want) {
			t.Fatalf("lesson %d: %d neighbours, want %d", i+1, len(got), len(want))
		}
		for j := range want {
			if got[j].ID != want[j].ID || fmt.Sprintf("%.12f", got[j].Score) != fmt.Sprintf("%.12f", want[j].Score) {
				t.Errorf("lesson %d neighbour %d: %s %.4f, want %s %.4f", i+1, j+1, got[j].ID, got[j].Score, want[j].ID, want[j].Score)
			}
		}
		compared += len(want)
	}
	if compared < 50 {
		t.Fatalf("only %d neighbours compared: the lessons do not exercise the prompt", compared)
	}
	unread := 0
	for _, b := range pb.bullets.base {
		if b == nil || pb.unread(b) {
			unread++
		}
	}
	if unread < len(pb.bullets.base)/2 {
		t.Errorf("the prompt read %d of %d bullet files; want only candidates", len(pb.bullets.base)-unread, len(pb.bullets.base))
	}
}
