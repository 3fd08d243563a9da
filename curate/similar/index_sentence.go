package similar

// sentenceBound lowers an item's upper bound as the lexical engine's
// sentence check lowers its score (sentenceCheck): by how far the query's
// and the item's sentence vectors are apart, and by the share of their
// shared words out of order. Both come from the item's words, so the
// item's text is not read.
func (ix *Index) sentenceBound(q *query, it *item, bound float64) float64 {
	if ix.lex.p.noSentence {
		return bound
	}
	d := ix.itemWords(it)
	if d == nil {
		return bound
	}
	return ix.lex.sentenceCheck(q.doc, d, bound)
}

// itemWords is the analysis of an item added by its words, made from
// them and its negation marks as analyze makes it from its text (its
// words in the same order, so that the sentence check gives the same
// numbers), and kept; nil when a word is not known or the marks do not
// read: then the text is read and analysed when the item is scored.
func (ix *Index) itemWords(it *item) *doc {
	t := ix.analysis(it)
	if t.doc != nil {
		return t.doc
	}
	marks := parseMarks(it.marks, len(it.terms))
	if marks == unknownMarks {
		return nil
	}
	d := &doc{terms: make([]term, len(it.terms)), total: it.total}
	for i, w := range it.terms {
		wi := ix.wordInfoOf(w)
		if wi == nil {
			return nil
		}
		d.terms[i] = term{wordInfo: wi}
		ix.lex.addSentence(d, wi)
	}
	marks.apply(d)
	t.doc = d
	return d
}

// wordInfoOf is the analysis of the index's word w: a loaded index's words
// are analysed (from its Vocabulary) only when first asked; nil when it is
// not known.
func (ix *Index) wordInfoOf(w int32) *wordInfo {
	if ix.infos[w] == nil {
		if int(w) >= len(ix.vocabAt) || ix.vocabAt[w] < 0 {
			return nil
		}
		ix.infos[w] = ix.loadedVocab.info(uint32(ix.vocabAt[w]))
	}
	return ix.infos[w]
}
