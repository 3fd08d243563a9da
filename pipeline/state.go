package pipeline

import (
	"encoding/json"
	"time"
)

// Overall statuses of a pipeline (SPEC §2.5).
const (
	OverallInProgress = "in-progress"
	OverallCompleted  = "completed"
	OverallBlocked    = "blocked"
	OverallOnHold     = "on-hold"
)

// Phase and step statuses.
const (
	StatusPending    = "pending"
	StatusInProgress = "in-progress"
	StatusCompleted  = "completed"
	StatusBlocked    = "blocked"
	StatusSkipped    = "skipped"
)

// State is a pipeline's state file, pipeline-state-<project>.json. Every
// object keeps the fields it does not know in Extra, so what a newer
// curator or another tool wrote is not lost when curator rewrites the file.
type State struct {
	PipelineID   string `json:"pipeline_id"`
	PipelineType string `json:"pipeline_type"`
	// CustomName is the name of a custom pipeline (pipeline_type custom);
	// empty for a built-in one.
	CustomName               string      `json:"pipeline_name,omitempty"`
	ProjectName              string      `json:"project_name"`
	ProjectPath              string      `json:"project_path"`
	StartedAt                string      `json:"started_at"`
	UpdatedAt                string      `json:"updated_at"`
	OverallStatus            string      `json:"overall_status"`
	CurrentPhase             Position    `json:"current_phase"`
	Phases                   []Phase     `json:"phases"`
	AccumulatedContext       Accumulated `json:"accumulated_context"`
	Config                   StateConfig `json:"config"`
	Reconstructed            bool        `json:"reconstructed"`
	ReconstructionConfidence float64     `json:"reconstruction_confidence"`
	// Hold is why and since when the pipeline is on hold (curator's
	// addition; set while overall_status is on-hold).
	Hold *HoldRecord `json:"hold,omitempty"`
	// LastBrief describes the newest brief (curator's addition to the schema).
	LastBrief *BriefInfo `json:"last_brief,omitempty"`
	// Drift is the validated artifacts that changed afterwards, as last
	// recorded (curator's addition; watch mode keeps it current).
	Drift []Drift `json:"drift,omitempty"`
	Extra Extra   `json:"-"`
}

// PipelineCustom is the pipeline_type of a pipeline that pipeline-config.json
// defines (not a built-in one); its name is recorded as pipeline_name.
const PipelineCustom = "custom"

// Pipeline is the name of the state's pipeline: the built-in type, or the
// custom pipeline's name.
func (st *State) Pipeline() string {
	if st.PipelineType == PipelineCustom && st.CustomName != "" {
		return st.CustomName
	}
	return st.PipelineType
}

// PipelineLabel is the pipeline as users read it: "sdd", or "custom (docs)".
func (st *State) PipelineLabel() string {
	if st.PipelineType == PipelineCustom && st.CustomName != "" {
		return PipelineCustom + " (" + st.CustomName + ")"
	}
	return st.PipelineType
}

// setPipeline records the pipeline name: a built-in one as its type, any
// other as type custom with its name.
func (st *State) setPipeline(name string) {
	if _, builtin := Builtin()[name]; builtin {
		st.PipelineType, st.CustomName = name, ""
		return
	}
	st.PipelineType, st.CustomName = PipelineCustom, name
}

// HoldRecord records a pipeline put on hold: why, since when, and the overall
// status it goes back to when it continues.
type HoldRecord struct {
	Reason string `json:"reason,omitempty"`
	Since  string `json:"since"`
	Status string `json:"previous_status"`
}

// Position is where the pipeline stands.
type Position struct {
	PhaseNumber int    `json:"phase_number"`
	PhaseName   string `json:"phase_name"`
	StepNumber  int    `json:"step_number"`
	StepName    string `json:"step_name"`
	Extra       Extra  `json:"-"`
}

