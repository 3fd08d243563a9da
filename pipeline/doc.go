// Package pipeline is the context curator of multi-agent pipelines
// (spec-writer → implementer → reviewer, …): at each handoff it validates the
// artifacts of the phase that ends, writes a filtered, chunked and
// token-budgeted context brief for the next agent, and keeps the pipeline
// state on disk, with drift detection for artifacts that change after they
// were validated.
//
// The package computes; it never prints and never commits. Each mode returns
// a Report whose Files the caller writes: Env.Writes lists those still to
// be written (secrets redacted, unchanged files left out), and the caller
// records them as one store run, or writes them atomically in a home folder
// outside any store.
package pipeline
