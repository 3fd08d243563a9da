package live

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// liveT0 is the hour the test records are ingested in.
var liveT0 = time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)

// liveMem is a memory file's text: ingested minute minutes after liveT0.
func liveMem(id, typ string, minute int, brief string) string {
	return fmt.Sprintf("---\nid: %s\ntype: %s\nbrief: %s\nauthor: ann\ntags: [a, b]\ncontent_confidence: 4\n"+
		"importance_factors: {proximity: 0.5, surprisal: 0.25}\nobservation: {seen: [x, {y: 1}]}\n"+
		"ingestion_time: %s\n---\nbody of %s\n",
		id, typ, brief, liveT0.Add(time.Duration(minute)*time.Minute).Format(time.RFC3339), id)
}

func putFile(t testing.TB, s *mdstore.Store, rel, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func moveFile(t testing.TB, s *mdstore.Store, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.Path(to)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(s.Path(from), s.Path(to)); err != nil {
		t.Fatal(err)
	}
}

// liveQueries are the listings every check compares.
func liveQueries(s *mdstore.Store) []mdstore.MemoryQuery {
	from, to := liveT0.Add(10*time.Minute), liveT0.Add(40*time.Minute)
	return []mdstore.MemoryQuery{
		{},
		{Status: "inbox"},
		{Status: "confirmed"},
		{Status: "trash"},
		{Status: "confirmed", Type: "fact"},
		{Type: "concept"},
		{From: from, To: to},
		{Status: "inbox", From: from, To: to, Limit: 3, Offset: 1},
		{Status: "inbox", From: from},
		{To: to, Limit: 2, Offset: 2},
		{Limit: 4},
		{Offset: 1000},
		{From: to, To: from},
		{Secrets: s.Secrets()},
		{Status: "inbox", From: from, To: to, Secrets: s.Secrets()},
		{Status: "other"},
		{Type: "other"},
	}
}

// wantList is ListMemories' answer read from the files alone: the memory
// index is removed first, because it trusts a file whose size and mtime
// are unchanged, and an edit of the same size within one tick of the
// clock keeps both.
func wantList(t testing.TB, s *mdstore.Store, q mdstore.MemoryQuery) *mdstore.MemoryList {
	t.Helper()
	if err := os.RemoveAll(s.Path(memoryIndexDir)); err != nil {
		t.Fatal(err)
	}
	q.Light = true
	res, err := cache.ListMemories(s, q)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameList reports how got differs from want ("" when it does not).
func sameList(got, want *mdstore.MemoryList) string {
	if got.Total != want.Total {
		return fmt.Sprintf("total %d, want %d", got.Total, want.Total)
	}
	if (got.Memories == nil) != (want.Memories == nil) || len(got.Memories) != len(want.Memories) {
		return fmt.Sprintf("memories %s, want %s", listed(got), listed(want))
	}
	for i, m := range got.Memories {
		if w := want.Memories[i]; !reflect.DeepEqual(*m, *w) {
			return fmt.Sprintf("memory %d: %+v, want %+v", i, *m, *w)
		}
	}
	if (got.Invalid == nil) != (want.Invalid == nil) || len(got.Invalid) != len(want.Invalid) {
		return fmt.Sprintf("invalid %v, want %v", got.Invalid, want.Invalid)
	}
	for i, f := range got.Invalid {
		if *f != *want.Invalid[i] {
			return fmt.Sprintf("invalid %d: %v, want %v", i, f, want.Invalid[i])
		}
	}
	return ""
}

func listed(l *mdstore.MemoryList) string {
	var b strings.Builder
	for _, m := range l.Memories {
		b.WriteString(m.Path + " ")
	}
	return b.String()
}

// checkLive compares every listing of l with ListMemories'.
func checkLive(t testing.TB, l *Memories, s *mdstore.Store, step string) {
	t.Helper()
	for _, q := range liveQueries(s) {
		got, err := l.List(q)
		if err != nil {
			t.Fatalf("%s: List(%+v): %v", step, q, err)
		}
		if d := sameList(got, wantList(t, s, q)); d != "" {
			t.Fatalf("%s: List(%s): %s", step, describe(q), d)
		}
		if q.Offset != 0 || q.Limit != 0 {
			continue
		}
		w, err := l.ListWindow(q)
		if err != nil {
			t.Fatalf("%s: ListWindow(%+v): %v", step, q, err)
		}
		if d := sameList(windowList(w), got); d != "" {
			t.Fatalf("%s: ListWindow(%s): %s", step, describe(q), d)
		}
	}
}

// windowList is a window as the listing List would give.
func windowList(w *Window) *mdstore.MemoryList {
	res := &mdstore.MemoryList{Total: w.Len(), Invalid: w.Invalid}
	if w.Len() > 0 {
		res.Memories = w.Memories(0, w.Len())
	}
	return res
}

// describe names the fields of a query that are set.
func describe(q mdstore.MemoryQuery) string {
	var parts []string
	add := func(set bool, format string, a ...any) {
		if set {
			parts = append(parts, fmt.Sprintf(format, a...))
		}
	}
	add(q.Status != "", "status %s", q.Status)
	add(q.Type != "", "type %s", q.Type)
	add(!q.From.IsZero(), "from %s", q.From.Format(time.RFC3339))
	add(!q.To.IsZero(), "to %s", q.To.Format(time.RFC3339))
	add(q.Limit != 0, "limit %d", q.Limit)
	add(q.Offset != 0, "offset %d", q.Offset)
	add(q.Secrets != nil, "secrets")
	return strings.Join(parts, ", ")
}

func openLive(t testing.TB, s *mdstore.Store) *Memories {
	t.Helper()
	l, err := Open(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// needFollowing skips where the listing does not follow the files.
func needFollowing(t *testing.T, l *Memories) {
	t.Helper()
	if why := l.Fallback(); why != "" {
		t.Skip("the live listing is ListMemories here: " + why)
	}
}

// Each kind of change to the files shows in the next listing.
func TestLiveMemoriesFollowsEachKindOfChange(t *testing.T) {
	s, _ := newStore(t)
	os.RemoveAll(s.Path("memory/confirmed/lesson"))
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "concept", 15, "bbbb"))
	putFile(t, s, "memory/confirmed/fact/c.md", liveMem("c", "fact", 20, "cccc"))
	putFile(t, s, "memory/confirmed/fact/odd.md", liveMem("odd", "concept", 21, "in the fact folder"))
	putFile(t, s, "memory/trash/d.md", liveMem("d", "lesson", 30, "dddd"))
	putFile(t, s, "memory/inbox/bad.md", "---\nid: bad\ntype: fact\ncontent_confidence: 9\ningestion_time: 2026-11-29T09:00:00Z\n---\n")
	l := openLive(t, s)
	needFollowing(t, l)
	checkLive(t, l, s, "open")

	steps := []struct {
		name   string
		change func()
	}{
		{"add", func() { putFile(t, s, "memory/inbox/e.md", liveMem("e", "fact", 12, "eeee")) }},
		{"add with the same time", func() { putFile(t, s, "memory/inbox/e2.md", liveMem("e2", "fact", 12, "e2e2")) }},
		{"edit in place, same size", func() {
			f, err := os.OpenFile(s.Path("memory/inbox/a.md"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			text := liveMem("a", "fact", 5, "aaaa")
			if _, err := f.WriteAt([]byte("zzzz"), int64(strings.Index(text, "aaaa"))); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}},
		{"rewrite, same size", func() { putFile(t, s, "memory/inbox/b.md", liveMem("b", "concept", 15, "BBBB")) }},
		{"ingestion time into the window", func() { putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 25, "zzzz")) }},
		{"ingestion time out of the window", func() { putFile(t, s, "memory/inbox/b.md", liveMem("b", "concept", 45, "BBBB")) }},
		{"type changed", func() { putFile(t, s, "memory/inbox/e.md", liveMem("e", "lesson", 12, "eeee")) }},
		{"rename inbox to confirmed/fact", func() { moveFile(t, s, "memory/inbox/a.md", "memory/confirmed/fact/a.md") }},
		{"rename to trash", func() { moveFile(t, s, "memory/confirmed/fact/c.md", "memory/trash/c.md") }},
		{"new confirmed/lesson folder", func() { putFile(t, s, "memory/confirmed/lesson/f.md", liveMem("f", "lesson", 35, "ffff")) }},
		{"folder moved in with its files", func() {
			os.RemoveAll(s.Path("memory/confirmed/concept"))
			putFile(t, s, "staging/g.md", liveMem("g", "concept", 11, "gggg"))
			moveFile(t, s, "staging", "memory/confirmed/concept")
		}},
		{"delete", func() { os.Remove(s.Path("memory/trash/d.md")) }},
		{"invalid file written", func() { putFile(t, s, "memory/inbox/h.md", "---\nid: h\ntype: [oops\n---\n") }},
		{"id that does not match the name", func() { putFile(t, s, "memory/trash/i.md", liveMem("j", "fact", 3, "iiii")) }},
		{"invalid file fixed", func() {
			putFile(t, s, "memory/inbox/h.md", liveMem("h", "fact", 13, "hhhh"))
			putFile(t, s, "memory/inbox/bad.md", liveMem("bad", "fact", 14, "fixed"))
		}},
		{"secret written", func() {
			putFile(t, s, "memory/inbox/k.md", strings.Replace(liveMem("k", "fact", 16, "kkkk"), "body of", fakeToken, 1))
		}},
		{"secret removed", func() { putFile(t, s, "memory/inbox/k.md", liveMem("k", "fact", 16, "kkkk")) }},
		{"not a record name", func() {
			putFile(t, s, "memory/inbox/.hidden.md", liveMem("hidden", "fact", 16, "x"))
			putFile(t, s, "memory/inbox/notes.txt", "x")
		}},
		{"a folder named like a record", func() { os.Mkdir(s.Path("memory/inbox/dir.md"), 0o755) }},
		{"symlink to a file in the store", func() {
			putFile(t, s, "elsewhere/l.md", liveMem("l", "fact", 17, "llll"))
			os.Symlink("../../elsewhere/l.md", s.Path("memory/inbox/l.md"))
		}},
		{"symlink's target edited", func() { putFile(t, s, "elsewhere/l.md", liveMem("l", "fact", 18, "LLLL")) }},
		// A link made later is not in any event of the folder (see Memories).
		{"hard link", func() {
			os.Link(s.Path("memory/inbox/e2.md"), s.Path("elsewhere/e2.md"))
			putFile(t, s, "memory/inbox/e2.md", liveMem("e2", "fact", 12, "e2e2"))
		}},
		{"edit through the other hard link", func() {
			f, err := os.OpenFile(s.Path("elsewhere/e2.md"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("E2E2"), int64(strings.Index(liveMem("e2", "fact", 12, "e2e2"), "e2e2")))
			f.Close()
		}},
		{"trash folder removed", func() { os.RemoveAll(s.Path("memory/trash")) }},
		{"trash folder back", func() { putFile(t, s, "memory/trash/m.md", liveMem("m", "fact", 19, "mmmm")) }},
		{"inbox replaced", func() {
			moveFile(t, s, "memory/inbox", "inbox-old")
			putFile(t, s, "memory/inbox/n.md", liveMem("n", "fact", 22, "nnnn"))
		}},
		{"the old inbox edited", func() { putFile(t, s, "inbox-old/e.md", liveMem("e", "fact", 23, "old")) }},
		{"inbox moved to confirmed/fact", func() {
			os.RemoveAll(s.Path("memory/confirmed/fact"))
			moveFile(t, s, "memory/inbox", "memory/confirmed/fact")
		}},
		{"memory folder replaced", func() {
			moveFile(t, s, "memory", "memory-old")
			putFile(t, s, "memory/inbox/o.md", liveMem("o", "fact", 24, "oooo"))
		}},
		{"memory folder back", func() {
			os.RemoveAll(s.Path("memory"))
			moveFile(t, s, "memory-old", "memory")
			putFile(t, s, "memory/confirmed/fact/p.md", liveMem("p", "fact", 26, "pppp"))
		}},
	}
	for _, st := range steps {
		st.change()
		checkLive(t, l, s, st.name)
	}
}

// A change made by another process just before List is in its answer: no
// wait between the two.
func TestLiveMemoriesSeesAnotherProcess(t *testing.T) {
	for _, tool := range []string{"sh", "cp", "mv", "rm", "sed", "dd", "cat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed")
		}
	}
	s, _ := newStore(t)
	l := openLive(t, s)
	needFollowing(t, l)
	run := func(name string, args ...string) {
		t.Helper()
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	src := filepath.Join(t.TempDir(), "x.md")
	for i := range 30 {
		id := fmt.Sprintf("x%d", i)
		os.WriteFile(src, []byte(liveMem(id, "fact", i, "from cp")), 0o644)
		inbox, fact := s.Path("memory/inbox/"+id+".md"), s.Path("memory/confirmed/fact/"+id+".md")
		steps := []struct {
			name string
			do   func()
			in   string // where the record is after the step
		}{
			{"cp", func() { run("cp", src, inbox) }, "inbox"},
			{"sh edit", func() { run("sh", "-c", `sed "s/from cp/edited/" "$1" > "$1.tmp" && mv "$1.tmp" "$1"`, "sh", inbox) }, "inbox"},
			{"sh in place", func() { run("sh", "-c", `printf 'XX' | dd of="$1" bs=1 seek=4 conv=notrunc 2>/dev/null`, "sh", inbox) }, ""},
			{"sh fix", func() { run("sh", "-c", `cat "$2" > "$1"`, "sh", inbox, src) }, "inbox"},
			{"mv", func() { run("mv", inbox, fact) }, "confirmed"},
			{"rm", func() { run("rm", fact) }, ""},
		}
		for _, st := range steps {
			st.do()
			q := mdstore.MemoryQuery{}
			got, err := l.List(q)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameList(got, wantList(t, s, q)); d != "" {
				t.Fatalf("round %d, %s: %s", i, st.name, d)
			}
		}
	}
}

// liveWorld makes random changes to a store's memory files.
type liveWorld struct {
	t    *testing.T
	s    *mdstore.Store
	rng  *rand.Rand
	next int
	dirs []string
}

func (w *liveWorld) files() []string {
	var out []string
	for _, d := range w.dirs {
		names, _ := mdstore.RecordNames(w.s.Path(d))
		for _, n := range names {
			out = append(out, d+"/"+n)
		}
	}
	return out
}

func (w *liveWorld) pick() (string, bool) {
	fs := w.files()
	if len(fs) == 0 {
		return "", false
	}
	return fs[w.rng.Intn(len(fs))], true
}

func (w *liveWorld) text(id string) string {
	types := []string{"fact", "concept", "lesson"}
	return liveMem(id, types[w.rng.Intn(3)], w.rng.Intn(50), strings.Repeat("w", 1+w.rng.Intn(4)))
}

// step makes one random change and names it.
func (w *liveWorld) step() string {
	t, s, r := w.t, w.s, w.rng
	dir := w.dirs[r.Intn(len(w.dirs))]
	switch op := r.Intn(12); op {
	case 0, 1:
		w.next++
		id := fmt.Sprintf("r%d", w.next)
		putFile(t, s, dir+"/"+id+".md", w.text(id))
		return "add " + dir + "/" + id
	case 2, 3:
		if f, ok := w.pick(); ok {
			putFile(t, s, f, w.text(strings.TrimSuffix(filepath.Base(f), ".md")))
			return "rewrite " + f
		}
	case 4:
		if f, ok := w.pick(); ok {
			data, err := os.ReadFile(s.Path(f))
			if err == nil && len(data) > 10 {
				fh, err := os.OpenFile(s.Path(f), os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				fh.WriteAt([]byte{"abc:\n"[r.Intn(5)]}, int64(r.Intn(len(data))))
				fh.Close()
				return "poke " + f
			}
		}
	case 5, 6:
		if f, ok := w.pick(); ok {
			to := dir + "/" + filepath.Base(f)
			if f != to && !s.Exists(to) {
				moveFile(t, s, f, to)
				return "move " + f + " to " + to
			}
		}
	case 7:
		if f, ok := w.pick(); ok {
			os.Remove(s.Path(f))
			return "remove " + f
		}
	case 8:
		if f, ok := w.pick(); ok {
			putFile(t, s, f, "---\nid: x\n  bad: [\n---\n")
			return "break " + f
		}
	case 9:
		if f, ok := w.pick(); ok {
			id := strings.TrimSuffix(filepath.Base(f), ".md")
			putFile(t, s, f, strings.Replace(w.text(id), "body of", fakeToken, 1))
			return "secret in " + f
		}
	case 10:
		if r.Intn(4) == 0 {
			os.RemoveAll(s.Path(dir))
			return "remove folder " + dir
		}
		os.MkdirAll(s.Path(dir), 0o755)
		return "make folder " + dir
	case 11:
		// an editor's save: a temporary file renamed over the record
		if f, ok := w.pick(); ok {
			tmp := filepath.Dir(f) + "/." + filepath.Base(f) + ".swp"
			putFile(t, s, tmp, w.text(strings.TrimSuffix(filepath.Base(f), ".md")))
			moveFile(t, s, tmp, f)
			return "save over " + f
		}
	}
	return "nothing"
}

// randomWorld is a store of 60 random changes and the world that makes
// more (its seed logged).
func randomWorld(t *testing.T) (*mdstore.Store, *liveWorld) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	s, _ := newStore(t)
	w := &liveWorld{t: t, s: s, rng: rand.New(rand.NewSource(seed)), dirs: mdstore.MemoryFolders("", "")}
	for range 60 {
		w.step()
	}
	return s, w
}

// Random changes, each checked against ListMemories.
func TestLiveMemoriesRandomChanges(t *testing.T) {
	s, w := randomWorld(t)
	l := openLive(t, s)
	checkLive(t, l, s, "open")
	for i := range 300 {
		what := w.step()
		if i%30 == 29 {
			// many changes between two listings: the lists are merged
			for range 30 {
				w.step()
			}
			what = "30 more changes"
		}
		checkLive(t, l, s, fmt.Sprintf("step %d (%s)", i, what))
	}
}

// When events may have been lost, or the barrier folder is gone, List
// reads everything again and is still right.
func TestLiveMemoriesRecoversLostEvents(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	l := openLive(t, s)
	needFollowing(t, l)
	checkLive(t, l, s, "open")

	// a change whose event is dropped, as an overflow of the queue drops it
	l.run.Lock()
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
	l.f.barrier()
	l.f.take()
	l.run.Unlock()
	if got, _ := l.List(mdstore.MemoryQuery{}); got.Total != 1 {
		t.Fatalf("test setup: the dropped event was seen (%d)", got.Total)
	}
	putFile(t, s, "memory/inbox/c.md", liveMem("c", "fact", 7, "cccc"))
	l.f.lose(fmt.Errorf("test overflow"))
	checkLive(t, l, s, "after an overflow")

	os.RemoveAll(l.f.w.SyncFolder())
	putFile(t, s, "memory/inbox/d.md", liveMem("d", "fact", 8, "dddd"))
	checkLive(t, l, s, "barrier folder removed")
	if _, err := os.Stat(l.f.w.SyncFolder()); err != nil {
		t.Fatalf("no new barrier: %v", err)
	}
	putFile(t, s, "memory/inbox/e.md", liveMem("e", "fact", 9, "eeee"))
	checkLive(t, l, s, "with the new barrier")

	l.Close()
	if _, err := l.List(mdstore.MemoryQuery{}); err == nil {
		t.Fatal("List after Close did not fail")
	}
}

// The kernel's event queue really overflows while the events are not
// taken: List reads everything again, a file whose event was lost included.
func TestLiveMemoriesKernelQueueOverflow(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Skip(err)
	}
	queue, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || queue > 65536 {
		t.Skipf("max_queued_events = %s: too many files to write", b)
	}
	s, _ := newStore(t)
	l := openLive(t, s)
	needFollowing(t, l)
	// The event goroutine waits for the lock, fsnotify's reader for it,
	// and the kernel's queue fills: each file is a create and a write.
	l.f.mu.Lock()
	for i := range queue/2 + 4096 {
		os.WriteFile(s.Path(fmt.Sprintf("memory/trash/f%05d.md", i)), []byte("x"), 0o644)
	}
	putFile(t, s, "memory/inbox/lost.md", liveMem("lost", "fact", 5, "made while events were lost"))
	l.f.mu.Unlock()
	l.run.Lock()
	l.f.barrier()
	l.f.mu.Lock()
	lost := l.f.marks.lost
	l.f.mu.Unlock()
	l.run.Unlock()
	if !errors.Is(lost, fsnotify.ErrEventOverflow) {
		t.Fatalf("no overflow reported: %v", lost)
	}
	for _, q := range []mdstore.MemoryQuery{{Status: "inbox"}, {Status: "trash", Limit: 10}} {
		got, err := l.List(q)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameList(got, wantList(t, s, q)); d != "" {
			t.Fatalf("%s: %s", q.Status, d)
		}
	}
	putFile(t, s, "memory/inbox/after.md", liveMem("after", "fact", 6, "followed again"))
	got, err := l.List(mdstore.MemoryQuery{Status: "inbox"})
	if err != nil || got.Total != 2 {
		t.Fatalf("after the overflow: %v, %v", got, err)
	}
}

// A policy other than the store's is applied too (every file is checked
// again with it).
func TestLiveMemoriesOtherSecretsPolicy(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", strings.Replace(liveMem("a", "fact", 5, "aaaa"), "body of", fakeToken, 1))
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
	l := openLive(t, s)
	for _, pol := range []string{"^ghp_R8kd93", "^nothing"} {
		p, err := secrets.New([]string{pol})
		if err != nil {
			t.Fatal(err)
		}
		q := mdstore.MemoryQuery{Secrets: p}
		got, err := l.List(q)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameList(got, wantList(t, s, q)); d != "" {
			t.Fatalf("allowing %s: %s", pol, d)
		}
	}
	checkLive(t, l, s, "back to the store's policy")
}

// Where notifications cannot follow the store, List is ListMemories.
func TestLiveMemoriesFallback(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	l := openLive(t, s)
	if l.f != nil {
		l.run.Lock()
		l.stopFollowing("test")
		l.run.Unlock()
	}
	if l.Fallback() == "" {
		t.Fatal("no reason given")
	}
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
	checkLive(t, l, s, "fallback")
}

// Lists and windows may be asked for from several goroutines while files
// change (run with -race); a window keeps what it was made with.
func TestLiveMemoriesConcurrentLists(t *testing.T) {
	s, _ := newStore(t)
	l := openLive(t, s)
	done := make(chan error)
	for g := range 4 {
		go func() {
			var held []*Window
			for i := range 25 {
				id := fmt.Sprintf("g%d-%d", g, i)
				if err := os.WriteFile(s.Path("memory/inbox/"+id+".md"), []byte(liveMem(id, "fact", i, "c")), 0o644); err != nil {
					done <- err
					return
				}
				got, err := l.List(mdstore.MemoryQuery{Status: "inbox"})
				if err != nil {
					done <- err
					return
				}
				if got.Total < i+1 {
					done <- fmt.Errorf("%s: %d listed, want at least %d", id, got.Total, i+1)
					return
				}
				w, err := l.ListWindow(mdstore.MemoryQuery{Status: "inbox"})
				if err != nil {
					done <- err
					return
				}
				held = append(held, w)
				for _, h := range held {
					if got := h.Memories(0, h.Len()); len(got) != h.Len() {
						done <- fmt.Errorf("%s: a window of %d gave %d records", id, h.Len(), len(got))
						return
					}
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	checkLive(t, l, s, "after")
}

// The records List returns are the caller's.
func TestLiveMemoriesReturnsCopies(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	l := openLive(t, s)
	got, err := l.List(mdstore.MemoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	m := got.Memories[0]
	m.Tags[0] = "changed"
	m.Observation["seen"].([]any)[1].(map[string]any)["y"] = 2
	*m.ContentConfidence = 1
	if err := s.LoadDocument(m); err != nil {
		t.Fatal(err)
	}
	checkLive(t, l, s, "after editing a returned record")
}

// A memory folder that cannot be listed fails List as it fails
// ListMemories, until it is mended.
func TestLiveMemoriesFolderErrors(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	l := openLive(t, s)
	needFollowing(t, l)
	os.RemoveAll(s.Path("memory/trash"))
	putFile(t, s, "memory/trash", "not a folder")
	if _, err := cache.ListMemories(s, mdstore.MemoryQuery{}); err == nil {
		t.Fatal("test setup: ListMemories lists a file as a folder")
	}
	for range 2 {
		if _, err := l.List(mdstore.MemoryQuery{}); err == nil {
			t.Fatal("List lists a file as a folder")
		}
	}
	os.Remove(s.Path("memory/trash"))
	putFile(t, s, "memory/trash/b.md", liveMem("b", "fact", 6, "bbbb"))
	checkLive(t, l, s, "mended")
	if l.Fallback() != "" {
		t.Fatalf("fell back: %s", l.Fallback())
	}
}

// A memory folder that is another one under a second name cannot be
// followed (its events carry the first name): List is ListMemories.
func TestLiveMemoriesFolderLinkedToAnother(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/confirmed/fact/a.md", liveMem("a", "fact", 5, "aaaa"))
	l := openLive(t, s)
	needFollowing(t, l)
	os.RemoveAll(s.Path("memory/confirmed/lesson"))
	if err := os.Symlink("fact", s.Path("memory/confirmed/lesson")); err != nil {
		t.Skip(err)
	}
	checkLive(t, l, s, "linked folder")
	if l.Fallback() == "" {
		t.Fatal("still following a folder watched under two names")
	}
	putFile(t, s, "memory/confirmed/fact/b.md", liveMem("b", "lesson", 6, "bbbb"))
	checkLive(t, l, s, "after a change")
}
