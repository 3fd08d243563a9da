// Package memory holds the rules of the hourly memory pass: inbox entries of
// one window are deduplicated, scored (0.4·proximity + 0.3·surprisal +
// 0.2·entity_priority + 0.1·unambiguity) and promoted to confirmed/<type>/ or
// moved to trash/. The plan is a pure function of the entries (PlanPass);
// Apply turns it into a changeset. The one-memory edits (Add, Update,
// Delete, Undelete), emptying the trash (Purge) and drawing rules
// (PromoteRule) each build the store run that records them. Nothing here
// prints or commits.
package memory
