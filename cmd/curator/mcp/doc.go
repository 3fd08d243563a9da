// Package mcpcmd is `curator mcp`: a Model Context Protocol server on
// stdio through which agents use the store directly. Its memory tools have
// the names and parameters the memory-curate procedure calls
// (list_entries, update_long_term, delete_memory, …); the playbook and
// pipeline tools, the records as resources and the curation prompt are
// served beside them.
// Every tool runs the same code as the matching command (the playbook
// tools call the playbook's use-cases, as the context commands do), under
// the store's lock, one commit per mutating call. A tool's arguments
// become the use-case's request (some tools take the request as it is),
// whose checks refuse what the command refuses, with the same message after
// "invalid arguments: " (review_queue's decision and inject_playbook's
// empty for too); a tool checks only a resource URI's shape, and the
// files of the resources are read by the store and the pipeline home.
package mcpcmd
