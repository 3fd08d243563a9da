package storehealth

import "sort"

// Outlier says that one count of a run is far from the usual: at least
// OutlierFactor times the median of the same count over the OutlierWindow
// runs of the same kind before it (and at least OutlierFactor itself, so
// that 0 → 3 is not one), counted once there are OutlierMinRuns such runs.
type Outlier struct {
	Count string `json:"count"`
	Value int    `json:"value"`
	Usual int    `json:"usual"`
}

// The outlier rule's numbers.
const (
	OutlierFactor  = 10
	OutlierWindow  = 20
	OutlierMinRuns = 5
)

// Trashed is the count the rule watches for a memory pass's trash: its
// duplicates and discarded entries together.
const Trashed = "trashed"

// watched are the counts the rule compares.
var watched = []string{Trashed, Promoted, Kept, Late, New, Reinforced, Merged, Archived, Conflicts, Invalid}

// count is a run's count of name (Trashed summed).
func count(r Run, name string) int {
	if name == Trashed {
		return r.Counts[Duplicates] + r.Counts[Discarded]
	}
	return r.Counts[name]
}

// outliers marks the runs (oldest first) whose counts are outliers; the
// result holds, by index, each run's outliers.
func outliers(runs []Run) [][]Outlier {
	out := make([][]Outlier, len(runs))
	byKind := map[string][]int{} // indexes of the runs of a kind so far
	for i, r := range runs {
		before := byKind[r.Kind]
		if len(before) >= OutlierMinRuns {
			recent := before[max(0, len(before)-OutlierWindow):]
			for _, name := range watched {
				v := count(r, name)
				if v < OutlierFactor {
					continue
				}
				vals := make([]int, len(recent))
				for j, k := range recent {
					vals[j] = count(runs[k], name)
				}
				usual := median(vals)
				if v >= OutlierFactor*max(usual, 1) {
					out[i] = append(out[i], Outlier{Count: name, Value: v, Usual: usual})
				}
			}
		}
		byKind[r.Kind] = append(before, i)
	}
	return out
}

// median of whole numbers, the lower middle one of an even count.
func median(v []int) int {
	s := append([]int(nil), v...)
	sort.Ints(s)
	return s[(len(s)-1)/2]
}
