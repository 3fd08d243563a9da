package pipeline

// ModeReport is what a pipeline command did, as `curator pipeline
// <command> --json` prints it and the MCP tools return it. Paths are
// absolute.
type ModeReport struct {
	// Brief is the brief written (or the current one).
	Brief     string   `json:"brief,omitempty"`
	Budget    *Budget  `json:"budget,omitempty"`
	Checks    []Check  `json:"checks"`
	Commit    string   `json:"commit"`
	Drift     []Drift  `json:"drift"`
	Files     []string `json:"files"`
	Home      string   `json:"home"`
	Mode      string   `json:"mode"`
	Project   string   `json:"project"`
	State     *State   `json:"state,omitempty"`
	StateFile string   `json:"state_file,omitempty"`
	Stories   []Story  `json:"stories,omitempty"`
	// Relevant is the relevant context the brief includes: the bullets
	// and memories chosen for its step.
	Relevant []RelevantItem `json:"relevant,omitempty"`
	Warnings []string       `json:"warnings"`
}

// DashboardReport is what `curator pipeline dashboard` did: the page
// written (absolute) and its commit, if any.
type DashboardReport struct {
	Commit    string `json:"commit"`
	Dashboard string `json:"dashboard"`
}

// newModeReport is the report of what a mode did in home h, its files
// recorded by commit ("" none).
func newModeReport(h Home, r *Report, commit string) *ModeReport {
	abs := h.abs
	out := &ModeReport{Mode: r.Mode, Project: r.Project, Home: h.Dir, Commit: commit,
		Warnings: nonNil(r.Warnings), Drift: nonNil(r.Drift), Checks: r.Checks,
		Budget: r.Budget, Stories: r.Stories, Relevant: r.Relevant, Brief: abs(r.BriefPath), Files: []string{}}
	if r.State != nil {
		out.State, out.StateFile = r.State, abs(StateName(r.Project))
	}
	for _, f := range r.Files {
		out.Files = append(out.Files, abs(f.Name))
	}
	return out
}

// abs is the absolute path of a home-relative name ("" for "").
func (h Home) abs(name string) string {
	if name == "" {
		return ""
	}
	p, _ := h.Path(name)
	return p
}

// nonNil is s, or an empty list for nil (a JSON [] rather than null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Failed says whether any check of the report failed.
func (r *ModeReport) Failed() bool {
	for _, c := range r.Checks {
		if !c.OK {
			return true
		}
	}
	return false
}

// Dashboard is the dashboard page among the files the mode wrote ("" when
// it wrote none).
func (r *ModeReport) Dashboard() string {
	page, err := Home{Dir: r.Home}.Path(DashboardName(r.Project))
	if err != nil {
		return ""
	}
	for _, f := range r.Files {
		if f == page {
			return f
		}
	}
	return ""
}