// Phase is one phase's record in the state.
type Phase struct {
	PhaseNumber      int        `json:"phase_number"`
	PhaseName        string     `json:"phase_name"`
	DisplayName      string     `json:"display_name"`
	Status           string     `json:"status"`
	StartedAt        string     `json:"started_at"`
	CompletedAt      string     `json:"completed_at"`
	Summary          string     `json:"summary"`
	Artifacts        []Artifact `json:"artifacts"`
	ContextBriefPath string     `json:"context_brief_path"`
	Blockers         []Blocker  `json:"blockers"`
	Steps            []Step     `json:"steps"`
	Extra            Extra      `json:"-"`
}

// Artifact is a validated file of a phase; Size, LastModified and SHA256 are
// what drift detection compares with later.
type Artifact struct {
	Path         string `json:"path"`
	Type         string `json:"type"`
	SizeBytes    int64  `json:"size_bytes"`
	LastModified string `json:"last_modified"`
	SHA256       string `json:"sha256"`
	ValidatedAt  string `json:"validated_at,omitempty"`
	Extra        Extra  `json:"-"`
}

// Blocker is a reason a phase cannot hand over.
type Blocker struct {
	Message    string `json:"message"`
	Artifact   string `json:"artifact,omitempty"`
	Section    string `json:"section,omitempty"`
	RecordedAt string `json:"recorded_at,omitempty"`
}

// Step is one step of a step-wise phase (one user story of the implementer).
type Step struct {
	StepNumber       int    `json:"step_number"`
	StepName         string `json:"step_name"`
	Status           string `json:"status"`
	StartedAt        string `json:"started_at"`
	CompletedAt      string `json:"completed_at"`
	ContextBriefPath string `json:"context_brief_path"`
	// SkipReason is why a step that never ran was skipped.
	SkipReason string `json:"skip_reason,omitempty"`
	Extra      Extra  `json:"-"`
}

// Accumulated is what the pipeline learned so far, carried into every brief.
type Accumulated struct {
	KeyDecisions     []string          `json:"key_decisions"`
	ArtifactsCreated []CreatedArtifact `json:"artifacts_created"`
	FilesModified    []string          `json:"files_modified"`
	TestResults      json.RawMessage   `json:"test_results"`
	Deviations       []string          `json:"deviations"`
	Extra            Extra             `json:"-"`
}

// CreatedArtifact is an entry of accumulated_context.artifacts_created: an
// artifact's path, the phase that produced it and when it was first
// validated. A plain path string (as older states hold) is read as an
// entry with only its path.
type CreatedArtifact struct {
	Path      string `json:"path"`
	Phase     string `json:"phase"`
	Timestamp string `json:"timestamp"`
	Extra     Extra  `json:"-"`
}

func (c *CreatedArtifact) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = CreatedArtifact{Path: s}
		return nil
	}
	type plain CreatedArtifact
	x, err := decodeKeep(b, (*plain)(c))
	c.Extra = x
	return err
}

func (c CreatedArtifact) MarshalJSON() ([]byte, error) {
	type plain CreatedArtifact
	return encodeKeep(plain(c), c.Extra)
}

// StateConfig is the budget and feature switches in effect.
type StateConfig struct {
	ContextWindow        int     `json:"context_window"`
	CompressionThreshold float64 `json:"compression_threshold"`
	EnableDriftDetection bool    `json:"enable_drift_detection"`
	EnableDashboard      bool    `json:"enable_dashboard"`
	Extra                Extra   `json:"-"`
}

// BriefInfo is the newest brief's path and budget.
type BriefInfo struct {
	Path       string   `json:"path"`
	Tokens     int      `json:"tokens"`
	Budget     int      `json:"budget"`
	Status     string   `json:"status"`
	Compressed []string `json:"compressed,omitempty"`
}

// The JSON methods below keep unknown fields; each decodes through an alias
// type that has no methods.

func (s *State) UnmarshalJSON(b []byte) error {
	type plain State
	x, err := decodeKeep(b, (*plain)(s))
	s.Extra = x
	return err
}

