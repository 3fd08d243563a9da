package cache

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"

	"hash/crc32"
	"math/rand/v2"
	"unsafe"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
	"github.com/curator-dev/curator/mdstore/layout"
)

// The bullet index is a cache of every bullet file's frontmatter and of the
// words the candidate index needs, in .curator/.cache/bullet-index
// (git-ignored). With it a run reads one file and stats each bullet file
// instead of parsing every bullet; the body of a bullet is read only when a
// run needs its text (a candidate to score, a bullet it changes, a result
// it prints).
//
// An entry is used only while its file has the size, modification time and
// change time (ctime, which no program can set back) that the entry
// recorded; any other file is read again. Where the system has no change
// time (Windows), size and modification time alone decide, so a hand edit
// that keeps the size and sets the modification time back is not seen
// there until the file changes again or the cache is deleted. A missing or
// damaged index, or one written for another analysis of texts (Analyser's
// version), is rebuilt: deleting it only makes the next run slower.
//
// Entries are kept sorted by path and written back as bytes: a run copies
// the entries of the files it did not read.

const bulletIndexPath = ".cache/bullet-index"

// bulletIndexMagic starts the file: then the analyser's version line, the
// word table (count, then each word), the folders (count, then each
// folder's path, times, racy flag and token), the entries, and a CRC-32C
// of all that (a damaged file is rebuilt). Format 5: the same layout; an
// index of format 4 may hold entries of files that are no longer bullets
// (no frontmatter, a byte-order mark first), so it is read again.
const bulletIndexMagic = "curator-bullet-index-5\n"

// Analyser gives the words that the candidate index keeps of a bullet's
// content. Version names the analysis: an index written with another
// version is rebuilt.
type Analyser struct {
	Version string
	Words   func(content string) []string
}

// BulletSummary is one bullet as the bullet index holds it: what a run
// looks at for every bullet (id, category, place, counters, validation,
// the length of its content) at hand, and the rest of its frontmatter
// decoded when asked (Bullet). A run over 100,000 bullets decodes the rest
// of the few it uses.
type BulletSummary struct {
	ID, Category, Path, Validation string
	IsActive                       bool
	Confidence                     float64
	Priority                       int
	HelpfulCount, HarmfulCount     int
	UsageCount                     int
	// ContentLen is the length of the content in bytes.
	ContentLen int

	entry  string          // the index's entry, for Bullet
	bullet *mdstore.Bullet // Bullet's answer, once asked
	// terms are the content's words, as indices into IndexedBullets.Words,
	// as the index stores them (uvarints): decoded by Terms.
	terms  string
	nterms int
	nwords uint32 // the words the indices must stay below
}

// Bullet is the bullet with every frontmatter field and Path; Content is
// empty and Doc nil (ReadBullet(Path) gives the whole bullet). It is
// decoded from the index the first time it is asked, then the same.
func (sum *BulletSummary) Bullet() *mdstore.Bullet {
	if sum.bullet == nil {
		b, ok := decodeBullet(sum.entry)
		if !ok { // the file's checksum held: not expected
			b = &mdstore.Bullet{ID: sum.ID, Category: sum.Category, Confidence: sum.Confidence, Priority: sum.Priority,
				HelpfulCount: sum.HelpfulCount, HarmfulCount: sum.HarmfulCount, UsageCount: sum.UsageCount,
				Validation: sum.Validation}
		}
		b.Path, b.IsActive = sum.Path, sum.IsActive
		sum.bullet = b
	}
	return sum.bullet
}

// DropBullet lets go of the bullet Bullet made (a caller may have filled it
// from the file since): the next Bullet makes it anew from the summary,
// without its content. A summary of a file the listing read has no entry
// to make it from: it keeps a copy of the bullet's frontmatter.
func (sum *BulletSummary) DropBullet() {
	if sum.entry == "" && sum.bullet != nil {
		sum.bullet = sum.bullet.FieldsOnly()
		return
	}
	sum.bullet = nil
}

// Terms are the content's words, as indices into IndexedBullets.Words,
// decoded when asked (a run decodes the words of the categories whose
// candidate index it builds); false when the stored words are damaged.
func (sum *BulletSummary) Terms() ([]uint32, bool) {
	if uint64(sum.nterms) > uint64(len(sum.terms)) {
		return nil, false
	}
	out := make([]uint32, sum.nterms)
	if !decodeTerms(sum.terms, out, sum.nwords) {
		return nil, false
	}
	return out, true
}

