package playbook

import (
	"fmt"
	"math"
	"strings"

	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// MaxContentBytes is the most text one action of a curation document may
// carry in a field: a bullet holding it, with its frontmatter, stays under
// the record size limit that every read applies.
const MaxContentBytes = mdstore.MaxRecordSize - 16<<10

// checkDocAction refuses what curator could not read back or must not
// commit: a secret in any text of the action, text over the size limit,
// NUL and other control characters (tab and newline are text; a carriage
// return only before a newline), a similarity_score or confidence outside
// [0, 1], a priority outside 1–10.
func checkDocAction(p *secrets.Policy, d CurationDocAction) error {
	fields := []secrets.Field{{Name: "action", Text: d.Action}, {Name: "bullet_id", Text: d.BulletID},
		{Name: "target_bullet_id", Text: d.TargetBulletID}, {Name: "category", Text: d.Category},
		{Name: "content", Text: d.Content}, {Name: "merged_content", Text: d.MergedContent},
		{Name: "reasoning", Text: d.Reasoning}, {Name: "reflection_id", Text: d.ReflectionID}}
	fields = append(fields, secrets.Strings("tags", d.Tags)...)
	for _, f := range fields {
		if len(f.Text) > MaxContentBytes {
			return fmt.Errorf("%s is %d bytes, over the limit of %d (a record is at most 1 MiB)", f.Name, len(f.Text), MaxContentBytes)
		}
		if i, r := controlChar(f.Text); i >= 0 {
			return fmt.Errorf("%s holds the control character %U at byte %d (only tab and newline are allowed)", f.Name, r, i)
		}
	}
	if e := p.Check(fields...); e != nil {
		return fmt.Errorf("%s looks like it holds a secret (%s: %s)", e.Field, e.Rule, e.What)
	}
	if s := d.SimilarityScore; math.IsNaN(s) || s < 0 || s > 1 {
		return fmt.Errorf("similarity_score %v is out of range [0, 1]", s)
	}
	if c := d.Confidence; c != nil && (math.IsNaN(*c) || *c < 0 || *c > 1) {
		return fmt.Errorf("confidence %v is out of range [0, 1]", *c)
	}
	if d.Priority != 0 && (d.Priority < 1 || d.Priority > 10) {
		return fmt.Errorf("priority %d is out of range 1–10", d.Priority)
	}
	return nil
}

// controlChar returns the offset and rune of the first control character
// other than tab, newline and a carriage return before a newline, or -1.
func controlChar(s string) (int, rune) {
	for i, r := range s {
		switch {
		case r == '\t' || r == '\n':
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return i, r
		}
	}
	return -1, 0
}
