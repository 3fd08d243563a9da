// Package contextcmd is `curator context`: the ACE playbook. Agents store
// reflections with `reflect`; `curate` merges them into bullets; `prompt`
// and `apply` let an LLM curate; `review`, `query`, `stats`, `inject`,
// `import` and `export` work with the bullets.
package contextcmd
