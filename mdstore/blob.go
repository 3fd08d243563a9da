package mdstore

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
)

// blob is a git blob that reads the changeset's bytes in place: a large run
// keeps one copy of each new file in memory, not two.
type blob struct {
	data []byte
	hash plumbing.Hash
}

func newBlob(data []byte) *blob {
	return &blob{data: data, hash: plumbing.ComputeHash(plumbing.BlobObject, data)}
}

func (b *blob) Hash() plumbing.Hash            { return b.hash }
func (b *blob) Type() plumbing.ObjectType      { return plumbing.BlobObject }
func (b *blob) SetType(plumbing.ObjectType)    {}
func (b *blob) Size() int64                    { return int64(len(b.data)) }
func (b *blob) SetSize(int64)                  {}
func (b *blob) Reader() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b.data)), nil }
func (b *blob) Writer() (io.WriteCloser, error) {
	return nil, errors.New("a changeset blob is read-only")
}
