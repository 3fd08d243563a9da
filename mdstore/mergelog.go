package mdstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
)

// MergeLogLine is one decision of a playbook run (SPEC §2.4), one JSON
// object per line of context/log/<YYYY>/<MM>/<run-id>.jsonl.
type MergeLogLine struct {
	RunID               string    `json:"run_id"`
	At                  time.Time `json:"at"`
	MergeType           string    `json:"merge_type"`
	BulletID            string    `json:"bullet_id,omitempty"`
	TargetBulletID      string    `json:"target_bullet_id,omitempty"`
	MergedFromBulletIDs []string  `json:"merged_from_bullet_ids,omitempty"`
	SimilarityScore     float64   `json:"similarity_score"`
	NewContent          string    `json:"new_content,omitempty"`
	CuratorReasoning    string    `json:"curator_reasoning"`
	ReflectionID        string    `json:"reflection_id,omitempty"`
	// Additions: the lesson's index (1-based) in its reflection, its
	// category, and the values a new bullet or proposal carries.
	Lesson     int     `json:"lesson,omitempty"`
	Category   string  `json:"category,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	Priority   int     `json:"priority,omitempty"`
}

// MergeLogPath is the log file of a run.
func MergeLogPath(at time.Time, runID string) string {
	return "context/log/" + at.UTC().Format("2006/01") + "/" + runID + ".jsonl"
}

// MetricsPath is the metrics file of a run.
func MetricsPath(at time.Time, runID string) string {
	return "context/metrics/" + at.UTC().Format("2006/01") + "/" + runID + ".json"
}

// EncodeMergeLog renders log lines as JSONL.
func EncodeMergeLog(lines []MergeLogLine) []byte {
	var b bytes.Buffer
	for _, l := range lines {
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(l)
	}
	return b.Bytes()
}

// ReadMergeLogs reads every merge-log line of the store, ordered by file
// (run) then line. Unreadable lines are reported and skipped.
func (s *Store) ReadMergeLogs() ([]MergeLogLine, []*InvalidFile, error) {
	files, err := s.MergeLogFiles()
	if err != nil {
		return nil, nil, err
	}
	var out []MergeLogLine
	var bad []*InvalidFile
	for _, f := range files {
		lines, fileBad := ReadMergeLog(f.Path, f.Rel)
		out = append(out, lines...)
		bad = append(bad, fileBad...)
	}
	return out, bad, nil
}

// MergeLogFile is one merge-log file: its path and store-relative path,
// and what a stat of it said (Stat.Regular false: not a regular file, or it
// could not be stated).
type MergeLogFile struct {
	Path, Rel string
	Stat      filestat.Stat
}

// MergeLogFiles lists the merge-log files (*.jsonl anywhere under
// context/log), sorted (by run), each stated relative to its open folder
// (one path lookup per file, not one per component).
func (s *Store) MergeLogFiles() ([]MergeLogFile, error) {
	var out []MergeLogFile
	var walk func(dir string) error
	walk = func(dir string) error {
		f, err := OpenFolder(dir)
		if f == nil {
			return err
		}
		defer f.Close()
		entries, err := f.ReadDir(-1)
		if err != nil {
			return err
		}
		var logs []MergeLogFile // this folder's
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if e.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			if strings.HasSuffix(e.Name(), ".jsonl") {
				logs = append(logs, MergeLogFile{Path: p, Stat: filestat.Stat{Name: e.Name()}})
			}
		}
		// The folder's logs stated on every core, a run of them each.
		const run = 32
		fd := int(f.Fd())
		parallel.For((len(logs)+run-1)/run, func(i int) {
			for j := i * run; j < min(len(logs), (i+1)*run); j++ {
				filestat.At(fd, dir, &logs[j].Stat)
			}
		})
		out = append(out, logs...)
		return nil
	}
	// The folder itself must be one, not a link to one (as git keeps it).
	root := s.Path("context/log")
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		return nil, nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	for i := range out {
		rel, _ := filepath.Rel(s.Dir, out[i].Path)
		out[i].Rel = filepath.ToSlash(rel)
	}
	return out, nil
}

// ReadMergeLog reads the lines of one merge-log file; unreadable lines
// are reported and skipped.
func ReadMergeLog(path, rel string) ([]MergeLogLine, []*InvalidFile) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []*InvalidFile{{Path: rel, Msg: err.Error()}}
	}
	var out []MergeLogLine
	var bad []*InvalidFile
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordSize)
	n := 1
	for ; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l MergeLogLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			bad = append(bad, &InvalidFile{Path: rel, Line: n, Msg: fmt.Sprintf("merge log line: %v", err)})
			continue
		}
		out = append(out, l)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		bad = append(bad, &InvalidFile{Path: rel, Line: n, Msg: "merge log line of 1 MiB or longer; the lines after it are not read"})
	} else if err != nil {
		bad = append(bad, &InvalidFile{Path: rel, Msg: fmt.Sprintf("merge log: %v", err)})
	}
	return out, bad
}

// IDs returns every bullet id a log line mentions.
func (l MergeLogLine) IDs() []string {
	out := append([]string{l.BulletID, l.TargetBulletID}, l.MergedFromBulletIDs...)
	return out
}
