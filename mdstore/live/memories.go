package live

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// Memories keeps every memory record's fields (no bodies) in memory and follows changes on disk.
//
// It is for a long-running process that lists memories many times (the MCP
// server's list_entries): List answers what ListMemories would answer for
// the same files, with Light's records, without reading or stating the
// store. Every change that completed before List was called — by this
// process, another one, an editor, git, a rename between inbox,
// confirmed/<type> and trash, a folder made or removed — is in its answer.
//
// How: the memory folders are followed by file notifications (see
// follow.go), which mark the files they name as dirty. List
// first passes a barrier that makes sure every event of a change made
// before the call has been marked, then reads again only the marked files
// (and any folder made, removed or renamed, in full), then answers from
// lists kept sorted by (ingestion_time, id) for every status and type (see
// order.go): a window is two binary searches and its page a
// slice, whatever the size of the store. A file is read with ReadMemory, so
// an invalid one is reported with the same path, line and message as
// ListMemories reports it.
//
// Only Linux's inotify keeps the events of all the folders in the order
// the changes happen, which the barrier needs; kqueue (macOS, BSD) and
// ReadDirectoryChangesW (Windows) do not. There, and on Linux when the
// notifications cannot be set up (the inotify instance or watch limit is
// reached, a memory folder cannot be watched) or when the store lies on a
// network or FUSE file system (whose changes made elsewhere inotify does
// not see), List is ListMemories itself; Fallback says why. A watch that
// fails later switches the listing to ListMemories for good.
//
// What inotify does not report is not seen either: a change made through
// another hard link of a file — unless the file had that link when it was
// last read (a symlink, or a file with several links, is read again at
// every List) — or a write through a shared memory mapping.
//
// Secrets: a file is checked for secrets with the policy of the last List
// that gave one, when the file is read. The first List with a policy, and
// a List with another policy than the last one, reads every file again
// (at 100,000 files the check costs twice the reading and parsing, so it
// is not done before a listing asks for it). A file that holds a secret
// is in Invalid whenever its folder is listed, as ListMemories reports it
// when it reads the file (a windowed ListMemories may skip such a file
// outside its window when its on-disk index learned the file from a
// listing made without a policy).
//
// Records with the same ingestion_time and id (one file in two folders)
// are ordered by path; ListMemories leaves their order unspecified.
//
// Opening: every file of the memory folders is stated, and the memory
// index (cache.Memories) gives the records of those it knows as
// they are; only the others are read, and the index learns them (a
// missing or damaged index makes the opening read every file, and write
// it). The same goes for a listing that reads everything again after lost
// events, until a List gives a secrets policy: the index does not know
// which files hold a secret, so from then on such a listing reads every
// file.
//
// Bodies are never held, and a record's fields are held packed
// (mdstore.PackMemory; for records opened from the index, in place in
// the index file's bytes): at 100,000 records about 64 bytes each beside
// their packed fields, which the collector does not scan. Each List
// unpacks the records it returns: they are copies.
type Memories struct {
	s *mdstore.Store

	run      sync.Mutex // one List or Close at a time; guards what follows
	closed   bool
	fallback string                  // why List is ListMemories ("" while following)
	f        *liveFollower           // nil in fallback
	pol      *secrets.Policy         // the policy secret was found with
	entries  []map[string]*liveEntry // per leaf, by file name
	recheck  map[string]*liveEntry   // read again at every listing, by path
	invalid  map[string]*liveEntry   // unreadable or holding a secret, by path
	byFolder []*liveEntry            // invalid in ListMemories' folder order; nil: to sort
	byPath   []*liveEntry            // invalid by path; nil: to sort
	orders   liveOrders
	count    int       // entries
	version  uint64    // counts the changes applied (ListChanged)
	log      changeLog // the paths the latest versions changed (ListDelta)
	// undecodable holds the entries a listing found it could not unpack,
	// by path, until they change (ListDelta reports them with each delta).
	undecodable map[string]*mdstore.InvalidFile
	reads       int  // files read since Open
	mapped      bool // the memory index was mapped (by the first opening)
}

