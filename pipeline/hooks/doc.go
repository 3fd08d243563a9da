// Package hooks runs the playbook curations at the development loop's
// moments, which pipeline transitions mark: an implementation step done
// curates the agents' pending reflections, an approval lists the bullets
// that wait for the product owner's review, a phase completed runs the
// maintenance curation, the pipeline completed a full deduplication pass.
// Each runs after the transition is committed, as its own commit, through
// the same use-case as the `curator context` command it stands for.
package hooks
