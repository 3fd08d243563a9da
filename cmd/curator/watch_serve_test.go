package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// The served dashboard answers only requests for its own host (no DNS
// rebinding), and a flood of open connections cannot take the files the
// watcher needs.
func TestWatchServeAnswersOnlyItsOwnHost(t *testing.T) {
	dir, _ := pipelineStore(t)
	w, started := startWatch(t, dir, "--pipelines", "--project", "shop", "--serve", "127.0.0.1:0")
	url := started.URL
	get := func(host, path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", url+strings.TrimPrefix(path, "/"), nil)
		req.Host = host
		c := &http.Client{Timeout: 10 * time.Second}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("GET %s (Host %s): %v", path, host, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return resp.StatusCode, string(b)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	for _, host := range []string{"evil.example", "evil.example:" + addr[strings.LastIndex(addr, ":")+1:]} {
		for _, path := range []string{"/", "/events"} {
			if code, body := get(host, path); code != http.StatusMisdirectedRequest {
				t.Errorf("Host %s %s: %d, want 421:\n%.200s", host, path, code, body)
			}
		}
	}
	if code, _ := get(addr, "/"); code != 200 {
		t.Errorf("Host %s: %d, want 200", addr, code)
	}
	if code, _ := get("localhost", "/"); code != 200 {
		t.Errorf("Host localhost: %d, want 200", code)
	}

	// 2,000 connections opened and left open: curator keeps at most a few
	// hundred files open, and the watcher still works.
	var conns []net.Conn
	for i := 0; i < 2000; i++ {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			break
		}
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	time.Sleep(500 * time.Millisecond)
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", w.cmd.Process.Pid))
	if err == nil && len(fds) > 400 {
		t.Errorf("watch holds %d open files with %d connections open", len(fds), len(conns))
	}
	t.Logf("%d connections open, watch holds %d files", len(conns), len(fds))
}
