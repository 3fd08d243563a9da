package mdstore

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
)

// fileStat is one record file of a folder and what a stat said of it.
type fileStat struct {
	name        string
	size, mtime int64 // mtime in nanoseconds
	regular     bool  // a regular file that could be stated
	indexed     bool  // the memory index holds its current entry
}

// scanBatch is how many names a folder scan reads at a time.
const scanBatch = 2048

// scanFolder lists the record files (*.md, not hidden) of a folder, in no
// particular order, and stats each one without following symlinks. The
// names are read in batches that are stated on the other cores while the
// next batch is read, and each stat is relative to the open folder (one
// path lookup per file, not one per component: on a folder of 60,000
// files a quarter of the cost of os.Lstat). A missing folder is empty.
func scanFolder(dir string) ([]fileStat, error) {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fd := int(f.Fd())
	batches := make(chan []string, 8)
	var readErr error
	go func() {
		defer close(batches)
		for {
			names, err := f.Readdirnames(scanBatch)
			if len(names) > 0 {
				batches <- names
			}
			if err != nil {
				if err != io.EOF {
					readErr = err
				}
				return
			}
		}
	}()
	workers := runtime.GOMAXPROCS(0)
	found := make([][]fileStat, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for names := range batches {
				for _, n := range names {
					if strings.HasSuffix(n, ".md") && !strings.HasPrefix(n, ".") {
						fs := fileStat{name: n}
						statAt(fd, dir, &fs)
						found[w] = append(found[w], fs)
					}
				}
			}
		}()
	}
	wg.Wait()
	if readErr != nil {
		return nil, readErr
	}
	var out []fileStat
	for _, fs := range found {
		out = append(out, fs...)
	}
	return out, nil
}
