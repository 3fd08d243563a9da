package mdstore

import (
	"errors"
	"strings"
	"testing"
)

// TestObservationChecked: an observation block a pass could not read
// makes the memory invalid, named at the block's line; one it can read,
// or none, passes.
func TestObservationChecked(t *testing.T) {
	head := "---\nid: m1\ntype: fact\nbrief: b\ningestion_time: 2026-11-29T09:00:00Z\n"
	for _, c := range []struct {
		obs, want string
	}{
		{"observation:\n  outcome: weird\n  started_at: 2026-11-29T09:00:00Z\n  window_days: 7\n", "outcome weird is not one of"},
		{"observation:\n  outcome: pending\n  started_at: garbage\n  window_days: 7\n", "started_at"},
		{"observation:\n  outcome: pending\n  started_at: 2026-11-29T09:00:00Z\n  window_days: abc\n", "window_days"},
		{"observation:\n  outcome: pending\n  started_at: 2026-11-29T09:00:00Z\n  window_days: -5\n", "window_days"},
		{"observation:\n  outcome: pending\n  window_days: 7\n", "a pending window needs"},
		{"observation:\n  outcome: held\n  started_at: 2026-11-29T09:00:00Z\n  closed_at: soon\n", "closed_at"},
		{"observation:\n  outcome: pending\n  started_at: 2026-11-29T09:00:00Z\n  window_days: 99999999999999999999\n", "window_days"},
	} {
		_, err := ParseMemory("memory/confirmed/fact/m1.md", []byte(head+c.obs+"---\nbody\n"))
		var inv *InvalidFile
		if !errors.As(err, &inv) || inv.Line != 6 || !strings.Contains(inv.Msg, c.want) {
			t.Errorf("%q: %v, want line 6 saying %q", c.obs, err, c.want)
		}
	}
	for _, obs := range []string{
		"",
		"observation:\n  outcome: pending\n  started_at: 2026-11-29T09:00:00Z\n  window_days: 7\n",
		"observation:\n  outcome: held\n  started_at: \"2026-11-29T09:00:00Z\"\n  window_days: 7\n  closed_at: 2026-12-06T09:00:00Z\n",
		"observation:\n  window_days: 3\n",
	} {
		if _, err := ParseMemory("memory/confirmed/fact/m1.md", []byte(head+obs+"---\nbody\n")); err != nil {
			t.Errorf("%q: %v", obs, err)
		}
	}
}
