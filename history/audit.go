package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/curator-dev/curator/internal/gittree"
	"github.com/curator-dev/curator/mdstore"
)

// Kinds of audit findings.
const (
	// UnexplainedBullet: a bullet file changed in a commit that no
	// merge-log line of that commit's curator run names.
	UnexplainedBullet = "unexplained_bullet_change"
	// MergeLogRewritten: a merge-log file lost or changed a line it held.
	MergeLogRewritten = "merge_log_rewritten"
	// OutsideCurator: a commit without a Curator-Run trailer changed files
	// under context/.
	OutsideCurator = "outside_curator"
)

// AuditRequest is one `curator audit`.
type AuditRequest struct {
	// Store is the store audited; nil in a bare repository (a server's
	// pre-receive hook), found in Repo.
	Store *mdstore.Store
	// Repo is the repository's folder when Store is nil.
	Repo string
	// Range is which commits: "" every commit of HEAD, REV every commit
	// of REV, A..B the commits of B that A does not have (an A of zeros,
	// as a pre-receive hook gets for a new branch, has none).
	Range string
	// Agent is the agent asking; auditing needs level 5 (system) when
	// config.yaml has an access section.
	Agent string
	// ObjectDirs are more folders of git objects (a pre-receive hook's
	// GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES).
	ObjectDirs []string
}

// Finding is one thing the audit found, in one commit.
type Finding struct {
	Kind    string `json:"kind"`
	Commit  string `json:"commit"`
	Summary string `json:"summary"`
	RunID   string `json:"run_id,omitempty"`
	// Path is the store-relative file (a merge-log file, a bullet file).
	Path string `json:"path,omitempty"`
	// Line is the merge-log line rewritten or deleted (1-based).
	Line   int    `json:"line,omitempty"`
	Bullet string `json:"bullet,omitempty"`
	// Paths are the files under context/ a commit outside curator changed.
	Paths   []string `json:"paths,omitempty"`
	Message string   `json:"message"`
}

// AuditReport is what the audit checked and found.
type AuditReport struct {
	Range    string    `json:"range"`
	Commits  int       `json:"commits"`
	Findings []Finding `json:"findings"`
	Clean    bool      `json:"clean"`
}

// zeroRev is the revision git gives a hook for a ref that did not exist.
var zeroRev = strings.Repeat("0", 40)

// Audit checks the commits of req.Range: every change to a bullet file is
// named by a merge-log line of the curator run that made it (a commit
// with the Curator-Run trailer); merge-log files only grow, line after
// line; and commits without the trailer that change files under context/
// are listed. A merge commit is held to what it changed against every
// parent; curator's own merges (sync) are runs whose decisions are in
// their message, not in a merge log.
func Audit(req AuditRequest) (*AuditReport, error) {
	dir := req.Repo
	if req.Store != nil {
		dir = req.Store.Dir
		if err := req.Store.Require(req.Agent, mdstore.LevelSystem, "auditing the store's history"); err != nil {
			return nil, err
		}
	}
	repo, done, err := openWithObjects(dir, req.Store == nil, req.ObjectDirs)
	if err != nil {
		return nil, err
	}
	defer done()
	commits, err := rangeCommits(repo, req.Range)
	if err != nil {
		return nil, err
	}
	a := &auditor{repo: repo}
	if req.Store != nil {
		if a.prefix, err = storePrefix(repo, dir); err != nil {
			return nil, err
		}
	} else if err := a.bareAccess(req.Agent); err != nil {
		return nil, err
	}
	rep := &AuditReport{Range: req.Range, Commits: len(commits), Findings: []Finding{}}
	if rep.Range == "" {
		rep.Range = "HEAD"
	}
	for _, c := range commits {
		fs, err := a.commit(c)
		if err != nil {
			return nil, fmt.Errorf("commit %s: %w", c.Hash, err)
		}
		rep.Findings = append(rep.Findings, fs...)
	}
	rep.Clean = len(rep.Findings) == 0
	return rep, nil
}

