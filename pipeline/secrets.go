package pipeline

import (
	"fmt"
	"strings"

	"github.com/curator-dev/curator/internal/secrets"
)

// A pipeline copies text from the project's artifacts (summaries, key
// decisions, excerpts) into its state, briefs and dashboard. A secret in an
// artifact is not a reason to stop a handoff: it is redacted as
// [REDACTED:<rule>] wherever it would be copied, and reported in the
// report's warnings (and so in the brief's Warnings section).

func (e *Env) secrets() *secrets.Policy {
	if e.Secrets == nil {
		return secrets.Default()
	}
	return e.Secrets
}

// redactOutline returns the outline of an artifact's text with its secrets
// redacted (o itself when there are none), and reports what it redacted.
func (e *Env) redactOutline(path string, data []byte, o *Outline, r *Report) *Outline {
	red, fs := e.secrets().Redact(string(data))
	if len(fs) == 0 {
		return o
	}
	r.Warnings = append(r.Warnings, fmt.Sprintf("artifact %s: %s redacted, not copied into the brief or the state", path, describe(fs)))
	return readOutline(path, []byte(red))
}

// RedactFiles redacts the secrets left in a report's files (state, brief,
// dashboard) before they are written, and reports each file it changed.
// It is the last guard of text copied from artifacts by any mode.
func RedactFiles(p *secrets.Policy, r *Report) {
	for i := range r.Files {
		red, fs := p.Redact(string(r.Files[i].Data))
		if len(fs) == 0 {
			continue
		}
		r.Files[i].Data = []byte(red)
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %s redacted", r.Files[i].Name, describe(fs)))
	}
}

// describe says what was found: "2 secrets (aws-access-key at line 3, …)".
func describe(fs []secrets.Finding) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%s at line %d", f.Rule, f.Line)
	}
	n := "1 secret"
	if len(fs) > 1 {
		n = fmt.Sprintf("%d secrets", len(fs))
	}
	return n + " (" + strings.Join(parts, ", ") + ")"
}
