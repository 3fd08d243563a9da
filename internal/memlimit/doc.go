// Package memlimit keeps a process's soft memory limit in step with the
// memory it really holds: at least a floor, and half again the live heap of
// the last garbage collection, so a run that holds little stays small and a run
// that holds much is not collected over and over.
package memlimit
