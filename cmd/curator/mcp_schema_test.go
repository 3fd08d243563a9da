package main

import (
	"context"
	"encoding/json"
	"testing"
)

// The tools whose arguments are the memory use-cases' own requests show
// clients the schema they always had: the same names, descriptions and
// required fields, and nothing of what the server adds (the save options).
func TestMCPRequestSchemas(t *testing.T) {
	cs := mcpSession(t, memoryStore(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"get_memory":      `{"additionalProperties":false,"properties":{"id":{"description":"the memory's id","type":"string"}},"required":["id"],"type":"object"}`,
		"restore_memory":  `{"additionalProperties":false,"properties":{"id":{"description":"the memory's id","type":"string"}},"required":["id"],"type":"object"}`,
		"delete_memory":   `{"additionalProperties":false,"properties":{"id":{"description":"the memory's id","type":"string"},"reason":{"description":"why, recorded as trashed.reason (default: deleted)","type":"string"}},"required":["id"],"type":"object"}`,
		"promote_to_rule": `{"additionalProperties":false,"properties":{"author":{"type":"string"},"scenario":{"description":"the scenario whose lesson cases (at least 3 distinct) make the rule","type":"string"}},"required":["scenario"],"type":"object"}`,
	}
	for _, tl := range res.Tools {
		w, ok := want[tl.Name]
		if !ok {
			continue
		}
		delete(want, tl.Name)
		raw, _ := json.Marshal(tl.InputSchema)
		var got, exp any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(w), &exp); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(exp)
		if string(g) != string(e) {
			t.Errorf("%s: schema %s\nwant %s", tl.Name, g, e)
		}
	}
	for name := range want {
		t.Errorf("no tool %s", name)
	}
}
