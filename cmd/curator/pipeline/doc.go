// Package pipelinecmd is `curator pipeline`: the handoffs of multi-agent
// pipelines (transition, resume, refresh, restart, status, validate,
// reconstruct) and their dashboard. The rules live in package pipeline;
// each command here parses its flags, runs one mode, saves the files the
// mode returns and prints its report.
package pipelinecmd
