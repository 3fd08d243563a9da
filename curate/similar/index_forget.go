package similar

import "slices"

// Analysed is how many items added by their words (AddTerms) hold their
// text or an analysis of it.
func (ix *Index) Analysed() int { return len(ix.analysed) }

// Forget lets go of the texts and analyses of the items added by their
// words, all but about the keep used last (at least three quarters of
// keep, at most keep), when more than keep hold one: they are asked for
// (SetText) and analysed again when next scored, with the same scores. A
// process that answers queries for long (the MCP server) bounds its memory
// with it; every item a query scores keeps its analysis while the index
// answers that query.
func (ix *Index) Forget(keep int) {
	if len(ix.analysed) <= keep {
		return
	}
	kept := max(keep*3/4, 0)
	// Used last first; an item analysed for the same query as another
	// keeps its place (stable).
	slices.SortStableFunc(ix.analysed, func(a, b *item) int { return b.more.used - a.more.used })
	for _, it := range ix.analysed[kept:] {
		it.more = nil
	}
	clear(ix.analysed[kept:])
	ix.analysed = ix.analysed[:kept]
}
