// Package merge joins three versions of one store file — the common base,
// ours and theirs — record by record, so that no increment, list entry or
// decision made on either side is lost. It is a pure function of bytes,
// shared by curator sync and the git merge driver.
//
// Markdown records (bullets, memories, reflections) are merged key by key in
// the frontmatter and line by line in the body; the result starts from ours'
// bytes and rewrites only the keys whose merged value differs, so untouched
// lines stay byte for byte. memory/state.json and pipeline state files are
// merged field by field. Rules the sync design leaves open are settled here:
//
//   - A key changed on one side only takes that side's value; a key deleted
//     on one side and unchanged on the other is deleted; a key deleted on one
//     side and edited on the other keeps the edited value (nothing is lost).
//   - Counters absent from the base count as 0. confidence is rounded to nine
//     decimals after adding both deltas, then clamped to [0, 1].
//   - Timestamps that do not parse as RFC 3339 are merged as plain values.
//   - A list item removed on either side is removed; additions follow the
//     base order, ours' additions first, then theirs'.
//   - Two different new values of one key keep ours; theirs is recorded
//     under the frontmatter key merge_conflicts (a mapping of key to theirs'
//     value, kept across merges until a reviewer removes it) and reported as
//     a Conflict. The frontmatter never gets conflict markers.
//   - Bodies changed on both sides get a line three-way merge. Lines both
//     sides added at the same place, changing no line of the base there,
//     are kept both, ours first (two notes appended on two machines). Other
//     overlapping changes get git-style markers (<<<<<<< ours, =======,
//     >>>>>>> theirs) in the body only, each reported as a Conflict with
//     Key "". Other text files get no such joining.
//   - The same change made on both sides to a record is merged key by key,
//     so two equal increments count twice (git itself runs no merge driver
//     for a file both sides changed to the very same bytes: there `git pull`
//     counts once, curator sync twice).
//   - A decision record (a mapping with "at" and "run", such as a memory's
//     trashed) that two runs wrote with the same decision keeps the earlier.
//   - memory/state.json and pipeline state files created on both sides are
//     merged field by field from an empty object; last_run (a run id, which
//     starts with its time) is the later, like the watermark.
//   - A file added on both sides: identical is one file; different keeps
//     ours and reports a Conflict with Key "" (the caller renumbers ids).
//   - A file deleted on one side (nil) and unchanged on the other is deleted
//     (Result.Data nil); deleted on one side and changed on the other keeps
//     the changed side and reports a Conflict with Key "". A deleted side is
//     nil, never an empty file: an empty version of a record is refused.
//   - Pipeline state: phases are matched by phase_number, steps by
//     step_number, artifacts and accumulated_context.artifacts_created by
//     path (an entry's timestamp is the later; an older state's plain path
//     strings match by value); blockers and the other accumulated lists
//     (key_decisions, files_modified, deviations) are unions, ours' order
//     first; updated_at is the later. Other JSON fields
//     follow the one-side rule; conflicting values keep ours, are reported,
//     and theirs is kept in the top-level object merge_conflicts (field path
//     such as "phases[1].status" → theirs' value).
//     Output is indented with two spaces like curator writes it.
//   - Tree merges a whole store: records are paired by id across folders,
//     colliding new ids of the unpublished side (theirs unless the caller
//     says theirs is published) are renumbered with their references, and
//     a record moved two ways ends in one folder (see Tree for the rules).
//   - Any other file is merged as text, like a body.
//   - A file whose ours version uses CRLF line ends keeps CRLF. A change of
//     line ends alone is no change: base and theirs are compared in ours'
//     line ends (theirs' when ours deleted the file).
//   - A side that does not parse is an error naming the side and the line;
//     nothing is guessed. So is a frontmatter that sets one key twice (at
//     any depth), and a version of a record file (memory, bullet,
//     reflection) that is not a record: empty, a markdown file without
//     frontmatter, or one lacking a required key (id; a memory's type and
//     ingestion_time) or the body that every other version has. Each is a
//     *SideError; merging it would leave a husk of the record.
//   - Versions of a record file that hold two different ids, or (memories
//     and bullets) an id other than the file name's, are two records that
//     git's rename detection paired by content: an *IdentityError naming
//     both, never a merge. Tree pairs versions by the file name's id, so
//     two records are never paired there.
package merge