// IndexedBullets is every bullet of the store, from the bullet index.
type IndexedBullets struct {
	// Active and Archived are sorted by id, as ListBullets sorts them.
	Active, Archived []*BulletSummary
	Words            []string
	Invalid          []*mdstore.InvalidFile
	// Read is how many bullet files were read because the index did not
	// hold them (0 when the index was up to date).
	Read int
	// tokens name each active category's bullets as the index holds them.
	tokens map[string]uint64
	// dirs are the category folders listed; folders what the listing
	// recorded of those it could hold (Unchanged).
	dirs    []string
	folders map[string]folderStat
}

// CategoryToken names the active bullets of a category and their words as
// the index holds them: the token changes whenever a bullet of the category
// is added or removed or its words change (not when only its frontmatter
// does: the token of its folder), so a cache built from the bullets' ids
// and words is still valid while the token is the same. 0: no token (the
// category has no folder, or its folder holds a file that cannot be read).
func (ib *IndexedBullets) CategoryToken(category string) uint64 {
	return ib.tokens[category]
}

// OtherIDs are the bullet ids that the bullets name (parents and merged
// bullets), read from the index without decoding every bullet.
func (ib *IndexedBullets) OtherIDs() []string {
	var out []string
	for _, group := range [][]*BulletSummary{ib.Active, ib.Archived} {
		for _, sum := range group {
			if sum.bullet != nil {
				if sum.bullet.ParentBulletID != "" {
					out = append(out, sum.bullet.ParentBulletID)
				}
				out = append(out, sum.bullet.MergedFrom...)
				continue
			}
			r := reader{b: entryRest(sum.entry)}
			if p := r.bytes(); p != "" {
				out = append(out, p)
			}
			for n := r.uvarint(); n > 0 && !r.bad; n-- {
				out = append(out, r.bytes())
			}
		}
	}
	return out
}

