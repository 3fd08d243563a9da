package live

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/watch"
)

// When the Watcher says it polls instead of following (the inotify limit
// is reached) or that a memory folder cannot be watched, the listing reads
// the files itself from then on, says why, and lets the Watcher go (its
// sync folder is removed).
func TestLiveMemoriesStopsWhenTheWatcherCannotFollow(t *testing.T) {
	for _, n := range []watch.Notice{
		{Kind: watch.NoticeFallback, Message: "the inotify watch limit is reached"},
		{Kind: watch.NoticeUnwatched, Message: "cannot watch memory/trash", Path: "memory/trash"},
	} {
		t.Run(n.Kind, func(t *testing.T) {
			s, _ := newStore(t)
			putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
			l := openLive(t, s)
			needFollowing(t, l)
			checkLive(t, l, s, "open")
			folder := l.f.w.SyncFolder()
			l.f.notice(n)
			putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
			checkLive(t, l, s, "after the notice")
			if got := l.Fallback(); got != n.Message {
				t.Fatalf("Fallback() = %q, want %q", got, n.Message)
			}
			if _, err := os.Stat(folder); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the sync folder %s is left: %v", folder, err)
			}
			putFile(t, s, "memory/trash/c.md", liveMem("c", "fact", 7, "cccc"))
			checkLive(t, l, s, "read as ListMemories reads")
		})
	}
}

// Lost events make the next List read every file again, however the
// Watcher said so: a Rescan batch, or an error of the notifications.
func TestLiveMemoriesReadsAgainAfterLostEvents(t *testing.T) {
	for name, lose := range map[string]func(f *liveFollower){
		"rescan": func(f *liveFollower) { f.batch(watch.Batch{Rescan: true, At: time.Now()}) },
		"error":  func(f *liveFollower) { f.notice(watch.Notice{Kind: watch.NoticeError, Message: "watching: bad"}) },
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := newStore(t)
			l := openLive(t, s)
			needFollowing(t, l)
			l.run.Lock()
			putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
			l.f.barrier()
			l.f.take() // the change's event dropped
			lose(l.f)
			l.run.Unlock()
			got, err := l.List(mdstore.MemoryQuery{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != 1 {
				t.Fatalf("after lost events: %d listed, want 1", got.Total)
			}
			if l.Fallback() != "" {
				t.Fatalf("fell back: %s", l.Fallback())
			}
		})
	}
}
