// Package dashboard renders a pipeline's state as one self-contained HTML
// page (no external assets): phases and their status, where the pipeline
// stands, artifacts with validation and drift, the brief's token budget,
// blockers and warnings. Every text is escaped.
package dashboard