// Bullets lists every bullet (active and archived) through the
// bullet index: files the index holds unchanged are not read. The index
// update is queued as a cache write (WriteCaches; Save and Tx.Close run
// it), and it also takes in the bullet files that the run's saves write.
func Bullets(s *mdstore.Store, a Analyser) (*IndexedBullets, error) {
	up := readBulletIndex(s, a)
	now := time.Now().UnixNano()
	var dirs []string
	for _, root := range []string{"context/bullets", "context/archive"} {
		cats, err := mdstore.Subfolders(s.Path(root))
		if err != nil {
			return nil, err
		}
		for _, cat := range cats {
			dirs = append(dirs, root+"/"+cat)
		}
	}
	slices.Sort(dirs)
	// entries and sums are in path order; an empty entry is a file to read.
	entries := make([]string, 0, len(up.entries)+64)
	sums := make([]*BulletSummary, 0, len(up.entries)+64)
	type pending struct {
		i   int
		rel string
		st  filestat.Stat
	}
	var toRead []pending
	// scan is a folder listed again: it keeps its token while its entries
	// hold the same files with the same words.
	type scan struct {
		dir        string
		first, end int
		held       []string
		token      uint64
	}
	var scans []scan
	// decodeJob is the entries of a folder trusted whole, to decode into
	// entries and sums from first.
	type decodeJob struct {
		first  int
		held   []string
		toRead []pending // the entries that do not decode
	}
	var trusted []decodeJob
	nTrusted := 0
	folders := map[string]folderStat{}
	for _, dir := range dirs {
		st, ok := statDir(s.Path(dir))
		if !ok {
			continue
		}
		st.racy = now-st.mtime < racyWindow.Nanoseconds()
		held := up.folderEntries(dir)
		rec, known := up.folders[dir]
		if known && rec.mtime == st.mtime && rec.ctime == st.ctime && (!rec.racy || namesMatch(s.Path(dir), held)) {
			// No file was added, removed or renamed: the entries stand
			// for the files without a stat of each.
			if rec.racy && !st.racy {
				up.dirty = true
			}
			up.trusted[dir] = true
			st.token = rec.token
			folders[dir] = st
			// Decoded below, on every core.
			trusted = append(trusted, decodeJob{first: len(entries), held: held})
			nTrusted += len(held)
			entries, sums = append(entries, make([]string, len(held))...), append(sums, make([]*BulletSummary, len(held))...)
			continue
		}
		up.dirty = true
		scanned, err := filestat.Scan(s.Path(dir), mdstore.IsRecordName)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(scanned, func(a, b filestat.Stat) int { return strings.Compare(a.Name, b.Name) })
		first := len(entries)
		old := held
		for _, f := range scanned {
			rel := dir + "/" + f.Name
			for len(old) > 0 && entryRel(old[0]) < rel {
				old = old[1:]
			}
			if len(old) > 0 && entryRel(old[0]) == rel {
				e := old[0]
				old = old[1:]
				if sum, ok := up.decode(e, f, true); ok {
					entries, sums = append(entries, e), append(sums, sum)
					continue
				}
			}
			toRead = append(toRead, pending{len(entries), rel, f})
			entries, sums = append(entries, ""), append(sums, nil)
		}
		if known {
			scans = append(scans, scan{dir, first, len(entries), held, rec.token})
		}
		folders[dir] = st // until a file of it cannot be held
	}
	// Each trusted folder's entries are decoded on their own core, with
	// their own interned strings, into their own part of one array of
	// summaries.
	slab, at := make([]BulletSummary, nTrusted), make([]int, len(trusted))
	for j := 1; j < len(trusted); j++ {
		at[j] = at[j-1] + len(trusted[j-1].held)
	}
	parallel.For(len(trusted), func(j int) {
		job := &trusted[j]
		alloc := summaryAlloc{sums: slab[at[j] : at[j]+len(job.held) : at[j]+len(job.held)]}
		interns := map[string]string{}
		for k, e := range job.held {
			if sum, ok := up.decodeWith(&alloc, interns, e, filestat.Stat{}, false); ok {
				entries[job.first+k], sums[job.first+k] = e, sum
				continue
			}
			rel := entryRel(e)
			fst, _ := filestat.File(s.Path(rel))
			job.toRead = append(job.toRead, pending{job.first + k, rel, fst})
		}
	})
	for _, job := range trusted {
		toRead = append(toRead, job.toRead...)
	}
	slices.SortFunc(toRead, func(a, b pending) int { return cmp.Compare(a.i, b.i) }) // in path order, as listed
	if len(folders) != len(up.folders) || len(toRead) > 0 {
		up.dirty = true
	}

	res := &IndexedBullets{}
	// Files the index does not hold: read and analysed on every core.
	read := make([]*mdstore.Bullet, len(toRead))
	errs := make([]error, len(toRead))
	words := make([][]string, len(toRead))
	parallel.For(len(toRead), func(k int) {
		read[k], errs[k] = s.ReadBullet(toRead[k].rel)
		if errs[k] == nil {
			words[k] = a.Words(read[k].Content)
		}
	})
	res.Read = len(toRead)
	for k, f := range toRead {
		dir := f.rel[:strings.LastIndexByte(f.rel, '/')]
		if st, ok := folders[dir]; ok && up.trusted[dir] {
			st.token = 0 // an entry of a trusted folder was damaged: read again
			folders[dir] = st
		}
		if errs[k] != nil {
			res.Invalid = append(res.Invalid, mdstore.InvalidFileOf(f.rel, errs[k]))
			delete(folders, dir) // listed again next time, to report it again
			continue
		}
		sum := up.summarise(read[k], words[k])
		sums[f.i] = sum
		if f.st.Regular {
			entries[f.i] = up.encode(f.rel, f.st, sum)
		} else {
			delete(folders, dir)
		}
	}
	for _, sc := range scans {
		if st, ok := folders[sc.dir]; ok && sameWords(entries[sc.first:sc.end], sc.held) {
			st.token = sc.token
			folders[sc.dir] = st
		}
	}
	kept := entries[:0]
	for _, e := range entries {
		if e != "" {
			kept = append(kept, e)
		}
	}
	if len(kept) != len(up.entries) {
		up.dirty = true
	}
	up.entries = kept
	for dir, st := range folders {
		if st.token == 0 {
			st.token = newToken()
			folders[dir] = st
			up.dirty = true
		}
	}
	up.folders = folders
	res.dirs, res.folders = dirs, folders
	res.Active = make([]*BulletSummary, 0, len(sums))
	res.tokens = map[string]uint64{}
	for _, sum := range sums {
		switch {
		case sum == nil:
		case sum.IsActive:
			res.Active = append(res.Active, sum)
		default:
			res.Archived = append(res.Archived, sum)
		}
	}
	// A bullet's category is its folder's (a file in another category's
	// folder cannot be read), so a folder's token names its category.
	for dir, st := range folders {
		if cat, ok := strings.CutPrefix(dir, "context/bullets/"); ok {
			res.tokens[cat] = st.token
		}
	}
	sortSummaries(res.Active)
	sortSummaries(res.Archived)
	res.Words = up.words
	s.QueueCache(bulletIndexPath, func() { up.save(s) })
	return res, nil
}

