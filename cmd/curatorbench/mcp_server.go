package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpServer is a `curator mcp` process the benchmarks call through the MCP
// Go SDK's client over stdio.
type mcpServer struct {
	cs      *mcp.ClientSession
	stderr  bytes.Buffer
	connect time.Duration // from starting the process to an initialized session
}

// startMCP starts `curator mcp` in dir (its environment: this process's,
// CURATOR_PEAK_RSS=1, then env) and connects one client session to it.
func startMCP(ctx context.Context, curator, dir string, env ...string) (*mcpServer, error) {
	s := &mcpServer{}
	cmd := exec.Command(curator, "mcp")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CURATOR_PEAK_RSS=1"), env...)
	cmd.Stderr = &s.stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "curatorbench", Version: "1"}, nil)
	start := time.Now()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("curator mcp: %w\n%s", err, s.stderr.Bytes())
	}
	s.cs, s.connect = cs, time.Since(start)
	return s, nil
}

// close ends the session and the process, and returns the peak RSS the
// server reported (0: none).
func (s *mcpServer) close() (int64, error) {
	if err := s.cs.Close(); err != nil {
		return 0, fmt.Errorf("curator mcp: %w\n%s", err, s.stderr.Bytes())
	}
	if p := peakRSS.FindSubmatch(s.stderr.Bytes()); p != nil {
		kb, _ := strconv.ParseInt(string(p[1]), 10, 64)
		return kb * 1024, nil
	}
	return 0, nil
}
