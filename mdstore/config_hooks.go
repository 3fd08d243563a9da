package mdstore

// pipelineHooksSchema is config.yaml's `pipelines.hooks`: per pipeline
// type, the curation each moment of the development loop runs (package
// pipeline/hooks reads it).
var pipelineHooksSchema = section{anyKey: section{
	"step_done": curationSetting, "approval": curationSetting,
	"phase_completed": curationSetting, "pipeline_completed": curationSetting,
}}

var curationSetting = settingOneOf("curate", "review", "maintenance", "dedup", "none")
