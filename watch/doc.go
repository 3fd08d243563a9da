// Package watch reports changes under folder trees as settled batches of
// paths.
//
// A Watcher watches each tree it is given recursively. With the system's
// file notifications (inotify, kqueue, ReadDirectoryChangesW through
// fsnotify) every folder gets its own watch: folders created later are
// watched as they appear and their contents reported, so a file written
// before its folder's watch existed is not missed; removed folders are
// dropped. Events are gathered into a Batch that settles after a quiet time
// (Debounce) or, when changes keep coming, after MaxDelay, so an editor's
// save (write a temporary file, rename it over, chmod) is one batch.
//
// A root need not exist: a root not made yet, or removed (rm -rf, or a
// checkout that makes it again), is waited for, and once it is a folder
// again it is watched and reported with everything already in it, as a
// folder created under a root is. With notifications the nearest existing
// folder above it is watched alone to see it come; nothing else there is
// reported.
//
// Nothing is lost silently: when the system's event queue overflows, the
// next batch says Rescan; when the system refuses more watches (the inotify
// watch or instance limit, or too many open files), the Watcher switches to
// polling, sends a Notice saying so and how to raise the limit, and sends a
// Rescan batch. Polling (Options.Poll, for network file systems) compares a
// snapshot of size, modification time, mode and inode of every file and
// folder at each tick.
//
// While nothing changes, a Watcher on notifications costs nothing: no timer
// runs until an event arrives.
package watch
