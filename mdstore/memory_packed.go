package mdstore

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/curator-dev/curator/mdstore/internal/packed"
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
// is a tag byte and what it holds (see packed.AppendValue).

// PackMemory packs m's fields; false when a value of its observation or
// trashed map is of a kind YAML does not decode to.
func PackMemory(m *Memory) ([]byte, bool) {
	b := make([]byte, 0, 64+len(m.ID)+len(m.Brief)+len(m.Author)+len(m.Scenario))
	for _, s := range [...]string{m.ID, m.Maturity, m.Brief, m.Author, m.Scenario} {
		b = packed.AppendString(b, s)
	}
	b = packed.AppendStrings(b, m.Tags)
	b = packed.AppendStrings(b, m.SourceCases)
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
	b = packed.AppendTime(b, m.IngestionTime)
	var ok1, ok2 bool
	b, ok1 = packed.AppendValue(b, m.Observation, 1)
	b, ok2 = packed.AppendValue(b, m.Trashed, 1)
	return b, ok1 && ok2
}

// UnpackMemory is the record at rel, of type typ, whose fields PackMemory
// packed, as a Light listing returns it.
func UnpackMemory(rel, typ string, fields []byte) (*Memory, error) {
	u := packed.Reader{Rest: fields}
	m := &Memory{Path: rel, Type: typ, Status: statusOfPath(rel)}
	m.ID, m.Maturity, m.Brief, m.Author, m.Scenario = u.Str(), u.Str(), u.Str(), u.Str(), u.Str()
	m.Tags, m.SourceCases = u.Strs(), u.Strs()
	if c := u.Uvarint(); c > 0 {
		v := int(c - 1)
		m.ContentConfidence = &v
	}
	for i := range m.factors {
		m.factors[i] = math.Float64frombits(u.U64())
	}
	m.IngestionTime = u.Time()
	obs, trashed := u.Value(), u.Value()
	if u.Bad {
		return nil, errors.New(rel + ": packed memory fields are damaged")
	}
	m.Observation, _ = obs.(map[string]any)
	m.Trashed, _ = trashed.(map[string]any)
	return m, nil
}

// PackedID is the id packed fields begin with, read in place (it shares
// their bytes); false when they do not begin with one.
func PackedID(fields []byte) ([]byte, bool) {
	n, w := binary.Uvarint(fields)
	if w <= 0 || n > uint64(len(fields)-w) {
		return nil, false
	}
	return fields[w : w+int(n)], true
}
