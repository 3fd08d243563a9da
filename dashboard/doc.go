// Package dashboard renders a pipeline's state as one self-contained HTML
// page (no external assets): phases and their status, where the pipeline
// stands, artifacts with validation and drift, the brief's token budget,
// blockers and warnings. Every text is escaped.
//
// Live serves the pages of several projects over HTTP and pushes updates
// to open pages by server-sent events; a served page loads one small
// script, live.js, and takes in the new page without a reload. Pages
// written to disk carry no script. CheckServeAddr keeps the server on
// this machine unless remote access is asked for.
package dashboard
