package history

import (
	"strconv"
	"strings"
	"time"
)

// Run is one commit of the history: a curator run (RunID set) or, listed
// with All, another commit.
type Run struct {
	Commit string    `json:"commit"`
	Time   time.Time `json:"time"`
	// RunID and Command are the commit's Curator-Run and Curator-Command
	// trailers ("" for a commit curator did not make).
	RunID   string `json:"run_id,omitempty"`
	Command string `json:"command,omitempty"`
	// Kind is memory, context, pipeline or init for a run (from its
	// summary), "" for another commit.
	Kind string `json:"kind,omitempty"`
	// Summary is the commit's first line: for a run, what it did with its
	// counts ("memory curate …: 12 promoted, 30 trashed, 58 kept").
	Summary string `json:"summary"`
	// Counts are the "N word" pairs of the summary after its colon.
	Counts map[string]int `json:"counts,omitempty"`
	// Decisions is how many decision lines the run recorded.
	Decisions int    `json:"decisions,omitempty"`
	Author    string `json:"author"`
}

// Kinds of runs, the first word of their summary.
var Kinds = []string{"memory", "context", "pipeline", "init"}

// ParseMessage reads a commit message as curator writes it: the summary,
// a blank line, one line per decision, a blank line, the trailers. A
// message without a Curator-Run trailer is another commit's: only its
// summary is kept.
func ParseMessage(msg string) Run {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	r := Run{Summary: strings.TrimSpace(lines[0])}
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, "Curator-Run: "); ok {
			r.RunID = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(l, "Curator-Command: "); ok {
			r.Command = strings.TrimSpace(v)
		}
	}
	if r.RunID == "" {
		return r
	}
	r.Kind = kindOf(r.Summary)
	r.Counts = countsOf(r.Summary)
	// decisions: the lines between the summary's blank line and the
	// trailers' blank line
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "Curator-") {
			break
		}
		if strings.TrimSpace(l) != "" {
			r.Decisions++
		}
	}
	return r
}

// kindOf is the kind of a run's summary: its first word ("curator init"
// is init).
func kindOf(summary string) string {
	word, _, _ := strings.Cut(summary, " ")
	word = strings.TrimSuffix(word, ":") // "sync: …"
	if word == "curator" {
		return "init"
	}
	for _, k := range Kinds {
		if word == k {
			return k
		}
	}
	return word
}

// countsOf reads the "N word…" pairs after the summary's last ": ", the
// words joined by "_" ("3 left for reflection" is left_for_reflection).
func countsOf(summary string) map[string]int {
	i := strings.LastIndex(summary, ": ")
	if i < 0 {
		return nil
	}
	var out map[string]int
	for _, part := range strings.Split(summary[i+2:], ",") {
		num, words, ok := strings.Cut(strings.TrimSpace(part), " ")
		n, err := strconv.Atoi(num)
		name := strings.Join(strings.Fields(words), "_")
		if !ok || err != nil || n < 0 || !isWord(name) {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[name] += n
	}
	return out
}

// isWord is a count's name: lower-case letters and underscores.
func isWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if (r < 'a' || r > 'z') && r != '_' {
			return false
		}
	}
	return true
}
