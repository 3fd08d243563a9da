package similar

import (
	"strings"
	"unicode"
)

// A word is one token of a text as the tokenizer reads it.
type word struct {
	text     string
	clause   int  // clause number: negation does not cross clause breaks
	negation bool // the word is a negation marker ("not", "never", "without", ...)
}

// stopWords carry little meaning; they get a small weight and no synonyms.
var stopWords = setOf(`a about above after again against all am an and any are as at be
	because been before being below between both but by can could did do does doing down
	during each few for from further had has have having he her here hers herself him himself
	his how i if in into is it its itself just let me more most my myself of off on once only
	or other our ours ourselves out over own same she should so some such than that the their
	theirs them themselves then there these they this those through to too under until up
	very was we were what when where which while who whom why will with would you your yours
	yourself yourselves also may might must shall e g eg ie etc via per`)

// negationWords flip the meaning of what follows them in their clause.
var negationWords = setOf(`not no never without none nobody nothing neither nor cannot
	nowhere avoid`)

// scopeBreaks end a negation's scope inside a clause.
var scopeBreaks = setOf(`but and however instead then otherwise unless except`)

// numberWords are read as the numbers they name.
var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
	"six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11",
	"twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
	"sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19",
	"twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "hundred": "100",
	"thousand": "1000", "twice": "2", "single": "1", "double": "2", "triple": "3",
}

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// contractions are expanded before tokenizing so that "don't" reads as
// "do not".
var contractions = strings.NewReplacer(
	"’", "'", "can't", "can not", "won't", "will not", "shan't", "shall not", "n't", " not",
)

// numberSigns rewrites "No" or "No." abbreviating "number" before a number
// in digits ("Amendment No 7", "No. 2 Ford", "NO. 12") as the sign "#", so
// that it is not read as a negation. A lower-case "no" stays a negation
// ("there are no 3 ways").
func numberSigns(text string) string {
	var b strings.Builder
	from := 0
	for i := strings.Index(text, "N"); i >= 0 && i+1 < len(text); {
		j := i + 2
		dot := j < len(text) && text[j] == '.'
		if dot {
			j++
		}
		for j < len(text) && text[j] == ' ' {
			j++
		}
		if (text[i+1] == 'o' || text[i+1] == 'O' && dot) && j < len(text) && text[j] >= '0' && text[j] <= '9' &&
			(i == 0 || !isWordByte(text[i-1])) && (dot || j > i+2) {
			b.WriteString(text[from:i])
			b.WriteByte('#')
			from = j
		}
		k := strings.Index(text[i+1:], "N")
		if k < 0 {
			break
		}
		i += 1 + k
	}
	if from == 0 {
		return text
	}
	return b.String() + text[from:]
}

// isWordByte reports whether c is an ASCII letter or digit, or the first
// byte of a longer character (taken as a letter).
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// clitics are the word ends that an apostrophe joins to a word ("I've",
// "you're", "it's"), read as the words they stand for; "'s" (is, has, or
// a possessive) is dropped.
var clitics = map[string]string{"s": "", "ve": "have", "re": "are", "ll": "will", "m": "am", "d": "would"}

// identPart marks a word that is part of an identifier joined by
// underscores ("show_api_doc"): it matches the same word exactly, but no
// other word by its vector.
const identPart = "_"

// tokenize splits text into lower-case words of letters or digits; the
// parts of an identifier such as show_api_doc start with identPart. Digits
// keep inner dots and commas ("2.5", "1,000"); list markers such as "(1)" or
// "2." at the start of an item are dropped, so that numbered steps are not
// read as quantities; "No 7" and "No. 7" are the number 7 (numberSigns),
// "1,000" one number and "1,2,3" three (thousands).
// Sentence punctuation starts a new clause.
func tokenize(text string) []word {
	text = contractions.Replace(strings.ToLower(numberSigns(text)))
	var words []word
	clause := 0
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			w := string(rs[i:j])
			if (i > 0 && rs[i-1] == '_') || (j < len(rs) && rs[j] == '_') {
				w = identPart + w
			}
			words = append(words, word{text: w, clause: clause})
			i = j
			if end, ok := clitic(rs, j); ok {
				if c := clitics[string(rs[j+1:end])]; c != "" {
					words = append(words, word{text: c, clause: clause})
				}
				i = end
			}
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) ||
				(rs[j] == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1]) && j > i) ||
				(rs[j] == ',' && thousands(rs, j))) {
				j++
			}
			num := strings.ReplaceAll(string(rs[i:j]), ",", "")
			if !isListMarker(rs, i, j) {
				words = append(words, word{text: num, clause: clause})
			}
			i = j
		default:
			if strings.ContainsRune(".;:!?()[]{}\n", r) {
				clause++
			}
			i++
		}
	}
	for k := range words {
		words[k].negation = negationWords[words[k].text]
		if n, ok := numberWords[words[k].text]; ok {
			words[k].text = n
		}
	}
	return words
}

// clitic reports whether rs[j:] starts with an apostrophe and one of
// clitics standing alone ("'ve" in "I've done", not "'s" in "'software'"),
// and where it ends.
func clitic(rs []rune, j int) (int, bool) {
	if j >= len(rs) || rs[j] != '\'' {
		return 0, false
	}
	end := j + 1
	for end < len(rs) && end-j <= 3 && unicode.IsLetter(rs[end]) {
		end++
	}
	if end < len(rs) && (unicode.IsLetter(rs[end]) || unicode.IsDigit(rs[end]) || rs[end] == '_') {
		return 0, false
	}
	_, ok := clitics[string(rs[j+1:end])]
	return end, ok
}

// isListMarker reports whether the digits rs[i:j] number a list item:
// "(3)", or "3." / "3)" at the start of a line or after a colon or
// semicolon.
func isListMarker(rs []rune, i, j int) bool {
	if j-i > 2 || j >= len(rs) {
		return false
	}
	prev := ' '
	k := i - 1
	for k >= 0 && rs[k] == ' ' {
		k--
	}
	if k >= 0 {
		prev = rs[k]
	}
	if rs[j] == ')' {
		return k < 0 || prev == '(' || prev == '\n' || prev == ':' || prev == ';' || prev == ',' || prev == '-'
	}
	if rs[j] == '.' && (j+1 == len(rs) || rs[j+1] == ' ') {
		return k < 0 || prev == '\n' || prev == ':' || prev == ';'
	}
	return false
}

// thousands reports whether the comma rs[j], inside a number, separates
// its thousands ("1,000"): exactly three digits follow it. Otherwise it
// separates numbers ("1,2,3", "4,5, and 6").
func thousands(rs []rune, j int) bool {
	k := j + 1
	for k < len(rs) && unicode.IsDigit(rs[k]) {
		k++
	}
	return k-j-1 == 3
}

func isNumber(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9'
}
