package gittree

import "errors"

var errDelta = errors.New("a packed object's delta does not apply to its base")

// patchDelta applies git's delta to base: the sizes of base and result,
// then copies from base and inserts of new bytes, written into a result of
// the size the delta names.
func patchDelta(base, delta []byte) ([]byte, error) {
	size := func() (int, bool) {
		n, shift := 0, 0
		for len(delta) > 0 {
			c := delta[0]
			delta = delta[1:]
			n |= int(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				return n, true
			}
		}
		return 0, false
	}
	src, ok := size()
	if !ok || src != len(base) {
		return nil, errDelta
	}
	n, ok := size()
	if !ok {
		return nil, errDelta
	}
	out := make([]byte, 0, n)
	for len(delta) > 0 {
		c := delta[0]
		delta = delta[1:]
		switch {
		case c&0x80 != 0: // copy from base
			var off, cnt int
			for i := 0; i < 4; i++ {
				if c&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, errDelta
					}
					off |= int(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := 0; i < 3; i++ {
				if c&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, errDelta
					}
					cnt |= int(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if cnt == 0 {
				cnt = 0x10000
			}
			if off+cnt > len(base) || len(out)+cnt > n {
				return nil, errDelta
			}
			out = append(out, base[off:off+cnt]...)
		case c != 0: // insert c new bytes
			if int(c) > len(delta) || len(out)+int(c) > n {
				return nil, errDelta
			}
			out = append(out, delta[:c]...)
			delta = delta[c:]
		default:
			return nil, errDelta
		}
	}
	if len(out) != n {
		return nil, errDelta
	}
	return out, nil
}
