package playbook

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// ImportRequest is a playbook to import (`context import`).
type ImportRequest struct {
	// Name is what the playbook is called in messages (its file, "stdin").
	Name string
	Data []byte
	// Format is ace or kayba.
	Format string
	Saving Saving
}

// Check refuses a format other than ace and kayba.
func (r ImportRequest) Check() error {
	if r.Format != "ace" && r.Format != "kayba" {
		return paramErrorf("format", "want ace or kayba, not %q", r.Format)
	}
	return nil
}

// Import adds the playbook's new bullets, one commit. A playbook that
// cannot be read is refuse.Blocked; a bullet refused (a secret) is left
// out and named in Skipped, with the bullets of the store that could not
// be read.
func Import(_ context.Context, s *mdstore.Store, req ImportRequest) (*ImportReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	if err := allowed(s, req.Saving, "importing bullets"); err != nil {
		return nil, err
	}
	var in []ImportedBullet
	var err error
	if req.Format == "kayba" {
		in, err = ParseKayba(req.Data)
	} else {
		in, err = ParseACE(req.Data)
	}
	if err != nil {
		return nil, refuse.Blocked(fmt.Errorf("%s: %w", req.Name, err))
	}
	tx, pb, invalid, err := openLocked(s, req.Saving)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	acts, refused, run, err := importRun(s, pb, in, filepath.Base(req.Name))
	if err != nil {
		return nil, err
	}
	commit, err := tx.Save(run, req.Saving.Save...)
	if err != nil {
		return nil, err
	}
	rep := NewImportReport(len(in), acts, refused, commit)
	rep.Invalid = invalid
	// a refused bullet is an invalid input of the imported file
	for _, e := range refused {
		rep.Invalid = append(rep.Invalid, &mdstore.InvalidFile{Path: req.Name, Msg: e.Error()})
	}
	return &rep, nil
}

// ImportedBullet is one bullet read from another playbook format.
type ImportedBullet struct {
	OriginalID string
	Section    string // the heading or section it was under
	Category   string
	Content    string
	Helpful    int
	Harmful    int
	Line       int // in the source, when known
}

// aceSections maps the ACE playbook headings to curator categories.
var aceSections = map[string]string{
	"STRATEGIES AND HARD RULES":                "strategy",
	"APIS TO USE FOR SPECIFIC INFORMATION":     "api",
	"USEFUL CODE SNIPPETS AND TEMPLATES":       "pattern",
	"COMMON MISTAKES AND CORRECT STRATEGIES":   "anti-pattern",
	"PROBLEM-SOLVING HEURISTICS AND WORKFLOWS": "strategy",
	"VERIFICATION CHECKLIST":                   "verification",
	"TROUBLESHOOTING AND PITFALLS":             "troubleshooting",
	"OTHERS":                                   "other",
}

// categoryHeadings are the headings export writes for bullets that were
// not imported (no section of their own).
var categoryHeadings = map[string]string{
	"strategy": "STRATEGIES AND HARD RULES", "api": "APIs TO USE FOR SPECIFIC INFORMATION",
	"pattern": "USEFUL CODE SNIPPETS AND TEMPLATES", "anti-pattern": "COMMON MISTAKES AND CORRECT STRATEGIES",
	"verification": "VERIFICATION CHECKLIST", "troubleshooting": "TROUBLESHOOTING AND PITFALLS", "other": "OTHERS",
}

// SectionCategory maps a section heading to a category: the known ACE
// headings to curator's categories, anything else to its slug.
func SectionCategory(heading string) string {
	h := strings.TrimRight(strings.TrimSpace(heading), ":")
	if c, ok := aceSections[strings.ToUpper(h)]; ok {
		return c
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(h) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		return defaultLessonCateg
	}
	return s
}

var (
	aceLineRE     = regexp.MustCompile(`^\s*(?:[-*]\s+)?\[([^\]\s]+)\]\s*(.*)$`)
	aceCountersRE = regexp.MustCompile(`^((?:\s*(?:helpful|harmful|neutral)\s*=\s*\d+)+)\s*::\s*(.*)$`)
	aceCounterRE  = regexp.MustCompile(`(helpful|harmful|neutral)\s*=\s*(\d+)`)
	// aceBadCountersRE is a line that gives nothing but counters before
	// "::", the way ACE writes them, with a number that is not a whole
	// one (helpful=-1, helpful=1.5); other text before "::" is content.
	aceBadCountersRE = regexp.MustCompile(`^(?:\s*(?:helpful|harmful|neutral)\s*=\s*-?[\d.]+)+\s*::`)
)