// Open starts following the store's memory folders and learns every
// record once (on Linux; see Memories for the other systems), from the
// memory index where it can: at 100,000 records a few tenths of a second
// on two cores with an index, about 4 s without, so a server may open it
// in the background while it starts. An error
// reading a folder is kept for the first List, which reports it as
// ListMemories would.
func Open(s *mdstore.Store) (*Memories, error) {
	l := &Memories{s: s}
	if !liveOrdered {
		l.fallback = "file notifications on this system do not keep the order of changes"
		return l, nil
	}
	if kind, remote := remoteFS(s.Dir); remote {
		l.fallback = "the store lies on a " + kind + " file system, whose changes made elsewhere are not notified"
		return l, nil
	}
	f, err := startFollower(s.Dir)
	if err != nil {
		l.fallback = err.Error()
		return l, nil
	}
	l.f = f
	l.reset()
	f.lose(errors.New("start")) // the first refresh reads everything
	_ = l.refresh(nil, nil)     // a failure keeps the marks for List
	return l, nil
}

// Fallback says why List reads the files as ListMemories does, or "" when
// it answers from the records it holds.
func (l *Memories) Fallback() string {
	l.run.Lock()
	defer l.run.Unlock()
	return l.fallback
}

// List returns what cache.ListMemories(s, q) returns for the files as they are
// when List is called, with Light's records (no documents, no factor map).
// Progress, when set, is told how many of the files List reads again are
// read. DeferIndex has no effect: List writes no index. A policy in
// Secrets other than the last one given makes List read every file again.
func (l *Memories) List(q mdstore.MemoryQuery) (*mdstore.MemoryList, error) {
	l.run.Lock()
	defer l.run.Unlock()
	if l.closed {
		return nil, errors.New("memory listing: closed")
	}
	q.Light = true
	if held, err := l.current(q); !held || err != nil {
		if err != nil {
			return nil, err
		}
		return cache.ListMemories(l.s, q)
	}
	return l.answer(q), nil
}

// ListWindow is List(q) without its Offset and Limit, as a Window: the
// records are unpacked when a part of the window is asked for.
func (l *Memories) ListWindow(q mdstore.MemoryQuery) (*Window, error) {
	l.run.Lock()
	defer l.run.Unlock()
	if l.closed {
		return nil, errors.New("memory listing: closed")
	}
	q.Light, q.Offset, q.Limit = true, 0, 0
	if held, err := l.current(q); !held || err != nil {
		if err != nil {
			return nil, err
		}
		res, err := cache.ListMemories(l.s, q)
		if err != nil {
			return nil, err
		}
		return WindowOf(res), nil
	}
	return l.window(q), nil
}

