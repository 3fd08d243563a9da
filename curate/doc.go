// Package curate holds curator's rules: the memory pass that dedups, scores
// and promotes or trashes inbox entries, and the playbook (ACE) curation of
// reflections into bullets. Each rule set is a pure plan (records in,
// actions out) and an apply step that turns the actions into a changeset.
package curate
