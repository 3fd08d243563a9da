package gitcommit

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/curator-dev/curator/internal/durable"

	"github.com/go-git/go-git/v5/plumbing"
)

// errRefMoved means the branch (or the branch HEAD names) changed between
// reading it and moving it: another git process committed or switched
// branches. The commit is built again on the new tip.
var errRefMoved = errors.New("the branch moved while curator was committing")

// headBranch returns the branch HEAD names and its tip (the zero hash on a
// branch without commits), refusing a detached HEAD and a merge, rebase,
// cherry-pick or revert in progress.
func (r *Repo) headBranch() (string, plumbing.Hash, error) {
	b, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("reading HEAD: %w", err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref:")
	if !ok {
		return "", plumbing.ZeroHash, ErrDetachedHead
	}
	branch := strings.TrimSpace(target)
	for _, f := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"} {
		if _, err := os.Stat(filepath.Join(r.gitDir, f)); err == nil {
			return "", plumbing.ZeroHash, ErrMergeInProgress
		}
	}
	tip, err := r.readRef(branch)
	return branch, tip, err
}

// refDir is where a ref's file lives: the worktree's own refs (bisect,
// worktree, rewritten) in its git folder, every other ref in the common one.
func (r *Repo) refDir(name string) string {
	for _, p := range []string{"refs/bisect/", "refs/worktree/", "refs/rewritten/"} {
		if strings.HasPrefix(name, p) {
			return r.gitDir
		}
	}
	return r.commonDir
}

// readRef returns a ref's commit: its loose file, else its packed-refs
// line; the zero hash when it does not exist.
func (r *Repo) readRef(name string) (plumbing.Hash, error) {
	path := filepath.Join(r.refDir(name), filepath.FromSlash(name))
	b, err := os.ReadFile(path)
	if err == nil {
		v := strings.TrimSpace(string(b))
		if strings.HasPrefix(v, "ref:") {
			return plumbing.ZeroHash, fmt.Errorf("%s is a symbolic ref; curator commits on a branch", name)
		}
		if !plumbing.IsHash(v) {
			return plumbing.ZeroHash, fmt.Errorf("%s holds %q, not a commit id", name, v)
		}
		return plumbing.NewHash(v), nil
	}
	if !errors.Is(err, os.ErrNotExist) && !noLooseRef(path, err) {
		return plumbing.ZeroHash, err
	}
	return r.packedRef(name)
}

// noLooseRef tells whether reading a ref's file failed because no loose
// ref can be there: its path is a folder (refs/heads/a when refs/heads/a/b
// exists) or passes through a file (refs/heads/a/b when refs/heads/a is a
// ref). It may still be packed.
func noLooseRef(path string, err error) bool {
	if errors.Is(err, syscall.ENOTDIR) {
		return true
	}
	fi, serr := os.Stat(path)
	return serr == nil && fi.IsDir()
}

func (r *Repo) packedRef(name string) (plumbing.Hash, error) {
	f, err := os.Open(filepath.Join(r.commonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) < 42 || line[0] == '#' || line[0] == '^' {
			continue
		}
		if string(line[41:]) == name && line[40] == ' ' {
			return plumbing.NewHash(string(line[:40])), nil
		}
	}
	return plumbing.ZeroHash, sc.Err()
}

// moveBranch moves branch from old to new the way git does: HEAD.lock
// held so that HEAD cannot be switched meanwhile, HEAD checked to still
// name the branch, the branch's own lock taken, its value compared with
// old (errRefMoved when it differs), the reflogs appended, and the lock
// renamed into place. It returns HEAD.lock still held: the caller renames
// the index into place first and then releases it, so that the time
// between the branch moving and the index matching it is two renames.
func (r *Repo) moveBranch(branch string, old, new plumbing.Hash, who string, at time.Time, summary string, timeout time.Duration, owner *lockOwner) (*gitLock, error) {
	head, err := takeGitLock(filepath.Join(r.gitDir, "HEAD"), timeout, owner)
	if err != nil {
		return nil, err
	}
	if err := r.casBranch(branch, old, new, who, at, summary, timeout, owner); err != nil {
		head.release()
		return nil, err
	}
	return head, nil
}

func (r *Repo) casBranch(branch string, old, new plumbing.Hash, who string, at time.Time, summary string, timeout time.Duration, owner *lockOwner) error {
	now, tip, err := r.headBranch()
	if err != nil {
		return err
	}
	if now != branch || tip != old {
		return errRefMoved
	}
	refPath := filepath.Join(r.refDir(branch), filepath.FromSlash(branch))
	ref, err := takeGitLock(refPath, timeout, owner)
	if err != nil {
		return err
	}
	defer ref.release()
	if tip, err = r.readRef(branch); err != nil {
		return err
	}
	if tip != old {
		return errRefMoved
	}
	if err := ref.write([]byte(new.String()+"\n"), true); err != nil {
		return err
	}
	if r.cfg.logRefUpdates {
		kind := "commit"
		if old.IsZero() {
			kind = "commit (initial)"
		}
		line := fmt.Sprintf("%s %s %s %d +0000\t%s: %s\n", old, new, who, at.Unix(), kind, firstLine(summary))
		for _, p := range []string{filepath.Join(r.commonDir, "logs", filepath.FromSlash(branch)), filepath.Join(r.gitDir, "logs", "HEAD")} {
			if err := appendLine(p, line); err != nil {
				return fmt.Errorf("writing the reflog %s: %w", p, err)
			}
		}
	}
	return ref.commit()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func appendLine(path, line string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write([]byte(line))
	if err == nil {
		err = durable.Later(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// HeadIs reports whether HEAD's branch points at h.
func (r *Repo) HeadIs(h plumbing.Hash) (bool, error) {
	b, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return false, err
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref:")
	if !ok {
		return plumbing.NewHash(strings.TrimSpace(string(b))) == h, nil
	}
	tip, err := r.readRef(strings.TrimSpace(target))
	return tip == h, err
}