// MarshalJSON writes reconstruction_confidence as null for a state that was
// not reconstructed.
func (s State) MarshalJSON() ([]byte, error) {
	type plain State
	if s.Reconstructed {
		return encodeKeep(plain(s), s.Extra)
	}
	s.ReconstructionConfidence = 0
	return encodeKeep(plain(s), s.Extra, `"reconstruction_confidence":0`)
}

func (p *Position) UnmarshalJSON(b []byte) error {
	type plain Position
	x, err := decodeKeep(b, (*plain)(p))
	p.Extra = x
	return err
}
func (p Position) MarshalJSON() ([]byte, error) {
	type plain Position
	return encodeKeep(plain(p), p.Extra, `"step_number":0`, `"step_name":""`)
}

func (p *Phase) UnmarshalJSON(b []byte) error {
	type plain Phase
	x, err := decodeKeep(b, (*plain)(p))
	p.Extra = x
	return err
}
func (p Phase) MarshalJSON() ([]byte, error) {
	type plain Phase
	p.Artifacts, p.Blockers, p.Steps = orEmpty(p.Artifacts), orEmpty(p.Blockers), orEmpty(p.Steps)
	return encodeKeep(plain(p), p.Extra, `"started_at":""`, `"completed_at":""`, `"context_brief_path":""`)
}

func (a *Artifact) UnmarshalJSON(b []byte) error {
	type plain Artifact
	x, err := decodeKeep(b, (*plain)(a))
	a.Extra = x
	return err
}
func (a Artifact) MarshalJSON() ([]byte, error) {
	type plain Artifact
	return encodeKeep(plain(a), a.Extra)
}

func (s *Step) UnmarshalJSON(b []byte) error {
	type plain Step
	x, err := decodeKeep(b, (*plain)(s))
	s.Extra = x
	return err
}
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step
	return encodeKeep(plain(s), s.Extra, `"started_at":""`, `"completed_at":""`, `"context_brief_path":""`)
}

func (a *Accumulated) UnmarshalJSON(b []byte) error {
	type plain Accumulated
	x, err := decodeKeep(b, (*plain)(a))
	a.Extra = x
	return err
}
func (a Accumulated) MarshalJSON() ([]byte, error) {
	type plain Accumulated
	if a.TestResults == nil {
		a.TestResults = json.RawMessage("null")
	}
	a.KeyDecisions, a.ArtifactsCreated = orEmpty(a.KeyDecisions), orEmpty(a.ArtifactsCreated)
	a.FilesModified, a.Deviations = orEmpty(a.FilesModified), orEmpty(a.Deviations)
	return encodeKeep(plain(a), a.Extra)
}

func (c *StateConfig) UnmarshalJSON(b []byte) error {
	type plain StateConfig
	x, err := decodeKeep(b, (*plain)(c))
	c.Extra = x
	return err
}
func (c StateConfig) MarshalJSON() ([]byte, error) {
	type plain StateConfig
	return encodeKeep(plain(c), c.Extra)
}

// UnmarshalJSON accepts a blocker written as a plain string too.
func (b *Blocker) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*b = Blocker{Message: s}
		return nil
	}
	type plain Blocker
	return json.Unmarshal(data, (*plain)(b))
}

// stamp formats a time as the state's RFC 3339 UTC timestamp.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Phase returns the state's record of the named phase, or nil.
func (s *State) Phase(name string) *Phase {
	for i := range s.Phases {
		if s.Phases[i].PhaseName == name {
			return &s.Phases[i]
		}
	}
	return nil
}

// orEmpty makes a nil list an empty one, so the state shows [] not null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// StepsDone is how many of the phase's steps are completed.
func (p Phase) StepsDone() int {
	done := 0
	for _, s := range p.Steps {
		if s.Status == StatusCompleted {
			done++
		}
	}
	return done
}