// ParseACE reads the ACE text playbook: `## SECTION` headings, then lines
// `[id] helpful=N harmful=N :: content` or `[id] content`. Other lines are
// ignored; a bullet line with no content is an error naming its line.
func ParseACE(data []byte) ([]ImportedBullet, error) {
	var out []ImportedBullet
	section := "OTHERS"
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), mdstore.MaxRecordSize)
	n := 1
	for ; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimSpace(line[3:])
			continue
		}
		m := aceLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		b := ImportedBullet{OriginalID: m[1], Section: section, Category: SectionCategory(section), Content: m[2], Line: n}
		if c := aceCountersRE.FindStringSubmatch(m[2]); c == nil && aceBadCountersRE.MatchString(m[2]) {
			return nil, fmt.Errorf("line %d: bullet [%s]: its counters are not whole numbers (helpful=N harmful=N :: content)", n, m[1])
		} else if c != nil {
			for _, kv := range aceCounterRE.FindAllStringSubmatch(c[1], -1) {
				v, err := strconv.Atoi(kv[2])
				if err != nil {
					return nil, fmt.Errorf("line %d: bullet [%s]: %s=%s is not a count curator can keep", n, b.OriginalID, kv[1], kv[2])
				}
				switch kv[1] {
				case "helpful":
					b.Helpful = v
				case "harmful":
					b.Harmful = v
				}
			}
			b.Content = c[2]
		}
		b.Content = strings.TrimSpace(b.Content)
		if b.Content == "" {
			return nil, fmt.Errorf("line %d: bullet [%s] has no content", n, b.OriginalID)
		}
		out = append(out, b)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d: 1 MiB or longer, more than a bullet may be", n)
	}
	return out, sc.Err()
}

