package merge

import "bytes"

// usesCRLF reports whether most line ends of data are CRLF.
func usesCRLF(data []byte) bool {
	n := bytes.Count(data, []byte("\n"))
	return n > 0 && 2*bytes.Count(data, []byte("\r\n")) > n
}

// withLineEnds gives data CRLF or LF line ends, so that a version whose line
// ends alone differ compares equal to the one it came from. nil (an absent
// side) stays nil.
func withLineEnds(data []byte, crlf bool) []byte {
	if data == nil {
		return nil
	}
	lf := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if crlf {
		lf = bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	}
	if bytes.Equal(lf, data) {
		return data
	}
	return lf
}
