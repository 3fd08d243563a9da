// Package auditcmd is `curator audit`: the check of a store's git history
// that every change to the playbook's bullets was made by a curator run
// and logged, and that the merge log was only ever appended to; usable in
// CI and in a server's pre-receive hook.
package auditcmd
