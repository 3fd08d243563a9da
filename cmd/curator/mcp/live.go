package mcpcmd

import (
	"sync"

	"github.com/curator-dev/curator/mdstore"
)

// liveListing is the store's live memory listing (mdstore.LiveMemories):
// every record's fields held in memory and kept current from the file
// system's events, so that list_entries answers a window from memory
// instead of checking every file. It is opened in the background when the
// server starts (seconds on a large store); until it is ready, and where
// it cannot follow the files (it then says so itself and reads them),
// list_entries reads the files as `memory list` does. Both give the same
// answer.
type liveListing struct {
	ready  chan struct{}
	mu     sync.Mutex
	l      *mdstore.LiveMemories
	closed bool
}

// openLive starts opening the live listing of the store at dir.
func openLive(dir string) *liveListing {
	ll := &liveListing{ready: make(chan struct{})}
	go func() {
		defer close(ll.ready)
		st, err := mdstore.Open(dir)
		if err != nil {
			return
		}
		l, err := st.OpenLiveMemories()
		if err != nil {
			return
		}
		ll.mu.Lock()
		defer ll.mu.Unlock()
		if ll.closed {
			l.Close()
			return
		}
		ll.l = l
	}()
	return ll
}

// get is the live listing, or nil while it is being opened (or could not
// be).
func (ll *liveListing) get() *mdstore.LiveMemories {
	select {
	case <-ll.ready:
		ll.mu.Lock()
		defer ll.mu.Unlock()
		return ll.l
	default:
		return nil
	}
}

// close stops following the files.
func (ll *liveListing) close() {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.closed = true
	if ll.l != nil {
		ll.l.Close()
		ll.l = nil
	}
}
