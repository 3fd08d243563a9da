// Package live is the live memory listing of a long-running process (the
// MCP server's list_entries): every memory record's fields held in memory
// and kept current from the file system's notifications, so that a
// windowed listing answers what mdstore's ListMemories answers without
// reading or stating the store (see Memories).
//
// It follows the memory folders with its own fsnotify watcher rather than
// package watch's: the listing needs a barrier (every change that completed
// before List is in its answer), which rests on one inotify queue keeping
// the order of the changes, where watch debounces changes into batches.
package live
