// Package watchcmd is `curator watch`: the mode that runs beside agents.
// It follows pipeline artifacts (drift recorded the moment it happens, the
// dashboard rendered again and pushed to open pages), the memory inbox
// (a debounced memory pass) and pending reflections (a debounced context
// curation), each change saved as one run under the store's lock.
package watchcmd
