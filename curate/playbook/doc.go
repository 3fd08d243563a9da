// Package playbook holds the ACE playbook rules: reflections are curated into
// bullets (new, reinforce, versioned merge, archive) with a merge log, and
// the playbook is queried, injected into CLAUDE.md, imported and exported.
// Each rule set is a pure plan (bullets and reflections in, actions out);
// Playbook.Changes turns the actions into a changeset. The use-cases
// (Curate, Reflect, Apply, Review, Query, Statistics, Prompt, InjectFile,
// Import, Export) take a typed request, check it, resolve the settings,
// save the run under the store's lock and return the report that
// `curator context … --json` prints; the commands, the MCP server and
// watch call them. Nothing here prints. The rules and thresholds are written up in ../CONTEXT.md.
package playbook
