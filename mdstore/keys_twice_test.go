package mdstore

import (
	"runtime"
	"strings"
	"testing"
)

// TestKeyGivenTwiceAsJSONReadsKeys: keys are compared as JSON reads them,
// whatever else the text holds, and nothing but keys of one object count.
func TestKeyGivenTwiceAsJSONReadsKeys(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		// escapes JSON has and YAML does not, elsewhere in the text
		{`{"skills":[{"content":"see docs\/api \ud83d\ude80"}],` + "\n" + `"skills":[]}`,
			"line 2: skills is given twice (first on line 1)"},
		// two spellings of one key
		{`{"skills":{"a\/b":{},"a/b":{}}}`, "line 1: skills.a/b is given twice (first on line 1)"},
		{`{"sk\u0069lls":[],` + "\n\n" + `"skills":[]}`, "line 3: skills is given twice (first on line 1)"},
		// a key with its colon on the next line, a long key
		{"{\"skills\"\n: [], \"skills\"\n: []}", "line 2: skills is given twice (first on line 1)"},
		{`{"` + strings.Repeat("k", 2000) + `":1,"` + strings.Repeat("k", 2000) + `":2}`, "line 1: " + strings.Repeat("k", 2000) + " is given twice (first on line 1)"},
		{`[{"a":1},{"b":[1,{"c":1,"c":2}]}]`, "line 1: [1].b[1].c is given twice (first on line 1)"},
		// bytes that are not UTF-8 are U+FFFD to JSON
		{"{\"\xff\":1,\"\xfe\":2}", "line 1: \ufffd is given twice (first on line 1)"},
		{"{\"\xff\":1,\"\\ufffd\":2}", "line 1: \ufffd is given twice (first on line 1)"},
		// not JSON, or deeper than JSON is read: the decoder's to report
		{"{\"id\": \"r-1\",\n \"lessons\": [{\"content\": \"c\"}}, \n\"id\": \"r-2\"}", ""},
		{`{"id": "r-1"} {"a":1,"a":2}`, ""},
		{`{,"a":1,"a":2}`, ""},
		{`{"x":` + strings.Repeat("[", 20000) + `{"a":1,"a":2}` + strings.Repeat("]", 20000) + "}", ""},
		// not given twice
		{`{"a":{"k":1},"b":{"k":1},"c":[{"id":1},{"id":2}],"d":"d","e":"{\"x\":1,\"x\":2}","f":"\\"}`, ""},
	} {
		err := KeyGivenTwice([]byte(tc.json))
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.want {
				t.Errorf("KeyGivenTwice(%.80q) = %q, want %q", tc.json, got, tc.want)
			}
		} else if tc.want != "" {
			t.Errorf("KeyGivenTwice(%.80q) = nil, want %q", tc.json, tc.want)
		}
	}
}

// TestKeyGivenTwiceCostsWhatReadingCosts: deep nesting with long keys
// allocates little, not a path name per value.
func TestKeyGivenTwiceCostsWhatReadingCosts(t *testing.T) {
	key := `"` + strings.Repeat("k", 1000) + `": `
	data := []byte(`{"skills":[],"meta":` + strings.Repeat("{"+key, 2000) + "1" + strings.Repeat("}", 2000) + "}")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := KeyGivenTwice(data); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(data)) {
		t.Errorf("reading %d bytes allocated %d", len(data), got)
	}
}
