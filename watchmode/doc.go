// Package watchmode is what `curator watch` does beside agents: it follows
// pipeline artifacts (drift recorded the moment it happens, the dashboard
// rendered again and pushed to open pages), the memory inbox (a debounced
// memory pass) and pending reflections (a debounced context curation),
// routing each settled batch of file events to its run, each change saved
// as one run under the store's lock, and reports what it did as events.
package watchmode
