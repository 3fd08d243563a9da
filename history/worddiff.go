package history

import "strings"

// WordDiff shows how new differs from old word by word, as `git diff
// --word-diff=plain` does: removed words in [-…-], added ones in {+…+},
// the words both keep as they are. Whitespace between words is shown as
// one space. Long texts (more than 2,000 words on either side) are not
// compared word by word: the result is the whole old text removed and the
// new one added.
func WordDiff(old, new string) string {
	a, b := strings.Fields(old), strings.Fields(new)
	if len(a) > 2000 || len(b) > 2000 {
		return "[-" + strings.Join(a, " ") + "-] {+" + strings.Join(b, " ") + "+}"
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	var del, add []string
	flush := func() {
		if len(del) > 0 {
			out = append(out, "[-"+strings.Join(del, " ")+"-]")
			del = nil
		}
		if len(add) > 0 {
			out = append(out, "{+"+strings.Join(add, " ")+"+}")
			add = nil
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			flush()
			out = append(out, a[i])
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			add = append(add, b[j])
			j++
		default:
			del = append(del, a[i])
			i++
		}
	}
	flush()
	return strings.Join(out, " ")
}
