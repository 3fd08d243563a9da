package pipeline

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Extra holds the JSON fields of an object that this version of curator does
// not know, so that a rewrite keeps them.
type Extra map[string]json.RawMessage

var knownKeys sync.Map // reflect.Type → map[string]bool

// fieldKeys lists the JSON keys of a struct type's fields.
func fieldKeys(t reflect.Type) map[string]bool {
	if k, ok := knownKeys.Load(t); ok {
		return k.(map[string]bool)
	}
	keys := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = t.Field(i).Name
		}
		keys[name] = true
	}
	knownKeys.Store(t, keys)
	return keys
}

// decodeKeep decodes data into v (a pointer to a struct without JSON
// methods) and returns the fields v does not know.
func decodeKeep(data []byte, v any) (Extra, error) {
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	known := fieldKeys(reflect.TypeOf(v).Elem())
	var extra Extra
	for k, raw := range all {
		if !known[k] {
			if extra == nil {
				extra = Extra{}
			}
			extra[k] = raw
		}
	}
	return extra, nil
}

// encodeKeep encodes v (a struct without JSON methods) followed by the
// unknown fields in extra, in key order. Each of nulls is a key with its
// zero value as encoded (`"completed_at":""`): that key is written as null
// instead, as the state's schema shows fields not set yet.
func encodeKeep(v any, extra Extra, nulls ...string) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	for _, z := range nulls {
		k, _, _ := strings.Cut(z, ":")
		data = bytes.ReplaceAll(data, []byte(z), []byte(k+":null"))
	}
	if len(extra) == 0 {
		return data, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.Write(data[:len(data)-1]) // without the closing brace
	for _, k := range keys {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(extra[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
