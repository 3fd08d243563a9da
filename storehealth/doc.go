// Package storehealth is the store's health over time, as the dashboard
// shows it: what each curator run did (read from its commit and, for
// playbook curations, its metrics file), summed per run or per day — memory
// entries ingested, promoted by channel, trashed, kept, left for
// reflection, late; playbook bullets new, reinforced, merged, archived and
// active by category — with the runs that differ sharply from the recent
// ones marked; and the store as it is now: the inbox and its oldest entry,
// confirmed memories by type, the playbook's confidence and counters, the
// bullets waiting for validation, the most helpful and harmful bullets and
// those unused for 90 days.
//
// The runs already summarised are kept in .curator/.cache/store-health.json
// (git-ignored), so that a read walks only the commits made since.
package storehealth
