package playbook

import (
	"context"
	"slices"
	"strings"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// RelevantFloor is the least similarity of a relevant bullet (or memory)
// to the text it is chosen for; below it a bullet shares too little with
// the task. Between it and RelevantWithoutWords a bullet must also share
// two words with the text (not stop words; one when the text has only
// one): a similarity of related words, or one word in common, is too
// weak a reason. The floor follows the engine's scale: a long task text
// and a one-line bullet share few words, so related pairs score low (the
// AppWorld pagination bullet 0.228 against a catalogue story, the media
// player bullet 0.200); it sits between them.
const (
	RelevantFloor        = 0.215
	RelevantWithoutWords = 0.45
)

// Task is a task's text read for the words it shares with bullets and
// memories.
type Task struct {
	lexical *similar.Lexical
	text    string
	// words is how many distinct words the text has, stop words and
	// numbers left out.
	words int
}

// NewTask reads a task's text with e, or with the lexical engine when e
// is another engine.
func NewTask(e similar.Engine, text string) *Task {
	l, _ := e.(*similar.Lexical)
	if l == nil {
		l = similar.NewLexical()
	}
	return &Task{lexical: l, text: text, words: len(l.SharedWords(text, text))}
}

// MatchedWords are the words of content that the task holds too (the
// same stem or lemma), in content's order, stop words and numbers left
// out.
func (t *Task) MatchedWords(content string) []string {
	return orEmpty(t.lexical.SharedWords(t.text, content))
}

// Chosen reports whether a similarity and the words shared with the task
// are reason enough to choose a bullet or a memory for it.
func (t *Task) Chosen(score float64, matched []string) bool {
	return score >= RelevantWithoutWords-1e-9 || score >= RelevantFloor-1e-9 && len(matched) >= min(2, max(t.words, 1))
}

// RelevantRequest asks for the bullets most relevant to a task: a
// pipeline step's story and mission (the brief), or the text of
// `context inject --for`.
type RelevantRequest struct {
	// Text is the task the bullets are scored against.
	Text string
	// Categories limit the bullets (none: every category).
	Categories []string
	// Limit is the most bullets (at least 1).
	Limit int
}

// Check refuses an empty text and fewer than one bullet.
func (r RelevantRequest) Check() error {
	if strings.TrimSpace(r.Text) == "" {
		return paramErrorf("for", "give the task the bullets are chosen for")
	}
	if r.Limit < 1 {
		return paramErrorf("limit", "want at least 1, not %d", r.Limit)
	}
	return nil
}

// RelevantBullet is a bullet chosen for a task, and why: its similarity
// to the task's text and the words they share.
type RelevantBullet struct {
	*mdstore.Bullet
	Score float64  `json:"score"`
	Words []string `json:"matched_words"`
}

// relevantCandidate reports whether a bullet may be chosen for a task at
// all: active, not waiting for review or refused by it, not harmful more
// often than helpful, of one of the categories (none: any).
func relevantCandidate(category, validation string, helpful, harmful int, categories []string) bool {
	return validation != "required" && validation != "rejected" && harmful <= helpful &&
		(len(categories) == 0 || slices.Contains(categories, category))
}

// RankRelevant is the ranking of bullets for a task, the one that briefs
// and `context inject --for` share: the candidates (relevantCandidate)
// that are Chosen for their similarity to the text and the words they
// share with it, by score, then rank (priority, helpful − harmful,
// confidence, id), at most req.Limit. With a matcher only the candidate
// index's candidates are scored.
func RankRelevant(pb *Playbook, e similar.Engine, req RelevantRequest) []RelevantBullet {
	var hits []QueryResult
	if pb.Matcher != nil {
		accept := func(id string) bool {
			b := pb.bullets.get(id)
			return b != nil && relevantCandidate(b.Category, b.Validation, b.HelpfulCount, b.HarmfulCount, req.Categories)
		}
		// more than the limit: some are not Chosen for want of words
		for _, m := range pb.Matcher.Top(req.Text, RelevantFloor, relevantPool*req.Limit, accept) {
			hits = append(hits, QueryResult{Bullet: pb.bullets.get(m.ID), Score: m.Score})
		}
	} else {
		pb.ReadAll()
		for _, b := range pb.Active() {
			if !relevantCandidate(b.Category, b.Validation, b.HelpfulCount, b.HarmfulCount, req.Categories) {
				continue
			}
			if s := e.Score(req.Text, b.Content); s >= RelevantFloor-1e-9 {
				hits = append(hits, QueryResult{Bullet: b, Score: s})
			}
		}
	}
	task := NewTask(e, req.Text)
	var out []RelevantBullet
	for _, h := range sortResults(pb, hits, 0) {
		if len(out) == req.Limit {
			break
		}
		if words := task.MatchedWords(h.Content); task.Chosen(h.Score, words) {
			out = append(out, RelevantBullet{Bullet: h.Bullet, Score: roundScore(h.Score), Words: words})
		}
	}
	return out
}

// relevantPool is how many times the limit RankRelevant asks the
// candidate index for.
const relevantPool = 4

// roundScore keeps three decimals of a similarity, as reports show it.
func roundScore(s float64) float64 { return float64(int(s*1000+0.5)) / 1000 }

// RelevantReport is the bullets chosen for a task.
type RelevantReport struct {
	Text    string                 `json:"text"`
	Engine  string                 `json:"engine"`
	Bullets []RelevantBullet       `json:"bullets"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
	Notes   []string               `json:"notes"`
}

// Relevant ranks the store's bullets for a task (RankRelevant) with the
// engine config.yaml names, through the candidate index. An engine that
// fails while it ranks stops it; one that fell back to the lexical engine
// is a note.
func Relevant(_ context.Context, s *mdstore.Store, req RelevantRequest) (*RelevantReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	pb, e, invalid, err := Read(s, true, s.Now())
	if err != nil {
		return nil, err
	}
	defer s.WriteCaches()
	res := RankRelevant(pb, e, req)
	if err := pb.Err(); err != nil {
		return nil, err
	}
	if err := CheckEngine(e); err != nil {
		return nil, err
	}
	rep := &RelevantReport{Text: req.Text, Engine: e.Name(), Bullets: orEmpty(res), Invalid: orEmpty(invalid), Notes: []string{}}
	if note := EngineNote(e); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	return rep, nil
}
