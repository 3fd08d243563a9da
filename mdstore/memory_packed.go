package mdstore

import (
	"encoding/binary"
	"errors"
	"math"
	"sync"
	"time"
	"unsafe"
)

// A packed memory is a record's fields (all but its type, path and body)
// as bytes: what the memory index keeps of a file so that a listing of
// every field (the live listing) need not read it, and what the live
// listing holds of a record instead of its strings, maps and lists. It
// unpacks to the record a Light listing returns, equal in every field
// (the ingestion time in its own zone, the observation and trashed maps
// with the types YAML decoded them to).
//
// Layout, in order: id, maturity, brief, author, scenario (strings: a
// uvarint length, then the bytes), tags and source_cases (a uvarint
// count plus one, 0 for none, then the strings), content_confidence (a
// uvarint, 0 when absent), the four importance factors (float64 bits,
// formula order), ingestion_time (a time), observation and trashed
// (values). A time is varint seconds, uvarint nanoseconds and its zone:
// 0 UTC, 1 the local zone, 2 a fixed zone (name, varint offset). A value
// is a tag byte and what it holds (see packValue).

// PackMemory packs m's fields; false when a value of its observation or
// trashed map is of a kind YAML does not decode to.
func PackMemory(m *Memory) ([]byte, bool) {
	b := make([]byte, 0, 64+len(m.ID)+len(m.Brief)+len(m.Author)+len(m.Scenario))
	for _, s := range [...]string{m.ID, m.Maturity, m.Brief, m.Author, m.Scenario} {
		b = packString(b, s)
	}
	b = packStrings(b, m.Tags)
	b = packStrings(b, m.SourceCases)
	conf := uint64(0)
	if m.ContentConfidence != nil {
		if *m.ContentConfidence < 0 {
			return nil, false
		}
		conf = uint64(*m.ContentConfidence) + 1
	}
	b = binary.AppendUvarint(b, conf)
	for _, f := range m.factors {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = packTime(b, m.IngestionTime)
	var ok1, ok2 bool
	b, ok1 = packValue(b, m.Observation, 1)
	b, ok2 = packValue(b, m.Trashed, 1)
	return b, ok1 && ok2
}

// UnpackMemory is the record at rel, of type typ, whose fields PackMemory
// packed, as a Light listing returns it.
func UnpackMemory(rel, typ string, packed []byte) (*Memory, error) {
	u := unpacker{b: packed}
	m := &Memory{Path: rel, Type: typ, Status: statusOfPath(rel)}
	m.ID, m.Maturity, m.Brief, m.Author, m.Scenario = u.str(), u.str(), u.str(), u.str(), u.str()
	m.Tags, m.SourceCases = u.strs(), u.strs()
	if c := u.uvarint(); c > 0 {
		v := int(c - 1)
		m.ContentConfidence = &v
	}
	for i := range m.factors {
		m.factors[i] = math.Float64frombits(u.u64())
	}
	m.IngestionTime = u.time()
	obs, trashed := u.value(), u.value()
	if u.bad {
		return nil, errors.New(rel + ": packed memory fields are damaged")
	}
	m.Observation, _ = obs.(map[string]any)
	m.Trashed, _ = trashed.(map[string]any)
	return m, nil
}

// PackedID is the id packed fields begin with, read in place (it shares
// their bytes); false when they do not begin with one.
func PackedID(packed []byte) ([]byte, bool) {
	n, w := binary.Uvarint(packed)
	if w <= 0 || n > uint64(len(packed)-w) {
		return nil, false
	}
	return packed[w : w+int(n)], true
}

func packString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func packStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(ss))+1)
	for _, s := range ss {
		b = packString(b, s)
	}
	return b
}

func packTime(b []byte, t time.Time) []byte {
	b = binary.AppendVarint(b, t.Unix())
	b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	switch loc := t.Location(); loc {
	case time.UTC:
		return append(b, 0)
	case time.Local:
		return append(b, 1)
	default:
		name, off := t.Zone()
		b = append(b, 2)
		b = packString(b, name)
		return binary.AppendVarint(b, int64(off))
	}
}

