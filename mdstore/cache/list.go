package cache

import (
	"strings"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
)

// ListMemories returns the memories that match q, ordered by
// (ingestion_time, id), with every unreadable file reported.
func ListMemories(s *mdstore.Store, q mdstore.MemoryQuery) (*mdstore.MemoryList, error) {
	res := &mdstore.MemoryList{}
	folders := mdstore.MemoryFolders(q.Status, q.Type)
	outside := func(m mdstore.MemorySummary) bool {
		at := m.IngestionTime
		return (q.Type != "" && m.Type != q.Type) || (!q.From.IsZero() && at.Before(q.From)) || (!q.To.IsZero() && !at.Before(q.To)) ||
			(q.Match != nil && !q.Match(m))
	}
	var rels []string
	var up *indexUpdate
	if q.Type != "" || !q.From.IsZero() || !q.To.IsZero() || q.Match != nil {
		// With a filter, the memory index skips files known to lie outside it.
		var err error
		known := func(r indexRecord, _ *filestat.Stat) bool { return outside(r.summary()) }
		if rels, up, err = indexedFiles(s, folders, known); err != nil {
			return nil, err
		}
	} else {
		for _, dir := range folders {
			names, err := mdstore.RecordNames(s.Path(dir))
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				rels = append(rels, dir+"/"+n)
			}
		}
	}
	var all []*mdstore.Memory
	read := s.ReadMemories(rels, q.Light, q.Progress, q.Secrets)
	for i, r := range read {
		if r.Err != nil {
			res.Invalid = append(res.Invalid, mdstore.InvalidFileOf(rels[i], r.Err))
			continue
		}
		m := r.Memory
		if up != nil {
			up.add(i, m)
		}
		if outside(m.Summary(s.DedupPrefix())) {
			continue
		}
		all = append(all, m)
	}
	if up != nil {
		if q.DeferIndex {
			s.QueueCache(memoryIndexDir+"/"+strings.Join(folders, ","), func() { up.save(s) })
		} else {
			up.save(s)
		}
	}
	mdstore.SortMemories(all)
	res.Total = len(all)
	if q.Offset > 0 {
		if q.Offset >= len(all) {
			all = nil
		} else {
			all = all[q.Offset:]
		}
	}
	if q.Limit > 0 && len(all) > q.Limit {
		all = all[:q.Limit]
	}
	res.Memories = all
	return res, nil
}