// rangeCommits are the commits of spec, oldest first.
func rangeCommits(repo *git.Repository, spec string) ([]*object.Commit, error) {
	from, to := "", orHEAD(spec)
	if a, b, ok := strings.Cut(spec, ".."); ok {
		from, to = a, orHEAD(b)
	}
	tip, err := commitOf(repo, to)
	if errors.Is(err, plumbing.ErrReferenceNotFound) && spec == "" {
		return nil, nil // no commit yet
	}
	if err != nil {
		return nil, err
	}
	have := map[plumbing.Hash]bool{}
	if from != "" && from != zeroRev {
		base, err := commitOf(repo, from)
		if err != nil {
			return nil, err
		}
		if err := reachable(base, have, func(*object.Commit) {}); err != nil {
			return nil, err
		}
	}
	var out []*object.Commit
	if err := reachable(tip, have, func(c *object.Commit) { out = append(out, c) }); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Committer.When.Before(out[j].Committer.When) })
	return out, nil
}

// reachable calls fn for every commit reachable from c that seen does not hold,
// adding it.
func reachable(c *object.Commit, seen map[plumbing.Hash]bool, fn func(*object.Commit)) error {
	stack := []*object.Commit{c}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c.Hash] {
			continue
		}
		seen[c.Hash] = true
		fn(c)
		err := c.Parents().ForEach(func(p *object.Commit) error {
			if !seen[p.Hash] {
				stack = append(stack, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type auditor struct {
	repo   *git.Repository
	prefix string // the store's folder in the repository ("" its root)
}

// bareAccess finds the store in a bare repository (.curator at the root
// of HEAD's tree, or the root itself) and checks the agent against the
// access section of its config.yaml as HEAD holds it: what the server
// accepted, which a push cannot change for itself.
func (a *auditor) bareAccess(agent string) error {
	head, err := commitOf(a.repo, "HEAD")
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		a.prefix = ".curator"
		return nil // nothing accepted yet: no access section
	}
	if err != nil {
		return err
	}
	t, err := head.Tree()
	if err != nil {
		return err
	}
	a.prefix = ".curator"
	f, err := t.File(".curator/config.yaml")
	if errors.Is(err, object.ErrFileNotFound) {
		if f, err = t.File("config.yaml"); err == nil {
			a.prefix = ""
		}
	}
	if errors.Is(err, object.ErrFileNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	text, err := f.Contents()
	if err != nil {
		return err
	}
	acc, err := mdstore.AccessOf(f.Name+" at HEAD", []byte(text))
	if err != nil {
		return err
	}
	return acc.Require(agent, mdstore.LevelSystem, "auditing the store's history")
}

// contextTree is the store's context/ folder in commit c (nil: none).
func (a *auditor) contextTree(c *object.Commit) (*object.Tree, error) {
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	return subtree(t, path.Join(a.prefix, "context"))
}

// commit audits one commit against its parents.
func (a *auditor) commit(c *object.Commit) ([]Finding, error) {
	run := ParseMessage(c.Message)
	tree, err := a.contextTree(c)
	if err != nil {
		return nil, err
	}
	var parents []*object.Tree
	err = c.Parents().ForEach(func(p *object.Commit) error {
		t, err := a.contextTree(p)
		parents = append(parents, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(parents) == 0 {
		parents = []*object.Tree{nil}
	}
	// what the commit changed: against its parent, or for a merge the
	// files that differ from every parent
	var changed []gittree.Change
	err = gittree.Diff(parents[0], tree, func(ch gittree.Change) error {
		for _, p := range parents[1:] {
			if blobAt(p, ch.Path) == ch.New {
				return nil
			}
		}
		changed = append(changed, ch)
		return nil
	})
	if err != nil {
		return nil, err
	}
	f := func(kind, p, msg string) Finding {
		return Finding{Kind: kind, Commit: c.Hash.String(), Summary: run.Summary, RunID: run.RunID, Path: p, Message: msg}
	}
	var out []Finding
	named := map[string]bool{} // bullets the run's merge-log lines name
	var paths []string
	for _, ch := range changed {
		rel := "context/" + ch.Path
		paths = append(paths, rel)
		if !isMergeLog(ch.Path) {
			continue
		}
		var nw []byte
		if !ch.New.IsZero() {
			if nw, err = a.blob(ch.New); err != nil {
				return nil, err
			}
		}
		added := nw
		for _, p := range parents {
			h := blobAt(p, ch.Path)
			if h.IsZero() {
				continue
			}
			old, err := a.blob(h)
			if err != nil {
				return nil, err
			}
			if line, ok := appended(old, nw); !ok {
				fd := f(MergeLogRewritten, rel, "")
				fd.Line = line
				switch {
				case nw == nil:
					fd.Message = fmt.Sprintf("merge log %s was deleted", rel)
				case line > lineCount(nw):
					fd.Message = fmt.Sprintf("merge log %s: line %d was deleted (a merge log is only appended to)", rel, line)
				default:
					fd.Message = fmt.Sprintf("merge log %s: line %d was rewritten (a merge log is only appended to)", rel, line)
				}
				out = append(out, fd)
				added = nil
			} else if len(old) < len(added) {
				added = nw[len(old):]
			}
		}
		if run.RunID != "" {
			for _, l := range logLines(added) {
				if l.RunID != run.RunID {
					continue
				}
				for _, id := range append([]string{l.BulletID, l.TargetBulletID}, l.MergedFromBulletIDs...) {
					named[id] = true
				}
			}
		}
	}
	if run.RunID == "" && len(paths) > 0 {
		fd := f(OutsideCurator, "", fmt.Sprintf("%d %s under context/ changed outside curator (no Curator-Run trailer): %s",
			len(paths), plural(len(paths), "file", "files"), strings.Join(paths, ", ")))
		fd.Paths = paths
		out = append(out, fd)
	}
	if run.RunID != "" && len(parents) > 1 {
		return out, nil // curator's merge (sync): its decisions are in its message
	}
	seen := map[string]bool{}
	for _, ch := range changed {
		id, ok := bulletOf(ch.Path)
		if !ok || seen[id] || named[id] {
			continue
		}
		seen[id] = true
		fd := f(UnexplainedBullet, "context/"+ch.Path, "")
		fd.Bullet = id
		if run.RunID == "" {
			fd.Message = fmt.Sprintf("bullet %s changed outside curator: no curator run, no merge-log line", id)
		} else {
			fd.Message = fmt.Sprintf("bullet %s changed by run %s, which has no merge-log line for it", id, run.RunID)
		}
		out = append(out, fd)
	}
	return out, nil
}

// isMergeLog tells a merge-log file (log/<YYYY>/<MM>/<run>.jsonl under
// context/).
func isMergeLog(p string) bool {
	return strings.HasPrefix(p, "log/") && strings.HasSuffix(p, ".jsonl")
}

// bulletOf is the id of a bullet file (bullets/ or archive/, under
// context/).
func bulletOf(p string) (string, bool) {
	if !strings.HasPrefix(p, "bullets/") && !strings.HasPrefix(p, "archive/") || !strings.HasSuffix(p, ".md") {
		return "", false
	}
	return strings.TrimSuffix(path.Base(p), ".md"), true
}

// appended reports whether nw is old with lines added at its end; if not,
// the first line of old that nw lost or changed.
func appended(old, nw []byte) (int, bool) {
	if nw != nil && bytes.HasPrefix(nw, old) {
		return 0, true
	}
	ol, nl := bytes.SplitAfter(old, []byte("\n")), bytes.SplitAfter(nw, []byte("\n"))
	for i := range ol {
		if i >= len(nl) || !bytes.Equal(bytes.TrimRight(ol[i], "\n"), bytes.TrimRight(nl[i], "\n")) {
			return i + 1, false
		}
	}
	return len(ol), false
}

func lineCount(b []byte) int { return bytes.Count(b, []byte("\n")) }

// logLines reads merge-log lines; a line that does not parse names no
// bullet.
func logLines(data []byte) []mdstore.MergeLogLine {
	var out []mdstore.MergeLogLine
	for _, l := range bytes.Split(data, []byte("\n")) {
		var line mdstore.MergeLogLine
		if len(bytes.TrimSpace(l)) > 0 && json.Unmarshal(l, &line) == nil {
			out = append(out, line)
		}
	}
	return out
}

// blobAt is the hash of the file at p in t (zero: none).
func blobAt(t *object.Tree, p string) plumbing.Hash {
	if t == nil {
		return plumbing.ZeroHash
	}
	e, err := t.FindEntry(p)
	if err != nil || !e.Mode.IsFile() {
		return plumbing.ZeroHash
	}
	return e.Hash
}

func (a *auditor) blob(h plumbing.Hash) ([]byte, error) {
	b, err := a.repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
