package playbook

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// MaintenanceReport is what `curate --maintenance` found, besides its actions.
type MaintenanceReport struct {
	// ExactGroups are bullets with the same text (after trimming), each
	// group sorted by id; Extra counts the copies beyond the first.
	ExactGroups [][]string `json:"exact_duplicate_groups"`
	ExactExtra  int        `json:"exact_duplicate_extra_copies"`
	// NearPairs are pairs above DedupThreshold whose texts differ.
	NearPairs []PairScore `json:"near_duplicate_pairs"`
	// Overlapping are pairs in [threshold, DedupThreshold]: merged with
	// --auto-merge, proposals otherwise.
	Overlapping []PairScore `json:"overlapping_pairs"`
	Actions     []Action    `json:"-"`
}

// PairScore is two bullets and their similarity.
type PairScore struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Score float64 `json:"score"`
}

// Priority computes a bullet's rebalanced priority:
//
//	effectiveness = (helpful + 1) / (helpful + harmful + 2)      (Laplace)
//	usage         = min(1, ln(1 + usage_count) / ln(21))          (saturates at 20 uses)
//	score         = 0.5·effectiveness + 0.3·confidence + 0.2·usage
//	priority      = clamp(round(1 + 9·score), 1, 10)
//
// A fresh bullet (no counts, confidence 0.5) gets 5, the default.
func Priority(b *mdstore.Bullet) int {
	eff := float64(b.HelpfulCount+1) / float64(b.HelpfulCount+b.HarmfulCount+2)
	use := math.Min(1, math.Log1p(float64(b.UsageCount))/math.Log(21))
	score := 0.5*eff + 0.3*b.Confidence + 0.2*use
	return max(1, min(10, int(math.Round(1+9*score))))
}

