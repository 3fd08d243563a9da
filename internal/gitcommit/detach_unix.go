//go:build unix

package gitcommit

import "syscall"

// detached runs a background git in its own session: a terminal's
// interrupt or hang-up that ends curator does not end it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
