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
// next batch says Rescan; a folder that cannot be watched for another
// reason is a NoticeUnwatched; when the system refuses more watches (the inotify
// watch or instance limit, or too many open files), the Watcher switches to
// polling, sends a Notice saying so and how to raise the limit, and sends a
// Rescan batch. Polling (Options.Poll, for network file systems) compares a
// snapshot of size, modification time, mode and inode of every file and
// folder at each tick.
//
// Sync is an ordered barrier: it returns once every change made in the
// watched trees before it was called has been handed over. With inotify
// it renames a marker file in a folder of the Watcher's own (made in the
// system's temporary folder at the first Sync, removed when the Watcher
// ends) and waits for that rename's event, which inotify queues after the
// events of every earlier change; polling scans at once; after lost events
// the Rescan batch counts. A consumer that keeps its own state (the MCP
// server's live memory listing) runs the Watcher with RunFunc, which hands
// each batch to a function in the order the changes were read, with
// NoDebounce so that nothing waits for a quiet time, and calls Sync
// before it answers.
//
// While nothing changes, a Watcher on notifications costs nothing: no timer
// runs until an event arrives.
package watch
