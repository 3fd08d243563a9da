package config

// The curations the moments of the development loop can run
// (pipelines.hooks.<pipeline type>.<event>); package pipeline/hooks says
// what each one does and which transition is which moment.
var Curations = []string{"curate", "review", "maintenance", "dedup", "none"}

// pipelineHooksSchema is config.yaml's `pipelines.hooks`: per pipeline
// type, the curation each moment of the development loop runs.
var pipelineHooksSchema = section{anyKey: section{
	"step_done": curationSetting, "approval": curationSetting,
	"phase_completed": curationSetting, "pipeline_completed": curationSetting,
}}

var curationSetting = settingOneOf(Curations...)
