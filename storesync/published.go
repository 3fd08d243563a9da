package storesync

import (
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/curator-dev/curator/merge"
)

// PublishedSide tells which side of a merge git began holds what a remote
// already has, so that its ids stay as others know them: theirs when a
// remote-tracking branch holds theirs and none holds ours (a `git pull`
// that merges), else ours (a rebase replays local commits onto the remote's,
// so the replayed commit — theirs — is the unpublished side).
func PublishedSide(repo *git.Repository, ours, theirs plumbing.Hash) (merge.Side, error) {
	tips, err := remoteTips(repo)
	if err != nil {
		return merge.Ours, err
	}
	held := func(h plumbing.Hash) (bool, error) {
		for _, tip := range tips {
			ok, err := IsAncestor(repo, h, tip)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	theirsHeld, err := held(theirs)
	if err != nil || !theirsHeld {
		return merge.Ours, err
	}
	oursHeld, err := held(ours)
	if err != nil || oursHeld {
		return merge.Ours, err
	}
	return merge.Theirs, nil
}

// remoteTips are the commits the remote-tracking branches point at.
func remoteTips(repo *git.Repository) ([]plumbing.Hash, error) {
	refs, err := repo.References()
	if err != nil {
		return nil, err
	}
	defer refs.Close()
	var out []plumbing.Hash
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if r.Name().IsRemote() && r.Type() == plumbing.HashReference {
			out = append(out, r.Hash())
		}
		return nil
	})
	return out, err
}
