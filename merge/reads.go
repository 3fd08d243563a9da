package merge

import "bytes"

// reads are the versions of one file that File has read. A version two
// sides share (the base, and a side that left the file as it was: most
// files of a sync) is parsed once for all of File's checks, not once per
// check and side.
type reads struct {
	data  [][]byte
	sides []*side
	errs  []error
}

// side is readSide(data), read once per distinct version. The side is
// shared: not to be changed.
func (r *reads) side(data []byte) (*side, error) {
	for i, d := range r.data {
		if bytes.Equal(d, data) {
			return r.sides[i], r.errs[i]
		}
	}
	s, err := readSide(data)
	r.data, r.sides, r.errs = append(r.data, data), append(r.sides, s), append(r.errs, err)
	return s, err
}
