package mdstore

import "fmt"

// UniqueIDs leaves out every bullet whose id another file of the
// playbook also has (two categories, or bullets/ and archive/), and
// reports each of those files: which one is the bullet is not for a run to
// guess, so neither is read, scored or written until one is renamed.
// items are sorted by id; shared are the ids left out.
func UniqueIDs[T any](items []T, id, path func(T) string) (kept []T, bad []*InvalidFile, shared []string) {
	kept = items[:0:0]
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && id(items[j]) == id(items[i]) {
			j++
		}
		if j == i+1 {
			kept = append(kept, items[i])
		} else {
			shared = append(shared, id(items[i]))
		}
		for k := i; k < j && j > i+1; k++ {
			other := path(items[i])
			if k == i {
				other = path(items[i+1])
			}
			bad = append(bad, &InvalidFile{Path: path(items[k]), Msg: fmt.Sprintf(
				"id %s is also the id of %s: an id names one bullet; rename one of them (both are left untouched)", id(items[k]), other)})
		}
		i = j
	}
	return kept, bad, shared
}
