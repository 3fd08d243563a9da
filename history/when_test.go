package history

import (
	"testing"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
)

func TestParseWhen(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{" 7d ", now.Add(-7 * 24 * time.Hour)},
		{"12h", now.Add(-12 * time.Hour)},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local)},
		{"2026-11-01T09:30", time.Date(2026, 11, 1, 9, 30, 0, 0, time.Local)},
		{"2026-11-01T09:30:00Z", time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC)},
	} {
		got, err := ParseWhen("--since", c.in, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseWhen(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	_, err := ParseWhen("--until", "yesterday", now)
	if !refuse.IsRequest(err) || err.Error() != `--until "yesterday": want a duration (7d, 1.5d, 2w, 12h) or a date (2026-11-01, RFC 3339)` {
		t.Errorf("ParseWhen(yesterday): %v", err)
	}
}

func TestMaybeRecordID(t *testing.T) {
	for in, want := range map[string]bool{"f-strong": true, "STRAT-001": true, "": false, "HEAD~1": false, "main^": false, "a:b": false, "../x": false} {
		if got := MaybeRecordID(in); got != want {
			t.Errorf("MaybeRecordID(%q) = %v, want %v", in, got, want)
		}
	}
}