// sameWords reports whether two lists of entries hold the same files with
// the same words (other fields may differ: a token names the words).
func sameWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && (a[i] == "" || b[i] == "" || entryRel(a[i]) != entryRel(b[i]) || !sameEntryWords(a[i], b[i])) {
			return false
		}
	}
	return true
}

// sameEntryWords reports whether two entries hold the same words.
func sameEntryWords(a, b string) bool {
	na, wa, _, oka := entryWordsAt(a)
	nb, wb, _, okb := entryWordsAt(b)
	return oka && okb && na == nb && wa == wb
}

// newToken is a folder's new token: random, never 0.
func newToken() uint64 {
	for {
		if t := rand.Uint64(); t != 0 {
			return t
		}
	}
}

// racyWindow: a folder changed less than this before a run listed it may
// change again within the same tick of its clock, so the next run compares
// its names with the index's entries before trusting them.
const racyWindow = 2 * time.Second

// folderStat is what the index records of a category folder: while the
// folder keeps these times, no file was added to it, removed from it or
// renamed in it (curator, git and most editors write a file by renaming a
// new one over it, which changes the folder too).
type folderStat struct {
	mtime, ctime int64
	// racy: changed within racyWindow of the listing; the next run checks
	// its names.
	racy bool
	// token names the folder's files and their words as they are: a new
	// random number whenever a file is added or removed or its words
	// change (not when only its frontmatter does).
	token uint64
}

// statDir gives a folder's times; false when it is missing or not a
// folder.
func statDir(p string) (folderStat, bool) {
	mtime, ctime, ok := filestat.Dir(p)
	return folderStat{mtime: mtime, ctime: ctime}, ok
}

// folderEntries are the index's entries of the files of one folder.
func (up *bulletIndex) folderEntries(dir string) []string {
	prefix := dir + "/"
	i := sort.Search(len(up.entries), func(i int) bool { return entryRel(up.entries[i]) >= prefix })
	j := i
	for j < len(up.entries) && strings.HasPrefix(entryRel(up.entries[j]), prefix) {
		j++
	}
	return up.entries[i:j]
}

// namesMatch reports whether a folder holds exactly the record files that
// the entries name (a listing of names, without a stat of each file).
func namesMatch(dir string, entries []string) bool {
	f, err := mdstore.OpenFolder(dir)
	if f == nil || err != nil {
		return false
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return false
	}
	n := 0
	for _, name := range names {
		if mdstore.IsRecordName(name) {
			n++
		}
	}
	if n != len(entries) {
		return false
	}
	held := make(map[string]bool, len(entries))
	for _, e := range entries {
		rel := entryRel(e)
		held[rel[strings.LastIndexByte(rel, '/')+1:]] = true
	}
	for _, name := range names {
		if mdstore.IsRecordName(name) && !held[name] {
			return false
		}
	}
	return true
}

func sortSummaries(bs []*BulletSummary) {
	slices.SortFunc(bs, func(a, b *BulletSummary) int { return strings.Compare(a.ID, b.ID) })
}

// bulletIndex is the bullet index of a listing, as it will be written.
type bulletIndex struct {
	a       Analyser
	words   []string
	wordID  map[string]uint32 // built when a new word is added
	entries []string          // sorted by path; each slices the file read
	folders map[string]folderStat
	trusted map[string]bool // folders whose files were not stated
	dirty   bool
	interns map[string]string
	alloc   summaryAlloc
}

// summaryAlloc hands out the summaries of a listing from a few large
// arrays instead of three allocations per bullet.
type summaryAlloc struct {
	sums []BulletSummary
	strs []string
}

