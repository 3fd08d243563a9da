package memory

import (
	"sync"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/live"
)

// liveListing is the store's live memory listing (live.Memories):
// every record's fields held in memory and kept current from the file
// system's events, so that list_entries answers a window from memory
// instead of checking every file. It is opened in the background when the
// server starts (about half a second at 100,000 entries with the memory
// index, seconds without), and a listing waits for it: a listing of its
// own would state every file of the folder beside the opening, which does
// the same. Where it cannot follow the files it reads them itself, as
// `memory list` does; if it cannot be opened at all, list_entries reads
// the files. Every way gives the same answer.
type liveListing struct {
	ready  chan struct{}
	mu     sync.Mutex
	l      *live.Memories
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
		l, err := live.Open(st)
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

// get is the live listing once it is open, or nil when it could not be
// opened. A call that comes while it is opening waits for it: reading
// every file beside the opening would cost the same reading twice, at
// once.
func (ll *liveListing) get() *live.Memories {
	<-ll.ready
	ll.mu.Lock()
	defer ll.mu.Unlock()
	return ll.l
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
