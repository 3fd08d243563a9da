package storehealth

import (
	"maps"
	"slices"
	"time"
)

// Point is the runs of one step of a series: one run, one day or one week
// (UTC), what they did summed.
type Point struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Runs  int       `json:"runs"`
	// Kinds counts the runs by kind.
	Kinds map[string]int `json:"runs_by_kind"`
	// Counts are the runs' counts summed (Run.Counts).
	Counts map[string]int `json:"counts"`
	// Promoted are the memories promoted, by type.
	Promoted map[string]int `json:"promoted_by_type"`
	// Active is the playbook's active bullets by category at the end of
	// the step: from the last playbook run that recorded them, at or
	// before it (nil before the first).
	Active map[string]int `json:"active_by_category"`
}

// Steps of a series.
const (
	PerRun  = "run"
	PerDay  = "day"
	PerWeek = "week"
)

// Thresholds of the steps: a range of up to maxRunPoints runs has a point
// per run, up to maxDayPoints days a point per day, longer ones a point per
// week (weeks start on Monday).
const (
	maxRunPoints = 60
	maxDayPoints = 180
)

// stepOf chooses the step for runs (oldest first).
func stepOf(runs []Run) string {
	if len(runs) <= maxRunPoints {
		return PerRun
	}
	// commit times need not follow the history (a clock set wrong, a
	// rebase): the range is from the earliest to the latest
	first, last := runs[0].Time, runs[0].Time
	for _, r := range runs {
		if r.Time.Before(first) {
			first = r.Time
		}
		if r.Time.After(last) {
			last = r.Time
		}
	}
	days := last.Sub(first).Hours() / 24
	if days <= maxDayPoints {
		return PerDay
	}
	return PerWeek
}

// startOf is the start of the day or week holding t (UTC).
func startOf(step string, t time.Time) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if step == PerWeek {
		d = d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	}
	return d
}

// seriesOf sums runs (oldest first) by step; active is the playbook's
// active bullets by category before the first run. Days and weeks follow
// the commit times; points per run, the history's order.
func seriesOf(runs []Run, step string, active map[string]int) []Point {
	if step != PerRun {
		runs = slices.Clone(runs)
		slices.SortStableFunc(runs, func(a, b Run) int { return a.Time.Compare(b.Time) })
	}
	var out []Point
	for _, r := range runs {
		t := r.Time.UTC()
		var start, end time.Time
		switch step {
		case PerRun:
			start, end = t, t
		case PerDay:
			start = startOf(step, t)
			end = start.AddDate(0, 0, 1)
		default:
			start = startOf(step, t)
			end = start.AddDate(0, 0, 7)
		}
		if len(out) == 0 || step == PerRun || !out[len(out)-1].Start.Equal(start) {
			out = append(out, Point{Start: start, End: end, Counts: map[string]int{}, Promoted: map[string]int{}, Kinds: map[string]int{}})
		}
		p := &out[len(out)-1]
		p.Runs++
		p.Kinds[r.Kind]++
		for k, v := range r.Counts {
			p.Counts[k] += v
		}
		for k, v := range r.Promoted {
			p.Promoted[k] += v
		}
		if r.Active != nil {
			active = r.Active
		}
		p.Active = maps.Clone(active)
	}
	return out
}