// PlanMaintenance plans the periodic upkeep on pb (after the lessons of the
// run), in this order:
//
//  1. dedup: bullets whose similarity is > 0.90 are grouped (connected
//     components of such pairs) and each group is merged into one new
//     version of its strongest member (most helpful, then lowest id),
//     always applied, with every distinct sentence kept;
//  2. archive every bullet with harmful_count ≥ 5;
//  3. prune (archive) bullets unused for more than 90 days (last_used_at,
//     or created_at when never used) with helpful_count < 3;
//  4. overlapping pairs (threshold ≤ similarity ≤ 0.90): merged with
//     --auto-merge (each bullet in at most one merge per run), proposals
//     (validation: required on both) otherwise;
//  5. rebalance the priority of every active bullet by Priority.
func PlanMaintenance(pb *Playbook, set Settings) (*MaintenanceReport, error) {
	pb.ReadAll() // every text is compared
	rep := &MaintenanceReport{}
	do := func(a Action) error {
		if err := pb.Do(a); err != nil {
			return fmt.Errorf("maintenance: %w", err)
		}
		rep.Actions = append(rep.Actions, a)
		return nil
	}
	thr := set.Threshold
	if thr == 0 {
		thr = DefaultThreshold
	}

	// 1. dedup.
	byText := map[string][]string{}
	for _, b := range pb.Active() {
		byText[b.Content] = append(byText[b.Content], b.ID)
	}
	for _, ids := range byText {
		if len(ids) > 1 {
			rep.ExactGroups = append(rep.ExactGroups, ids)
			rep.ExactExtra += len(ids) - 1
		}
	}
	sort.Slice(rep.ExactGroups, func(i, j int) bool { return rep.ExactGroups[i][0] < rep.ExactGroups[j][0] })
	// Only pairs at or above the overlapping threshold (and above the dedup
	// threshold when it is higher) are used: the search asks for no less.
	pairs := pb.Matcher.Pairs(pairFloor(thr))
	uf := newUnionFind()
	var overlap []PairScore
	for _, p := range pairs {
		switch {
		case p.Score > DedupThreshold+Tolerance:
			uf.union(p.A, p.B)
			if pb.Bullet(p.A).Content != pb.Bullet(p.B).Content {
				rep.NearPairs = append(rep.NearPairs, PairScore{p.A, p.B, p.Score})
			}
		case p.Score >= thr-Tolerance:
			overlap = append(overlap, PairScore{p.A, p.B, p.Score})
		}
	}
	// Each group's merge is given the pairs within the group only (in
	// their order), so the groups cost the pairs once, not once per group.
	inGroup := map[string][]similar.Pair{}
	for _, p := range pairs {
		if ra, ok := uf.root(p.A); ok {
			if rb, ok := uf.root(p.B); ok && ra == rb {
				inGroup[ra] = append(inGroup[ra], p)
			}
		}
	}
	for _, group := range uf.groups() {
		r, _ := uf.root(group[0])
		if err := do(mergeGroup(pb, group, inGroup[r], fmt.Sprintf("duplicates (similarity > %.2f) merged, every distinct sentence kept", DedupThreshold), "")); err != nil {
			return nil, err
		}
	}

	// 2. and 3. archive harmful, prune unused.
	for _, b := range pb.Active() {
		last := b.LastUsedAt
		if last.IsZero() {
			last = b.CreatedAt
		}
		switch {
		case b.HarmfulCount >= HarmfulArchive:
			if err := do(Action{Type: ActArchive, TargetBulletID: b.ID,
				Reasoning: fmt.Sprintf("harmful_count %d ≥ %d", b.HarmfulCount, HarmfulArchive)}); err != nil {
				return nil, err
			}
		case !last.IsZero() && pb.Now.Sub(last) > PruneDays*24*time.Hour && b.HelpfulCount < PruneHelpfulBelow:
			if err := do(Action{Type: ActPrune, TargetBulletID: b.ID,
				Reasoning: fmt.Sprintf("unused since %s (> %d days) and helpful_count %d < %d", last.Format("2006-01-02"), PruneDays, b.HelpfulCount, PruneHelpfulBelow)}); err != nil {
				return nil, err
			}
		}
	}

	// 4. overlapping pairs, strongest first.
	used := map[string]bool{}
	for _, p := range overlap {
		a, b := pb.Bullet(p.A), pb.Bullet(p.B)
		if !a.IsActive || !b.IsActive || used[p.A] || used[p.B] {
			continue
		}
		rep.Overlapping = append(rep.Overlapping, p)
		used[p.A], used[p.B] = true, true
		if set.AutoMerge && p.Score >= AutoMergeMin-Tolerance {
			v := ""
			if set.RequireValidation {
				v = "required"
			}
			if err := do(mergeGroup(pb, []string{p.A, p.B}, []similar.Pair{{A: p.A, B: p.B, Score: p.Score}}, fmt.Sprintf("overlapping bullets (similarity %.4f in [%.2f, %.2f]) merged", p.Score, thr, DedupThreshold), v)); err != nil {
				return nil, err
			}
			continue
		}
		for _, t := range [][2]string{{p.A, p.B}, {p.B, p.A}} {
			if err := do(Action{Type: ActProposal, TargetBulletID: t[0], MergedFrom: []string{t[0], t[1]},
				Similarity: p.Score, Content: MergeContent(pb.Bullet(t[0]).Content, pb.Bullet(t[1]).Content), Validation: "required",
				Reasoning: fmt.Sprintf("overlaps %s (similarity %.4f in [%.2f, %.2f]): merge proposed, validation required", t[1], p.Score, thr, DedupThreshold)}); err != nil {
				return nil, err
			}
		}
	}

	// 5. rebalance.
	for _, b := range pb.Active() {
		if p := Priority(b); p != b.Priority {
			if err := do(Action{Type: ActRebalance, TargetBulletID: b.ID, Priority: p,
				Reasoning: fmt.Sprintf("priority %d → %d (helpful %d, harmful %d, usage %d, confidence %.2f)", b.Priority, p, b.HelpfulCount, b.HarmfulCount, b.UsageCount, b.Confidence)}); err != nil {
				return nil, err
			}
		}
	}
	return rep, nil
}

