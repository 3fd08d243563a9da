package history

import (
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/duration"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/safepath"
)

// ParseWhen reads a bound of the log (Query.Since, Query.Until) given as
// name (--since): empty is open; else a duration back from now (7d,
// 1.5d, 2w, 12h) or a date or time in the local zone (2026-11-01,
// 2026-11-01T09:30, RFC 3339). Anything else is a wrong request naming it.
func ParseWhen(name, v string, now time.Time) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	if d, err := duration.Parse(v); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, refuse.Requestf("%s %q: want a duration (7d, 1.5d, 2w, 12h) or a date (2026-11-01, RFC 3339)", name, v)
}

// MaybeRecordID tells whether an argument that names a revision or a
// record (`curator log ARG`) may name a record: a safe file name without
// the characters of revision expressions (~ ^ :). Such an argument is
// tried as a record id first (RecordLog), as a revision when no record
// has that id in the history.
func MaybeRecordID(arg string) bool {
	return arg != "" && safepath.CheckID(arg) == nil && !strings.ContainsAny(arg, "~^:")
}
