package agentsetup

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// mustMerge merges curator's server and checks that the result is JSON
// holding the entry, and that merging again changes nothing.
func mustMerge(t *testing.T, in string) (string, mergeResult) {
	t.Helper()
	out, res, err := mergeServer([]byte(in), "curator", curatorServer)
	if err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, out)
	}
	if res != serverOther && !sameServer(doc.MCPServers["curator"], curatorServer) {
		t.Errorf("no curator entry in\n%s", out)
	}
	again, res2, err := mergeServer(out, "curator", curatorServer)
	if err != nil || string(again) != string(out) || (res2 != serverSame && res2 != serverOther) {
		t.Errorf("merging again: %v %v\n%s\nthen\n%s", res2, err, out, again)
	}
	return string(out), res
}

func TestMergeServerKeepsTheRest(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"new file", "", `{
  "mcpServers": {
    "curator": {
      "command": "curator",
      "args": [
        "mcp"
      ]
    }
  }
}
`},
		{"empty object", "{}\n", `{
  "mcpServers": {
    "curator": {
      "command": "curator",
      "args": [
        "mcp"
      ]
    }
  }
}
`},
		{"order and nested keys kept, tabs", "{\n\t\"z\": {\"deep\": {\"k\": [1, 2, {\"x\": null}]}},\n\t\"mcpServers\": {\n\t\t\"other\": {\n\t\t\t\"command\": \"x\",\n\t\t\t\"env\": {\"B\": \"2\", \"A\": \"1\"}\n\t\t}\n\t},\n\t\"a\": true\n}\n",
			"{\n\t\"z\": {\"deep\": {\"k\": [1, 2, {\"x\": null}]}},\n\t\"mcpServers\": {\n\t\t\"other\": {\n\t\t\t\"command\": \"x\",\n\t\t\t\"env\": {\"B\": \"2\", \"A\": \"1\"}\n\t\t},\n\t\t\"curator\": {\n\t\t\t\"command\": \"curator\",\n\t\t\t\"args\": [\n\t\t\t\t\"mcp\"\n\t\t\t]\n\t\t}\n\t},\n\t\"a\": true\n}\n"},
		{"no mcpServers, four spaces", "{\n    \"b\": 1,\n    \"a\": \"}{\\\" tricky\"\n}",
			"{\n    \"b\": 1,\n    \"a\": \"}{\\\" tricky\",\n    \"mcpServers\": {\n        \"curator\": {\n            \"command\": \"curator\",\n            \"args\": [\n                \"mcp\"\n            ]\n        }\n    }\n}"},
		{"empty mcpServers", "{\n  \"a\": 1,\n  \"mcpServers\": {}\n}\n",
			"{\n  \"a\": 1,\n  \"mcpServers\": {\n    \"curator\": {\n      \"command\": \"curator\",\n      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n"},
		{"one line", `{"x":1,"mcpServers":{"o":{"command":"o"}}}`,
			`{"x":1,"mcpServers":{"o":{"command":"o"},"curator":{"command":"curator","args":["mcp"]}}}`},
		{"one line, spaced", `{"x": 1}`, `{"x": 1, "mcpServers": {"curator": {"command": "curator", "args": ["mcp"]}}}`},
		{"CRLF", "{\r\n  \"x\": 1\r\n}\r\n",
			"{\r\n  \"x\": 1,\r\n  \"mcpServers\": {\r\n    \"curator\": {\r\n      \"command\": \"curator\",\r\n      \"args\": [\r\n        \"mcp\"\r\n      ]\r\n    }\r\n  }\r\n}\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, res := mustMerge(t, tc.in)
			if res != serverAdded {
				t.Errorf("result %v, want added", res)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestMergeServerKeepsValues(t *testing.T) {
	in := `{"b": {"x": [1, {"y": "z"}]}, "mcpServers": {"s": {"command": "s", "args": ["-v"], "env": {"K": "V"}}}, "a": 2.50}`
	out, _ := mustMerge(t, in)
	var before, after map[string]any
	if err := json.Unmarshal([]byte(in), &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &after); err != nil {
		t.Fatal(err)
	}
	delete(after["mcpServers"].(map[string]any), "curator")
	if !reflect.DeepEqual(before, after) {
		t.Errorf("values changed:\n%v\n%v", before, after)
	}
	if !strings.HasPrefix(out, `{"b": {"x": [1, {"y": "z"}]}, "mcpServers": {"s": {"command": "s", "args": ["-v"], "env": {"K": "V"}}, "curator"`) ||
		!strings.HasSuffix(out, `, "a": 2.50}`) {
		t.Errorf("order or bytes of the other keys changed:\n%s", out)
	}
}

func TestMergeServerExistingEntry(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want mergeResult
	}{
		{`{"mcpServers": {"curator": {"command": "curator", "args": ["mcp"]}}}`, serverSame},
		{`{"mcpServers": {"curator": {"args": ["mcp"], "command": "curator"}}}`, serverSame},
		{`{"mcpServers": {"curator": {"type": "stdio", "command": "curator", "args": ["mcp"], "env": {}}}}`, serverSame},
		{`{"mcpServers": {"curator": {"command": "/opt/bin/curator", "args": ["mcp"]}}}`, serverOther},
		{`{"mcpServers": {"curator": {"command": "curator", "args": ["mcp", "--store", "x"]}}}`, serverOther},
		{`{"mcpServers": {"curator": {"command": "curator", "args": ["mcp"], "env": {"CURATOR_STORE": "x"}}}}`, serverOther},
		{`{"mcpServers": {"curator": "curator mcp"}}`, serverOther},
	} {
		out, res, err := mergeServer([]byte(tc.in), "curator", curatorServer)
		if err != nil || res != tc.want || string(out) != tc.in {
			t.Errorf("%s: %v %v, want %v and the bytes unchanged; got\n%s", tc.in, res, err, tc.want, out)
		}
	}
}

func TestMergeServerErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"{\n  \"a\": 1,\n  \"b\": \n}\n", 4, "invalid character"},
		{"{\n  \"a\": 1\n", 3, "unexpected end"},
		{"\n[1]", 2, "not a JSON object"},
		{"{\n\"mcpServers\":\n  [\"curator\"]}", 3, "mcpServers is not a JSON object"},
		{"{\"mcpServers\": null}", 1, "mcpServers is not a JSON object"},
	} {
		_, _, err := mergeServer([]byte(tc.in), "curator", curatorServer)
		var je *jsonError
		if !errors.As(err, &je) || je.Line != tc.line || !strings.Contains(je.Msg, tc.msg) {
			t.Errorf("%q: %v, want line %d: %s", tc.in, err, tc.line, tc.msg)
		}
	}
}
