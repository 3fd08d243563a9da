package live

import (
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

// fakeToken is a made-up GitHub token that the secret rules find.
var fakeToken = "ghp_" + "R8kd93LmQz7XwP2vB5nT6yH1cJ4aF0sE9gUi"

// memoryIndexDir is the store's memory index (a cache the windowed
// listing keeps), a file per memory folder.
const memoryIndexDir = ".cache/memory-index"

// newStore is a store made by Init in a fresh folder (and a repository
// made by go-git), nothing committed yet.
func newStore(t *testing.T) (*mdstore.Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}
