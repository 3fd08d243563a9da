package merge

import (
	"fmt"
	"testing"
)

// BenchmarkTreeOfASync merges what a sync of two clones hands the tree
// merge: 1,000 memories each side changed, 100 of them on both sides (the
// others' base is the unchanged side's version).
func BenchmarkTreeOfASync(b *testing.B) {
	const changed, common = 1000, 100
	memory := func(i int, tags, confidence string) []byte {
		return fmt.Appendf(nil, "---\nid: m%06d\ntype: fact\nbrief: observation %d about the build of module %d\nauthor: agent-%d\n"+
			"tags: [%s]\ncontent_confidence: %s\nimportance_factors: {proximity: 0.5, surprisal: 0.25, entity_priority: 0.75, unambiguity: 0.5}\n"+
			"ingestion_time: 2026-11-29T09:%02d:%02dZ\nstatus: inbox\nmaturity: case\n---\nEntry %d: some context an agent wrote down while working, "+
			"with enough words to look like a real note about a build failure and its fix.\n", i, i, i%997, i%7, tags, confidence, i/60%60, i%60, i)
	}
	base, ours, theirs := map[string][]byte{}, map[string][]byte{}, map[string][]byte{}
	for i := range 2*changed - common {
		p := fmt.Sprintf("memory/inbox/m%06d.md", i)
		base[p] = memory(i, "go", "3")
		ours[p], theirs[p] = base[p], base[p]
		if i < changed {
			ours[p] = memory(i, "go, build", "3")
		}
		if i >= changed-common {
			theirs[p] = memory(i, "go", "4")
		}
	}
	b.ResetTimer()
	for range b.N {
		res, err := Tree(base, ours, theirs)
		if err != nil || len(res.Files) != len(base) || len(res.Conflicts) != 0 {
			b.Fatalf("%d files, %v, %v", len(res.Files), res.Conflicts, err)
		}
	}
}
