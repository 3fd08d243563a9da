// Package packed is the byte encoding of the store's packed records and
// indexes: strings, lists of strings, times and the values YAML decodes
// (appended to a slice), and a Reader that reads them back and marks the
// bytes bad, instead of failing, once they run out or make no sense.
package packed

import (
	"encoding/binary"
	"math"
	"sync"
	"time"
	"unsafe"
)

// AppendString appends s: a uvarint length, then its bytes.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendStrings appends a list: its count plus one (0 for a nil list),
// then each string.
func AppendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(ss))+1)
	for _, s := range ss {
		b = AppendString(b, s)
	}
	return b
}

// AppendTime appends a time: varint seconds, uvarint nanoseconds and its
// zone (0 UTC, 1 the local zone, 2 a fixed zone: name, varint offset).
func AppendTime(b []byte, t time.Time) []byte {
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
		b = AppendString(b, name)
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
	valStrings // []string: as AppendStrings
)

// MaxDepth is how deep values may nest in packed fields (a value
// at the top is at depth 1): deeper ones do not pack, and do not unpack.
const MaxDepth = 100

// AppendValue packs what YAML decodes into an any, at a depth; false for
// another kind, or a value nested deeper than MaxDepth.
func AppendValue(b []byte, v any, depth int) ([]byte, bool) {
	if depth > MaxDepth {
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
		b = AppendString(append(b, valString), x)
	case time.Time:
		b = AppendTime(append(b, valTime), x)
	case []string:
		b = AppendStrings(append(b, valStrings), x)
	case []any:
		b = append(b, valList)
		if x == nil {
			return binary.AppendUvarint(b, 0), true
		}
		b = binary.AppendUvarint(b, uint64(len(x))+1)
		for _, e := range x {
			var vok bool
			b, vok = AppendValue(b, e, depth+1)
			ok = ok && vok
		}
	case map[string]any:
		b = append(b, valMap)
		if x == nil {
			return binary.AppendUvarint(b, 0), true
		}
		b = binary.AppendUvarint(b, uint64(len(x))+1)
		for k, e := range x {
			b = AppendString(b, k)
			var vok bool
			b, vok = AppendValue(b, e, depth+1)
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
			b, k1 = AppendValue(b, k, depth+1)
			b, k2 = AppendValue(b, e, depth+1)
			ok = ok && k1 && k2
		}
	default:
		return b, false
	}
	return b, ok
}

// Reader reads what the Append functions wrote from Rest; Bad is set,
// and zero values returned, once the bytes run out or make no sense.
type Reader struct {
	Rest  []byte
	Bad   bool
	depth int
}

// Uvarint reads an unsigned varint.
func (u *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(u.Rest)
	if n <= 0 {
		u.Bad, u.Rest = true, nil
		return 0
	}
	u.Rest = u.Rest[n:]
	return v
}

// Varint reads a signed varint.
func (u *Reader) Varint() int64 {
	v, n := binary.Varint(u.Rest)
	if n <= 0 {
		u.Bad, u.Rest = true, nil
		return 0
	}
	u.Rest = u.Rest[n:]
	return v
}

// U64 reads eight bytes, big-endian.
func (u *Reader) U64() uint64 {
	if len(u.Rest) < 8 {
		u.Bad, u.Rest = true, nil
		return 0
	}
	v := binary.BigEndian.Uint64(u.Rest)
	u.Rest = u.Rest[8:]
	return v
}

// Byte reads one byte.
func (u *Reader) Byte() byte {
	if len(u.Rest) < 1 {
		u.Bad = true
		return 0
	}
	c := u.Rest[0]
	u.Rest = u.Rest[1:]
	return c
}

// Str reads a string (a copy).
func (u *Reader) Str() string {
	n := u.Uvarint()
	if n > uint64(len(u.Rest)) {
		u.Bad, u.Rest = true, nil
		return ""
	}
	s := string(u.Rest[:n])
	u.Rest = u.Rest[n:]
	return s
}

// View is Str without a copy: a slice of the bytes read, which must not
// change after.
func (u *Reader) View() string {
	return View(u.Bytes())
}

// Bytes is a string's bytes, a slice of the bytes read.
func (u *Reader) Bytes() []byte {
	n := u.Uvarint()
	if n > uint64(len(u.Rest)) {
		u.Bad, u.Rest = true, nil
		return nil
	}
	s := u.Rest[:n:n]
	u.Rest = u.Rest[n:]
	return s
}

// Fixed is the next n bytes, as they are.
func (u *Reader) Fixed(n int) []byte {
	if n < 0 || n > len(u.Rest) {
		u.Bad, u.Rest = true, nil
		return nil
	}
	s := u.Rest[:n:n]
	u.Rest = u.Rest[n:]
	return s
}

// View is b as a string without a copy: b must not change after.
func View(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Count reads a count plus one (0: nil); a count the bytes left cannot hold is bad.
func (u *Reader) Count() (int, bool) {
	n := u.Uvarint()
	if n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(u.Rest)) {
		u.Bad, u.Rest = true, nil
		return 0, false
	}
	return int(n - 1), true
}

// Strs reads a list of strings (nil when it was nil).
func (u *Reader) Strs() []string {
	n, ok := u.Count()
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = u.Str()
	}
	return out
}

// Time reads a time in the zone it was written in.
func (u *Reader) Time() time.Time {
	sec, nsec := u.Varint(), int64(u.Uvarint())
	t := time.Unix(sec, nsec)
	switch u.Byte() {
	case 0:
		return t.UTC()
	case 1:
		return t.In(time.Local)
	case 2:
		name := u.Str()
		return t.In(fixedZone(name, int(u.Varint())))
	}
	u.Bad = true
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

// Value reads a value AppendValue wrote.
func (u *Reader) Value() any {
	if u.depth++; u.depth > MaxDepth {
		u.Bad, u.Rest = true, nil
		return nil
	}
	defer func() { u.depth-- }()
	switch u.Byte() {
	case valNil:
		return nil
	case valFalse:
		return false
	case valTrue:
		return true
	case valInt:
		return int(u.Varint())
	case valInt64:
		return u.Varint()
	case valUint64:
		return u.Uvarint()
	case valFloat:
		return math.Float64frombits(u.U64())
	case valString:
		return u.Str()
	case valTime:
		return u.Time()
	case valStrings:
		return u.Strs()
	case valList:
		n, ok := u.Count()
		if !ok {
			return []any(nil)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = u.Value()
		}
		return out
	case valMap:
		n, ok := u.Count()
		if !ok {
			return map[string]any(nil)
		}
		out := make(map[string]any, n)
		for range n {
			k := u.Str()
			out[k] = u.Value()
		}
		return out
	case valAnyMap:
		n, ok := u.Count()
		if !ok {
			return map[any]any(nil)
		}
		out := make(map[any]any, n)
		for range n {
			k := u.Value()
			if !isComparable(k) {
				u.Bad, u.Rest = true, nil
				return nil
			}
			out[k] = u.Value()
		}
		return out
	}
	u.Bad, u.Rest = true, nil
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