// The tags of packed values.
const (
	valNil byte = iota
	valFalse
	valTrue
	valInt
	valInt64
	valUint64
	valFloat
	valString
	valTime
	valList    // []any: count+1 (0 for a nil list), then the values
	valMap     // map[string]any: count+1, then key string and value
	valAnyMap  // map[any]any: count+1, then key value and value
	valStrings // []string: as packStrings
)

// maxPackedDepth is how deep values may nest in packed fields (a value
// at the top is at depth 1): deeper ones do not pack, and do not unpack.
const maxPackedDepth = 100

// packValue packs what YAML decodes into an any, at a depth; false for
// another kind, or a value nested deeper than maxPackedDepth.
func packValue(b []byte, v any, depth int) ([]byte, bool) {
	if depth > maxPackedDepth {
		return b, false
	}
	ok := true
	switch x := v.(type) {
	case nil:
		b = append(b, valNil)
	case bool:
		if x {
			b = append(b, valTrue)
		} else {
			b = append(b, valFalse)
		}
	case int:
		b = binary.AppendVarint(append(b, valInt), int64(x))
	case int64:
		b = binary.AppendVarint(append(b, valInt64), x)
	case uint64:
		b = binary.AppendUvarint(append(b, valUint64), x)
	case float64:
		b = binary.BigEndian.AppendUint64(append(b, valFloat), math.Float64bits(x))
	case string:
		b = packString(append(b, valString), x)
	case time.Time:
		b = packTime(append(b, valTime), x)
	case []string:
		b = packStrings(append(b, valStrings), x)
	case []any:
		b = append(b, valList)
		if x == nil {
			return binary.AppendUvarint(b, 0), true
		}
		b = binary.AppendUvarint(b, uint64(len(x))+1)
		for _, e := range x {
			var vok bool
			b, vok = packValue(b, e, depth+1)
			ok = ok && vok
		}
	case map[string]any:
		b = append(b, valMap)
		if x == nil {
			return binary.AppendUvarint(b, 0), true
		}
		b = binary.AppendUvarint(b, uint64(len(x))+1)
		for k, e := range x {
			b = packString(b, k)
			var vok bool
			b, vok = packValue(b, e, depth+1)
			ok = ok && vok
		}
	case map[any]any:
		b = append(b, valAnyMap)
		if x == nil {
			return binary.AppendUvarint(b, 0), true
		}
		b = binary.AppendUvarint(b, uint64(len(x))+1)
		for k, e := range x {
			var k1, k2 bool
			b, k1 = packValue(b, k, depth+1)
			b, k2 = packValue(b, e, depth+1)
			ok = ok && k1 && k2
		}
	default:
		return b, false
	}
	return b, ok
}

// unpacker reads packed fields, and the memory search index; bad is set,
// and zero values returned, once the bytes run out or make no sense.
type unpacker struct {
	b     []byte
	bad   bool
	depth int
}

func (u *unpacker) uvarint() uint64 {
	v, n := binary.Uvarint(u.b)
	if n <= 0 {
		u.bad, u.b = true, nil
		return 0
	}
	u.b = u.b[n:]
	return v
}

func (u *unpacker) varint() int64 {
	v, n := binary.Varint(u.b)
	if n <= 0 {
		u.bad, u.b = true, nil
		return 0
	}
	u.b = u.b[n:]
	return v
}

func (u *unpacker) u64() uint64 {
	if len(u.b) < 8 {
		u.bad, u.b = true, nil
		return 0
	}
	v := binary.BigEndian.Uint64(u.b)
	u.b = u.b[8:]
	return v
}

func (u *unpacker) byte() byte {
	if len(u.b) < 1 {
		u.bad = true
		return 0
	}
	c := u.b[0]
	u.b = u.b[1:]
	return c
}

