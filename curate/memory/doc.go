// Package memory holds the rules of the hourly memory pass: inbox entries of
// one window are deduplicated, scored (0.4·proximity + 0.3·surprisal +
// 0.2·entity_priority + 0.1·unambiguity) and promoted to confirmed/<type>/ or
// moved to trash/. The plan is a pure function of the entries (PlanPass);
// Apply turns it into a changeset. The one-memory edits (PlanAdd,
// PlanUpdate, PlanDelete, PlanRestore), emptying the trash (PlanPurge) and
// drawing rules (PlanRule) each build the store run that records them.
//
// The operations of `curator memory …` are use-cases here, one function
// each from a typed request to a typed report (Add, List, Show, Update,
// Delete, Restore, Curate, PromoteRule, PurgeTrash): the command line, the
// MCP tools and watch call the same function, which checks the request
// (refuse.Request), refuses secrets and blocked edits (refuse.Blocked) and
// saves in the caller's store transaction. Nothing here prints.
package memory
