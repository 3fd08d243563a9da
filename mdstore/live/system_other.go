//go:build !linux

package live

import "os"

// liveOrdered: kqueue and ReadDirectoryChangesW do not keep the order of
// changes across folders, which the live listing's barrier needs; it
// lists with ListMemories instead.
const liveOrdered = false

func hardLinked(os.FileInfo) bool { return false }

func remoteFS(string) (string, bool) { return "", false }
