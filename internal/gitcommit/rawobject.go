package gitcommit

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
)

// rawObject is a git object whose content is held as bytes and read in
// place: a large run keeps one copy of each new file in memory, not two.
type rawObject struct {
	typ  plumbing.ObjectType
	data []byte
	hash plumbing.Hash
}

// newBlob is a changeset file's blob.
func newBlob(data []byte) *rawObject {
	return &rawObject{typ: plumbing.BlobObject, data: data, hash: plumbing.ComputeHash(plumbing.BlobObject, data)}
}

func (b *rawObject) Hash() plumbing.Hash         { return b.hash }
func (b *rawObject) Type() plumbing.ObjectType   { return b.typ }
func (b *rawObject) SetType(plumbing.ObjectType) {}
func (b *rawObject) Size() int64                 { return int64(len(b.data)) }
func (b *rawObject) SetSize(int64)               {}
func (b *rawObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(b.data)), nil
}
func (b *rawObject) Writer() (io.WriteCloser, error) {
	return nil, errors.New("a curator object is read-only")
}
