// Package mcpstdio is the MCP server's stdio transport: one JSON-RPC
// message a line, robust to bad lines (each answered with a JSON-RPC error,
// the session goes on), calls served one at a time in the order they came,
// and every call read answered before the session ends.
package mcpstdio
