package pipeline

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Excerpt kinds.
const (
	KindSection      = "section"       // a section as written (without its subsections)
	KindCurrentStory = "current-story" // the user story of this step, in full
	KindStorySummary = "story-summary" // an earlier user story, one line
	KindReference    = "reference"     // a body replaced by a pointer to its file
)

// Excerpt is one piece of an artifact carried into a brief.
type Excerpt struct {
	Source   string `json:"source"`
	Title    string `json:"title"`
	Level    int    `json:"level"`
	Kind     string `json:"kind"`
	Text     string `json:"-"`
	Optional bool   `json:"optional,omitempty"`
	// LeftOut is, for a note that sections were left out, their count.
	LeftOut int `json:"-"`
}

// Story is a user story found in a spec.
type Story struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// Chunk is what the include/exclude rules and the chunking strategy keep of
// the source artifacts.
type Chunk struct {
	Excerpts []Excerpt
	Stories  []Story
	// Step is the user story carried in full (0: no story chunking).
	Step int
	// LeftOut counts the later stories left out; Dropped names the sections
	// that the rules excluded.
	LeftOut int
	Dropped []string
}

var storyTitle = regexp.MustCompile(`^(user story|story|us ?\d+)\b`)

// isStory reports whether a heading names a user story ("User Story 3 -
// Checkout", "US3: Checkout", "Story 3").
func isStory(title string) bool { return storyTitle.MatchString(normalize(title)) }

// Stories returns the user-story sections of a spec: the story headings
// under its "User Stories"/"User Scenarios" section, or else every heading
// that names a story, at the level of the first one.
func Stories(o *Outline) []*Section {
	if c := o.Find("User Stories", "User Scenarios"); c != nil {
		var out []*Section
		for _, s := range c.Children {
			if isStory(s.Title) {
				out = append(out, s)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	var out []*Section
	for _, s := range o.All {
		if isStory(s.Title) && (len(out) == 0 || s.Level == out[0].Level) {
			out = append(out, s)
		}
	}
	return out
}

// curate adds to c what the transition's rules keep of one artifact (path,
// of type typ). An include entry that names the artifact's type
// ("completion_report" for a completion-report) keeps the whole artifact.
// step > 0 with by_user_story chunking keeps story step in full, earlier
// stories as one line each, and leaves later stories out.
func curate(c *Chunk, path, typ string, o *Outline, t *TransitionRule, step int) error {
	stories := map[*Section]int{}
	if t.Chunking == ChunkByUserStory && step > 0 {
		list := Stories(o)
		if len(list) > 0 {
			if step > len(list) {
				return fmt.Errorf("step %d is out of range: %s has %d user stories", step, path, len(list))
			}
			for i, s := range list {
				stories[s] = i + 1
				c.Stories = append(c.Stories, Story{Number: i + 1, Title: s.Title})
			}
			c.Step = step
		}
	}
	whole := len(t.Include) == 0 || namesType(t.Include, typ)
	if pre := strings.TrimSpace(string(o.Preamble)); pre != "" && whole {
		c.Excerpts = append(c.Excerpts, Excerpt{Source: path, Kind: KindSection, Text: pre + "\n"})
	}
	var walk func(list []*Section, included, optional bool)
	walk = func(list []*Section, included, optional bool) {
		for _, s := range list {
			if matchesAny(s.Title, reasoningHeadings) || matchesAny(s.Title, t.Exclude) {
				c.Dropped = append(c.Dropped, path+": "+s.Title)
				continue
			}
			in := included || len(t.Include) == 0 || matchesAny(s.Title, t.Include)
			opt := optional || matchesAny(s.Title, t.Optional)
			if n, ok := stories[s]; ok {
				switch {
				case !in:
				case n < step:
					c.Excerpts = append(c.Excerpts, Excerpt{Source: path, Title: s.Title, Level: s.Level, Kind: KindStorySummary,
						Text: "- ✓ " + oneLine(s.Title, firstSentence(o.Body(s))) + "\n"})
				case n == step:
					text := stripReasoning(o.Text(s))
					if k := len(c.Excerpts); k > 0 && c.Excerpts[k-1].Kind == KindStorySummary {
						text = "\n" + text
					}
					c.Excerpts = append(c.Excerpts, Excerpt{Source: path, Title: s.Title, Level: s.Level, Kind: KindCurrentStory, Text: text})
				default:
					c.LeftOut++
				}
				continue
			}
			if in {
				c.Excerpts = append(c.Excerpts, Excerpt{Source: path, Title: s.Title, Level: s.Level, Kind: KindSection, Text: stripReasoning(o.Own(s)), Optional: opt})
			}
			walk(s.Children, in, opt)
		}
	}
	walk(o.Sections, whole, false)
	return nil
}

// namesType reports whether a list names an artifact type ("completion
// report", "completion_report" and "completion-report" are the same).
func namesType(list []string, typ string) bool {
	if typ == "" {
		return false
	}
	for _, x := range list {
		if normalize(x) == normalize(typ) {
			return true
		}
	}
	return false
}

var reasoningBlock = regexp.MustCompile(`(?is)<(thinking|reasoning|scratchpad)>.*?</(thinking|reasoning|scratchpad)>\n?`)

// stripReasoning removes <thinking>…</thinking>-style blocks.
func stripReasoning(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return reasoningBlock.ReplaceAllString(s, "")
}

// firstSentence is the first sentence of a markdown body, without markup:
// the first paragraph, its lines joined (a sentence wrapped over several
// lines is kept whole), up to the first ". ", "! " or "? ".
func firstSentence(body string) string {
	p := firstParagraph(body)
	for i := 0; i+1 < len(p); i++ {
		if (p[i] == '.' || p[i] == '!' || p[i] == '?') && p[i+1] == ' ' {
			return p[:i+1]
		}
	}
	return p
}

// firstParagraph is the first paragraph of a markdown body as one line,
// without markup; headings, tables and code blocks are skipped, and a list
// item is a paragraph of its own.
func firstParagraph(body string) string {
	var para []string
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			if len(para) > 0 {
				break
			}
			fence = t[:3]
			continue
		}
		t, item := trimMarker(t)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || (item && len(para) > 0) {
			if len(para) > 0 {
				break
			}
			continue
		}
		para = append(para, t)
	}
	return strings.NewReplacer("**", "", "__", "", "`", "").Replace(strings.Join(para, " "))
}

var listMarker = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])\s+`)

// trimMarker removes a list item's or a block quote's marker from a line.
func trimMarker(t string) (string, bool) {
	item := false
	for {
		switch {
		case strings.HasPrefix(t, ">"):
			t = strings.TrimSpace(t[1:])
		case listMarker.MatchString(t):
			t, item = strings.TrimSpace(listMarker.ReplaceAllString(t, "")), true
		default:
			return t, item
		}
	}
}

// oneLine joins a title and a sentence and cuts the line at 400 bytes
// (only an unusually long sentence is cut).
func oneLine(title, sentence string) string {
	s := title
	if sentence != "" {
		s += ": " + sentence
	}
	if len(s) > 400 {
		cut := 397
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
