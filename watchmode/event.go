package watchmode

import (
	"encoding/json"

	"github.com/curator-dev/curator/mdstore"
)

// Event is one thing watch did or saw (the command prints each as one
// line on stderr, or with --json one JSON object per line on stdout).
type Event struct {
	Time string `json:"time"`
	// Event is watching, drift, drift-cleared, state, memory-curate,
	// context-curate, busy, notice, error or stopped.
	Event   string `json:"event"`
	Project string `json:"project,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Path    string `json:"path,omitempty"`
	Change  string `json:"change,omitempty"`
	// ValidatedSHA256 is the content that was validated, SHA256 the
	// content now.
	ValidatedSHA256 string `json:"validated_sha256,omitempty"`
	SHA256          string `json:"sha256,omitempty"`
	ModifiedAt      string `json:"modified_at,omitempty"`
	Commit          string `json:"commit,omitempty"`
	// Mode is how files are watched (fsnotify or poll); Roots and Folders
	// what is under watch (on "watching").
	Mode    string   `json:"mode,omitempty"`
	Roots   []string `json:"roots,omitempty"`
	Folders int      `json:"folders,omitempty"`
	URL     string   `json:"url,omitempty"`
	Message string   `json:"message,omitempty"`
	// Summary is a curation's one-line count summary; Report its full
	// JSON report.
	Summary  string          `json:"summary,omitempty"`
	Report   json.RawMessage `json:"report,omitempty"`
	ExitCode int             `json:"exit_code,omitempty"`
	// Err is what failed (an error event, or a curation that failed or
	// skipped inputs): the log says it as Message and ExitCode, with the
	// command line's exit table.
	Err error `json:"-"`
	// Skipped are the invalid inputs a curation skipped and left untouched.
	Skipped []*mdstore.InvalidFile `json:"-"`
}
