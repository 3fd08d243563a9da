package mcpcmd

import (
	"context"
	"fmt"

	"github.com/curator-dev/curator/curate/playbook"
)

// QueryPlaybookArgs are query_playbook's parameters.
type QueryPlaybookArgs struct {
	Category string   `json:"category,omitempty" jsonschema:"only bullets of this category (strategy, api, verification, troubleshooting, …)"`
	Text     string   `json:"text,omitempty" jsonschema:"rank the bullets by similarity to this text"`
	Tags     []string `json:"tags,omitempty" jsonschema:"only bullets that have all these tags"`
	Limit    int      `json:"limit,omitempty" jsonschema:"at most this many bullets (default 10)"`
}

// AddReflectionArgs are add_reflection's parameters.
type AddReflectionArgs struct {
	Reflection string `json:"reflection" jsonschema:"the reflection: markdown with a frontmatter (---, id, lessons: [{content, category, confidence, tags}], ---) or a JSON object with the same fields"`
	Format     string `json:"format,omitempty" jsonschema:"markdown or json; only needed when the text does not tell (a JSON object starts with {)"`
}

// CuratePlaybookArgs are curate_playbook's parameters. The pointers tell
// a parameter given from one left out: config.yaml's context section
// applies to the thresholds not given, as for the command.
type CuratePlaybookArgs struct {
	DryRun              *bool    `json:"dry_run,omitempty" jsonschema:"report the decisions and change nothing (default true: only dry_run false curates)"`
	AutoMerge           bool     `json:"auto_merge,omitempty" jsonschema:"apply merges instead of proposing them, from the auto-merge similarity up (see the tool's description)"`
	ReflectionID        string   `json:"reflection_id,omitempty" jsonschema:"curate only this pending reflection"`
	SimilarityThreshold *float64 `json:"similarity_threshold,omitempty" jsonschema:"above it a lesson reinforces a bullet; from the merge floor up to it, it merges (default: config.yaml's context.similarity_threshold)"`
	MinConfidence       *float64 `json:"min_confidence,omitempty" jsonschema:"skip lessons under this confidence (default: config.yaml's context.min_confidence)"`
	RequireValidation   bool     `json:"require_validation,omitempty" jsonschema:"mark every merged bullet validation: required"`
	Category            string   `json:"category,omitempty" jsonschema:"curate only lessons of this category"`
	Maintenance         bool     `json:"maintenance,omitempty" jsonschema:"also tidy the playbook: dedup, archive harmful, prune unused, merge overlapping, rebalance priorities"`
}

// ReviewQueueArgs are review_queue's parameters: none lists the queue.
type ReviewQueueArgs struct {
	Decision string `json:"decision,omitempty" jsonschema:"approve or reject; left out, the queue is listed and nothing changes"`
	ID       string `json:"id,omitempty" jsonschema:"the bullet to approve or reject"`
	All      bool   `json:"all,omitempty" jsonschema:"approve or reject every bullet of the queue"`
}

// NoArgs is a tool without parameters.
type NoArgs struct{}

// defaultQueryLimit is how many bullets query_playbook returns unless told.
const defaultQueryLimit = 10