const allocChunk = 4096

func (a *summaryAlloc) summary() *BulletSummary {
	if len(a.sums) == 0 {
		a.sums = make([]BulletSummary, allocChunk)
	}
	s := &a.sums[0]
	a.sums = a.sums[1:]
	return s
}

// strings hands out a list of n strings.
func (a *summaryAlloc) strings(n int) []string {
	if n > len(a.strs) {
		a.strs = make([]string, max(n, allocChunk))
	}
	l := a.strs[:n:n]
	a.strs = a.strs[n:]
	return l
}

// readBulletIndex reads the index file; an unusable one gives an empty
// index. The file is read into one string that the words, the entries and
// the strings of every decoded bullet slice: decoding an entry allocates
// none of its strings.
func readBulletIndex(s *mdstore.Store, a Analyser) *bulletIndex {
	up := &bulletIndex{a: a, interns: map[string]string{}, folders: map[string]folderStat{}, trusted: map[string]bool{}}
	data, err := readCacheString(filepath.Join(s.Dir, bulletIndexPath))
	head := bulletIndexMagic + a.Version + "\n"
	if err != nil || !strings.HasPrefix(data, head) || len(data) < len(head)+4 {
		up.dirty = true
		return up
	}
	body := data[:len(data)-4]
	tail := data[len(body):]
	// The checksum comes first: the body's counts size what it is split
	// into, and a damaged count would ask for any amount of memory.
	if stringCRC(body) != uint32(tail[0])<<24|uint32(tail[1])<<16|uint32(tail[2])<<8|uint32(tail[3]) || !up.split(body[len(head):]) {
		up.dirty = true
		return up // damaged: start over
	}
	return up
}

// split reads the index's body (after its head) into up's words, folders
// and entries, the strings sliced from it; false when it is damaged.
func (up *bulletIndex) split(body string) bool {
	r := reader{b: body}
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		return false
	}
	words := make([]string, 0, n)
	for range n {
		w := r.bytes()
		if r.bad {
			break
		}
		words = append(words, w)
	}
	nf := r.uvarint()
	if r.bad || nf > uint64(len(r.b)) {
		return false
	}
	folders := make(map[string]folderStat, nf)
	for range nf {
		dir := r.bytes()
		folders[dir] = folderStat{mtime: r.varint(), ctime: r.varint(), racy: r.uvarint() != 0, token: r.u64()}
	}
	count := 0 // the entries, to size their list once
	for c := (reader{b: r.b}); !c.bad && len(c.b) > 0; count++ {
		c.bytes()
	}
	entries := make([]string, 0, count)
	last := ""
	for !r.bad && len(r.b) > 0 {
		e := r.bytes()
		if r.bad || len(e) == 0 {
			break
		}
		rel := entryRel(e)
		if rel == "" || rel <= last {
			r.bad = true
			break
		}
		last = rel
		entries = append(entries, e)
	}
	if r.bad {
		return false
	}
	up.words, up.entries, up.folders = words, entries, folders
	return true
}

