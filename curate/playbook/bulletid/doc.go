// Package bulletid is the playbook's policy of bullet ids: their form
// (PREFIX-NNN, PREFIX-NNN-vN), and which id a new bullet or a new version
// gets so that none is ever handed out twice, across the store's files,
// its merge log and every git branch.
//
// A bullet id is <PREFIX>-<NNN> (the prefix comes from the category through
// config.yaml id_prefixes; NNN is at least three digits), and a merged
// version of it is <PREFIX>-<NNN>-v<N>. The next id of a prefix is
// 1 + the highest number that the prefix has EVER had, where "ever" is the
// union of:
//
//  1. the ids of every bullet file, active (context/bullets) and archived
//     (context/archive), their parent_bullet_id and merged_from lists;
//  2. every id named in the merge log (context/log/**.jsonl: bullet_id,
//     target_bullet_id, merged_from_bullet_ids), which is append-only, one
//     file per run, and so survives the deletion of a bullet file and merges
//     of branches without conflicts;
//  3. the names of the bullet files (active and archived) at the tip of every
//     local branch and remote-tracking branch of the git repository, so that
//     an id used on another branch that this one has not merged yet is not
//     handed out here.
//
// A number once seen is never handed out again, even after its bullet was
// merged, archived or deleted. Versions work the same way: the next version
// of a base id is 1 + the highest version ever seen for that base. Two
// machines that allocate at the same moment without sharing a branch can
// still both pick the same next number; `curator sync` (or a plain git
// merge) then meets an add/add conflict on that file, never a silent reuse.
package bulletid
