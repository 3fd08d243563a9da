package mdstore

import (
	"fmt"
	"strings"
	"time"
)

// ObservationPending is the outcome of an observation window that is open
// (observation.outcome).
const ObservationPending = "pending"

// ObservationOutcomes are the outcomes an observation may have (SPEC §2.1).
var ObservationOutcomes = []string{ObservationPending, "held", "superseded", "trashed", "contradicted"}

// checkObservation refuses an observation block a pass could not read: an
// outcome given that is not one of ObservationOutcomes (a block without
// one holds no window), a started_at or closed_at that is not a time, a
// window_days that is not a whole number of days; a pending window needs
// started_at and window_days (else the pass that closes due windows would
// pass it over without a word).
func (m *Memory) checkObservation(bad func(key, format string, a ...any) error) error {
	o := m.Observation
	if o == nil {
		return nil
	}
	outcome, _ := o["outcome"].(string)
	if v, given := o["outcome"]; given && !oneOf(outcome, ObservationOutcomes) {
		return bad("observation", "outcome %v is not one of %s", v, strings.Join(ObservationOutcomes, ", "))
	}
	for _, k := range []string{"started_at", "closed_at"} {
		switch v := o[k].(type) {
		case nil, time.Time:
		case string:
			if _, err := ParseTime(v); err != nil {
				return bad("observation", "%s: %v", k, err)
			}
		default:
			return bad("observation", "%s: %v is not a timestamp", k, v)
		}
	}
	if v, ok := o["window_days"]; ok {
		if d, isInt := v.(int); !isInt || d < 0 {
			return bad("observation", "window_days: %v is not a whole number of days", v)
		}
	}
	if outcome == ObservationPending {
		if _, _, ok := m.ObservationWindow(); !ok {
			return bad("observation", "a pending window needs started_at and window_days")
		}
	}
	return nil
}

// timeLayouts are the forms a timestamp may take in a record or a request:
// RFC 3339, and without a zone (UTC).
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"}

// ParseTime reads an RFC 3339 timestamp; a time without a zone is UTC.
func ParseTime(s string) (time.Time, error) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a timestamp (want RFC 3339, e.g. 2026-11-29T09:00:00Z)", s)
}

// ObservationWindow is the memory's observation window when it is pending:
// when it started (observation.started_at) and when it is due (window_days
// later). ok is false when there is no pending window, or its started_at or
// window_days cannot be read.
func (m *Memory) ObservationWindow() (started, due time.Time, ok bool) {
	o := m.Observation
	if o == nil || o["outcome"] != ObservationPending {
		return started, due, false
	}
	switch v := o["started_at"].(type) {
	case time.Time:
		started = v.UTC()
	case string:
		t, err := ParseTime(v)
		if err != nil {
			return started, due, false
		}
		started = t
	default:
		return started, due, false
	}
	days, ok := o["window_days"].(int)
	if !ok || days < 0 {
		return started, due, false
	}
	return started, started.Add(time.Duration(days) * 24 * time.Hour), true
}