func (u *unpacker) str() string {
	n := u.uvarint()
	if n > uint64(len(u.b)) {
		u.bad, u.b = true, nil
		return ""
	}
	s := string(u.b[:n])
	u.b = u.b[n:]
	return s
}

// view is str without a copy: a slice of the bytes read, which must not
// change after.
func (u *unpacker) view() string {
	return viewString(u.bytes())
}

// bytes is a string's bytes, a slice of the bytes read.
func (u *unpacker) bytes() []byte {
	n := u.uvarint()
	if n > uint64(len(u.b)) {
		u.bad, u.b = true, nil
		return nil
	}
	s := u.b[:n:n]
	u.b = u.b[n:]
	return s
}

// fixed is the next n bytes, as they are.
func (u *unpacker) fixed(n int) []byte {
	if n < 0 || n > len(u.b) {
		u.bad, u.b = true, nil
		return nil
	}
	s := u.b[:n:n]
	u.b = u.b[n:]
	return s
}

// viewString is b as a string without a copy: b must not change after.
func viewString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// count reads a count+1 (0: nil); a count the bytes left cannot hold is bad.
func (u *unpacker) count() (int, bool) {
	n := u.uvarint()
	if n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(u.b)) {
		u.bad, u.b = true, nil
		return 0, false
	}
	return int(n - 1), true
}

func (u *unpacker) strs() []string {
	n, ok := u.count()
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = u.str()
	}
	return out
}

func (u *unpacker) time() time.Time {
	sec, nsec := u.varint(), int64(u.uvarint())
	t := time.Unix(sec, nsec)
	switch u.byte() {
	case 0:
		return t.UTC()
	case 1:
		return t.In(time.Local)
	case 2:
		name := u.str()
		return t.In(fixedZone(name, int(u.varint())))
	}
	u.bad = true
	return time.Time{}
}

// fixedZones are the fixed zones unpacked times are in, made once each.
var fixedZones sync.Map // zoneKey → *time.Location

type zoneKey struct {
	name string
	off  int
}

func fixedZone(name string, off int) *time.Location {
	k := zoneKey{name, off}
	if l, ok := fixedZones.Load(k); ok {
		return l.(*time.Location)
	}
	l, _ := fixedZones.LoadOrStore(k, time.FixedZone(name, off))
	return l.(*time.Location)
}

func (u *unpacker) value() any {
	if u.depth++; u.depth > maxPackedDepth {
		u.bad, u.b = true, nil
		return nil
	}
	defer func() { u.depth-- }()
	switch u.byte() {
	case valNil:
		return nil
	case valFalse:
		return false
	case valTrue:
		return true
	case valInt:
		return int(u.varint())
	case valInt64:
		return u.varint()
	case valUint64:
		return u.uvarint()
	case valFloat:
		return math.Float64frombits(u.u64())
	case valString:
		return u.str()
	case valTime:
		return u.time()
	case valStrings:
		return u.strs()
	case valList:
		n, ok := u.count()
		if !ok {
			return []any(nil)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = u.value()
		}
		return out
	case valMap:
		n, ok := u.count()
		if !ok {
			return map[string]any(nil)
		}
		out := make(map[string]any, n)
		for range n {
			k := u.str()
			out[k] = u.value()
		}
		return out
	case valAnyMap:
		n, ok := u.count()
		if !ok {
			return map[any]any(nil)
		}
		out := make(map[any]any, n)
		for range n {
			k := u.value()
			if !isComparable(k) {
				u.bad, u.b = true, nil
				return nil
			}
			out[k] = u.value()
		}
		return out
	}
	u.bad, u.b = true, nil
	return nil
}

// isComparable tells a value that can be a map key.
func isComparable(v any) bool {
	switch v.(type) {
	case []any, []string, map[string]any, map[any]any:
		return false
	}
	return true
}