// current brings the held records up to date for a listing of q; false
// when they cannot answer it (the listing does not follow the files, or
// has just stopped) and the files are to be read as ListMemories reads them.
func (l *Memories) current(q mdstore.MemoryQuery) (bool, error) {
	if l.f == nil {
		return false, nil
	}
	l.f.barrier()
	if err := l.refresh(q.Secrets, q.Progress); err != nil {
		if l.f == nil {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// ListChanged is List, unless no record changed since the listing that
// returned since: then the list is nil (the answer would be that
// listing's) and the version is since. A listing that cannot follow the
// files (Fallback) always lists, with version 0.
func (l *Memories) ListChanged(q mdstore.MemoryQuery, since uint64) (*mdstore.MemoryList, uint64, error) {
	l.run.Lock()
	defer l.run.Unlock()
	res, version, done, err := l.changed(q, since)
	if done || err != nil {
		return res, version, err
	}
	return l.answer(q), l.version, nil
}

// changed brings the listing up to date for ListChanged and ListDelta;
// done when their answer is known without the records (a listing that
// cannot follow the files, or nothing changed since since).
func (l *Memories) changed(q mdstore.MemoryQuery, since uint64) (*mdstore.MemoryList, uint64, bool, error) {
	if l.closed {
		return nil, 0, true, errors.New("memory listing: closed")
	}
	q.Light = true
	if held, err := l.current(q); !held || err != nil {
		if err != nil {
			return nil, 0, true, err
		}
		res, err := cache.ListMemories(l.s, q)
		return res, 0, true, err
	}
	if since != 0 && since == l.version {
		return nil, since, true, nil
	}
	return nil, l.version, false, nil
}

// Close stops following the store.
func (l *Memories) Close() error {
	l.run.Lock()
	defer l.run.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	var err error
	if l.f != nil {
		err = l.f.close()
		l.f = nil
	}
	l.reset()
	return err
}

// reset forgets every record.
func (l *Memories) reset() {
	l.entries = make([]map[string]*liveEntry, len(liveLeaves))
	for i := range l.entries {
		l.entries[i] = make(map[string]*liveEntry)
	}
	l.recheck = make(map[string]*liveEntry)
	l.invalid = make(map[string]*liveEntry)
	l.byFolder, l.byPath = nil, nil
	l.orders = liveOrders{}
	l.count = 0
	l.version++
	l.log = changeLog{from: l.version}
	l.undecodable = map[string]*mdstore.InvalidFile{}
}

// stopFollowing switches to ListMemories for good.
func (l *Memories) stopFollowing(why string) {
	l.f.close()
	l.f = nil
	l.fallback = why
	l.reset()
}

// refresh reads again what the events marked since the last listing (all
// the files when events were lost, or for another secrets policy).
func (l *Memories) refresh(pol *secrets.Policy, progress func(done, total int)) error {
	marks := l.f.take()
	if pol != nil && pol != l.pol {
		l.pol = pol
		marks.rescan = leafMask(1)<<len(liveLeaves) - 1
	}
	if marks.lost != nil {
		marks.rescan = leafMask(1)<<len(liveLeaves) - 1
	}
	dirty := marks.dirty
	var known *cache.KnownMemories
	if marks.rescan != 0 {
		dirty = make(map[string]struct{}, len(marks.dirty))
		for rel := range marks.dirty {
			dirty[rel] = struct{}{}
		}
		if err := l.f.check(); err != nil {
			return l.failed(marks, err)
		}
		var folders []string
		var leaves []int
		for leaf := range liveLeaves {
			if marks.rescan&(1<<leaf) == 0 {
				continue
			}
			if err := l.f.checkLeaf(leaf); err != nil {
				return l.failed(marks, err)
			}
			prefix := liveLeaves[leaf].rel + "/"
			for name := range l.entries[leaf] {
				dirty[prefix+name] = struct{}{}
			}
			folders, leaves = append(folders, liveLeaves[leaf].rel), append(leaves, leaf)
		}
		if l.pol == nil {
			// The memory index knows most files as they are (their
			// fields, not whether they hold a secret): only the others,
			// and those the events name, are read. The first opening
			// maps it; later ones read it, so the mapping, never
			// released, is made once per listing.
			known, _ = cache.Memories(l.s, folders, !l.mapped)
			l.mapped = true
		}
		if known == nil {
			for _, leaf := range leaves {
				names, err := l.f.scanLeaf(leaf)
				if err != nil {
					return l.failed(marks, err)
				}
				prefix := liveLeaves[leaf].rel + "/"
				for _, name := range names {
					dirty[prefix+name] = struct{}{}
				}
			}
		} else {
			// Its listing of the folders names every file in them: those
			// it knows unchanged are taken from it below, the others read.
			for _, rel := range known.Stale {
				dirty[rel] = struct{}{}
			}
		}
	}
	for rel := range l.recheck {
		dirty[rel] = struct{}{}
	}
	var rels []string
	var read []*liveEntry
	var toRead []int // the places in rels of the files read (nil: all)
	if known != nil {
		// A file the index knows is taken from it unless an event or a
		// recheck names it.
		rels = make([]string, 0, len(known.Known)+len(dirty))
		read = make([]*liveEntry, 0, cap(rels))
		slab := make([]liveEntry, len(known.Known)) // one allocation for the entries known
		for _, km := range known.Known {
			rel, pm := km.Rel, km.PackedMemory
			_, marked := marks.dirty[rel]
			_, rechecked := l.recheck[rel]
			if !marked && !rechecked {
				slash := strings.LastIndexByte(rel, '/')
				leaf, _ := leafIndex(rel[:slash])
				if e := &slab[0]; knownEntry(e, leaf, rel, pm) {
					rels, read, slab = append(rels, rel), append(read, e), slab[1:]
					delete(dirty, rel)
					continue
				}
			}
			dirty[rel] = struct{}{}
		}
		toRead = make([]int, 0, len(dirty))
		for rel := range dirty {
			toRead = append(toRead, len(rels))
			rels, read = append(rels, rel), append(read, nil)
		}
	} else {
		rels = make([]string, 0, len(dirty))
		for rel := range dirty {
			rels = append(rels, rel)
		}
		read = make([]*liveEntry, len(rels))
	}
	if len(rels) == 0 {
		return nil
	}
	var learn []*mdstore.Memory // what the index learns, by place in rels
	if known != nil {
		learn = make([]*mdstore.Memory, len(rels))
	}
	readOne := func(k int) {
		i := k
		if toRead != nil {
			i = toRead[k]
		}
		var m *mdstore.Memory
		read[i], m = l.readEntry(rels[i])
		if learn != nil {
			learn[i] = m
		}
	}
	n := len(rels)
	if toRead != nil {
		n = len(toRead)
	}
	l.reads += n
	if n < 8 && progress == nil {
		for k := range n {
			readOne(k)
		}
	} else {
		var done sync.Mutex
		c := 0
		parallel.For(n, func(k int) {
			readOne(k)
			if progress != nil {
				done.Lock()
				c++
				progress(c, n)
				done.Unlock()
			}
		})
	}
	if known != nil {
		for i, m := range learn {
			if m != nil {
				known.Learn(rels[i], m)
			}
		}
		known.Save()
	}
	l.apply(rels, read)
	return nil
}

// failed keeps the marks for the next listing and returns err; a folder
// that cannot be watched switches the listing to ListMemories.
func (l *Memories) failed(marks liveMarks, err error) error {
	var u *errUnfollowable
	if errors.As(err, &u) {
		l.stopFollowing(u.why)
		return err
	}
	l.f.putBack(marks)
	return err
}

// readEntry reads one file as ListMemories does; nil when it is gone.
// The record read is returned too (nil when the file is unreadable or
// holds a secret), for the memory index to learn.
func (l *Memories) readEntry(rel string) (*liveEntry, *mdstore.Memory) {
	slash := strings.LastIndexByte(rel, '/')
	leaf, _ := leafIndex(rel[:slash])
	abs := l.s.Path(rel)
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	recheck := err == nil && (fi.Mode()&os.ModeSymlink != 0 || hardLinked(fi))
	m, err := l.s.ReadMemory(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
				return nil, nil // removed while read
			}
		}
		return &liveEntry{rel: rel, leaf: uint8(leaf), recheck: recheck, rare: &liveRare{bad: mdstore.InvalidFileOf(rel, err)}}, nil
	}
	var secret *mdstore.InvalidFile
	if l.pol != nil {
		if found := l.pol.Find(string(m.Doc.Bytes())); len(found) > 0 {
			secret = mdstore.SecretInFile(rel, found[0])
		}
	}
	e := newLiveEntry(leaf, rel, m)
	e.recheck = recheck
	if secret != nil {
		if e.rare == nil {
			e.rare = &liveRare{}
		}
		e.rare.secret = secret
		m = nil
	}
	return e, m
}

// knownEntry fills e with the record of a file the memory index knows as
// it is now; false when the index's record is not the file's (its type is
// none, its id another; the file is read). Fields damaged otherwise show
// when a listing unpacks them: the file is reported invalid.
func knownEntry(e *liveEntry, leaf int, rel string, pm cache.PackedMemory) bool {
	t := typeIndex(pm.Type)
	id, ok := mdstore.PackedID(pm.Fields)
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	if t <= 0 || !ok || len(name) != len(id)+len(".md") || name[:len(id)] != string(id) {
		return false
	}
	*e = liveEntry{rel: rel, packed: pm.Fields, leaf: uint8(leaf), typ: uint8(t)}
	e.sec, e.nsec = pm.IngestionTime.Unix(), int32(pm.IngestionTime.Nanosecond())
	return true
}

// apply puts what was read in place of what was held.
func (l *Memories) apply(rels []string, read []*liveEntry) {
	if len(rels) > 4*smallChange {
		// An opening fills empty folders' maps: each made to size once.
		counts := make([]int, len(liveLeaves))
		for _, rel := range rels {
			leaf, _ := leafIndex(rel[:strings.LastIndexByte(rel, '/')])
			counts[leaf]++
		}
		for leaf, n := range counts {
			if len(l.entries[leaf]) == 0 && n > smallChange {
				l.entries[leaf] = make(map[string]*liveEntry, n)
			}
		}
	}
	// An opening (nothing held yet, many records): the sorted orders are
	// made from the records on another core while the maps are filled.
	var sorted chan struct{}
	if l.count == 0 && len(rels) > 4*smallChange {
		all := make([]*liveEntry, 0, len(read))
		for _, e := range read {
			if e != nil && e.readable() {
				all = append(all, e)
			}
		}
		sorted = make(chan struct{})
		go func() {
			l.orders.rebuild(all)
			close(sorted)
		}()
	}
	changes := make([]liveChange, 0, len(rels))
	for i, rel := range rels {
		slash := strings.LastIndexByte(rel, '/')
		leaf, _ := leafIndex(rel[:slash])
		name := rel[slash+1:]
		old, e := l.entries[leaf][name], read[i]
		if old == nil && e == nil {
			continue
		}
		if old != nil {
			old.dead = true
			delete(l.entries[leaf], name)
			delete(l.recheck, rel)
			if _, ok := l.invalid[rel]; ok {
				delete(l.invalid, rel)
				l.byFolder, l.byPath = nil, nil
			}
			l.count--
		}
		if e != nil {
			l.entries[leaf][name] = e
			if e.recheck {
				l.recheck[rel] = e
			}
			if !e.readable() || e.secret() != nil {
				l.invalid[rel] = e
				l.byFolder, l.byPath = nil, nil
			}
			l.count++
		}
		changes = append(changes, liveChange{old, e})
		delete(l.undecodable, rel)
	}
	if len(changes) > 0 {
		l.version++
		l.log.record(l.version, changes)
	}
	if sorted != nil {
		<-sorted
		return
	}
	if len(changes) > l.count/4 && len(changes) > 4*smallChange {
		all := make([]*liveEntry, 0, l.count)
		for _, m := range l.entries {
			for _, e := range m {
				if e.readable() {
					all = append(all, e)
				}
			}
		}
		l.orders.rebuild(all)
		return
	}
	l.orders.update(changes)
}

// answer is the listing of q from the records held.
func (l *Memories) answer(q mdstore.MemoryQuery) *mdstore.MemoryList {
	res := &mdstore.MemoryList{}
	if win, ok := l.selected(q); ok {
		res.Total = len(win)
		if q.Offset > 0 {
			win = win[min(q.Offset, len(win)):]
		}
		if q.Limit > 0 && len(win) > q.Limit {
			win = win[:q.Limit]
		}
		if len(win) > 0 {
			res.Memories = make([]*mdstore.Memory, 0, len(win))
			for _, e := range win {
				m, err := e.memory()
				if err != nil {
					inv := mdstore.InvalidFileOf(e.rel, err)
					l.undecodable[e.rel] = inv
					res.Invalid = append(res.Invalid, inv)
					continue
				}
				res.Memories = append(res.Memories, m)
			}
		}
	}
	res.Invalid = append(l.invalidOf(q), res.Invalid...)
	return res
}

// selected is the held records of q's status, type and window, in order
// (a part of one of l.orders, not to be kept); false for a status or type
// none is of.
func (l *Memories) selected(q mdstore.MemoryQuery) ([]*liveEntry, bool) {
	st, ty := statusIndex(q.Status), typeIndex(q.Type)
	if st < 0 || ty < 0 {
		return nil, false
	}
	p := 0
	if q.Secrets != nil {
		p = 1
	}
	return l.orders.window(slot(p, st, ty), q.From, q.To), true
}

// invalidOf lists the files of q's folders that ListMemories reports as
// invalid, in its order: the folders' order for a listing of everything,
// the paths' order for a filtered one (which ListMemories reads sorted).
func (l *Memories) invalidOf(q mdstore.MemoryQuery) []*mdstore.InvalidFile {
	if len(l.invalid) == 0 {
		return nil
	}
	if l.byFolder == nil {
		l.byPath = make([]*liveEntry, 0, len(l.invalid))
		for _, e := range l.invalid {
			l.byPath = append(l.byPath, e)
		}
		slices.SortFunc(l.byPath, func(a, b *liveEntry) int { return strings.Compare(a.rel, b.rel) })
		l.byFolder = slices.Clone(l.byPath)
		slices.SortStableFunc(l.byFolder, func(a, b *liveEntry) int { return int(a.leaf) - int(b.leaf) })
	}
	order := l.byFolder
	if q.Type != "" || !q.From.IsZero() || !q.To.IsZero() {
		order = l.byPath
	}
	folders := foldersMask(q.Status, q.Type)
	var out []*mdstore.InvalidFile
	for _, e := range order {
		if folders&(1<<e.leaf) == 0 {
			continue
		}
		switch {
		case !e.readable():
			f := *e.bad()
			out = append(out, &f)
		case q.Secrets != nil:
			f := *e.secret()
			out = append(out, &f)
		}
	}
	return out
}
