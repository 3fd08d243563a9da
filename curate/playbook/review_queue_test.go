package playbook

import (
	"reflect"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/mdstore"
)

func TestReviewQueue(t *testing.T) {
	with := func(b *mdstore.Bullet, f func(*mdstore.Bullet)) *mdstore.Bullet { f(b); return b }
	bs := []*mdstore.Bullet{
		with(bullet("STRAT-001", "strategy", "Page through every result page.", 0, 0, 0.9), func(b *mdstore.Bullet) { b.Validation = "required" }),
		with(bullet("STRAT-002", "strategy", "Back up the database before a migration.", 0, 0, 0.9), func(b *mdstore.Bullet) { b.Priority = 9 }),
		with(bullet("STRAT-003", "strategy", "Back up the volume before resizing it.", 0, 0, 0.9), func(b *mdstore.Bullet) { b.Priority = 9; b.Validation = "approved" }),
		bullet("STRAT-004", "strategy", "Compare checksums after copying archives.", 0, 0, 0.55),
		with(bullet("STRAT-005", "strategy", "Rotate the staging password after load tests.", 0, 0, 0.9), func(b *mdstore.Bullet) { b.Tags = []string{"Sensitive"} }),
		bullet("STRAT-006", "strategy", "Mask customer email addresses in logs.", 0, 0, 0.9),
		bullet("STRAT-007", "strategy", "Retry the upload twice.", 0, 0, 0.9),
		with(bullet("STRAT-008", "strategy", "Retry the download twice.", 0, 0, 0.4), func(b *mdstore.Bullet) { b.Validation = "rejected" }),
		with(bullet("STRAT-009", "strategy", "Low and high at once.", 0, 0, 0.5), func(b *mdstore.Bullet) { b.Priority = 8; b.Validation = "required" }),
		with(bullet("STRAT-010", "strategy", "An archived one.", 0, 0, 0.1), func(b *mdstore.Bullet) { b.IsActive = false; b.Validation = "required" }),
	}
	pb := New(bs, bulletid.NewAllocator(nil), nil, now)
	sens, err := NewSensitivity([]string{`(?i)customer email`})
	if err != nil {
		t.Fatal(err)
	}
	pb.Sensitive = sens
	got := map[string][]string{}
	var order []string
	for _, it := range pb.ReviewQueue() {
		order = append(order, it.ID)
		got[it.ID] = it.Reasons
	}
	wantOrder := []string{"STRAT-002", "STRAT-009", "STRAT-001", "STRAT-004", "STRAT-005", "STRAT-006"}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Errorf("order %v, want %v", order, wantOrder)
	}
	want := map[string][]string{
		"STRAT-001": {"validation required"},
		"STRAT-002": {"high priority 9, not approved yet"},
		"STRAT-004": {"confidence 0.55 < 0.6"},
		"STRAT-005": {"sensitive: tagged sensitive"},
		"STRAT-006": {`sensitive: matches sensitive pattern "(?i)customer email"`},
		"STRAT-009": {"validation required", "high priority 8, not approved yet", "confidence 0.50 < 0.6"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reasons\n got %v\nwant %v", got, want)
	}
}
