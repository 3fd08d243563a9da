//go:build !unix && !windows

package gitcommit

import "syscall"

// detached has no way to detach a process here.
func detached() *syscall.SysProcAttr { return nil }