// castagnoli is the CRC-32C table (computed by the CPU where it can).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// stringCRC is the CRC-32C of a string, read in place (crc32 only reads
// the bytes it is given).
func stringCRC(s string) uint32 {
	if s == "" {
		return 0
	}
	return crc32.Update(0, castagnoli, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// readString reads a whole file into a string, without a second copy.
func readString(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var sb strings.Builder
	if st, err := f.Stat(); err == nil {
		sb.Grow(int(st.Size()) + 1)
	}
	_, err = io.Copy(&sb, f)
	return sb.String(), err
}

// entryRel is the path an entry starts with ("" when damaged).
func entryRel(e string) string {
	r := reader{b: e}
	rel := r.bytes()
	if r.bad {
		return ""
	}
	return rel
}

// encode renders one entry: the path, the file's stat, what a run looks
// at for every bullet, the content's length and words, then the rest of
// the frontmatter (decoded only when asked).
func (up *bulletIndex) encode(rel string, st filestat.Stat, sum *BulletSummary) string {
	b := sum.Bullet()
	var w writer
	w.str(rel)
	w.varint(st.Size)
	w.varint(st.Mtime)
	w.varint(st.Ctime)
	w.str(b.ID)
	w.str(b.Category)
	w.str(b.Validation)
	w.u64(math.Float64bits(b.Confidence))
	for _, v := range []int{b.Priority, b.HelpfulCount, b.HarmfulCount, b.UsageCount} {
		w.varint(int64(v))
	}
	w.varint(int64(sum.ContentLen))
	w.uvarint(uint64(sum.nterms))
	w.str(sum.terms)
	// The rest.
	w.str(b.ParentBulletID)
	w.list(b.MergedFrom)
	w.varint(int64(b.Version))
	w.list(b.Tags)
	for _, t := range []time.Time{b.CreatedAt, b.UpdatedAt, b.LastUsedAt, b.ArchivedAt} {
		w.time(t)
	}
	w.list(b.SourceReflections)
	w.str(b.OriginalID)
	w.str(b.Section)
	return string(w.b)
}

// decode returns an entry's summary; with check, only when the file's stat
// is the one it recorded. Its strings slice the entry.
func (up *bulletIndex) decode(e string, st filestat.Stat, check bool) (*BulletSummary, bool) {
	return up.decodeWith(&up.alloc, up.interns, e, st, check)
}

// decodeWith is decode with an allocator and a table of interned strings of
// the caller's (one per goroutine).
func (up *bulletIndex) decodeWith(alloc *summaryAlloc, interns map[string]string, e string, st filestat.Stat, check bool) (*BulletSummary, bool) {
	r := reader{b: e}
	rel := r.bytes()
	size, mtime, ctime := r.varint(), r.varint(), r.varint()
	if r.bad || check && (!st.Regular || size != st.Size || mtime != st.Mtime || ctime != st.Ctime) {
		return nil, false
	}
	sum := alloc.summary()
	sum.Path, sum.entry = rel, e
	sum.ID = r.bytes()
	sum.Category = intern(interns, r.bytes())
	sum.Validation = intern(interns, r.bytes())
	sum.Confidence = math.Float64frombits(r.u64())
	sum.Priority, sum.HelpfulCount, sum.HarmfulCount, sum.UsageCount = int(r.varint()), int(r.varint()), int(r.varint()), int(r.varint())
	sum.ContentLen = int(r.varint())
	sum.nterms = int(r.uvarint())
	// The words are decoded when asked (Terms); the file's checksum
	// stands for them until then.
	sum.terms, sum.nwords = r.bytes(), uint32(len(up.words))
	sum.IsActive = layout.ActiveBullet(rel)
	if r.bad {
		return nil, false
	}
	return sum, true
}

// entryWordsAt reads an entry up to its words: their count and bytes,
// and what follows them (the rest of the frontmatter).
func entryWordsAt(e string) (n uint64, words, rest string, ok bool) {
	r := reader{b: e}
	r.bytes() // path
	for range 3 {
		r.varint() // size, times
	}
	for range 3 {
		r.bytes() // id, category, validation
	}
	r.u64() // confidence
	for range 5 {
		r.varint() // priority, counters, content length
	}
	n = r.uvarint()
	words = r.bytes()
	return n, words, r.b, !r.bad
}

// entryRest is the part of an entry after its words: the frontmatter
// fields a run decodes only when asked ("" when damaged).
func entryRest(e string) string {
	_, _, rest, ok := entryWordsAt(e)
	if !ok {
		return ""
	}
	return rest
}

// decodeBullet decodes every frontmatter field of an entry.
func decodeBullet(e string) (*mdstore.Bullet, bool) {
	b := &mdstore.Bullet{}
	r := reader{b: e}
	r.bytes()
	r.varint()
	r.varint()
	r.varint()
	b.ID = r.bytes()
	b.Category = r.bytes()
	b.Validation = r.bytes()
	b.Confidence = math.Float64frombits(r.u64())
	b.Priority, b.HelpfulCount, b.HarmfulCount, b.UsageCount = int(r.varint()), int(r.varint()), int(r.varint()), int(r.varint())
	r.varint()
	r.uvarint()
	r.bytes()
	b.ParentBulletID = r.bytes()
	var a summaryAlloc
	b.MergedFrom = r.list(&a)
	b.Version = int(r.varint())
	b.Tags = r.list(&a)
	for _, t := range []*time.Time{&b.CreatedAt, &b.UpdatedAt, &b.LastUsedAt, &b.ArchivedAt} {
		*t = r.time()
	}
	b.SourceReflections = r.list(&a)
	b.OriginalID = r.bytes()
	b.Section = r.bytes()
	return b, !r.bad && r.b == ""
}

// decodeTerms reads exactly len(terms) word ids below words from b (the
// end of an entry, nothing after them): a loop of its own, as every entry's
// words are read on every run.
func decodeTerms(b string, terms []uint32, words uint32) bool {
	for i := range terms {
		var v uint32
		for shift := uint(0); ; shift += 7 {
			if len(b) == 0 || shift > 28 {
				return false
			}
			c := b[0]
			b = b[1:]
			if shift == 28 && c > 0x0f {
				return false // above 32 bits
			}
			v |= uint32(c&0x7f) << shift
			if c < 0x80 {
				break
			}
		}
		if v >= words {
			return false
		}
		terms[i] = v
	}
	return len(b) == 0
}

// intern is s as the table holds it, added when new.
func intern(interns map[string]string, s string) string {
	if v, ok := interns[s]; ok {
		return v
	}
	interns[s] = s
	return s
}

// summarise keeps what the index holds of a bullet that was read.
func (up *bulletIndex) summarise(b *mdstore.Bullet, words []string) *BulletSummary {
	sum := &BulletSummary{ID: b.ID, Category: b.Category, Path: b.Path, Validation: b.Validation, IsActive: b.IsActive,
		Confidence: b.Confidence, Priority: b.Priority, HelpfulCount: b.HelpfulCount, HarmfulCount: b.HarmfulCount,
		UsageCount: b.UsageCount, ContentLen: len(b.Content), nterms: len(words)}
	var raw []byte
	if up.wordID == nil {
		up.wordID = make(map[string]uint32, len(up.words))
		for i, w := range up.words {
			up.wordID[w] = uint32(i)
		}
	}
	for _, w := range words {
		id, ok := up.wordID[w]
		if !ok {
			id = uint32(len(up.words))
			up.words = append(up.words, w)
			up.wordID[w] = id
		}
		raw = binary.AppendUvarint(raw, uint64(id))
	}
	sum.terms, sum.nwords = string(raw), uint32(len(up.words))
	sum.bullet = b.FieldsOnly()
	return sum
}

// save takes in the bullet files the run wrote, then writes the index if
// it changed (best effort: a cache that cannot be written only costs speed
// next time).
func (up *bulletIndex) save(s *mdstore.Store) {
	changed := map[string]bool{}  // folders the run wrote to
	newWords := map[string]bool{} // folders whose files or words the run changed
	for _, rel := range s.WrittenPaths() {
		if layout.KindOf(rel) != layout.Bullet {
			continue
		}
		up.dirty = true
		changed[rel[:strings.LastIndexByte(rel, '/')]] = true
		i := sort.Search(len(up.entries), func(i int) bool { return entryRel(up.entries[i]) >= rel })
		found := i < len(up.entries) && entryRel(up.entries[i]) == rel
		var e string
		if st, ok := filestat.File(s.Path(rel)); ok {
			if b, err := s.ReadBullet(rel); err == nil {
				e = up.encode(rel, st, up.summarise(b, up.a.Words(b.Content)))
			}
		}
		if !found || e == "" || !sameEntryWords(e, up.entries[i]) {
			newWords[rel[:strings.LastIndexByte(rel, '/')]] = true
		}
		switch {
		case found && e != "":
			up.entries[i] = e
		case found:
			up.entries = append(up.entries[:i], up.entries[i+1:]...)
		case e != "":
			up.entries = append(up.entries, "")
			copy(up.entries[i+1:], up.entries[i:])
			up.entries[i] = e
		}
	}
	// A bullet file the run read in a folder it did not list: taken in
	// again when it changed in place since its entry was written.
	for _, rel := range s.BulletsRead() {
		dir := rel[:max(strings.LastIndexByte(rel, '/'), 0)]
		if !up.trusted[dir] || changed[dir] {
			continue
		}
		i := sort.Search(len(up.entries), func(i int) bool { return entryRel(up.entries[i]) >= rel })
		if i == len(up.entries) || entryRel(up.entries[i]) != rel {
			continue
		}
		st, ok := filestat.File(s.Path(rel))
		if _, same := up.decode(up.entries[i], st, true); same && ok {
			continue
		}
		up.dirty = true
		if b, err := s.ReadBullet(rel); err == nil && ok {
			up.entries[i] = up.encode(rel, st, up.summarise(b, up.a.Words(b.Content)))
			if f, ok := up.folders[dir]; ok {
				f.token = newToken()
				up.folders[dir] = f
			}
		} else { // the next run lists the folder again and reports the file
			up.entries = slices.Delete(up.entries, i, i+1)
			delete(up.folders, dir)
		}
	}
	// The folders the run wrote to are recorded as they are now; the next
	// run compares their names with the entries before trusting them.
	for dir := range changed {
		if st, ok := statDir(s.Path(dir)); ok {
			st.racy, st.token = true, up.folders[dir].token
			if newWords[dir] || st.token == 0 {
				st.token = newToken()
			}
			up.folders[dir] = st
		} else {
			delete(up.folders, dir)
		}
	}
	if !up.dirty {
		return
	}
	dirs := make([]string, 0, len(up.folders))
	for dir := range up.folders {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	_ = durable.WriteFileWith(filepath.Join(s.Dir, bulletIndexPath), 0o644, false, func(out io.Writer) error {
		sum := crc32.New(castagnoli)
		bw := bufio.NewWriterSize(io.MultiWriter(out, sum), 1<<16)
		w := writer{b: make([]byte, 0, 1024)}
		w.b = append(w.b, bulletIndexMagic+up.a.Version+"\n"...)
		w.uvarint(uint64(len(up.words)))
		for _, x := range up.words {
			w.str(x)
			if len(w.b) > 1<<15 {
				bw.Write(w.b)
				w.b = w.b[:0]
			}
		}
		w.uvarint(uint64(len(dirs)))
		for _, dir := range dirs {
			st := up.folders[dir]
			w.str(dir)
			w.varint(st.mtime)
			w.varint(st.ctime)
			w.uvarint(map[bool]uint64{false: 0, true: 1}[st.racy])
			w.u64(st.token)
		}
		for _, e := range up.entries {
			w.str(e)
			if len(w.b) > 1<<15 {
				bw.Write(w.b)
				w.b = w.b[:0]
			}
		}
		bw.Write(w.b)
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := out.Write(binary.BigEndian.AppendUint32(nil, sum.Sum32()))
		return err
	})
}

// writer appends the index's binary values.
type writer struct{ b []byte }

func (w *writer) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) varint(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *writer) u64(v uint64)     { w.b = binary.BigEndian.AppendUint64(w.b, v) }
func (w *writer) str(s string)     { w.uvarint(uint64(len(s))); w.b = append(w.b, s...) }
func (w *writer) list(l []string) {
	w.uvarint(uint64(len(l)))
	for _, s := range l {
		w.str(s)
	}
}
func (w *writer) time(t time.Time) {
	if t.IsZero() {
		w.uvarint(0)
		return
	}
	w.uvarint(1)
	w.varint(t.Unix())
	w.uvarint(uint64(t.Nanosecond()))
}

// reader reads them back from the file's string; bad is set at the first
// damaged value.
type reader struct {
	b   string
	bad bool
}

func (r *reader) uvarint() uint64 {
	var v uint64
	for i := 0; i < len(r.b) && i < binary.MaxVarintLen64; i++ {
		c := r.b[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break // above 64 bits
			}
			r.b = r.b[i+1:]
			return v | uint64(c)<<(7*i)
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	r.bad = true
	return 0
}

func (r *reader) varint() int64 {
	u := r.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (r *reader) u64() uint64 {
	if len(r.b) < 8 {
		r.bad = true
		return 0
	}
	var v uint64
	for i := range 8 {
		v = v<<8 | uint64(r.b[i])
	}
	r.b = r.b[8:]
	return v
}

// bytes reads a length-prefixed string (a slice of the file's string).
func (r *reader) bytes() string {
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return ""
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) list(a *summaryAlloc) []string {
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	if n == 0 {
		return nil
	}
	out := a.strings(int(n))
	for i := range out {
		out[i] = r.bytes()
	}
	return out
}

func (r *reader) time() time.Time {
	if r.uvarint() == 0 {
		return time.Time{}
	}
	sec := r.varint()
	nsec := r.uvarint()
	if nsec >= 1e9 {
		r.bad = true
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}
