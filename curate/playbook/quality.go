package playbook

import (
	"fmt"
	"strings"
	"unicode"
)

// The procedure's quality check, made deterministic: a lesson becomes a
// bullet only when it is actionable. NotActionable is the rule; a lesson
// it refuses is skipped by curate and named in the report.
const (
	// MinLessonWords is the fewest words an actionable lesson has.
	MinLessonWords = 4
	// MinSpecificWords is the fewest specific words (a verb and what it
	// acts on) an actionable lesson has.
	MinSpecificWords = 2
)

// hedges open a lesson that is a guess rather than a rule.
var hedges = wordList("maybe perhaps possibly probably might could")

// conditions are the words that state when a lesson applies.
var conditions = wordList("if when whenever before after unless until while once during")

// unspecific are the words that say nothing concrete: hedges, vague
// amounts and qualities, and the short words of every sentence.
var unspecific = wordList(`maybe perhaps possibly probably might could should would will can may must
somehow sometimes try consider think seems seem more less better best good bad stuff thing things
something anything everything careful carefully properly correctly really very some also just etc lot
lots few much many well way ways sure make do does done get got the and for with that this these those
are was were you your our its they them their not all any too than then there here has have had been
being into from out about what which who how why`)

func wordList(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// lessonWords splits a lesson into lower-case words: runs of letters and
// digits, with - _ / ' inside a word.
func lessonWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-_/'", r)
	})
}

// NotActionable says why a lesson is not actionable, "" when it is. A
// lesson is actionable when it
//   - has at least MinLessonWords words;
//   - has at least MinSpecificWords specific words: words of three
//     letters or more that are no hedge (maybe, perhaps, …), no vague word
//     (more, better, stuff, …) and no short word of every sentence;
//   - when it opens with a hedge (maybe, perhaps, possibly, probably,
//     might, could), states a condition (if, when, before, after, unless,
//     until, while, once, during, whenever).
func NotActionable(lesson string) string {
	words := lessonWords(lesson)
	if len(words) < MinLessonWords {
		return fmt.Sprintf("%d words, under %d", len(words), MinLessonWords)
	}
	specific, condition := 0, false
	for _, w := range words {
		condition = condition || conditions[w]
		if len([]rune(w)) >= 3 && !unspecific[w] && !conditions[w] {
			specific++
		}
	}
	if specific < MinSpecificWords {
		noun := "words"
		if specific == 1 {
			noun = "word"
		}
		return fmt.Sprintf("only %d specific %s (at least %d)", specific, noun, MinSpecificWords)
	}
	if hedges[words[0]] && !condition {
		return fmt.Sprintf("opens with a hedge (%s) and states no condition (if, when, before, after, …)", words[0])
	}
	return ""
}
