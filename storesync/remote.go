package storesync

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrRejected means the remote refused the push because its branch moved
// (it holds commits the local branch does not): fetch and merge again.
var ErrRejected = errors.New("the remote branch moved")

// Remote is one branch of one git remote of a repository.
type Remote struct {
	Repo   *git.Repository
	Name   string // the remote's name (origin)
	Branch string // the branch, the same name on both ends
	// Context stops a fetch or a push when it is done (nil: never); a
	// stopped fetch leaves no file behind.
	Context context.Context
}

// OpenRepository opens the git repository whose work tree holds dir,
// after RepairPacks made its packs safe to read.
func OpenRepository(dir string) (*git.Repository, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, err
	}
	if st, ok := repo.Storer.(*filesystem.Storage); ok {
		if _, err := RepairPacks(packDir(st)); err != nil {
			return nil, err
		}
	}
	return repo, nil
}

// packDir is objects/pack of a repository's storage: in the common git
// folder of a linked worktree.
func packDir(st *filesystem.Storage) string {
	gitDir := st.Filesystem().Root()
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		gitDir = filepath.Clean(c)
	}
	return filepath.Join(gitDir, "objects", "pack")
}

func (rm Remote) context() context.Context {
	if rm.Context == nil {
		return context.Background()
	}
	return rm.Context
}

// URL is the remote's first URL with any password removed, for messages.
func (rm Remote) URL() string {
	r, err := rm.Repo.Remote(rm.Name)
	if err != nil || len(r.Config().URLs) == 0 {
		return rm.Name
	}
	return Redact(r.Config().URLs[0])
}

// Redact removes the password of a URL's user information.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// trackingRef is where fetched commits of the branch are kept.
func (rm Remote) trackingRef() plumbing.ReferenceName {
	return plumbing.NewRemoteReferenceName(rm.Name, rm.Branch)
}

// ErrInterrupted is a fetch or push stopped by its Context.
var ErrInterrupted = errors.New("interrupted")

// Fetch brings the remote branch's commits and returns its tip (zero when
// the remote has no such branch yet). The pack arrives whole or not at
// all (see fetchStorage); the leftovers of a fetch that was killed are
// repaired first (RepairPacks).
func (rm Remote) Fetch() (plumbing.Hash, error) {
	r, err := rm.Repo.Remote(rm.Name)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("remote %q: %w", rm.Name, err)
	}
	auth, err := authFor(r.Config().URLs)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if st, ok := rm.Repo.Storer.(*filesystem.Storage); ok {
		dir := packDir(st)
		done, err := RepairPacks(dir)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if len(done) > 0 {
			st.Reindex()
		}
		fs := fetchStorage{Storage: st, packDir: dir}
		removeStaleRefTemps(fs.gitDir())
		r = git.NewRemote(fs, r.Config())
	}
	spec := config.RefSpec(fmt.Sprintf("+refs/heads/%s:%s", rm.Branch, rm.trackingRef()))
	err = r.FetchContext(rm.context(), &git.FetchOptions{RefSpecs: []config.RefSpec{spec}, Auth: auth})
	if errors.Is(rm.context().Err(), context.Canceled) {
		// Stopped, or asked to stop as the fetch ended: either way the
		// repository holds a whole pack or none, and nothing is merged.
		return plumbing.ZeroHash, fmt.Errorf("fetching %s from %s: %w; nothing was merged", rm.Branch, rm.URL(), ErrInterrupted)
	}
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
	case err != nil && isMissingRef(err):
		return plumbing.ZeroHash, nil
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return plumbing.ZeroHash, nil
	case err != nil:
		return plumbing.ZeroHash, fmt.Errorf("fetching %s from %s: %w", rm.Branch, rm.URL(), err)
	}
	ref, err := rm.Repo.Reference(rm.trackingRef(), true)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("fetching %s from %s: %w", rm.Branch, rm.URL(), err)
	}
	return ref.Hash(), nil
}

func isMissingRef(err error) bool {
	return errors.Is(err, git.NoMatchingRefSpecError{})
}

