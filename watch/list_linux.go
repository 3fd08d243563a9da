package watch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// listFolder calls found for each subfolder of the folder p, and with all
// for each of its other entries too. It reads the system's directory
// records itself: a memory folder holds a hundred thousand files, and only
// its subfolders need a name when nothing is reported.
func listFolder(p string, all bool, found func(name string, folder bool)) error {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "readdirent", Path: p, Err: err}
		}
		if n <= 0 {
			return nil
		}
		// Each record: inode (8 bytes), offset (8), length (2), type (1),
		// the name ended by a zero byte.
		for b := buf[:n]; len(b) > 0; {
			const head = 19
			size := 0
			if len(b) >= head {
				size = int(binary.NativeEndian.Uint16(b[16:18]))
			}
			if size < head || size > len(b) {
				return &fs.PathError{Op: "readdirent", Path: p, Err: errors.New("malformed directory record")}
			}
			ino, typ, name := binary.NativeEndian.Uint64(b), b[18], b[head:size]
			b = b[size:]
			if ino == 0 { // a removed entry, as Go's own reader skips it
				continue
			}
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if string(name) == "." || string(name) == ".." {
				continue
			}
			switch typ {
			case unix.DT_DIR:
				found(string(name), true)
			case unix.DT_UNKNOWN: // the file system does not say: ask
				fi, err := os.Lstat(filepath.Join(p, string(name)))
				if folder := err == nil && fi.IsDir(); folder || all {
					found(string(name), folder)
				}
			default:
				if all {
					found(string(name), false)
				}
			}
		}
	}
}
