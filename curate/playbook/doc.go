// Package playbook holds the ACE playbook rules: reflections are curated into
// bullets (new, reinforce, versioned merge, archive) with a merge log, and
// the playbook is queried, injected into CLAUDE.md, imported and exported.
// Each rule set is a pure plan (bullets and reflections in, actions out);
// Playbook.Changes turns the actions into a changeset. Nothing here prints
// or commits. The rules and thresholds are written up in ../CONTEXT.md.
package playbook
