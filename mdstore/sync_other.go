//go:build !linux

package mdstore

import "syscall"

func syncAll(string) error {
	syscall.Sync()
	return nil
}
