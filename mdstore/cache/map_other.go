//go:build !unix

package cache

import "os"

// mapFile reads a file (mapped on unix).
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }
