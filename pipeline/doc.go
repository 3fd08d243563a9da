// Package pipeline is the context curator of multi-agent pipelines
// (spec-writer → implementer → reviewer, …): at each handoff it validates the
// artifacts of the phase that ends, writes a filtered, chunked and
// token-budgeted context brief for the next agent, and keeps the pipeline
// state on disk, with drift detection for artifacts that change after they
// were validated.
//
// The package computes; it never prints and never commits. Its use-cases
// (Transition, Resume, Reconstruct, Validate, Status, Refresh, Restart,
// Hold, Continue, Skip, Dashboard, RecordDrift) take a typed request and
// return a typed report; those that write hand the files still to be
// written (secrets redacted, unchanged files left out) to a Saver, which
// records them as one store run, or writes them atomically in a home
// folder outside any store (package pipelinehome has both).
package pipeline
