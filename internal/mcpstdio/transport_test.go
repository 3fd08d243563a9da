package mcpstdio

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A result is written exactly as the SDK's own encoder writes it.
func TestResultLineAsTheSDKEncodesIt(t *testing.T) {
	results := []any{
		map[string]any{"entries": []any{map[string]any{"brief": "a <b> & \"c\"\n\u2028é", "score": 0.25}}, "total": 1},
		map[string]any{},
		[]int{1, 2},
		"text",
	}
	ids := []any{float64(1), float64(-7), float64(1 << 53), "abc", "<id & \"quoted\">", "é\u2028"}
	for _, id := range ids {
		for _, r := range results {
			jid, err := jsonrpc.MakeID(id)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := marshalNoEscape(r)
			if err != nil {
				t.Fatal(err)
			}
			resp := &jsonrpc.Response{ID: jid, Result: raw}
			want, err := jsonrpc.EncodeMessage(resp)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			c := &lineConn{out: &out}
			if err := c.writeLocked(resp); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want)+"\n" {
				t.Errorf("id %v, result %s:\n got %s\nwant %s", id, raw, got, want)
			}
			if !json.Valid(bytes.TrimSpace(out.Bytes())) {
				t.Errorf("not JSON: %s", out.Bytes())
			}
		}
	}
}

// A result that is not compact (not made by the SDK's marshalling) is
// still written on one line.
func TestResultWithLineEndsOnOneLine(t *testing.T) {
	jid, err := jsonrpc.MakeID("x")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := &lineConn{out: &out}
	if err := c.writeLocked(&jsonrpc.Response{ID: jid, Result: json.RawMessage("{\n  \"a\": 1\n}\n")}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), `{"jsonrpc":"2.0","id":"x","result":{"a":1}}`+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