// ParseKayba reads a kayba (agentic-context-engine) skillbook JSON:
// {"skills": {id: skill} or [skill]}, each skill with id, section, content
// (or insight/issue), helpful/harmful (or helpful_count/harmful_count).
// A key given twice in one object is refused, naming its line.
func ParseKayba(data []byte) ([]ImportedBullet, error) {
	var doc struct {
		Skills  json.RawMessage `json:"skills"`
		Bullets json.RawMessage `json:"bullets"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("skillbook JSON: %w", err)
	}
	if err := mdstore.KeyGivenTwice(data); err != nil {
		return nil, err
	}
	raw := doc.Skills
	if len(raw) == 0 {
		raw = doc.Bullets
	}
	type skill struct {
		ID           string `json:"id"`
		Section      string `json:"section"`
		Content      string `json:"content"`
		Insight      string `json:"insight"`
		Issue        string `json:"issue"`
		Helpful      *int   `json:"helpful"`
		Harmful      *int   `json:"harmful"`
		HelpfulCount *int   `json:"helpful_count"`
		HarmfulCount *int   `json:"harmful_count"`
		Status       string `json:"status"`
		Active       *bool  `json:"active"`
	}
	var list []skill
	var byID map[string]skill
	if err := json.Unmarshal(raw, &byID); err == nil {
		for id, s := range byID {
			if s.ID == "" {
				s.ID = id
			}
			list = append(list, s)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	} else if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("skillbook JSON: \"skills\" is neither an object nor a list of skills")
	}
	var out []ImportedBullet
	for i, s := range list {
		if s.Status == "invalid" || s.Status == "removed" || (s.Active != nil && !*s.Active) {
			continue
		}
		content := s.Content
		if content == "" {
			content = strings.TrimSpace(strings.Join(nonEmpty(s.Issue, s.Insight), " "))
		}
		if strings.TrimSpace(content) == "" {
			return nil, fmt.Errorf("skills[%d] (%s): no content", i, s.ID)
		}
		b := ImportedBullet{OriginalID: s.ID, Section: s.Section, Category: SectionCategory(s.Section), Content: strings.TrimSpace(content)}
		b.Helpful, b.Harmful = firstInt(s.Helpful, s.HelpfulCount), firstInt(s.Harmful, s.HarmfulCount)
		if b.Helpful < 0 || b.Harmful < 0 {
			return nil, fmt.Errorf("skills[%d] (%s): helpful %d, harmful %d: a count is never negative", i, s.ID, b.Helpful, b.Harmful)
		}
		out = append(out, b)
	}
	return out, nil
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			out = append(out, strings.TrimSpace(x))
		}
	}
	return out
}

func firstInt(ps ...*int) int {
	for _, p := range ps {
		if p != nil {
			return *p
		}
	}
	return 0
}

// PlanImport turns imported bullets into new_bullet actions, with fresh ids
// and the original id and section kept in the bullet. Bullets whose
// original id is already in the playbook (active or archived, as an
// original id or as a bullet's own id) are skipped, so importing a file,
// or the playbook's own export, twice adds nothing. Secret-looking bullets are
// refused (returned as errors, nothing of them written).
func PlanImport(pb *Playbook, in []ImportedBullet, source string) ([]Action, []error) {
	have := map[string]bool{}
	for _, b := range append(pb.Active(), pb.Archived()...) {
		if b.OriginalID != "" {
			have[b.OriginalID] = true
		}
		// an export writes the id of a bullet that was not imported:
		// importing that export again adds nothing either
		have[b.ID] = true
	}
	var acts []Action
	var errs []error
	for _, ib := range in {
		if have[ib.OriginalID] {
			continue
		}
		if e := pb.Secrets.Check(secrets.Field{Name: "content", Text: ib.Content}, secrets.Field{Name: "id", Text: ib.OriginalID},
			secrets.Field{Name: "section", Text: ib.Section}, secrets.Field{Name: "category", Text: ib.Category}); e != nil {
			id := ib.OriginalID
			if pb.Secrets.Find(id) != nil {
				id = "?"
			}
			errs = append(errs, fmt.Errorf("%s: bullet [%s] (line %d): %s looks like it holds a secret (%s); not imported", source, id, ib.Line, e.Field, e.Rule))
			continue
		}
		have[ib.OriginalID] = true
		acts = append(acts, Action{Type: ActNewBullet, BulletID: pb.IDs.Next(ib.Category), Category: ib.Category,
			Content: ib.Content, Confidence: 0.5, Priority: 5, Validation: "none",
			OriginalID: ib.OriginalID, Section: ib.Section, Helpful: ib.Helpful, Harmful: ib.Harmful,
			Reasoning: fmt.Sprintf("imported [%s] from %s", ib.OriginalID, source)})
	}
	return acts, errs
}

// ExportACE renders the active bullets as an ACE text playbook: one heading
// per section, sections in a fixed order (the known ACE headings first), lines `[id] helpful=N harmful=N :: content` with the original
// id when the bullet was imported.
func ExportACE(bullets []*mdstore.Bullet) []byte {
	// groups are keyed by heading without case or a trailing colon, so a
	// section and the category heading that differs from it only by those
	// are one section; its heading is the imported one (the least, if
	// bullets were imported under several spellings).
	groups := map[string][]*mdstore.Bullet{}
	heading := map[string]string{}
	fromSection := map[string]bool{}
	var order []string
	for _, b := range bullets {
		if !b.IsActive {
			continue
		}
		h := b.Section
		if h == "" {
			h = categoryHeadings[b.Category]
		}
		if h == "" {
			h = strings.ToUpper(strings.ReplaceAll(b.Category, "-", " "))
		}
		k := headingKey(h)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			heading[k] = h
		}
		if b.Section != "" && (!fromSection[k] || b.Section < heading[k]) {
			heading[k] = b.Section
		}
		fromSection[k] = fromSection[k] || b.Section != ""
		groups[k] = append(groups[k], b)
	}
	rank := map[string]int{}
	for i, h := range []string{"STRATEGIES AND HARD RULES", "APIs TO USE FOR SPECIFIC INFORMATION", "USEFUL CODE SNIPPETS AND TEMPLATES",
		"COMMON MISTAKES AND CORRECT STRATEGIES", "PROBLEM-SOLVING HEURISTICS AND WORKFLOWS", "VERIFICATION CHECKLIST",
		"TROUBLESHOOTING AND PITFALLS", "OTHERS"} {
		rank[headingKey(h)] = i + 1
	}
	sort.SliceStable(order, func(i, j int) bool {
		ri, rj := rank[order[i]], rank[order[j]]
		if ri == 0 {
			ri = 100
		}
		if rj == 0 {
			rj = 100
		}
		if ri != rj {
			return ri < rj
		}
		return heading[order[i]] < heading[order[j]]
	})
	var buf bytes.Buffer
	for i, h := range order {
		if i > 0 {
			buf.WriteByte('\n')
		}
		fmt.Fprintf(&buf, "## %s\n", heading[h])
		bs := groups[h]
		sort.SliceStable(bs, func(i, j int) bool { return exportID(bs[i]) < exportID(bs[j]) })
		for _, b := range bs {
			content := strings.Join(strings.Fields(b.Content), " ")
			fmt.Fprintf(&buf, "[%s] helpful=%d harmful=%d :: %s\n", exportID(b), b.HelpfulCount, b.HarmfulCount, content)
		}
	}
	return buf.Bytes()
}

// headingKey is a section heading without case or a trailing colon.
func headingKey(h string) string {
	return strings.ToUpper(strings.TrimRight(strings.TrimSpace(h), ":"))
}

func exportID(b *mdstore.Bullet) string {
	if b.OriginalID != "" {
		return b.OriginalID
	}
	return b.ID
}
