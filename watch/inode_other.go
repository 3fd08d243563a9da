//go:build !unix

package watch

import "io/fs"

// inode is 0: file information here carries no inode number.
func inode(fs.FileInfo) uint64 { return 0 }
