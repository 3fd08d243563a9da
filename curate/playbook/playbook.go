package playbook

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore/cache"

	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore"
)

// Playbook is the playbook in memory while a run plans and applies: every
// bullet (active and archived), the id allocator and, when planning, the
// matcher kept in step with the active bullets. Do is the one place where
// an action changes bullets; Changes turns what Do changed into files.
type Playbook struct {
	Now time.Time
	IDs *bulletid.Allocator
	// Matcher holds the active bullets by category (nil: no matching).
	Matcher *CategoryMatcher
	// Secrets is the store's secret policy (nil: the built-in rules).
	Secrets *secrets.Policy
	// sharedIDs are ids that more than one bullet file has: none of those
	// files is in the playbook, and a reflection that names one waits.
	sharedIDs []string
	// sharing are the bullets of those files, as read: a lesson that
	// repeats one of them is held (repeatsSharedID), found through
	// sharingMatchers (by the categories asked, made on first need).
	sharing         []*mdstore.Bullet
	sharingMatchers map[string]Matcher
	// Sensitive tells the sensitive lessons, whose bullets wait for
	// review (nil: only the sensitive tag).
	Sensitive *Sensitivity

	bullets *bulletSet
	// origPath: the file each bullet that an action added or replaced was
	// read from ("" = new); any other bullet's Path is where it was read.
	origPath map[string]string
	touched  map[string]bool
	active   map[string]int // category -> active bullets
	archived []string       // ids archived since the playbook was read, in order

	lazy *lazyBullets // bullets known from the bullet index only (nil: all read)
	// sortedActive is Active's answer, kept sorted as bullets are added
	// and archived (nil: not built yet).
	sortedActive []*mdstore.Bullet
}

// ArchivedNow are the bullets archived since the playbook was read (by
// archive and prune, and the bullets a merge combined), in order.
func (p *Playbook) ArchivedNow() []string { return append([]string(nil), p.archived...) }

// New holds copies of the bullets (the records are not changed).
// newMatcher may be nil (apply without planning); when set, the active
// bullets are indexed by category with one newMatcher() per category.
func New(bullets []*mdstore.Bullet, ids *bulletid.Allocator, newMatcher func() Matcher, now time.Time) *Playbook {
	own := make([]*mdstore.Bullet, len(bullets))
	for i, b := range bullets {
		own[i] = b.Clone()
	}
	return newPlaybook(own, false, ids, newMatcher, now)
}

// newPlaybook holds the bullets as its own; sorted says they are sorted by
// id, each id once.
func newPlaybook(bullets []*mdstore.Bullet, sorted bool, ids *bulletid.Allocator, newMatcher func() Matcher, now time.Time) *Playbook {
	p := &Playbook{
		Now: now.UTC(), IDs: ids,
		bullets: newBulletSet(bullets, sorted), origPath: map[string]string{},
		touched: map[string]bool{}, active: map[string]int{},
	}
	p.bullets.each(func(b *mdstore.Bullet) {
		if ids != nil {
			ids.Observe(b.ID)
		}
		if b.IsActive {
			p.active[b.Category]++
		}
	})
	if newMatcher != nil {
		p.UseMatcher(newMatcher)
	}
	return p
}

// UseMatcher indexes the active bullets by category, one newMatcher() per
// category, and keeps the index in step with later actions.
func (p *Playbook) UseMatcher(newMatcher func() Matcher) {
	p.Matcher = NewCategoryMatcher(newMatcher)
	p.Matcher.text = p.text
	if p.lazy != nil {
		p.Matcher.stored = cache.CandidateIndexesOf(p.lazy.store)
		if p.addUnread() {
			return
		}
	}
	for _, b := range p.Active() {
		p.Matcher.Add(b.Category, b.ID, p.Bullet(b.ID).Content)
	}
}

// addUnread indexes the active bullets, all known from the bullet index
// only, by the words the index keeps, category by category; false when
// some bullet was read already or the matcher cannot take words (then
// nothing was added). The words of a category are decoded only when its
// candidate index is built, or its key computed: a category whose bullets
// the index names by a token is keyed by it, and its stored index, loaded
// under that key, holds the words.
func (p *Playbook) addUnread() bool {
	type batch struct {
		ids  []string
		sums []*cache.BulletSummary
	}
	by := map[string]*batch{}
	all := true
	p.eachActive(func(a activeFacts) {
		if a.sum == nil {
			all = false
			return
		}
		bt := by[a.Category]
		if bt == nil {
			n := p.active[a.Category]
			bt = &batch{ids: make([]string, 0, n), sums: make([]*cache.BulletSummary, 0, n)}
			by[a.Category] = bt
		}
		bt.ids = append(bt.ids, a.ID)
		bt.sums = append(bt.sums, a.sum)
	})
	if !all {
		return false
	}
	cats := make([]string, 0, len(by))
	for c := range by {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for i, c := range cats {
		sums := by[c].sums
		tb := &TermBatch{IDs: by[c].ids, Vocab: p.lazy.vocabulary(), Terms: func() [][]uint32 { return decodeTerms(sums) }}
		if tok := p.lazy.token(c); tok != 0 {
			tb.Key = tokenKey(tok, len(sums))
		}
		if !p.Matcher.AddAllTerms(c, tb) {
			if i == 0 {
				return false
			}
			for _, id := range by[c].ids { // one matcher per category, all alike: not expected
				p.Matcher.Add(c, id, p.Bullet(id).Content)
			}
		}
	}
	return true
}

// activeFacts is what a run looks at of an active bullet without its text
// or the rest of its frontmatter.
type activeFacts struct {
	ID, Category, Validation string
	Confidence               float64
	Priority                 int
	Helpful, Harmful         int
	// ContentLen is the content's length (of a bullet not read yet, the
	// bullet index's).
	ContentLen int
	// sum is the bullet index's summary while the bullet was not read
	// (nil: read, or not from the index).
	sum *cache.BulletSummary
}

// eachActive calls f with every active bullet, in id order, without making
// the bullets of the bullet index that no one asked for yet.
func (p *Playbook) eachActive(f func(a activeFacts)) {
	if p.lazy == nil {
		for _, b := range p.sorted() {
			f(p.factsOf(b))
		}
		return
	}
	fresh := p.bullets.newIDs()
	made := func(b *mdstore.Bullet) {
		if b.IsActive {
			f(p.factsOf(b))
		}
	}
	for i, id := range p.bullets.keys {
		for len(fresh) > 0 && fresh[0] < id {
			made(p.bullets.added[fresh[0]])
			fresh = fresh[1:]
		}
		if sum := p.unmade(i); sum != nil {
			if sum.IsActive {
				f(activeFacts{ID: sum.ID, Category: sum.Category, Validation: sum.Validation, Confidence: sum.Confidence,
					Priority: sum.Priority, Helpful: sum.HelpfulCount, Harmful: sum.HarmfulCount, ContentLen: sum.ContentLen, sum: sum})
			}
			continue
		}
		if b, replaced := p.bullets.added[id]; replaced {
			made(b)
		} else {
			made(p.bullets.at(i))
		}
	}
	for _, id := range fresh {
		made(p.bullets.added[id])
	}
}

func (p *Playbook) factsOf(b *mdstore.Bullet) activeFacts {
	a := activeFacts{ID: b.ID, Category: b.Category, Validation: b.Validation, Confidence: b.Confidence,
		Priority: b.Priority, Helpful: b.HelpfulCount, Harmful: b.HarmfulCount, ContentLen: len(b.Content)}
	if sum := p.summary(b); sum != nil {
		a.ContentLen, a.sum = sum.ContentLen, sum
	}
	return a
}

// decodeTerms decodes the words of bullets from the bullet index; nil when
// one is damaged.
func decodeTerms(sums []*cache.BulletSummary) [][]uint32 {
	out := make([][]uint32, len(sums))
	for i, sum := range sums {
		ts, ok := sum.Terms()
		if !ok {
			return nil
		}
		out[i] = ts
	}
	return out
}

// tokenKey is the key of a category's candidate index whose bullets the
// bullet index names by a token.
func tokenKey(token uint64, n int) [32]byte {
	var b [8 + 8 + 16]byte
	binary.BigEndian.PutUint64(b[:], token)
	binary.BigEndian.PutUint64(b[8:], uint64(n))
	copy(b[16:], "bullet-index-tok")
	return sha256.Sum256(b[:])
}

// Bullet returns a bullet (active or archived) or nil. A bullet known from
// the bullet index only is read first.
func (p *Playbook) Bullet(id string) *mdstore.Bullet {
	b := p.bullets.get(id)
	if b != nil && p.lazy != nil {
		p.read(b)
	}
	return b
}

// text is a bullet's content, for the matcher.
func (p *Playbook) text(id string) string {
	if b := p.Bullet(id); b != nil {
		return b.Content
	}
	return ""
}

// ActiveIn is the number of active bullets of a category.
func (p *Playbook) ActiveIn(category string) int { return p.active[category] }

// Active returns the active bullets sorted by id.
func (p *Playbook) Active() []*mdstore.Bullet {
	return append([]*mdstore.Bullet(nil), p.sorted()...)
}

// sorted is Active without a copy: not to be changed.
func (p *Playbook) sorted() []*mdstore.Bullet {
	if p.sortedActive == nil {
		out := make([]*mdstore.Bullet, 0, p.bullets.len())
		p.bullets.each(func(b *mdstore.Bullet) {
			if b.IsActive {
				out = append(out, b)
			}
		})
		mdstore.SortBullets(out)
		p.sortedActive = out
	}
	return p.sortedActive
}

// Archived returns the archived bullets sorted by id.
func (p *Playbook) Archived() []*mdstore.Bullet {
	var out []*mdstore.Bullet
	p.bullets.each(func(b *mdstore.Bullet) {
		if !b.IsActive {
			out = append(out, b)
		}
	})
	mdstore.SortBullets(out)
	return out
}

// Touched returns the ids of the bullets that actions changed, sorted.
func (p *Playbook) Touched() []string {
	out := make([]string, 0, len(p.touched))
	for id := range p.touched {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func (p *Playbook) activeBullet(id, role string) (*mdstore.Bullet, error) {
	b := p.Bullet(id)
	if b == nil {
		return nil, fmt.Errorf("%s %q: no such bullet", role, id)
	}
	if !b.IsActive {
		return nil, fmt.Errorf("%s %q is archived", role, id)
	}
	return b, nil
}

// Do carries out one action on the bullets in memory. It refuses actions
// that do not fit the playbook (unknown or archived bullets, an id already
// taken, empty content), leaving the playbook as it was.
func (p *Playbook) Do(a Action) error {
	now := p.Now
	switch a.Type {
	case ActSkip:
		return nil
	case ActNewBullet:
		if err := p.checkNew(a.BulletID, a.Content); err != nil {
			return err
		}
		if err := safepath.CheckID(a.Category); err != nil || a.Category == "" {
			return fmt.Errorf("new bullet %s: category %q is not a safe folder name", a.BulletID, a.Category)
		}
		b := &mdstore.Bullet{
			ID: a.BulletID, Category: a.Category, Confidence: clampUnit(a.Confidence), Priority: clampPriority(a.Priority),
			Version: 1, Tags: a.Tags, IsActive: true, CreatedAt: now, UpdatedAt: now,
			Validation: orDefault(a.Validation, "none"), Content: strings.TrimSpace(a.Content),
			OriginalID: a.OriginalID, Section: a.Section, HelpfulCount: max(0, a.Helpful), HarmfulCount: max(0, a.Harmful),
		}
		if a.ReflectionID != "" {
			b.SourceReflections = []string{a.ReflectionID}
		}
		p.add(b)
	case ActIncrementHelpful, ActIncrementHarmful:
		b, err := p.activeBullet(a.TargetBulletID, "target")
		if err != nil {
			return err
		}
		if a.Type == ActIncrementHelpful {
			b.HelpfulCount++
			b.Confidence = math.Min(1, b.Confidence+0.05)
			b.Confidence = math.Round(b.Confidence*1e9) / 1e9
		} else {
			b.HarmfulCount++
		}
		b.UsageCount++
		if a.Priority != 0 {
			b.Priority = clampPriority(a.Priority)
		}
		b.LastUsedAt, b.UpdatedAt = now, now
		if a.ReflectionID != "" && !contains(b.SourceReflections, a.ReflectionID) {
			b.SourceReflections = append(b.SourceReflections, a.ReflectionID)
		}
		p.touched[b.ID] = true
	case ActUsage:
		b, err := p.activeBullet(a.TargetBulletID, "target")
		if err != nil {
			return err
		}
		b.UsageCount++
		b.LastUsedAt, b.UpdatedAt = now, now
		p.touched[b.ID] = true
	case ActMergeSimilar:
		return p.merge(a)
	case ActProposal:
		b, err := p.activeBullet(a.TargetBulletID, "target")
		if err != nil {
			return err
		}
		if b.Validation != "required" {
			b.Validation, b.UpdatedAt = "required", now
			p.touched[b.ID] = true
		}
	case ActArchive, ActPrune:
		b, err := p.activeBullet(a.TargetBulletID, "target")
		if err != nil {
			return err
		}
		p.archive(b)
	case ActRebalance:
		b, err := p.activeBullet(a.TargetBulletID, "target")
		if err != nil {
			return err
		}
		if a.Priority < 1 || a.Priority > 10 {
			return fmt.Errorf("rebalance %s: priority %d is out of range 1–10", b.ID, a.Priority)
		}
		if b.Priority != a.Priority {
			b.Priority, b.UpdatedAt = a.Priority, now
			p.touched[b.ID] = true
		}
	case ActReview:
		b := p.Bullet(a.TargetBulletID)
		if b == nil {
			return fmt.Errorf("review: no bullet %q", a.TargetBulletID)
		}
		if b.Validation != a.Validation {
			b.Validation, b.UpdatedAt = a.Validation, now
			p.touched[b.ID] = true
		}
	default:
		return fmt.Errorf("unknown action %q", a.Type)
	}
	return nil
}

func (p *Playbook) checkNew(id, content string) error {
	if err := safepath.CheckID(id); err != nil {
		return fmt.Errorf("new bullet id: %w", err)
	}
	if p.bullets.get(id) != nil {
		return fmt.Errorf("new bullet %s: the id is already taken", id)
	}
	if strings.TrimSpace(content) == "" {
		return fmt.Errorf("new bullet %s: content is empty", id)
	}
	return nil
}

// merge makes the new version and archives the bullets it combines.
func (p *Playbook) merge(a Action) error {
	if err := p.checkNew(a.BulletID, a.Content); err != nil {
		return err
	}
	if len(a.MergedFrom) == 0 {
		return fmt.Errorf("merge %s: merged_from is empty", a.BulletID)
	}
	parentID := a.TargetBulletID
	if parentID == "" {
		parentID = a.MergedFrom[0]
	}
	parent, err := p.activeBullet(parentID, "merge parent")
	if err != nil {
		return err
	}
	var from []*mdstore.Bullet
	seen := map[string]bool{}
	for _, id := range a.MergedFrom {
		b, err := p.activeBullet(id, "merged bullet")
		if err != nil {
			return err
		}
		if !seen[id] {
			seen[id] = true
			from = append(from, b)
		}
	}
	_, _, pv, _ := bulletid.Parse(a.BulletID)
	if pv <= parent.Version {
		pv = parent.Version + 1
	}
	nb := &mdstore.Bullet{
		ID: a.BulletID, Category: parent.Category, Confidence: clampUnit(a.Confidence), Priority: parent.Priority,
		Version: pv, ParentBulletID: parent.ID, MergedFrom: a.MergedFrom, IsActive: true,
		CreatedAt: p.Now, UpdatedAt: p.Now, Validation: orDefault(a.Validation, "none"),
		Content: strings.TrimSpace(a.Content), Section: parent.Section,
	}
	var lastUsed time.Time
	for _, b := range from {
		nb.HelpfulCount += b.HelpfulCount
		nb.HarmfulCount += b.HarmfulCount
		nb.UsageCount += b.UsageCount
		nb.Confidence = math.Max(nb.Confidence, b.Confidence)
		if b.Priority > nb.Priority {
			nb.Priority = b.Priority
		}
		nb.Tags = union(nb.Tags, b.Tags)
		nb.SourceReflections = union(nb.SourceReflections, b.SourceReflections)
		if b.LastUsedAt.After(lastUsed) {
			lastUsed = b.LastUsedAt
		}
	}
	nb.Tags = union(nb.Tags, a.Tags)
	if a.ReflectionID != "" {
		nb.SourceReflections = union(nb.SourceReflections, []string{a.ReflectionID})
	}
	nb.LastUsedAt = lastUsed
	if a.Priority != 0 {
		nb.Priority = clampPriority(a.Priority)
	}
	for _, b := range from {
		p.archive(b)
	}
	p.add(nb)
	return nil
}

func (p *Playbook) add(b *mdstore.Bullet) {
	if p.sortedActive != nil {
		// Kept sorted in place: a run that adds a few bullets to a large
		// playbook does not sort every bullet again.
		i, found := slices.BinarySearchFunc(p.sortedActive, b.ID, func(x *mdstore.Bullet, id string) int { return strings.Compare(x.ID, id) })
		switch {
		case found && b.IsActive:
			p.sortedActive[i] = b
		case found:
			p.sortedActive = slices.Delete(p.sortedActive, i, i+1)
		case b.IsActive:
			p.sortedActive = slices.Insert(p.sortedActive, i, b)
		}
	}
	old := p.bullets.get(b.ID)
	if _, ok := p.origPath[b.ID]; !ok {
		from := ""
		if old != nil {
			from = old.Path
		}
		p.origPath[b.ID] = from
	}
	p.bullets.put(b)
	p.touched[b.ID] = true
	p.active[b.Category]++
	p.IDs.Observe(b.ID)
	if p.Matcher != nil {
		if old != nil && old.IsActive {
			p.Matcher.Remove(old.Category, old.ID)
		}
		p.Matcher.Add(b.Category, b.ID, b.Content)
	}
}

func (p *Playbook) archive(b *mdstore.Bullet) {
	if p.sortedActive != nil {
		if i, found := slices.BinarySearchFunc(p.sortedActive, b.ID, func(x *mdstore.Bullet, id string) int { return strings.Compare(x.ID, id) }); found {
			p.sortedActive = slices.Delete(p.sortedActive, i, i+1)
		}
	}
	b.IsActive = false
	b.ArchivedAt, b.UpdatedAt = p.Now, p.Now
	p.touched[b.ID] = true
	p.archived = append(p.archived, b.ID)
	p.active[b.Category]--
	if p.Matcher != nil {
		p.Matcher.Remove(b.Category, b.ID)
	}
}

// Changes adds the files of every changed bullet to cs: new files, edited
// files (only the changed keys), and moves into the archive. A bullet whose
// bytes did not change is not written. s may be nil when the files are not
// on disk (tests); then every touched bullet is written.
func (p *Playbook) Changes(s *mdstore.Store, cs *mdstore.Changeset) error {
	if err := p.Err(); err != nil {
		return err
	}
	for _, id := range p.Touched() {
		b := p.bullets.get(id)
		data, err := b.Encode()
		if err != nil {
			return err
		}
		to := mdstore.BulletPath(b.IsActive, b.Category, b.ID)
		from, added := p.origPath[id]
		if !added {
			from = b.Path
		}
		switch {
		case from == "":
			cs.Write(to, data)
		case from != to:
			cs.Move(from, to, data)
		default:
			if s != nil {
				if cur, err := os.ReadFile(s.Path(to)); err == nil && bytes.Equal(cur, data) {
					continue
				}
			}
			cs.Write(to, data)
		}
	}
	return nil
}

func clampUnit(x float64) float64 { return math.Max(0, math.Min(1, x)) }

func clampPriority(n int) int {
	if n == 0 {
		return 5
	}
	return max(1, min(10, n))
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// union appends the elements of b not in a, keeping order.
func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