// pairFloor is the lowest similarity maintenance uses: the overlapping
// threshold thr, but not below the merge floor (a pair below it is never
// compared) nor above the dedup threshold (duplicates need every pair
// above it).
func pairFloor(thr float64) float64 {
	return max(MergeFloor, min(thr, DedupThreshold))
}

// mergeGroup builds the merge of a group of active bullets into a new
// version of its strongest member. pairs give the similarity logged: the
// score that decided the merge, i.e. the weakest link the group needs to
// hold together (the bottleneck of its strongest pairs: adding the group's
// pairs strongest first, the score of the pair that joins its last member).
func mergeGroup(pb *Playbook, group []string, pairs []similar.Pair, why, validation string) Action {
	bs := make([]*mdstore.Bullet, len(group))
	for i, id := range group {
		bs[i] = pb.Bullet(id)
	}
	sort.Slice(bs, func(i, j int) bool {
		if bs[i].HelpfulCount != bs[j].HelpfulCount {
			return bs[i].HelpfulCount > bs[j].HelpfulCount
		}
		return bs[i].ID < bs[j].ID
	})
	texts := make([]string, len(bs))
	ids := make([]string, len(bs))
	conf := 0.0
	in := map[string]bool{}
	for i, b := range bs {
		texts[i], ids[i] = b.Content, b.ID
		conf = math.Max(conf, b.Confidence)
		in[b.ID] = true
	}
	low := decidingScore(in, pairs)
	parent := bs[0]
	return Action{
		Type: ActMergeSimilar, BulletID: pb.IDs.NextVersion(parent.ID), TargetBulletID: parent.ID,
		MergedFrom: ids, Similarity: low, Content: MergeContent(texts...), Confidence: conf,
		Category: parent.Category, Validation: validation,
		Reasoning: fmt.Sprintf("%s: %s", why, strings.Join(ids, ", ")),
	}
}

// decidingScore is the score at which the bullets of a group become
// connected: the group's pairs are joined strongest first, and the score
// of the pair that connects the last bullet is returned (0 without pairs).
func decidingScore(in map[string]bool, pairs []similar.Pair) float64 {
	var ps []similar.Pair
	for _, p := range pairs {
		if in[p.A] && in[p.B] {
			ps = append(ps, p)
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Score > ps[j].Score })
	uf := newUnionFind()
	parts := len(in)
	for _, p := range ps {
		if uf.find(p.A) != uf.find(p.B) {
			uf.union(p.A, p.B)
			parts--
			if parts == 1 {
				return p.Score
			}
		}
	}
	return 0
}

// unionFind groups ids connected by pairs.
type unionFind struct{ parent map[string]string }

func newUnionFind() *unionFind { return &unionFind{parent: map[string]string{}} }

func (u *unionFind) find(x string) string {
	if _, ok := u.parent[x]; !ok {
		u.parent[x] = x
	}
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// root is the group of x, if x is in one.
func (u *unionFind) root(x string) (string, bool) {
	if _, ok := u.parent[x]; !ok {
		return "", false
	}
	return u.find(x), true
}

func (u *unionFind) union(a, b string) {
	ra, rb := u.find(a), u.find(b)
	if ra < rb {
		u.parent[rb] = ra
	} else if rb < ra {
		u.parent[ra] = rb
	}
}

// groups returns the groups of two or more ids, each sorted, ordered by
// their first id.
func (u *unionFind) groups() [][]string {
	m := map[string][]string{}
	for x := range u.parent {
		r := u.find(x)
		m[r] = append(m[r], x)
	}
	var out [][]string
	for _, g := range m {
		if len(g) > 1 {
			sort.Strings(g)
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
