package history

import (
	"fmt"
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/layout"
)

// Event is one thing that happened to a record in one commit.
type Event struct {
	Commit string    `json:"commit"`
	Time   time.Time `json:"time"`
	// RunID is the commit's Curator-Run trailer, "" for a hand edit.
	RunID string `json:"run_id"`
	// ByHand is true for a commit without a Curator-Run trailer.
	ByHand bool `json:"by_hand"`
	// ID is the record the event is about (for a bullet, one id of its
	// version chain); Record is "memory" or "bullet".
	ID     string `json:"id"`
	Record string `json:"record"`
	// What is one of the Event* kinds.
	What string `json:"what"`
	// Path is the store-relative file after the commit ("" when removed),
	// From the one before it ("" when created).
	Path string `json:"path,omitempty"`
	From string `json:"from,omitempty"`
	// SourceReflections and Agent tell where a created bullet came from
	// (Agent is the agent of the reflection its run curated, the last of
	// SourceReflections, when recorded).
	SourceReflections []string `json:"source_reflections,omitempty"`
	Agent             string   `json:"agent,omitempty"`
	// HelpfulDelta is the helpful_count increase of a reinforcement.
	HelpfulDelta int `json:"helpful_delta,omitempty"`
	// MergedInto is the new version a merged bullet went into; MergedFrom
	// the merged_from of that version (of this bullet, when created by a
	// merge).
	MergedInto string   `json:"merged_into,omitempty"`
	MergedFrom []string `json:"merged_from,omitempty"`
	// Channel is the promotion channel a run's decision line names.
	Channel string `json:"channel,omitempty"`
	// Reason is a trashed memory's trashed.reason.
	Reason string `json:"reason,omitempty"`
	// Keys are the frontmatter keys that changed ("body" for the text).
	Keys []string `json:"keys,omitempty"`
	// Summary is the event in words, as `curator log ID` prints it.
	Summary string `json:"summary"`
}

// What happened to a record.
const (
	EventCreated    = "created"    // a bullet written
	EventReinforced = "reinforced" // helpful_count went up
	EventMerged     = "merged"     // archived into a new version
	EventArchived   = "archived"
	EventRestored   = "restored" // back from the archive or the trash
	EventEdited     = "edited"
	EventIngested   = "ingested" // a memory added
	EventPromoted   = "promoted"
	EventTrashed    = "trashed"
	EventMoved      = "moved"   // another move between folders
	EventRemoved    = "removed" // the file deleted outright
)

// event classifies a touch.
func (t *touch) event() Event {
	e := Event{Commit: t.commit.Hash.String(), Time: t.commit.Committer.When.UTC(), RunID: t.run.RunID, ByHand: t.run.RunID == ""}
	var p string
	if t.new != nil {
		e.Path, p = t.new.path, t.new.path
	}
	if t.old != nil {
		e.From = t.old.path
		if p == "" {
			p = t.old.path
		}
	}
	if e.Path == e.From {
		e.From = ""
	}
	e.ID, _ = recordID(p)
	if isBulletPath(p) {
		e.Record = "bullet"
		t.bulletEvent(&e)
	} else {
		e.Record = "memory"
		t.memoryEvent(&e)
	}
	if e.ByHand {
		e.Summary += " by hand"
	}
	return e
}

func (t *touch) bulletEvent(e *Event) {
	switch {
	case t.old == nil:
		e.What = EventCreated
		b := parseBullet(t.new)
		if b == nil {
			e.Summary = "created (unreadable)"
			return
		}
		e.SourceReflections = b.SourceReflections
		e.MergedFrom = b.MergedFrom
		e.Summary = "created"
		if len(b.MergedFrom) > 0 {
			e.Summary += " by merging " + strings.Join(b.MergedFrom, " + ")
		}
		if n := len(b.SourceReflections); n > 0 {
			// the reflection of the run that wrote it comes last (a merged
			// version lists its parents' reflections first)
			last := b.SourceReflections[n-1]
			e.Agent = t.agentOf(last)
			if len(b.MergedFrom) > 0 {
				e.Summary += " with " + last
			} else {
				e.Summary += " from " + strings.Join(b.SourceReflections, ", ")
			}
			if e.Agent != "" {
				e.Summary += " (agent " + e.Agent + ")"
			}
		}
		if bulletStatus(t.new.path) == "archived" {
			e.Summary += " in the archive"
		}
	case t.new == nil:
		e.What, e.Summary = EventRemoved, "removed (the file was deleted)"
	case topFolder(t.old.path) != topFolder(t.new.path) && bulletStatus(t.new.path) == "archived":
		e.What, e.Summary = EventArchived, "archived"
		for id, b := range t.siblings {
			if contains(b.MergedFrom, e.ID) || b.ParentBulletID == e.ID {
				e.What, e.MergedInto, e.MergedFrom = EventMerged, id, b.MergedFrom
				e.Summary = "merged into " + id + " (merged_from " + strings.Join(b.MergedFrom, ", ") + ")"
				break
			}
		}
	case topFolder(t.old.path) != topFolder(t.new.path) && bulletStatus(t.new.path) == "active":
		e.What, e.Summary = EventRestored, "restored"
	default:
		e.Keys = changedKeys(t.old.bytes(), t.new.bytes())
		if e.From != "" {
			e.Keys = append(e.Keys, "path")
		}
		ob, nb := parseBullet(t.old), parseBullet(t.new)
		if ob != nil && nb != nil && nb.HelpfulCount > ob.HelpfulCount && !e.ByHand {
			e.What, e.HelpfulDelta = EventReinforced, nb.HelpfulCount-ob.HelpfulCount
			e.Summary = fmt.Sprintf("reinforced (helpful +%d)", e.HelpfulDelta)
			return
		}
		e.What, e.Summary = EventEdited, "edited ("+strings.Join(e.Keys, ", ")+")"
	}
}

