// Package pipelinecmd is `curator pipeline`: the handoffs of multi-agent
// pipelines (transition, resume, refresh, restart, status, validate,
// reconstruct) and their dashboard. The rules and the use-cases live in
// package pipeline; each command here parses its flags into a request,
// calls one use-case in the home pipelinehome opens, and prints its report.
package pipelinecmd
