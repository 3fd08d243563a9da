package gitcommit

// lockHook, when set, is called as soon as a lock file this process
// creates exists at its path (see SetLockHook).
var lockHook func(path string)

// SetLockHook sets a function called as soon as each git lock file that
// curator creates exists at its path, before anything else happens: crash
// tests kill the process there. It is set once, before any commit.
func SetLockHook(fn func(path string)) { lockHook = fn }
