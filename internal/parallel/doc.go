// Package parallel runs the per-record work of a large run (reading,
// stating, editing thousands of files) on all cores.
package parallel