// Push sends the local branch to the remote branch. A push the remote
// refuses because its branch moved is ErrRejected.
func (rm Remote) Push() error {
	r, err := rm.Repo.Remote(rm.Name)
	if err != nil {
		return fmt.Errorf("remote %q: %w", rm.Name, err)
	}
	auth, err := authFor(r.Config().URLs)
	if err != nil {
		return err
	}
	ref := plumbing.NewBranchReferenceName(rm.Branch)
	spec := config.RefSpec(fmt.Sprintf("%s:%s", ref, ref))
	err = r.PushContext(rm.context(), &git.PushOptions{RefSpecs: []config.RefSpec{spec}, Auth: auth})
	if err != nil && errors.Is(rm.context().Err(), context.Canceled) {
		return fmt.Errorf("pushing %s to %s: %w", rm.Branch, rm.URL(), ErrInterrupted)
	}
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
		return nil
	case errors.Is(err, git.ErrNonFastForwardUpdate), errors.Is(err, storage.ErrReferenceHasChanged):
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	if rm.movedSinceFetch(r, auth) {
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	return fmt.Errorf("pushing %s to %s: %w", rm.Branch, rm.URL(), err)
}

// movedSinceFetch tells whether the remote's branch is no longer the
// commit this clone last fetched: a push the remote turned down then was
// turned down because another clone pushed first (git's "fetch first"),
// and a new fetch and merge will get through. A push turned down while the
// branch stayed put (a server hook, permissions, a full disk) is not, and
// is reported as it is. The remote's own words are never parsed.
func (rm Remote) movedSinceFetch(r *git.Remote, auth transport.AuthMethod) bool {
	refs, err := r.ListContext(rm.context(), &git.ListOptions{Auth: auth})
	if err != nil {
		return false
	}
	fetched := plumbing.ZeroHash
	if ref, err := rm.Repo.Reference(rm.trackingRef(), true); err == nil {
		fetched = ref.Hash()
	}
	want := plumbing.NewBranchReferenceName(rm.Branch)
	for _, ref := range refs {
		if ref.Name() == want {
			return ref.Hash() != fetched
		}
	}
	return false
}

// MergeBase is the best common ancestor of two commits (zero when they
// share no history).
func MergeBase(repo *git.Repository, a, b plumbing.Hash) (plumbing.Hash, error) {
	ca, err := repo.CommitObject(a)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	cb, err := repo.CommitObject(b)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	bases, err := ca.MergeBase(cb)
	if err != nil || len(bases) == 0 {
		return plumbing.ZeroHash, err
	}
	return bases[0].Hash, nil
}

// IsAncestor reports whether commit a is reachable from commit b.
func IsAncestor(repo *git.Repository, a, b plumbing.Hash) (bool, error) {
	if a == b {
		return true, nil
	}
	ca, err := repo.CommitObject(a)
	if err != nil {
		return false, err
	}
	cb, err := repo.CommitObject(b)
	if err != nil {
		return false, err
	}
	return ca.IsAncestor(cb)
}

// authFor chooses credentials for a remote's URL the way git users expect,
// without storing or printing them: user and password written in an http
// URL; for ssh, the ssh agent when SSH_AUTH_SOCK is set, else the first of
// ~/.ssh/id_ed25519, id_ecdsa, id_rsa that needs no passphrase. Local paths
// and file URLs need none.
func authFor(urls []string) (transport.AuthMethod, error) {
	if len(urls) == 0 {
		return nil, nil
	}
	ep, err := transport.NewEndpoint(urls[0])
	if err != nil {
		return nil, err
	}
	switch ep.Protocol {
	case "http", "https":
		if ep.User != "" {
			return &http.BasicAuth{Username: ep.User, Password: ep.Password}, nil
		}
	case "ssh":
		user := ep.User
		if user == "" {
			user = "git"
		}
		if os.Getenv("SSH_AUTH_SOCK") != "" {
			return ssh.NewSSHAgentAuth(user)
		}
		home, _ := os.UserHomeDir()
		for _, name := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			k := filepath.Join(home, ".ssh", name)
			if _, err := os.Stat(k); err != nil {
				continue
			}
			if a, err := ssh.NewPublicKeysFromFile(user, k, ""); err == nil {
				return a, nil
			}
		}
		return nil, fmt.Errorf("no ssh credentials for %s: start an ssh agent (SSH_AUTH_SOCK) or add a key without passphrase to ~/.ssh", Redact(urls[0]))
	}
	return nil, nil
}
