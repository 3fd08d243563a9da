package hooks

import (
	"context"
	"sort"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// storeContext is the relevant context of a store: the bullets of its
// playbook that playbook.RankRelevant chooses, and its confirmed
// memories that memory.Search finds and the same rule keeps (playbook.Task.Chosen).
type storeContext struct {
	ctx context.Context
	s   *mdstore.Store
}

// Relevant implements pipeline.ContextSource: the bullets, best first,
// then the memories, best first.
func (c storeContext) Relevant(text string, o pipeline.RelevantOptions) ([]pipeline.RelevantItem, error) {
	out := []pipeline.RelevantItem{}
	if o.Bullets > 0 {
		rep, err := playbook.Relevant(c.ctx, c.s, playbook.RelevantRequest{Text: text, Categories: o.Categories, Limit: o.Bullets})
		if err != nil {
			return nil, err
		}
		for _, b := range rep.Bullets {
			out = append(out, pipeline.RelevantItem{Kind: pipeline.RelevantBullet, ID: b.ID, Group: b.Category, Text: b.Content,
				Helpful: b.HelpfulCount, Harmful: b.HarmfulCount, Score: b.Score, Words: b.Words})
		}
	}
	if o.Memories > 0 {
		mems, err := c.memories(text, o)
		if err != nil {
			return nil, err
		}
		out = append(out, mems...)
	}
	return out, nil
}

// memories are the confirmed memories of the types asked for (none: all)
// most similar to text, at most o.Memories.
func (c storeContext) memories(text string, o pipeline.RelevantOptions) ([]pipeline.RelevantItem, error) {
	e, err := playbook.Engine(c.s)
	if err != nil {
		return nil, err
	}
	x := memory.NewSearchIndex(e, memory.StoreListing(c.s))
	types := o.MemoryTypes
	if len(types) == 0 {
		types = []string{""}
	}
	task := playbook.NewTask(e, text)
	var out []pipeline.RelevantItem
	for _, t := range types {
		rep, err := memory.Search(c.ctx, c.s, x, memory.SearchRequest{Query: text, Type: t, Limit: o.Memories, Floor: playbook.RelevantFloor})
		if err != nil {
			return nil, err
		}
		for _, r := range rep.Results {
			words := task.MatchedWords(r.Brief)
			if !task.Chosen(r.Similarity, words) {
				continue
			}
			out = append(out, pipeline.RelevantItem{Kind: pipeline.RelevantMemory, ID: r.ID, Group: r.Type, Text: r.Brief,
				Confidence: r.ContentConfidence, Score: r.Similarity, Words: words})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out[:min(len(out), o.Memories)], nil
}
