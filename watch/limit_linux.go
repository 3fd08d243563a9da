package watch

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// isLimit says whether err is the system refusing more watches: inotify
// returns ENOSPC when fs.inotify.max_user_watches is reached, and EMFILE
// when fs.inotify.max_user_instances (or the open-file limit) is.
func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

// limitMessage says which limit was reached, that the Watcher polls
// instead, and how to raise the limit.
func limitMessage(cause error, watched int, every time.Duration) string {
	if errors.Is(cause, syscall.EMFILE) {
		return fmt.Sprintf("the inotify instance limit (fs.inotify.max_user_instances = %s) "+
			"or the open-file limit is reached, so changes are found by polling every %s instead; "+
			"raise it with `sudo sysctl fs.inotify.max_user_instances=1024` "+
			"(and a line in /etc/sysctl.d/ to keep it)",
			procValue("max_user_instances"), every)
	}
	return fmt.Sprintf("the inotify watch limit (fs.inotify.max_user_watches = %s) is reached "+
		"after %d folders, so changes are found by polling every %s instead; "+
		"raise it with `sudo sysctl fs.inotify.max_user_watches=524288` "+
		"(and a line in /etc/sysctl.d/ to keep it)",
		procValue("max_user_watches"), watched, every)
}

// overflowHint names the queue's size setting.
func overflowHint() string {
	return fmt.Sprintf(" (fs.inotify.max_queued_events = %s)", procValue("max_queued_events"))
}

// procValue reads one inotify setting from /proc/sys/fs/inotify.
func procValue(name string) string {
	b, err := os.ReadFile("/proc/sys/fs/inotify/" + name)
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}
