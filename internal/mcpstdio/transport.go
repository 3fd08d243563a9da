package mcpstdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine is the longest JSON-RPC message the server reads (a record is at
// most 1 MiB; its JSON escapes can make it a few times longer).
const maxLine = 16 << 20

// Transport is the server's stdio: one JSON-RPC message per line.
// Unlike a plain decoder it never ends the session on bad input, and it
// keeps the order of calls:
//
//   - a line that is not a JSON-RPC 2.0 message (not JSON, a batch array,
//     another version, an object as id, a NUL, too deep, too long) is
//     answered with a JSON-RPC error (-32700 parse error, or -32600 invalid
//     request, with the id when one can be read) and the server reads on;
//   - calls are handed to the server one at a time, each once the one before
//     it is answered, so writes a client pipelines are applied in the order
//     it sent them; notifications and responses are passed at once (a
//     cancellation reaches the call it cancels);
//   - at the end of input, every call already read is answered before the
//     session ends.
type Transport struct {
	in  io.Reader
	out io.Writer
}

// New is the transport that reads the messages from in and writes the
// answers to out.
func New(in io.Reader, out io.Writer) *Transport { return &Transport{in: in, out: out} }

// Connect starts reading in; it is the mcp.Transport of a server.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{out: t.out, changed: make(chan struct{}, 1), closed: make(chan struct{})}
	go c.readLines(t.in)
	return c, nil
}

type lineConn struct {
	mu       sync.Mutex
	out      io.Writer
	queue    []jsonrpc.Message
	inflight map[jsonrpc.ID]bool
	eof      error // why input ended, once it has
	changed  chan struct{}
	closed   chan struct{}
	once     sync.Once
}

// readLines reads input until it ends, queueing the messages and answering
// the lines that are not.
func (c *lineConn) readLines(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errTooLong) {
			msg, bad := decodeLine(line, err)
			c.mu.Lock()
			if bad != nil {
				c.writeLocked(bad)
			} else {
				c.queue = append(c.queue, msg)
			}
			c.mu.Unlock()
			c.signal()
		}
		if err != nil && !errors.Is(err, errTooLong) {
			c.mu.Lock()
			c.eof = err
			c.mu.Unlock()
			c.signal()
			return
		}
	}
}

var errTooLong = fmt.Errorf("message longer than %d MiB", maxLine>>20)

// readLine reads one line without its end; a line over maxLine is read to
// its end and dropped (errTooLong).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	long := false
	for {
		part, err := r.ReadSlice('\n')
		if !long && len(line)+len(part) > maxLine {
			long, line = true, nil
		}
		if !long {
			line = append(line, part...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long {
			return nil, errTooLong
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// decodeLine reads one line as a JSON-RPC message, or gives the error
// response it gets instead.
func decodeLine(line []byte, readErr error) (jsonrpc.Message, *jsonrpc.Response) {
	fail := func(id jsonrpc.ID, code int64, msg string) *jsonrpc.Response {
		return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}}
	}
	if errors.Is(readErr, errTooLong) {
		return nil, fail(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, readErr.Error())
	}
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		return nil, fail(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the line is not one JSON value")
	}
	if trimmed[0] == '[' {
		return nil, fail(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "batch requests are not supported: send one message per line")
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		id := jsonrpc.ID{}
		if json.Unmarshal(trimmed, &probe) == nil {
			if v, err := jsonrpc.MakeID(probe.ID); err == nil {
				id = v
			}
		}
		return nil, fail(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return msg, nil
}

func (c *lineConn) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// Read hands the server the next message: a notification or response at
// once, a call once no call is waiting for its answer; at the end of input,
// io.EOF once every call read is answered.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		busy := len(c.inflight) > 0
		for i, m := range c.queue {
			req, isReq := m.(*jsonrpc.Request)
			if isReq && req.IsCall() {
				if busy {
					continue
				}
				if c.inflight == nil {
					c.inflight = map[jsonrpc.ID]bool{}
				}
				c.inflight[req.ID] = true
			}
			c.queue = append(c.queue[:i], c.queue[i+1:]...)
			c.mu.Unlock()
			return m, nil
		}
		if c.eof != nil && len(c.queue) == 0 && !busy {
			err := c.eof
			c.mu.Unlock()
			return nil, err
		}
		c.mu.Unlock()
		select {
		case <-c.changed:
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if resp, ok := msg.(*jsonrpc.Response); ok && c.inflight[resp.ID] {
		delete(c.inflight, resp.ID)
		defer c.signal()
	}
	return c.writeLocked(msg)
}

func (c *lineConn) writeLocked(msg jsonrpc.Message) error {
	var data []byte
	var err error
	if resp, ok := msg.(*jsonrpc.Response); ok && !resp.ID.IsValid() && resp.Error != nil {
		// An error about a message whose id could not be read: JSON-RPC
		// says the id is null.
		data, err = json.Marshal(struct {
			Version string          `json:"jsonrpc"`
			ID      *int            `json:"id"`
			Error   json.RawMessage `json:"error"`
		}{"2.0", nil, mustJSON(resp.Error)})
	} else if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error == nil && len(resp.Result) > 0 && resp.ID.IsValid() &&
		bytes.IndexByte(resp.Result, '\n') < 0 {
		data, err = encodeResult(resp)
	} else {
		data, err = jsonrpc.EncodeMessage(msg)
	}
	if err != nil {
		return err
	}
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// encodeResult is jsonrpc.EncodeMessage of a result, with room for the
// line's end, written around the result as the server made it. The SDK
// makes a result by marshalling it, so it is compact JSON already, and
// EncodeMessage would only scan it again: at a page of 100 entries (about
// 90 kB with its text copy) that scan is a tenth of a call's time. A
// result holding a line end (not made by marshalling) goes through
// EncodeMessage, which compacts it onto one line.
func encodeResult(resp *jsonrpc.Response) ([]byte, error) {
	id, err := marshalNoEscape(resp.ID.Raw())
	if err != nil {
		return nil, err
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	data := make([]byte, 0, len(head)+len(id)+len(mid)+len(resp.Result)+2)
	data = append(append(append(append(data, head...), id...), mid...), resp.Result...)
	return append(data, '}'), nil
}

// marshalNoEscape is json.Marshal without HTML escaping, as the SDK
// encodes its messages.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{"code":-32603,"message":"internal error"}`)
	}
	return b
}
