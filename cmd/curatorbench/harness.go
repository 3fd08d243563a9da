package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// measurement is one timed command.
type measurement struct {
	Wall   time.Duration
	CPU    time.Duration // user + system time of the child process
	MaxRSS int64         // bytes, of the child process
	Stderr string
}

var peakRSS = regexp.MustCompile(`curator: peak RSS (\d+) kB\n`)

// timeCmd runs a command and returns its wall time and peak RSS.
func timeCmd(dir string, env []string, name string, args ...string) (measurement, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CURATOR_PEAK_RSS=1"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		return measurement{}, fmt.Errorf("%s %v: %v\n%s%s", name, args, err, out, stderr.Bytes())
	}
	m := measurement{Wall: wall, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), Stderr: stderr.String()}
	// curator reports its own peak (VmHWM); the rusage of a child started
	// by os/exec also counts this process's memory at the time of the start.
	if p := peakRSS.FindStringSubmatch(m.Stderr); p != nil {
		kb, _ := strconv.ParseInt(p[1], 10, 64)
		m.MaxRSS = kb * 1024
		m.Stderr = strings.Replace(m.Stderr, p[0], "", 1)
	} else {
		m.MaxRSS = childMaxRSS(cmd.ProcessState)
	}
	return m, nil
}

// catFloor reads every file under dir with cat (batched by xargs): the floor
// that curator's own reading is compared with.
func catFloor(dir string) (measurement, error) {
	// Warm the page cache first so both sides read from memory.
	if _, err := timeCmd(dir, nil, "sh", "-c", "find . -name '*.md' -print0 | xargs -0 cat > /dev/null"); err != nil {
		return measurement{}, err
	}
	return timeCmd(dir, nil, "sh", "-c", "find . -name '*.md' -print0 | xargs -0 cat > /dev/null")
}

// curatorBinary builds cmd/curator into tmp unless --curator names one.
func curatorBinary(given, tmp string) (string, error) {
	if given != "" {
		return filepath.Abs(given)
	}
	out := filepath.Join(tmp, "curator")
	cmd := exec.Command("go", "build", "-o", out, "github.com/curator-dev/curator/cmd/curator")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building curator: %w", err)
	}
	return out, nil
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// benchFolder makes the temporary folder of one benchmark and finds (or
// builds) the curator binary in it; done removes the folder unless keep.
func benchFolder(name string, keep bool, bin string, stdout io.Writer) (tmp, curator string, done func(), err error) {
	tmp, err = os.MkdirTemp("", "curatorbench-"+name+"-")
	if err != nil {
		return "", "", nil, err
	}
	done = func() { os.RemoveAll(tmp) }
	if keep {
		fmt.Fprintln(stdout, "folder:", tmp)
		done = func() {}
	}
	if curator, err = curatorBinary(bin, tmp); err != nil {
		done()
		return "", "", nil, err
	}
	return tmp, curator, done, nil
}
