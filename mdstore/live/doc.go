// Package live is the live memory listing of a long-running process (the
// MCP server's list_entries): every memory record's fields held in memory
// and kept current from the file system's notifications, so that a
// windowed listing answers what mdstore's ListMemories answers without
// reading or stating the store (see Memories).
//
// It follows the memory folders with package watch's Watcher, as curator
// watch does, run without debounce: each batch of changed paths marks the
// files and folders to read again, and the Watcher's Sync is the barrier
// that puts every change completed before List in its answer. Lost events
// (an overflow of the system's queue) make the next List read every file
// again; a memory folder that cannot be watched, or the inotify limit
// (where the Watcher would poll), makes the listing ListMemories itself.
package live