func (t *touch) memoryEvent(e *Event) {
	switch {
	case t.old == nil:
		e.What, e.Summary = EventIngested, "ingested into "+memoryStatus(t.new.path)
	case t.new == nil:
		e.What, e.Summary = EventRemoved, "removed (the file was deleted)"
	case memoryStatus(t.old.path) != memoryStatus(t.new.path):
		from, to := memoryStatus(t.old.path), memoryStatus(t.new.path)
		switch {
		case to == "trash":
			e.What, e.Summary = EventTrashed, "trashed"
			if m, err := mdstore.ParseMemory(t.new.path, t.new.bytes()); err == nil {
				if r, ok := m.Trashed["reason"].(string); ok {
					e.Reason = r
					e.Summary += ": " + r
				}
			}
		case from == "trash":
			e.What, e.Summary = EventRestored, "restored to "+to
		case from == "inbox" && to == "confirmed":
			e.What, e.Summary = EventPromoted, "promoted to "+strings.TrimPrefix(path.Dir(t.new.path), "memory/")
			e.Channel = channelOf(t.commit.Message, e.ID)
			if e.Channel != "" {
				e.Summary += " (channel " + e.Channel + ")"
			}
		default:
			e.What, e.Summary = EventMoved, "moved from "+from+" to "+to
		}
	default:
		e.Keys = changedKeys(t.old.bytes(), t.new.bytes())
		if e.From != "" {
			e.Keys = append(e.Keys, "path")
		}
		e.What, e.Summary = EventEdited, "edited ("+strings.Join(e.Keys, ", ")+")"
	}
}

// memoryStatus is the status a memory's folder gives it.
func memoryStatus(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 3 {
		return parts[1]
	}
	return ""
}

// bulletStatus is active or archived for a bullet's path, by its folder.
func bulletStatus(rel string) string {
	if f := layout.Of(rel).Folder; f.Kind == layout.Bullet {
		return f.Status
	}
	return ""
}

// topFolder is bullets or archive.
func topFolder(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 2 {
		return parts[1]
	}
	return ""
}

// channelOf reads the channel of "promote <id> to … (channel X, …)" in a
// run's decision lines.
func channelOf(msg, id string) string {
	for _, l := range strings.Split(msg, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "promote "+id+" ")
		if !ok {
			continue
		}
		_, ch, ok := strings.Cut(rest, "(channel ")
		if !ok {
			continue
		}
		ch, _, _ = strings.Cut(ch, ",")
		return strings.TrimSuffix(strings.TrimSpace(ch), ")")
	}
	return ""
}

// agentOf is the agent of reflection id as the commit's tree holds it.
func (t *touch) agentOf(id string) string {
	if t.tree == nil {
		return ""
	}
	for _, status := range []string{"merged", "pending"} {
		for _, ext := range []string{".md", ".json"} {
			rel := "context/reflections/" + status + "/" + id + ext
			data, err := blob(t.tree, rel)
			if err != nil {
				continue
			}
			if r, err := mdstore.ParseReflection(rel, data); err == nil && r.Agent != "" {
				return r.Agent
			}
		}
	}
	return ""
}

// parseBullet decodes a bullet file, nil when it does not parse.
func parseBullet(f *fileState) *mdstore.Bullet {
	if f == nil {
		return nil
	}
	d, err := frontmatter.Parse(f.bytes())
	if err != nil {
		return nil
	}
	b, err := mdstore.DecodeBullet(f.path, d)
	if err != nil {
		return nil
	}
	return b
}

// changedKeys are the frontmatter keys whose values differ, in order, and
// "body" when the text changed; both sides unreadable compare as "file".
func changedKeys(old, new []byte) []string {
	od, err1 := frontmatter.Parse(old)
	nd, err2 := frontmatter.Parse(new)
	if err1 != nil || err2 != nil {
		return []string{"file"}
	}
	var om, nm map[string]any
	if od.Decode(&om) != nil || nd.Decode(&nm) != nil {
		return []string{"file"}
	}
	var keys []string
	seen := map[string]bool{}
	for _, k := range append(od.Keys(), nd.Keys()...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		if !reflect.DeepEqual(om[k], nm[k]) {
			keys = append(keys, k)
		}
	}
	if strings.TrimSpace(string(od.Body())) != strings.TrimSpace(string(nd.Body())) {
		keys = append(keys, "body")
	}
	return keys
}
