// Package pipelinehome opens a pipeline home — the store's pipelines/
// folder, or a folder given with --home — for the pipeline's use-cases,
// and saves what they write there: inside a store as one run of its
// transaction (one commit; the state backups git-ignored, written beside
// it and never committed), in a folder outside every store as atomic
// files in their order (the backups before the state they back up), with
// no commit.
package pipelinehome
