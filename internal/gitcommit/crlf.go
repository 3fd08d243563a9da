package gitcommit

// toGit is the blob git would store for a file's content: with
// core.autocrlf set to true or input, a text file's CRLF line ends become
// LF, as `git add` does (a file git takes for binary is kept as it is, see
// gitBinary). .gitattributes text/eol rules are not applied.
func (r *Repo) toGit(data []byte) []byte {
	if r.cfg.autocrlf == "" || !containsCRLF(data) || gitBinary(data) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		out = append(out, data[i])
	}
	return out
}

func containsCRLF(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '\r' && b[i+1] == '\n' {
			return true
		}
	}
	return false
}

// gitBinary reports whether git's autocrlf takes content for binary and
// leaves its line ends alone (convert.c, gather_stats and
// convert_is_binary): a lone CR, a NUL byte, or more than one control
// character per 128 printable ones (backspace, tab, escape and form feed
// count as printable; a final ^Z is not counted).
func gitBinary(b []byte) bool {
	printable, nonprintable := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
				continue
			}
			return true // a lone CR
		case c == '\n':
		case c == 0:
			return true
		case c == 127:
			nonprintable++
		case c < 32:
			switch c {
			case '\b', '\t', 033, 014:
				printable++
			default:
				nonprintable++
			}
		default:
			printable++
		}
	}
	if len(b) > 0 && b[len(b)-1] == 032 {
		nonprintable--
	}
	return printable>>7 < nonprintable
}
