package mdstore

// pipelineRelevantSchema is config.yaml's `pipelines.relevant_context`:
// the playbook bullets and confirmed memories a transition's brief gets
// (package pipeline/hooks reads it).
var pipelineRelevantSchema = section{
	"enabled": boolSetting, "bullets": atLeast(0), "memories": atLeast(0),
	"categories": listOf(textSetting), "memory_types": listOf(settingOneOf(MemoryTypes...)),
}
