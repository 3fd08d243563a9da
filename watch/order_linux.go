package watch

// ordered: inotify queues the events of all of a watcher's folders in the
// order the changes happen, which Sync's marker needs.
const ordered = true