func (s *Server) addPlaybookTools() {
	warm := &playbook.Warm{} // the playbook kept read between queries
	tool(s, "query_playbook", "Active playbook bullets by category, tags or similarity to a text, best first "+
		"(as `curator context query --json`).", func(ctx context.Context, a QueryPlaybookArgs) (Result, error) {
		return s.queryPlaybook(ctx, warm, a)
	})
	tool(s, "add_reflection", "Store a reflection (lessons learned) as pending, for curate_playbook to merge into the playbook "+
		"(one commit, as `curator context reflect`). It is checked first: lessons with content, confidence in [0,1], "+
		"priority 1–10, no secrets in any field; a bad one is refused with its field and nothing is stored.", s.addReflection)
	tool(s, "curate_playbook", fmt.Sprintf("Merge the pending reflections into the playbook: similarity above the threshold "+
		"(default %g, else config.yaml's) reinforces a bullet, from %g up to it merges (a proposal unless auto_merge; auto_merge "+
		"applies merges of similarity %g and up), below %g adds a bullet; lessons under min_confidence (default %g) are skipped. "+
		"A dry run unless dry_run is false; then one commit. The `curator context curate --json` report.",
		playbook.DefaultThreshold, playbook.MergeFloor, playbook.AutoMergeMin, playbook.MergeFloor, playbook.DefaultMinConf), s.curatePlaybook)
	tool(s, "review_queue", fmt.Sprintf("The bullets that wait for a human, highest priority first, each with why: validation required, "+
		"high priority (8–10) never approved, confidence under %g, sensitive (as `curator context review --json`). With decision "+
		"approve or reject and an id (or all), decides on them in one commit (as `curator context review approve|reject`).", playbook.LowConfidence), s.reviewQueue)
	tool(s, "playbook_stats", "Playbook statistics: bullets by category, confidence, helpful/harmful counters, pending reflections "+
		"(as `curator context stats --json`).", func(ctx context.Context, _ NoArgs) (Result, error) {
		return s.playbookStats(ctx)
	})
}

func (s *Server) playbookStats(ctx context.Context) (Result, error) {
	st, _, err := s.playbookStore(ctx, "playbook_stats")
	if err != nil {
		return nil, err
	}
	return playbookResult(playbook.Statistics(ctx, st, playbook.StatsRequest{}))
}

func (s *Server) queryPlaybook(ctx context.Context, warm *playbook.Warm, a QueryPlaybookArgs) (Result, error) {
	if a.Limit == 0 {
		a.Limit = defaultQueryLimit
	}
	q := playbook.QueryRequest{Text: a.Text, Limit: a.Limit, Tags: a.Tags, Category: a.Category}
	st, _, err := s.playbookStore(ctx, "query_playbook")
	if err != nil {
		return nil, err
	}
	return playbookResult(warm.Query(ctx, st, q))
}

func (s *Server) addReflection(ctx context.Context, a AddReflectionArgs) (Result, error) {
	st, saving, err := s.playbookStore(ctx, "add_reflection")
	if err != nil {
		return nil, err
	}
	return playbookResult(playbook.Reflect(ctx, st, playbook.ReflectRequest{Name: "reflection", Data: []byte(a.Reflection), Format: a.Format,
		FreshID: true, Saving: saving}))
}

func (s *Server) curatePlaybook(ctx context.Context, a CuratePlaybookArgs) (Result, error) {
	req := playbook.CurateRequest{Settings: playbook.DefaultSettings(), DryRun: a.DryRun == nil || *a.DryRun}
	set := &req.Settings
	set.AutoMerge, set.RequireValidation, set.Maintenance = a.AutoMerge, a.RequireValidation, a.Maintenance
	set.ReflectionID, set.Category = a.ReflectionID, a.Category
	if a.SimilarityThreshold != nil {
		set.Threshold, req.ThresholdSet = *a.SimilarityThreshold, true
	}
	if a.MinConfidence != nil {
		set.MinConfidence, req.MinConfidenceSet = *a.MinConfidence, true
	}
	st, saving, err := s.playbookStore(ctx, "curate_playbook")
	if err != nil {
		return nil, err
	}
	req.Saving = saving
	return playbookResult(playbook.Curate(ctx, st, req))
}

func (s *Server) reviewQueue(ctx context.Context, a ReviewQueueArgs) (Result, error) {
	req := playbook.ReviewQueueRequest{Decision: a.Decision, ID: a.ID, All: a.All}
	if err := req.Check(); err != nil {
		return nil, toolError(err)
	}
	st, saving, err := s.playbookStore(ctx, "review_queue")
	if err != nil {
		return nil, err
	}
	if review, decides := req.Decides(saving); decides {
		return playbookResult(playbook.Review(ctx, st, review))
	}
	return playbookResult(playbook.ListReviewQueue(ctx, st))
}
