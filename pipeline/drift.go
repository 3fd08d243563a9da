package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"time"
)

// Drift is a validated artifact whose file changed afterwards.
type Drift struct {
	Phase string `json:"phase"`
	Path  string `json:"path"`
	// Change is "modified" or "deleted".
	Change      string `json:"change"`
	ValidatedAt string `json:"validated_at"`
	// ValidatedSHA256 is the content that was validated; SHA256 is the
	// file's content now ("" when deleted).
	ValidatedSHA256 string `json:"validated_sha256,omitempty"`
	SHA256          string `json:"sha256,omitempty"`
	// ModifiedAt is the file's current modification time ("" when deleted).
	ModifiedAt string `json:"modified_at,omitempty"`
	// DetectedAt is when curator first recorded this change in the state;
	// it is kept while the file stays as it is.
	DetectedAt string `json:"detected_at,omitempty"`
}

// DetectDrift compares every validated artifact of the state with its file:
// size and modification time first (when both match, nothing changed),
// sha256 as the verdict (a touched but identical file is no drift).
func DetectDrift(st *State) []Drift {
	var out []Drift
	for _, ph := range st.Phases {
		for _, a := range ph.Artifacts {
			if a.ValidatedAt == "" || a.SHA256 == "" {
				continue
			}
			d := Drift{Phase: ph.PhaseName, Path: a.Path, ValidatedAt: a.ValidatedAt, ValidatedSHA256: a.SHA256}
			abs, _, err := ProjectFile(st.ProjectPath, a.Path)
			if err != nil {
				continue
			}
			fi, err := os.Stat(abs)
			if errors.Is(err, os.ErrNotExist) {
				d.Change = "deleted"
				out = append(out, d)
				continue
			} else if err != nil {
				continue
			}
			mtime := fi.ModTime().UTC().Format(time.RFC3339Nano)
			if fi.Size() == a.SizeBytes && mtime == a.LastModified {
				continue
			}
			sum, err := fileSHA256(abs)
			if err == nil && sum == a.SHA256 {
				continue
			}
			d.Change, d.ModifiedAt, d.SHA256 = "modified", mtime, sum
			out = append(out, d)
		}
	}
	return out
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// recordDrift is the drift to keep in the state: found, with the time each
// change was first recorded carried over from the state's previous record
// (a change seen again keeps its time; a new one gets at).
func recordDrift(previous, found []Drift, at string) []Drift {
	seen := map[string]string{}
	for _, d := range previous {
		seen[d.key()] = d.DetectedAt
	}
	out := make([]Drift, 0, len(found))
	for _, d := range found {
		d.DetectedAt = at
		if t, ok := seen[d.key()]; ok && t != "" {
			d.DetectedAt = t
		}
		out = append(out, d)
	}
	return out
}

// sameDrift reports whether two drift records name the same changes (the
// same files, each changed the same way to the same content).
func sameDrift(a, b []Drift) bool {
	if len(a) != len(b) {
		return false
	}
	keys := map[string]int{}
	for _, d := range a {
		keys[d.key()]++
	}
	for _, d := range b {
		if keys[d.key()] == 0 {
			return false
		}
		keys[d.key()]--
	}
	return true
}

// key names one change: which file of which phase, and what it became.
func (d Drift) key() string {
	return d.Phase + "\x00" + d.Path + "\x00" + d.Change + "\x00" + d.ValidatedSHA256 + "\x00" + d.SHA256
}
