package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"
)

// Check is the validation of one artifact.
type Check struct {
	Type string `json:"type"`
	// Path is relative to the project folder ("" when no file was found).
	Path     string   `json:"path"`
	OK       bool     `json:"ok"`
	Optional bool     `json:"optional,omitempty"`
	Problems []string `json:"problems,omitempty"`
	// Missing names each required section that is absent.
	Missing []string `json:"missing_sections,omitempty"`
	Record  Artifact `json:"-"`
	outline *Outline
	data    []byte
}

// Blocking reports whether the check blocks a handoff.
func (c Check) Blocking() bool { return !c.OK && !c.Optional }

// ValidateData checks an artifact's content against its rule and returns
// every problem (not just the first).
func ValidateData(rule ArtifactRule, data []byte) (problems, missing []string, o *Outline) {
	if len(data) == 0 {
		return []string{"file is empty"}, nil, nil
	}
	if int64(len(data)) < rule.MinBytes {
		problems = append(problems, fmt.Sprintf("file has %d bytes, at least %d required", len(data), rule.MinBytes))
	}
	if !utf8.Valid(data) {
		problems = append(problems, "file is not valid UTF-8")
	}
	o = ParseOutline(data)
	for _, req := range rule.Sections {
		if o.Find(req.AnyOf...) != nil || (req.OrTaskMarkers && o.Done > 0) {
			continue
		}
		name := `"` + strings.Join(req.AnyOf, `" or "`) + `"`
		if req.OrTaskMarkers {
			name += " or task markers [X]/[✓]"
		}
		missing = append(missing, name)
		problems = append(problems, "missing section "+name)
	}
	return problems, missing, o
}

// ValidatePhase finds and checks every artifact of a phase in the project
// folder. Errors are about unsafe paths or unreadable files; validation
// failures are in the checks.
func ValidatePhase(project string, ph *PhaseDef, now time.Time) ([]Check, error) {
	var out []Check
	for _, rule := range ph.Artifacts {
		c := Check{Type: rule.Type, Optional: rule.Optional}
		rel, err := findArtifact(project, rule)
		if err != nil {
			return nil, err
		}
		if rel == "" {
			c.Problems = []string{fmt.Sprintf("file not found (looked for %s)", strings.Join(rule.Paths, ", "))}
			out = append(out, c)
			continue
		}
		c.Path = rel
		abs, _, err := ProjectFile(project, rel)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		c.Problems, c.Missing, c.outline = ValidateData(rule, data)
		c.data = data
		c.OK = len(c.Problems) == 0
		sum := sha256.Sum256(data)
		c.Record = Artifact{Path: rel, Type: rule.Type, SizeBytes: fi.Size(), LastModified: fi.ModTime().UTC().Format(time.RFC3339Nano),
			SHA256: hex.EncodeToString(sum[:])}
		if c.OK {
			c.Record.ValidatedAt = stamp(now)
		}
		out = append(out, c)
	}
	return out, nil
}

// blockersOf turns failed checks into blockers, one per problem.
func blockersOf(phase string, checks []Check, now time.Time) []Blocker {
	var out []Blocker
	for _, c := range checks {
		if !c.Blocking() {
			continue
		}
		name := c.Path
		if name == "" {
			name = c.Type
		}
		missing := map[string]bool{}
		for _, m := range c.Missing {
			missing["missing section "+m] = true
			out = append(out, Blocker{Message: fmt.Sprintf("%s: %s: missing section %s", phase, name, m), Artifact: name, Section: m, RecordedAt: stamp(now)})
		}
		for _, p := range c.Problems {
			if !missing[p] {
				out = append(out, Blocker{Message: fmt.Sprintf("%s: %s: %s", phase, name, p), Artifact: name, RecordedAt: stamp(now)})
			}
		}
	}
	return out
}
